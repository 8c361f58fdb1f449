"""A simple legal bot: heads for rooms, suggests unseen cards, accuses when only
one card of each group is left unseen (or after its patience runs out).

All its randomness comes from the ``random.Random`` it is given.
"""

from __future__ import annotations

import random

from p2pclue.bots import (
    AccusationMade,
    CardShown,
    Decision,
    HandDealt,
    HandOpened,
    LeftoversShown,
    Observation,
    RollIntent,
    SuggestionAnswered,
)
from p2pclue.rules.actions import Accuse, CannotRefute, EndTurn, Move, Refute, Suggest, TakePassage
from p2pclue.rules.board import Square, classic_board
from p2pclue.rules.cards import ROOMS, SUSPECTS, WEAPONS, Card
from p2pclue.rules.game import (
    can_accuse,
    can_suggest,
    can_summoned_suggest,
    can_take_passage,
    legal_destinations,
    may_stay,
)
from p2pclue.rules.state import GameState, Phase


class RandomBot:
    def __init__(self, seat: int, rng: random.Random, *, patience: int = 150) -> None:
        self.seat = seat
        self.rng = rng
        self.patience = patience
        """Turn number from which the bot accuses whatever it has (so games end)."""
        self.hand: tuple[int, ...] = ()
        self.seen: set[int] = set()
        self.solved: set[int] = set()
        """Cards known to be in the envelope (a suggestion nobody could refute)."""

    def observe(self, event: Observation) -> None:
        if isinstance(event, HandDealt) and event.seat == self.seat:
            self.hand = event.cards
            self.seen.update(event.cards)
        elif isinstance(event, LeftoversShown):
            self.seen.update(event.cards)
        elif isinstance(event, CardShown) and event.suggester == self.seat:
            self.seen.add(event.card)
        elif isinstance(event, HandOpened):
            self.seen.update(event.cards)
        elif (
            isinstance(event, SuggestionAnswered) and event.suggester == self.seat
            and event.shower is None
        ):
            named = (event.suspect, event.weapon, event.room)
            self.solved.update(c for c in named if c not in self.seen)
        elif isinstance(event, AccusationMade):
            pass  # a wrong accusation only says one of three cards is wrong

    def decide(self, state: GameState) -> Decision:
        if state.phase is Phase.AWAIT_REFUTATION:
            return self._refute(state)
        if can_accuse(state) and self._ready(state):
            return self._accuse(state)
        if state.phase is Phase.AWAIT_TURN_START:
            if can_summoned_suggest(state) and self.rng.random() < 0.8:
                return self._suggest(state)
            if can_take_passage(state) and self.rng.random() < 0.4:
                return TakePassage(self.seat)
            return RollIntent(self.seat)
        if state.phase is Phase.AWAIT_MOVE:
            return self._move(state)
        if can_suggest(state):
            return self._suggest(state)
        return EndTurn(self.seat)

    def _unseen(self, group: tuple[Card, ...]) -> list[int]:
        solved = [c.index for c in group if c.index in self.solved]
        if solved:
            return solved[:1]
        return [c.index for c in group if c.index not in self.seen] or [c.index for c in group]

    def _ready(self, state: GameState) -> bool:
        narrowed = all(len(self._unseen(g)) == 1 for g in (SUSPECTS, WEAPONS, ROOMS))
        return narrowed or state.turn_number >= self.patience

    def _accuse(self, state: GameState) -> Accuse:
        pick = [self.rng.choice(self._unseen(g)) for g in (SUSPECTS, WEAPONS, ROOMS)]
        return Accuse(self.seat, pick[0], pick[1], pick[2])

    def _suggest(self, state: GameState) -> Suggest:
        suspect = self.rng.choice(self._unseen(SUSPECTS))
        return Suggest(self.seat, suspect, self.rng.choice(self._unseen(WEAPONS)))

    def _refute(self, state: GameState) -> Refute | CannotRefute:
        s = state.pending_suggestion
        assert s is not None
        held = [c for c in (s.suspect, s.weapon, s.room) if c in self.hand]
        if not held:
            return CannotRefute(self.seat)
        return Refute(self.seat, self.rng.choice(held))

    def _move(self, state: GameState) -> Move | EndTurn:
        options = legal_destinations(state)
        if not options or (may_stay(state) and self.rng.random() < 0.1):
            return EndTurn(self.seat)
        board = classic_board()
        wanted = set(self._unseen(ROOMS))
        here = state.token_of(self.seat)
        rooms = [sq for sq in options if board.room_at(sq) is not None]
        if rooms:
            good = [sq for sq in rooms if board.room_at(sq) in wanted] or rooms
            return Move(self.seat, options[self.rng.choice(sorted(good))])

        def distance(sq: Square) -> int:
            steps = [
                board.steps_to_room(sq, r) for r in board.rooms() if r != here
            ]
            near = [s for s in steps if s is not None]
            return min(near) if near else 99

        best = min(distance(sq) for sq in options)
        choice = self.rng.choice(sorted(sq for sq in options if distance(sq) == best))
        return Move(self.seat, options[choice])
