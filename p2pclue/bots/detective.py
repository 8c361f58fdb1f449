"""A bot that plays from its own notepad: complete deduction, informative play.

It knows only what its seat observes (its hand, the public answers, the cards
shown to it, wrong accusations), turned into notepad facts. It accuses only
when the notepad proves the envelope; it suggests the triple with the largest
expected drop in envelope entropy; it moves toward the room where the best
suggestion is worth most, discounted by how many turns away it is; and when it
must refute it shows the card that reveals least to the suggester.
"""

from __future__ import annotations

import math
import random
from functools import cache

from p2pclue.bots import (
    AccusationMade,
    CardShown,
    Decision,
    HandDealt,
    LeftoversShown,
    Observation,
    RollIntent,
    SuggestionAnswered,
)
from p2pclue.deduce import (
    Fact,
    Leftovers,
    Notepad,
    OwnHand,
    Passed,
    Refuted,
    ShownByMe,
    ShownToMe,
    Triple,
    WrongAccusation,
    least_revealing,
)
from p2pclue.deduce.advice import Advisor
from p2pclue.rules.actions import Accuse, CannotRefute, EndTurn, Move, Refute, Suggest, TakePassage
from p2pclue.rules.board import Square, classic_board
from p2pclue.rules.cards import CARDS, ROOMS
from p2pclue.rules.game import (
    can_accuse,
    can_suggest,
    can_summoned_suggest,
    can_take_passage,
    legal_destinations,
    may_stay,
)
from p2pclue.rules.movement import Position
from p2pclue.rules.state import GameState, Phase

DISCOUNT = 0.4
"""Value kept per turn of delay before a suggestion can be made."""
ROOM_BONUS = 1.5
"""Extra worth of a room whose own card is uncertain: only there can it be asked about."""


def _binary_entropy(p: float) -> float:
    return 0.0 if p <= 0 or p >= 1 else -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


@cache
def _roll_odds(two_dice: bool) -> dict[int, float]:
    faces = range(1, 7)
    totals = [a + b for a in faces for b in faces] if two_dice else list(faces)
    return {t: totals.count(t) / len(totals) for t in sorted(set(totals))}


def _turns_away(steps: int, mean_roll: float) -> int:
    """Turns the dice need on average to cover ``steps`` (0 for a passage)."""
    return 0 if steps == 0 else max(1, math.ceil(steps / mean_roll))


class DetectiveBot:
    """The ``detective`` bot; construct as ``DetectiveBot(seat, rng)``."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.hand: tuple[int, ...] = ()
        self.notepad: Notepad | None = None
        self._pending: list[Fact] = []
        self._turn = 0
        self._my_last: Triple | None = None
        self._shown_by_me: int | None = None
        self._advisor: Advisor | None = None
        self._values: dict[int, float] | None = None

    # --- knowledge ---------------------------------------------------------------------
    def _learn(self, facts: list[Fact]) -> None:
        if self.notepad is None:
            self._pending.extend(facts)
            return
        new = self.notepad.extend(facts)
        if new.contradiction is None:  # a lie cannot come through the protocol; keep sane
            self.notepad = new
            self._advisor = None
            self._values = None

    def _ensure_notepad(self, state: GameState) -> Notepad:
        if self.notepad is None:
            n = state.n_players
            leftovers = 21 - 3 - sum(state.hand_sizes)
            names = [CARDS[s].name.split()[-1] for s in state.seats]
            self.notepad = Notepad(self.seat, n, state.hand_sizes, leftovers, seat_names=names)
            pending, self._pending = self._pending, []
            self._learn(pending)
        return self.notepad

    def observe(self, event: Observation) -> None:
        match event:
            case HandDealt(seat, cards) if seat == self.seat:
                self.hand = tuple(cards)
                self._learn([OwnHand(tuple(cards))])
            case LeftoversShown(cards):
                self._learn([Leftovers(tuple(cards))])
            case SuggestionAnswered(suggester, s, w, r, passed, shower):
                self._turn += 1
                triple = (s, w, r)
                facts: list[Fact] = [Passed(p, triple, self._turn, suggester) for p in passed]
                if shower == self.seat and self._shown_by_me is not None:
                    facts.append(ShownByMe(suggester, self._shown_by_me, self._turn, triple))
                elif shower is not None and shower != self.seat:
                    facts.append(Refuted(shower, suggester, triple, self._turn))
                self._shown_by_me = None
                if suggester == self.seat:
                    self._my_last = triple
                self._learn(facts)
            case CardShown(suggester, shower, card) if suggester == self.seat:
                self._learn([ShownToMe(shower, card, self._turn, self._my_last)])
            case AccusationMade(seat, s, w, r, correct) if not correct:
                self._learn([WrongAccusation(seat, (s, w, r), self._turn)])
            case _:
                pass

    def _advice(self) -> Advisor | None:
        if self.notepad is None or self.notepad.contradiction is not None:
            return None
        if self._advisor is None:
            self._advisor = Advisor(self.notepad)
        return self._advisor

    # --- decisions ---------------------------------------------------------------------
    def decide(self, state: GameState) -> Decision:
        notepad = self._ensure_notepad(state)
        if state.phase is Phase.AWAIT_REFUTATION:
            return self._refute(state, notepad)
        if can_accuse(state) and notepad.contradiction is None:
            solution = notepad.solution()
            if solution is not None:
                return Accuse(self.seat, *solution)
        if state.phase is Phase.AWAIT_TURN_START:
            return self._start_turn(state)
        if state.phase is Phase.AWAIT_MOVE:
            return self._move(state)
        if can_suggest(state):
            return self._suggest(state)
        return EndTurn(self.seat)

    def _refute(self, state: GameState, notepad: Notepad) -> Refute | CannotRefute:
        s = state.pending_suggestion
        if s is None:  # pragma: no cover - the phase guarantees a pending suggestion
            return CannotRefute(self.seat)
        held = [c for c in (s.suspect, s.weapon, s.room) if c in self.hand]
        if not held:
            return CannotRefute(self.seat)
        card = held[0]
        if len(held) > 1 and notepad.contradiction is None:
            card = least_revealing(notepad, held, s.suggester)
        self._shown_by_me = card
        return Refute(self.seat, card)

    def _room_values(self) -> dict[int, float]:
        """What the best suggestion in each room is worth now (cached until news)."""
        if self._values is None:
            advisor = self._advice()
            if advisor is None:
                self._values = {r.index: 0.0 for r in ROOMS}
            else:
                suspects, weapons = advisor.shortlist(0), advisor.shortlist(1)
                self._values = {
                    r.index: advisor.best_in_room(r.index, suspects, weapons)[0]
                    + ROOM_BONUS * _binary_entropy(advisor.envelope[r.index])
                    for r in ROOMS}
        return self._values

    def _here(self, state: GameState) -> Position | None:
        return state.token_of(self.seat)

    def _start_turn(self, state: GameState) -> Decision:
        here = self._here(state)
        values = self._room_values()
        if can_summoned_suggest(state) and isinstance(here, int) and values[here] > 0:
            return self._suggest(state)
        if can_take_passage(state) and isinstance(here, int):
            there = classic_board().passages[here]
            elsewhere = max((v * DISCOUNT for r, v in values.items() if r not in (here, there)),
                            default=0.0)
            if values[there] > 0 and values[there] >= elsewhere:
                return TakePassage(self.seat)
        return RollIntent(self.seat)

    def _move(self, state: GameState) -> Move | EndTurn:
        options = legal_destinations(state)
        if not options:
            return EndTurn(self.seat)
        board = classic_board()
        values = self._room_values()
        here = self._here(state)

        rolls = _roll_odds(state.rules.two_dice)
        exact = state.rules.enter_exact
        mean_roll = sum(t * p for t, p in rolls.items())

        def worth(square: Square) -> float:
            room = board.room_at(square)
            if room is not None:
                return values[room] + 1e-3  # a suggestion now beats one later
            reach = [(steps, v) for r, v in values.items()
                     if (steps := board.steps_to_room(square, r)) is not None]
            later = max((v * DISCOUNT ** _turns_away(steps, mean_roll)
                         for steps, v in reach), default=0.0)
            expected = 0.0
            for roll, p in rolls.items():
                now = max((v for steps, v in reach
                           if (steps == roll if exact else steps <= roll)), default=0.0)
                expected += p * max(now, later)
            near = min((steps for steps, _ in reach), default=0)
            return DISCOUNT * expected - 1e-4 * near

        scored = sorted(options, key=lambda sq: (-worth(sq), sq))
        if may_stay(state) and isinstance(here, int) and worth(scored[0]) <= 0:
            return EndTurn(self.seat)
        return Move(self.seat, options[scored[0]])

    def _suggest(self, state: GameState) -> Decision:
        """The most informative suggestion here; none at all if it would teach nothing
        (it would only pull a token and hand its owner a free suggestion, R22)."""
        room = self._here(state)
        advisor = self._advice()
        if not isinstance(room, int):  # pragma: no cover - can_suggest implies a room
            return EndTurn(self.seat)
        if advisor is None:
            return Suggest(self.seat, self.rng.randrange(6), 6 + self.rng.randrange(6))
        gain, (s, w, _) = advisor.best_in_room(room)
        if gain <= 0:
            return RollIntent(self.seat) if state.phase is Phase.AWAIT_TURN_START else EndTurn(
                self.seat)
        return Suggest(self.seat, s, w)
