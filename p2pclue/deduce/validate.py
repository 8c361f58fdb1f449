"""Shape checks on facts before they reach the notepad.

A fact that cannot describe this game (a card not in the deck, a seat that
does not exist, a triple that is not suspect-weapon-room) is API misuse and
gets a ``NotepadUsageError`` naming the problem. A well-formed fact that
contradicts the others is not an error here: the notepad reports it as a
contradiction.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pclue.deduce.facts import (
    EnvelopeOpened,
    Fact,
    HandLaidDown,
    Lacks,
    Leftovers,
    OwnHand,
    Passed,
    Refuted,
    ShownByMe,
    ShownToMe,
    Triple,
    WrongAccusation,
)
from p2pclue.deduce.table import NotepadUsageError, Table


def _card(table: Table, card: object) -> None:
    if not isinstance(card, int) or isinstance(card, bool) or card not in table.cards:
        raise NotepadUsageError(f"{card!r} is not a card of this game")


def _triple(table: Table, triple: object) -> None:
    if not isinstance(triple, tuple) or len(triple) != len(table.deck):
        raise NotepadUsageError(f"{triple!r} is not a (suspect, weapon, room) triple")
    for k, c in enumerate(triple):
        _card(table, c)
        if c not in table.deck[k]:
            raise NotepadUsageError(f"{triple!r}: card {c} is in the wrong position")


def _cards(table: Table, cards: object, size: int, what: str) -> None:
    if not isinstance(cards, tuple):
        raise NotepadUsageError(f"{what} must be a tuple of cards")
    for c in cards:
        _card(table, c)
    if len(set(cards)) != len(cards):
        raise NotepadUsageError(f"{what} names a card twice")
    if len(cards) != size:
        raise NotepadUsageError(f"{what} has {len(cards)} cards, expected {size}")


def _shown(table: Table, card: int, triple: Triple | None) -> None:
    _card(table, card)
    if triple is not None:
        _triple(table, triple)
        if card not in triple:
            raise NotepadUsageError(f"card {card} is not one of the suggested {triple}")


def check_fact(table: Table, me: int, fact: Fact) -> None:
    """Raise ``NotepadUsageError`` unless ``fact`` could be true in this game."""
    match fact:
        case OwnHand(cards):
            _cards(table, cards, table.hand_sizes[me], "your hand")
        case Leftovers(cards):
            _cards(table, cards, table.n_leftovers, "the leftovers")
        case ShownToMe(refuter, card, _, triple):
            table.check_seat(refuter, "refuter")
            if refuter == me:
                raise NotepadUsageError("you cannot show a card to yourself")
            _shown(table, card, triple)
        case ShownByMe(to, card, _, triple):
            table.check_seat(to, "suggester")
            if to == me:
                raise NotepadUsageError("you cannot show a card to yourself")
            _shown(table, card, triple)
        case Refuted(refuter, suggester, triple, _):
            table.check_seat(refuter, "refuter")
            table.check_seat(suggester, "suggester")
            if refuter == suggester:
                raise NotepadUsageError("a player cannot refute their own suggestion")
            _triple(table, triple)
        case Passed(seat, triple, _, suggester):
            table.check_seat(seat, "seat")
            if suggester is not None:
                table.check_seat(suggester, "suggester")
                if suggester == seat:
                    raise NotepadUsageError("a player does not pass on their own suggestion")
            _triple(table, triple)
        case WrongAccusation(seat, triple, _):
            table.check_seat(seat, "seat")
            _triple(table, triple)
        case HandLaidDown(seat, cards, _):
            table.check_seat(seat, "seat")
            _cards(table, cards, table.hand_sizes[seat], "a hand laid face up")
        case EnvelopeOpened(triple):
            _triple(table, triple)
        case Lacks(seat, cards, _):
            table.check_seat(seat, "seat")
            _cards(table, cards, len(cards), "an assumption")
        case _:
            raise NotepadUsageError(f"not a notepad fact: {fact!r}")


def check_facts(table: Table, me: int, facts: Sequence[Fact]) -> None:
    for fact in facts:
        check_fact(table, me, fact)
