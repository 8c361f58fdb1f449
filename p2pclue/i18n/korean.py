"""Korean particles, chosen by the sound that ends the word before them.

Korean marks a noun's role with a particle whose shape depends on whether the
noun's last syllable ends in a consonant (받침): 미스 스칼렛**을** but 촛대**를**,
부엌**으로** but 서재**로** (and 홀**로**, since a final ㄹ takes 로 too). Card names
are known, so their particles are computed here once, not guessed in messages.
A message asks for a card with a particle by naming the particle's
after-a-consonant shape: ``{suspect:을}``, ``{room:으로}``, ``{weapon:으로}``.
"""

from __future__ import annotations

_FIRST, _LAST = 0xAC00, 0xD7A3
_RIEUL = 8
"""The index of ㄹ among the final consonants of a Hangul syllable."""

PAIRS = {"이": "가", "을": "를", "은": "는", "과": "와", "으로": "로", "이나": "나"}
"""After-a-consonant shape -> after-a-vowel shape."""
FIXED = ("에", "에서", "의", "도", "에게", "만")
"""Particles with one shape whatever comes before."""


def final_consonant(word: str) -> int:
    """0 if ``word`` ends in a vowel (or not in Hangul), else the index of its final consonant."""
    last = word.rstrip()[-1:] or " "
    code = ord(last)
    if not _FIRST <= code <= _LAST:
        return 0
    return (code - _FIRST) % 28


def with_particle(word: str, particle: str) -> str:
    """``word`` followed by ``particle`` in the shape its last sound asks for."""
    if particle in FIXED:
        return word + particle
    final = final_consonant(word)
    if particle == "으로":
        return word + ("으로" if final not in (0, _RIEUL) else "로")
    return word + (particle if final else PAIRS[particle])


def korean_forms(word: str) -> dict[str, str]:
    """Every particle form of a card name, keyed by the particle's after-a-consonant shape."""
    return {p: with_particle(word, p) for p in (*PAIRS, *FIXED)}
