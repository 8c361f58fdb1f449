"""The 21 cards (R1-R4) with stable ids.

A card's ``index`` (0-20) and ``slug`` never change: they are part of the wire
protocol (the crypto layer hashes ``slug`` to a group element) and of saved
transcripts. Display names are for people and may be localised later.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Category(enum.Enum):
    SUSPECT = "suspect"
    WEAPON = "weapon"
    ROOM = "room"


@dataclass(frozen=True, slots=True)
class Card:
    index: int
    slug: str
    name: str
    category: Category
    aliases: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.name


class CardNameError(ValueError):
    """A card name typed by a person (or read from a file) names no card, or several."""


_S, _W, _R = Category.SUSPECT, Category.WEAPON, Category.ROOM

CARDS: tuple[Card, ...] = (
    Card(0, "scarlett", "Miss Scarlett", _S, ("Scarlett", "Scarlet", "Miss Scarlet")),
    Card(1, "mustard", "Colonel Mustard", _S, ("Mustard", "Col Mustard")),
    Card(2, "white", "Mrs White", _S, ("White", "Mrs. White")),
    Card(3, "green", "Reverend Green", _S, ("Mr Green", "Mr. Green", "Rev Green", "Green")),
    Card(4, "peacock", "Mrs Peacock", _S, ("Peacock", "Mrs. Peacock")),
    Card(5, "plum", "Professor Plum", _S, ("Plum", "Prof Plum", "Prof. Plum")),
    Card(6, "candlestick", "Candlestick", _W, ()),
    Card(7, "dagger", "Dagger", _W, ("Knife",)),
    Card(8, "lead_pipe", "Lead Pipe", _W, ("Pipe", "Lead Piping")),
    Card(9, "revolver", "Revolver", _W, ("Pistol",)),
    Card(10, "rope", "Rope", _W, ()),
    Card(11, "wrench", "Wrench", _W, ("Spanner",)),
    Card(12, "kitchen", "Kitchen", _R, ()),
    Card(13, "ballroom", "Ballroom", _R, ("Ball Room",)),
    Card(14, "conservatory", "Conservatory", _R, ()),
    Card(15, "dining_room", "Dining Room", _R, ("Dining",)),
    Card(16, "billiard_room", "Billiard Room", _R, ("Billiard",)),
    Card(17, "library", "Library", _R, ()),
    Card(18, "lounge", "Lounge", _R, ()),
    Card(19, "hall", "Hall", _R, ()),
    Card(20, "study", "Study", _R, ()),
)

SUSPECTS: tuple[Card, ...] = tuple(c for c in CARDS if c.category is _S)
WEAPONS: tuple[Card, ...] = tuple(c for c in CARDS if c.category is _W)
ROOMS: tuple[Card, ...] = tuple(c for c in CARDS if c.category is _R)
BY_SLUG: dict[str, Card] = {c.slug: c for c in CARDS}


def card(index: int) -> Card:
    """The card with this stable index; ``CardNameError`` if there is none."""
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(CARDS):
        raise CardNameError(f"no card has index {index!r} (0-{len(CARDS) - 1})")
    return CARDS[index]


def _fold(text: str) -> str:
    return " ".join(text.replace(".", " ").replace("_", " ").replace("-", " ").lower().split())


_NAMES: dict[str, Card] = {}
for _c in CARDS:
    for _n in (_c.slug, _c.name, *_c.aliases):
        _NAMES[_fold(_n)] = _c


def find_card(text: str, category: Category | None = None) -> Card:
    """Resolve what a person typed: a name, an alias, or an unambiguous prefix.

    Case and punctuation are ignored. ``category`` narrows the search (so that
    ``"w"`` can mean Mrs White among suspects and Wrench among weapons).
    """
    key = _fold(text)
    if not key:
        raise CardNameError("empty card name")
    pool = {n: c for n, c in _NAMES.items() if category is None or c.category is category}
    if key in pool:
        return pool[key]
    hits = {c for n, c in pool.items() if n.startswith(key) or any(
        w.startswith(key) for w in n.split())}
    if len(hits) == 1:
        return hits.pop()
    if not hits:
        raise CardNameError(f"no card is called {text!r}")
    names = ", ".join(sorted(c.name for c in hits))
    raise CardNameError(f"{text!r} could be any of: {names}")
