"""Korean particles, chosen by the sound that ends the word before them.

Korean marks a noun's role with a particle whose shape depends on whether the
noun's last syllable ends in a consonant (받침): 미스 스칼렛**을** but 촛대**를**,
부엌**으로** but 서재**로** (and 홀**로**, since a final ㄹ takes 로 too). Card names
are known, so their particles are computed here once, not guessed in messages.
A message asks for a card with a particle by naming the particle's
after-a-consonant shape: ``{suspect:을}``, ``{room:으로}``, ``{weapon:으로}``.
Numbers are read aloud to choose theirs: 3**을** (삼) but 2**를** (이), 10**을** (십):
``{dice:을}`` where the value is a ``Spoken`` (``p2pclue.i18n.phrases``).
"""

from __future__ import annotations

_FIRST, _LAST = 0xAC00, 0xD7A3
_RIEUL = 8
"""The index of ㄹ among the final consonants of a Hangul syllable."""

PAIRS = {"이": "가", "을": "를", "은": "는", "과": "와", "으로": "로", "이나": "나"}
"""After-a-consonant shape -> after-a-vowel shape."""
FIXED = ("에", "에서", "의", "도", "에게", "만")
"""Particles with one shape whatever comes before."""


_DIGITS = "영일이삼사오육칠팔구"
"""How each digit is read (Sino-Korean numbers: dice, totals, counts)."""
_POWERS = ((10000, "만"), (1000, "천"), (100, "백"), (10, "십"))
"""The syllable a number ending in zeros ends with when read: 20 이십, 300 삼백."""


def number_sound(digits: str) -> str:
    """The last syllable of a number as Korean reads it: 3 삼, 2 이, 10 십, 0 영."""
    n = int(digits)
    if n == 0 or n % 10:
        return _DIGITS[n % 10]
    return next(sound for power, sound in _POWERS if n % power == 0)


def _spoken_end(word: str) -> str:
    """What the particle after ``word`` agrees with: a parenthesis is skipped (the particle
    agrees with the word before it), and digits are read as the number they write."""
    text = word.rstrip()
    if text.endswith(")") and "(" in text:
        text = text[:text.rindex("(")].rstrip()
    digits = len(text) - len(text.rstrip("0123456789"))
    if digits:
        return number_sound(text[-digits:])
    return text[-1:]


def final_consonant(word: str) -> int:
    """0 if ``word`` ends in a vowel (or not in Hangul), else the index of its final consonant.

    A word ending in digits ends as the number is read ("3" 삼 has one, "2" 이 none)."""
    last = _spoken_end(word) or " "
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


_PRONOUN = {("나", "이"): "내가", ("나", "의"): "내", ("저", "이"): "제가", ("저", "의"): "제"}
"""The first person's own forms: I (나) as a subject is 내가, "my" is 내."""


def pronoun_with(word: str, particle: str) -> str:
    """A word that is not a name (나, 아무도) with its particle: the first person's own
    forms, else the particle by the word's sound; no particle: the word."""
    if not particle:
        return word
    return _PRONOUN.get((word, particle)) or with_particle(word, particle)


def korean_forms(word: str) -> dict[str, str]:
    """Every particle form of a card name, keyed by the particle's after-a-consonant shape."""
    return {p: with_particle(word, p) for p in (*PAIRS, *FIXED)}
