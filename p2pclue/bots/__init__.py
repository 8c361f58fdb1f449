"""Bots: players that choose legal actions from what one seat may know.

The interface is small so that the trusted simulator (``table``) and the
protocol engine can drive the same bots:

- ``observe(event)`` feeds the bot what its seat learns, as the events below;
  a bot never sees other hands or the envelope.
- ``decide(state)`` is called whenever ``state.awaiting_seat`` is the bot's
  seat and returns an ``Action`` or ``RollIntent`` (the bot wants to roll; the
  dice come from outside: the dealer here, the shared randomness in protocol).
  ``state`` is the public game state (``state.hands`` is None in the protocol).

Events, in the order a seat receives them:
- ``HandDealt``: the seat's own cards, once, before the first turn.
- ``LeftoversShown``: the DEAL-EQUAL leftovers everybody sees (R7), once.
- ``SuggestionAnswered``: public, after every suggestion: who passed, who showed.
- ``CardShown``: private to the suggester: the card shown and by whom (R21).
- ``AccusationMade``: public, after every verdict (R26, R27).
- ``HandOpened``: public, when a player leaves the table: its hand, laid face up. It
  answers no suggestion (a card shown for one must be one of the three named).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from p2pclue.rules.actions import Action
from p2pclue.rules.state import GameState


@dataclass(frozen=True, slots=True)
class HandDealt:
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LeftoversShown:
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SuggestionAnswered:
    suggester: int
    suspect: int
    weapon: int
    room: int
    passed: tuple[int, ...]
    shower: int | None


@dataclass(frozen=True, slots=True)
class CardShown:
    suggester: int
    shower: int
    card: int


@dataclass(frozen=True, slots=True)
class AccusationMade:
    seat: int
    suspect: int
    weapon: int
    room: int
    correct: bool


@dataclass(frozen=True, slots=True)
class HandOpened:
    seat: int
    cards: tuple[int, ...]


Observation = (HandDealt | LeftoversShown | SuggestionAnswered | CardShown | AccusationMade
               | HandOpened)


@dataclass(frozen=True, slots=True)
class RollIntent:
    """The bot starts its turn by rolling; whoever drives it supplies the dice."""

    seat: int


Decision = Action | RollIntent


class Bot(Protocol):
    seat: int

    def observe(self, event: Observation) -> None: ...

    def decide(self, state: GameState) -> Decision: ...


@runtime_checkable
class ThinksAhead(Protocol):
    """A bot with work worth doing before it is asked (see ``DetectiveBot.think_ahead``):
    ``think_ahead(state)`` returns it or None; the work may run on another thread while the
    bot observes, and returns what to run where the bot observes and decides (which takes
    the result), before its next decision."""

    def think_ahead(self, state: GameState) -> Callable[[], Callable[[], None]] | None: ...
