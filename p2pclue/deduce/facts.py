"""What one player can observe, as small frozen records the notepad reasons from.

Each fact carries the turn it happened on (when there is one) so that an
explanation can point at the real event: "Plum passed on turn 4 (...)".
Cards are stable card indices (``p2pclue.rules.cards``); seats are 0-based.
A triple is always (suspect, weapon, room).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2pclue.rules.cards import CARDS

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
        | Lacks)


def card_name(index: int) -> str:
    return CARDS[index].name if 0 <= index < len(CARDS) else f"card {index}"


def _when(turn: int | None) -> str:
    return f" on turn {turn}" if turn is not None else ""


def _triple(triple: Triple) -> str:
    return "(" + ", ".join(card_name(c) for c in triple) + ")"


def _list(cards: Sequence[int]) -> str:
    return ", ".join(card_name(c) for c in sorted(cards))


def describe(fact: Fact, names: Sequence[str], me: int) -> str:
    """One sentence naming the real event, for explanations."""

    def who(seat: int) -> str:
        return "you" if seat == me else names[seat]

    match fact:
        case OwnHand(cards):
            return f"your hand is {_list(cards)}"
        case Leftovers(cards):
            return f"the leftover cards shown to all are {_list(cards)}"
        case ShownToMe(refuter, card, turn, triple):
            about = f" in answer to {_triple(triple)}" if triple is not None else ""
            return f"{who(refuter)} showed you {card_name(card)}{_when(turn)}{about}"
        case Refuted(refuter, suggester, triple, turn):
            return f"{who(refuter)} refuted {who(suggester)}{_when(turn)} {_triple(triple)}"
        case Passed(seat, triple, turn, _):
            return f"{who(seat)} passed{_when(turn)} {_triple(triple)}"
        case WrongAccusation(seat, triple, turn):
            return f"{who(seat)} accused wrongly{_when(turn)} {_triple(triple)}"
        case ShownByMe(to, card, turn, _):
            return f"you showed {card_name(card)} to {who(to)}{_when(turn)}"
        case Lacks(seat, cards, turn):
            return f"assumed{_when(turn)}: {who(seat)} holds none of {_list(cards)}"
