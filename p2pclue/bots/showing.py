"""Which card to show, worked out before the question comes.

Choosing among two or three named cards means deducing what the suggester knows (its
view, ``deduce.view_of``): milliseconds to tens of them. Done only when two cards are
held, the time an answer takes would tell anyone timing it how many named cards the
refuter holds (measured on the previous design: 0.004 ms with one card against 8.6 ms
median with two). So the choice is made ahead, for every set of named cards the hand
could meet, from the knowledge of one moment (``ShowPlan``): answering is then one
lookup whatever is held, and a plan that is missing or out of date is made in full
before answering, whatever is held.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from p2pclue.deduce import ENVELOPE, Mark, Notepad, least_revealing, view_of
from p2pclue.rules.state import GameState, Phase

REFUTE_SPREAD = True
"""Refute from the category the suggester has most left open (else ``least_revealing``)."""
ROOM_OPEN_WEIGHT = 1.6
"""How much an open room counts against an open suspect or weapon when choosing what to
show: a naive rival's room is chosen by where its die takes it, so one room fewer slows it
less (measured: 0.6 loses about 1 % of games against random bots, 1.6 is level with 1.0)."""


def widest_open(notepad: Notepad, held: list[int], suggester: int,
                view: Notepad | None = None) -> int:
    """Which of my ``held`` cards to show: one the suggester already knows I hold, else
    one from the category it has the most cards left open in (its odds shrink least).
    ``view``: ``view_of(notepad, suggester)`` if the caller already built it."""
    if view is None:
        view = view_of(notepad, suggester)
    if view.contradiction is not None:  # pragma: no cover - a subset of consistent facts
        return least_revealing(notepad, held, suggester)
    known = [c for c in held if view.cell(c, notepad.me) is Mark.YES]
    if known:
        return min(known)
    deck = notepad.table.deck

    def open_in(card: int) -> float:
        cat = next(cat for cat in deck if card in cat)
        n = sum(1 for c in cat if view.cell(c, ENVELOPE) is not Mark.NO
                and notepad.cell(c, suggester) is not Mark.YES)
        return n * ROOM_OPEN_WEIGHT if cat is deck[2] else float(n)

    widest = max(open_in(c) for c in held)
    widest_held = [c for c in held if open_in(c) == widest]
    if len(widest_held) == 1:
        return widest_held[0]
    return least_revealing(notepad, widest_held, suggester, view)


def named_sets(hand: Sequence[int], deck: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """Every set of my cards one suggestion can name (at most one card per category),
    each in ascending order (the order of suspect, weapon, room)."""
    found: list[tuple[int, ...]] = []
    for size in range(1, len(deck) + 1):
        for cards in combinations(sorted(hand), size):
            cats = {next(i for i, cat in enumerate(deck) if c in cat) for c in cards}
            if len(cats) == size:
                found.append(cards)
    return found


@dataclass(frozen=True, slots=True)
class ShowPlan:
    """Which card to show ``suggester`` for each set of named cards held, decided from
    everything learned up to observation ``learned`` (``notepad``)."""

    suggester: int
    learned: int
    notepad: Notepad
    choices: Mapping[frozenset[int], int]
    at_random: bool
    """A style without a model of the others picks any held card (from the bot's own
    random draws, which must stay in step: only when there is a choice)."""

    def choose(self, held: Sequence[int], rng: random.Random) -> int:
        """The card to show when ``held`` (in suspect, weapon, room order) are named."""
        if self.at_random and len(held) > 1:
            return rng.choice(list(held))
        return self.choices[frozenset(held)]


def plan_show(notepad: Notepad, hand: Sequence[int], suggester: int, learned: int,
              model: bool) -> ShowPlan:
    """The plan for answering ``suggester``: the same work whatever it will name."""
    sets = named_sets(hand, notepad.table.deck)
    sane = notepad.contradiction is None
    if not (sane and model):
        choices = {frozenset(cards): cards[0] for cards in sets}
        return ShowPlan(suggester, learned, notepad, choices, at_random=sane)
    view = view_of(notepad, suggester)
    choices = {}
    for cards in sets:
        held = list(cards)
        if len(held) == 1:
            choices[frozenset(cards)] = held[0]
        elif REFUTE_SPREAD:
            choices[frozenset(cards)] = widest_open(notepad, held, suggester, view)
        else:
            choices[frozenset(cards)] = least_revealing(notepad, held, suggester, view)
    return ShowPlan(suggester, learned, notepad, choices, at_random=False)


def next_suggester(state: GameState, me: int) -> int | None:
    """Whose suggestion ``me`` may have to answer next, from the public state: the player
    whose turn it is until it has suggested, then the next one to play. None when ``me``
    plays first (its own suggestion will teach it more before it answers anyone), while an
    accusation is decided (a verdict teaches too) and when the game is over."""
    if state.phase is Phase.AWAIT_REFUTATION:
        assert state.pending_suggestion is not None
        seat = state.pending_suggestion.suggester
    elif state.phase in (Phase.AWAIT_ACCUSATION_RESULT, Phase.GAME_OVER):
        return None
    elif state.suggested or state.current_seat in state.eliminated:
        active = state.active_seats()
        later = [s for s in active if s > state.current_seat] or list(active)
        if not later:
            return None
        seat = later[0]
    else:
        seat = state.current_seat
    return None if seat == me else seat
