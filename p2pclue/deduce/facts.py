"""What one player can observe, as small frozen records the notepad reasons from.

Each fact carries the turn it happened on (when there is one) so that an
explanation can point at the real event: "Plum passed on turn 4 (...)".
Cards are stable card indices (``p2pclue.rules.cards``); seats are 0-based.
A triple is always (suspect, weapon, room).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2pclue.deduce.words import N_, CardsV, CardV, Said, SeatV, Value, said

Triple = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class OwnHand:
    """The cards dealt to the notepad's owner."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Leftovers:
    """The cards left over after an equal deal, shown face up to everyone (R7 DEAL-EQUAL)."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ShownToMe:
    """``refuter`` showed me ``card`` (in answer to my suggestion ``triple``, when known)."""

    refuter: int
    card: int
    turn: int | None = None
    triple: Triple | None = None


@dataclass(frozen=True, slots=True)
class Refuted:
    """``refuter`` showed ``suggester`` one card of ``triple``; I did not see which."""

    refuter: int
    suggester: int
    triple: Triple
    turn: int | None = None


@dataclass(frozen=True, slots=True)
class Passed:
    """``seat`` could not refute ``triple``: it holds none of the three cards."""

    seat: int
    triple: Triple
    turn: int | None = None
    suggester: int | None = None


@dataclass(frozen=True, slots=True)
class WrongAccusation:
    """``seat`` accused ``triple`` and was wrong: not all three are in the envelope."""

    seat: int
    triple: Triple
    turn: int | None = None


@dataclass(frozen=True, slots=True)
class ShownByMe:
    """I showed ``card`` to ``to`` (tracked so that I know what others know of my hand)."""

    to: int
    card: int
    turn: int | None = None
    triple: Triple | None = None


@dataclass(frozen=True, slots=True)
class HandLaidDown:
    """``seat`` left the table and laid its whole hand face up: ``cards``, seen by everyone.

    Not a card shown for a suggestion (it answers none), and unlike ``ShownToMe`` every
    player learns it, so what the others know of a hand (``exposure``) counts it too."""

    seat: int
    cards: tuple[int, ...]
    turn: int | None = None


@dataclass(frozen=True, slots=True)
class EnvelopeOpened:
    """The envelope held ``triple``, seen by everyone: a right accusation, or the reveal
    at the end of the game."""

    triple: Triple


@dataclass(frozen=True, slots=True)
class Lacks:
    """An assumption, not an observation: ``seat`` holds none of ``cards``.

    Only what-if notepads use it (a bot's model of how others play, such as "a
    random bot never names a card it holds"); a notepad that decides an
    accusation must never be given one, since nothing guarantees it.
    """

    seat: int
    cards: tuple[int, ...]
    turn: int | None = None


Fact = (OwnHand | Leftovers | ShownToMe | Refuted | Passed | WrongAccusation | ShownByMe
        | HandLaidDown | EnvelopeOpened | Lacks)


def _turned(turn: int | None, with_turn: str, without: str, /, **values: Value) -> Said:
    """The sentence with "on turn N" where the turn is known, the other one where not."""
    if turn is None:
        return said(without, **values)
    return said(with_turn, turn=turn, **values)


def describe(fact: Fact, names: Sequence[str], me: int) -> Said:
    """One sentence naming the real event, for explanations."""

    def who(seat: int) -> SeatV:
        return SeatV(names[seat], seat == me)

    match fact:
        case OwnHand(cards):
            return said(N_("your hand is {cards}"), cards=CardsV(tuple(sorted(cards))))
        case Leftovers(cards):
            return said(N_("the leftover cards shown to all are {cards}"),
                        cards=CardsV(tuple(sorted(cards))))
        case ShownToMe(refuter, card, turn, None):
            return _turned(turn, N_("{player} showed you {card} on turn {turn}"),
                           N_("{player} showed you {card}"), player=who(refuter), card=CardV(card))
        case ShownToMe(refuter, card, turn, triple) if triple is not None:
            return _turned(turn, N_("{player} showed you {card} on turn {turn} in answer to "
                                    "({cards})"),
                           N_("{player} showed you {card} in answer to ({cards})"),
                           player=who(refuter), card=CardV(card), cards=CardsV(triple))
        case Refuted(refuter, suggester, triple, turn) if refuter == me:
            return _turned(turn, N_("you refuted {player} on turn {turn} ({cards})"),
                           N_("you refuted {player} ({cards})"), player=who(suggester),
                           cards=CardsV(triple))
        case Refuted(refuter, suggester, triple, turn) if suggester == me:
            return _turned(turn, N_("{player} refuted you on turn {turn} ({cards})"),
                           N_("{player} refuted you ({cards})"), player=who(refuter),
                           cards=CardsV(triple))
        case Refuted(refuter, suggester, triple, turn):
            return _turned(turn, N_("{player} refuted {other} on turn {turn} ({cards})"),
                           N_("{player} refuted {other} ({cards})"), player=who(refuter),
                           other=who(suggester), cards=CardsV(triple))
        case Passed(seat, triple, turn, _):
            return _turned(turn, N_("{player} passed on turn {turn} ({cards})"),
                           N_("{player} passed ({cards})"), player=who(seat),
                           cards=CardsV(triple))
        case WrongAccusation(seat, triple, turn) if seat == me:
            return _turned(turn, N_("you accused wrongly on turn {turn} ({cards})"),
                           N_("you accused wrongly ({cards})"), cards=CardsV(triple))
        case WrongAccusation(seat, triple, turn):
            return _turned(turn, N_("{player} accused wrongly on turn {turn} ({cards})"),
                           N_("{player} accused wrongly ({cards})"), player=who(seat),
                           cards=CardsV(triple))
        case ShownByMe(to, card, turn, _):
            return _turned(turn, N_("you showed {card} to {player} on turn {turn}"),
                           N_("you showed {card} to {player}"), card=CardV(card), player=who(to))
        case HandLaidDown(seat, cards, turn) if seat == me:
            return _turned(turn, N_("you left the table on turn {turn} and laid your cards face "
                                    "up: {cards}"),
                           N_("you left the table and laid your cards face up: {cards}"),
                           cards=CardsV(tuple(sorted(cards))))
        case HandLaidDown(seat, cards, turn):
            return _turned(turn, N_("{player} left the table on turn {turn} and laid their cards "
                                    "face up: {cards}"),
                           N_("{player} left the table and laid their cards face up: {cards}"),
                           player=who(seat), cards=CardsV(tuple(sorted(cards))))
        case EnvelopeOpened(triple):
            return said(N_("the envelope was opened: it held {cards}"), cards=CardsV(triple))
        case Lacks(seat, cards, turn):
            return _turned(turn, N_("assumed on turn {turn}: {player} holds none of {cards}"),
                           N_("assumed: {player} holds none of {cards}"), player=who(seat),
                           cards=CardsV(tuple(sorted(cards))))
    raise TypeError(f"not a fact: {fact!r}")  # pragma: no cover - the match is exhaustive
