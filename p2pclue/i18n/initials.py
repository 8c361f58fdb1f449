"""Two-column codes for the board's tokens and weapons, from each language's card names.

A corridor square is two terminal columns wide, so a token shows as two letters ("Sc")
or one wide syllable (스). The code comes from the card's name in the reader's language:
a suspect's surname (the word of the name the card also answers to alone: "Leblanc" in
"Madame Leblanc", 스칼렛 in "미스 스칼렛"), a weapon's first word ("Corde", 밧줄), so a
French board shows "Le" for Madame Leblanc, not the English "Wh". Codes never repeat on
one board: where two cards would share one, the later takes its next letter.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from p2pclue.i18n.cards import local_names
from p2pclue.i18n.width import text_width
from p2pclue.rules.cards import SUSPECTS, WEAPONS

_SUSPECTS = frozenset(c.index for c in SUSPECTS)
SHORT_CELLS = 8
"""The widest a card's short name may be (a notepad for six players at 80 columns)."""


def _key_word(index: int, lang: str) -> str:
    """The word a card is known by: the surname for people, the first word for things."""
    entry = local_names(lang)[index]
    words = entry.name.split()
    alone = [w for w in words if w in entry.aliases]
    return alone[0] if alone else (words[-1] if index in _SUSPECTS else words[0])


def _candidates(word: str) -> Iterator[str]:
    """Codes of width 2 for ``word``, best first: "Sc", then "Sa", "Sr"...; 스, then 칼."""
    letters = [c for c in word if c.isalnum()]
    if not letters:
        return
    if text_width(letters[0]) == 2:
        yield from (c for c in letters if text_width(c) == 2)
        return
    first = letters[0].upper()
    yield from (first + c.lower() for c in letters[1:] if text_width(c) == 1)
    yield from (first + str(n) for n in range(1, 10))


def _codes(indices: tuple[int, ...], lang: str) -> dict[int, str]:
    taken: dict[int, str] = {}
    for index in indices:
        taken[index] = next(c for c in _candidates(_key_word(index, lang))
                            if c not in taken.values())
    return taken


@cache
def token_codes(lang: str) -> tuple[str, ...]:
    """The six suspects' codes in ``lang``, by suspect index."""
    codes = _codes(tuple(c.index for c in SUSPECTS), lang)
    return tuple(codes[c.index] for c in SUSPECTS)


@cache
def weapon_codes(lang: str) -> dict[int, str]:
    """The six weapons' codes in ``lang``, by card index."""
    return _codes(tuple(c.index for c in WEAPONS), lang)


def short_name(index: int, lang: str, width: int = SHORT_CELLS) -> str:
    """The card's name in ``width`` cells, for a notepad: its name if it fits, else a
    suspect's surname or a thing's board label, else its ``short`` form (``cards.toml``),
    each as the language writes it: never a name cut in the middle."""
    entry = local_names(lang)[index]
    candidates = [entry.name, _key_word(index, lang) if index in _SUSPECTS else entry.board,
                  entry.short]
    fits = [c for c in candidates if c and text_width(c) <= width]
    if fits:
        return fits[0]
    return min((c for c in candidates if c), key=text_width)
