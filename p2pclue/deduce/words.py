"""What the notepad says to people, kept translatable.

The deduction layer may not import ``p2pclue.i18n`` (imports flow one way), yet its
explanations ("Rope is not in Plum's hand: Plum passed on turn 4 (...)") reach the
screen. So it says them as ``Said``: an English template, marked with ``N_`` for the
catalogs, and typed values (cards, seats, places, nested sentences). ``str(said)`` is
the English sentence; a front end renders the same record in its language
(``p2pclue.tui.reasons``), choosing each card's and place's form there.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pclue.rules.cards import CARDS


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs; the front end translates it when shown."""
    return message


def card_name(index: int) -> str:
    return CARDS[index].name if 0 <= index < len(CARDS) else f"card {index}"


@dataclass(frozen=True, slots=True)
class CardV:
    """One card, for a ``{card}`` field."""

    index: int

    def __format__(self, spec: str) -> str:
        return card_name(self.index)


@dataclass(frozen=True, slots=True)
class CardsV:
    """Several cards, for a ``{cards}`` field: "Professor Plum, Rope, Hall"."""

    indices: tuple[int, ...]

    def __format__(self, spec: str) -> str:
        return ", ".join(card_name(c) for c in self.indices)


@dataclass(frozen=True, slots=True)
class SeatV:
    """A player: their name, or "you" for the notepad's owner."""

    name: str
    me: bool

    def __format__(self, spec: str) -> str:
        return "you" if self.me else self.name


@dataclass(frozen=True, slots=True)
class ShareV:
    """A share of the consistent deals (0.42), for an ``{odds}`` field: each language
    writes the percentage its own way ("42%", "42 %")."""

    fraction: float

    def __format__(self, spec: str) -> str:
        return f"{self.fraction:.0%}"


ENVELOPE_KIND, LEFTOVERS_KIND, MINE_KIND, THEIRS_KIND = "envelope", "leftovers", "mine", "theirs"
CATEGORY_WORDS = ("suspect", "weapon", "room")


@dataclass(frozen=True, slots=True)
class PlaceV:
    """Where a card can lie: the envelope (or one of its three slots), the leftovers, a hand.

    ``{place}`` names it as the subject of a sentence ("Ann's hand holds..."),
    ``{place:in}`` as where a card is ("in Ann's hand").
    """

    kind: str
    name: str = ""
    category: int | None = None
    """For the envelope's slots: 0 suspect, 1 weapon, 2 room."""

    def __format__(self, spec: str) -> str:
        where = {ENVELOPE_KIND: "the envelope", LEFTOVERS_KIND: "the leftovers",
                 MINE_KIND: "your hand", THEIRS_KIND: f"{self.name}'s hand"}[self.kind]
        if spec == "in":
            return f"in {where}"
        if self.category is not None:
            return f"the envelope's {CATEGORY_WORDS[self.category]}"
        return where


@dataclass(frozen=True, slots=True)
class Said:
    """A sentence: ``template`` (``plural`` too when ``n`` picks between them) and its values."""

    template: str
    values: tuple[tuple[str, object], ...] = ()
    plural: str | None = None
    n: int = 0

    def __str__(self) -> str:
        text = self.template if self.plural is None or self.n == 1 else self.plural
        return text.format(**dict(self.values))

    def __format__(self, spec: str) -> str:
        return str(self)


Value = CardV | CardsV | SeatV | PlaceV | ShareV | int | str | Said
"""What a sentence's field may hold."""


def said(template: str, /, **values: Value) -> Said:
    return Said(template, tuple(sorted(values.items())))


def counted(singular: str, plural: str, n: int, /, **values: Value) -> Said:
    """A sentence whose words follow the number ``n`` (ngettext in the front end)."""
    return Said(singular, tuple(sorted(values.items())), plural, n)
