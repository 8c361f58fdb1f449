"""A bot that plays from its own notepad: complete deduction, informative play.

It knows only what its seat observes (its hand, the public answers, the cards
shown to it, wrong accusations), turned into notepad facts. It accuses only
when that notepad proves the envelope. To choose *what to ask* and *where to
go* it may also use a model of how the others suggest (``model``): those
assumptions sharpen its odds, never its certainty. It suggests the triple with
the largest expected drop in envelope entropy, moves with a two-turn lookahead
(``plan``: passages, rooms that lead to rooms, staying put), heading sooner for
rooms the model finds likely to be the envelope's (one unrefuted suggestion
there proves it), and when it must refute it shows a card the suggester already
saw, else one from the category the suggester has most left open (naive rivals
name unseen cards at random, so that slows their luck least). That choice is
worked out before the suggestion comes, for whatever it may name (``think_ahead``,
``showing``), so how long a show takes does not tell how many named cards it holds.

The same class plays every level: ``Style`` says how much of this it does.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

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
from p2pclue.bots.choose import MODEL_FLOOR, Advice, rivals_away
from p2pclue.bots.knowledge import Knowledge
from p2pclue.bots.model import SuggestionModel
from p2pclue.bots.plan import DISCOUNT, Planner, steps_from
from p2pclue.bots.showing import ShowPlan, next_suggester, plan_show
from p2pclue.deduce import ENVELOPE, Fact, Mark, Notepad, Refuted, Triple
from p2pclue.deduce.feed import SeatFeed
from p2pclue.rules.actions import Accuse, CannotRefute, EndTurn, Move, Refute, Suggest, TakePassage
from p2pclue.rules.board import classic_board
from p2pclue.rules.cards import ROOMS
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

ROOM_BONUS = 1.5
"""Extra worth of a room whose own card is uncertain: only there can it be asked about."""
MODEL_BONUS = 3.0
"""Extra worth of an unproven room, per unit of the model's odds that it is the envelope's:
asked there about the likely suspect and weapon, an unrefuted answer proves all three."""


@dataclass(frozen=True, slots=True)
class Style:
    """How a bot plays: the levels differ only here.

    ``model``: use the suggestion model for odds. ``lookahead``: plan moves two
    turns deep (else head for the best room in reach). ``forget``: chance of
    missing each public fact about others. ``guess_at``: accuse when the most
    likely envelope has at least this probability (None: only when certain).
    ``careless``: chance of a suggestion chosen without thinking (unseen cards).
    """

    model: bool = True
    lookahead: bool = True
    forget: float = 0.0
    guess_at: float | None = None
    careless: float = 0.0


HARD = Style()


def _binary_entropy(p: float) -> float:
    return 0.0 if p <= 0 or p >= 1 else -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


class DetectiveBot:
    """The ``detective`` bot; construct as ``DetectiveBot(seat, rng)`` (``style`` for levels)."""

    def __init__(self, seat: int, rng: random.Random, style: Style = HARD) -> None:
        self.seat = seat
        self.rng = rng
        self.style = style
        self.hand: tuple[int, ...] = ()
        self.knowledge = Knowledge(seat)
        """Facts observed, deduced when next needed (its own decision), not while the table
        still checks the refutation that taught them: about 10 ms a bot per answered
        suggestion, every bot at once, on the critical path of a LAN game on few cores."""
        self.model = SuggestionModel(seat)
        self.feed = SeatFeed(seat)
        """What this seat learns, as facts: the same feed a person's notepad reads."""
        self._advice: Advice | None = None
        self._values: dict[int, float] | None = None
        self._show_plan: ShowPlan | None = None
        self._planning: tuple[int, int] | None = None
        """(suggester, observation) of the last plan handed out to be worked out ahead."""

    # --- knowledge ---------------------------------------------------------------------
    @property
    def notepad(self) -> Notepad | None:
        """Everything deduced from what this seat observed so far (None before the bot's
        first decision)."""
        self._catch_up()
        return self.knowledge.notepad

    def _learn(self, facts: list[Fact]) -> None:
        self.knowledge.learn(facts)

    def _catch_up(self) -> None:
        if self.knowledge.catch_up():
            self._advice = None
            self._values = None

    def _ensure_notepad(self, state: GameState) -> None:
        self.knowledge.make(state)

    def _read(self) -> Notepad:
        """The notepad up to date (after ``_ensure_notepad``)."""
        self._catch_up()
        assert self.knowledge.notepad is not None
        return self.knowledge.notepad

    def _missed(self) -> bool:
        return self.style.forget > 0 and self.rng.random() < self.style.forget

    def observe(self, event: Observation) -> None:
        feed = self.feed
        match event:
            case HandDealt(seat, cards) if seat == self.seat:
                self.hand = tuple(cards)
                self._learn(feed.own_hand(cards))
            case LeftoversShown(cards):
                self._learn(feed.leftovers(cards))
            case SuggestionAnswered(suggester, s, w, r, passed, shower):
                triple = (s, w, r)
                feed.suggestion(suggester, triple)
                mine = suggester == self.seat
                # a forgetful style misses public facts about others, never its own answers
                facts = [f for p in passed for f in feed.passed(p, suggester, triple)
                         if mine or not self._missed()]
                if shower is not None:
                    facts += [f for f in feed.refuted(shower, suggester, triple)
                              if mine or not isinstance(f, Refuted) or not self._missed()]
                if not mine and self.style.model:
                    self.model.saw_suggestion(suggester, s, w, feed.turn)
                self._learn(facts)
            case CardShown(suggester, shower, card) if suggester == self.seat:
                self._learn(feed.shown_to_me(shower, card))
            case HandOpened(seat, cards):
                self._learn(feed.hand_laid_down(seat, cards))
            case AccusationMade(seat, s, w, r, correct):
                self._learn(feed.accusation(seat, (s, w, r), correct))
            case _:
                pass

    def advice(self) -> Advice | None:
        """Scores suggestions (with the model's odds if the style uses one); None if the
        notepad is broken."""
        if self.notepad is None or self.notepad.contradiction is not None:
            return None
        if self._advice is None:
            what_if = self.model.notepad(self.notepad) if self.style.model else None
            self._advice = Advice.of(
                self.notepad, what_if if what_if is not self.notepad else None)
        return self._advice

    # --- decisions ---------------------------------------------------------------------
    def decide(self, state: GameState) -> Decision:
        self._ensure_notepad(state)
        if state.phase is Phase.AWAIT_REFUTATION:
            return self._refute(state)  # reads the notepad only to choose among cards
        notepad = self._read()
        if can_accuse(state) and notepad.contradiction is None:
            solution = self._accusation(notepad)
            if solution is not None:
                return Accuse(self.seat, *solution)
        if state.phase is Phase.AWAIT_TURN_START:
            return self._start_turn(state)
        if state.phase is Phase.AWAIT_MOVE:
            return self._move(state)
        if can_suggest(state):
            return self._suggest(state)
        return EndTurn(self.seat)

    def _accusation(self, notepad: Notepad) -> Triple | None:
        solution = notepad.solution()
        if solution is not None or self.style.guess_at is None:
            return solution
        odds = notepad.envelope_probabilities()
        deck = notepad.table.deck
        guess = tuple(max(cat, key=lambda c: (odds[c], -c)) for cat in deck)
        if math.prod(odds[c] for c in guess) >= self.style.guess_at:
            return (guess[0], guess[1], guess[2])
        return None

    def _refute(self, state: GameState) -> Refute | CannotRefute:
        s = state.pending_suggestion
        if s is None:  # pragma: no cover - the phase guarantees a pending suggestion
            return CannotRefute(self.seat)
        held = [c for c in (s.suspect, s.weapon, s.room) if c in self.hand]
        if not held:
            return CannotRefute(self.seat)
        plan = self._plan_for(s.suggester)
        if plan is None:  # not worked out ahead, or learned since: all of it now, whatever held
            plan = self._make_plan(state, s.suggester)()
            self._adopt(plan)
        card = plan.choose(held, self.rng)
        self.feed.i_show(card)
        return Refute(self.seat, card)

    # --- thinking ahead -----------------------------------------------------------------
    def think_ahead(self, state: GameState) -> Callable[[], Callable[[], None]] | None:
        """Work to do before the next question comes, if any: which card to show the next
        suggester, whatever it names. The work touches nothing the bot still changes (it
        may run on another thread while the bot observes); what it returns takes the
        result, and must run where the bot observes and decides, between those calls."""
        suggester = next_suggester(state, self.seat)
        if suggester is None or self._plan_for(suggester) is not None:
            return None
        if self._planning == (suggester, self.knowledge.learned):
            return None  # handed out already
        self._planning = (suggester, self.knowledge.learned)
        make = self._make_plan(state, suggester)

        def work() -> Callable[[], None]:
            plan = make()
            return lambda: self._adopt(plan)

        return work

    def _make_plan(self, state: GameState, suggester: int) -> Callable[[], ShowPlan]:
        """The plan for ``suggester`` from what was learned so far, to be made now or on
        another thread (it reads only a frozen snapshot)."""
        snapshot = self.knowledge.snapshot(state)
        hand, model = self.hand, self.style.model
        return lambda: plan_show(snapshot.notepad(), hand, suggester, snapshot.learned, model)

    def _plan_for(self, suggester: int) -> ShowPlan | None:
        """The plan for answering ``suggester`` now, if one is up to date."""
        plan = self._show_plan
        if plan is None or plan.suggester != suggester or plan.learned != self.knowledge.learned:
            return None
        return plan

    def _adopt(self, plan: ShowPlan) -> None:
        """Keep the notepad ``plan`` brought up to date (if ours knows less), and ``plan``
        itself (if nothing was learned since it was made)."""
        if self.knowledge.adopt(plan.learned, plan.notepad):
            self._advice = None
            self._values = None
        if plan.learned == self.knowledge.learned:
            self._show_plan = plan

    def _room_values(self) -> dict[int, float]:
        """What the best suggestion in each room is worth now (cached until news)."""
        self._catch_up()
        if self._values is None:
            advice = self.advice()
            self._values = {r.index: 0.0 for r in ROOMS}
            if advice is not None:
                for model in (True, False) if advice.what_if is not None else (False,):
                    suspects, weapons = advice.shortlist(0, model), advice.shortlist(1, model)
                    self._values = {r.index: advice.best_in_room(
                        r.index, (), suspects, weapons, fallback=False)[0] for r in ROOMS}
                    if max(self._values.values()) >= MODEL_FLOOR:
                        break
                envelope = advice.known.envelope
                likely = (advice.what_if or advice.known).envelope
                self._values = {r: v + ROOM_BONUS * _binary_entropy(envelope[r])
                                + (MODEL_BONUS * likely[r] if 0 < envelope[r] < 1 else 0.0)
                                for r, v in self._values.items()}
        return self._values

    def _here(self, state: GameState) -> Position | None:
        return state.token_of(self.seat)

    def _start_turn(self, state: GameState) -> Decision:
        here = self._here(state)
        values = self._room_values()
        if not isinstance(here, int):
            return RollIntent(self.seat)
        planner = Planner(values, state.rules)
        if self.style.lookahead:
            rooms = planner.room_worth()
            options = planner.start_options(here, rooms)
            summoned = rooms[here] if can_summoned_suggest(state) and values[here] > 0 else -1.0
            passage = options.get("passage", -1.0) if can_take_passage(state) else -1.0
            best = max(summoned, passage, options["roll"])
            if summoned >= best and summoned > 0:
                return self._suggest(state)
            if passage >= best and passage > 0:
                return TakePassage(self.seat)
            return RollIntent(self.seat)
        if can_summoned_suggest(state) and values[here] > 0:
            return self._suggest(state)
        if can_take_passage(state):
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
        planner = Planner(values, state.rules)
        rooms = planner.room_worth() if self.style.lookahead else dict(values)

        def worth(square: tuple[int, int]) -> float:
            room = board.room_at(square)
            if room is not None:
                return rooms[room] + 1e-3  # a suggestion now beats one later
            if self.style.lookahead:
                return planner.square_worth(square, rooms)
            near = min(steps_from(square).values(), default=99)
            return -1e-3 * near

        scored = sorted(options, key=lambda sq: (-worth(sq), sq))
        if may_stay(state) and isinstance(here, int):
            stay = planner.staying_worth(here) if self.style.lookahead else 0.0
            if worth(scored[0]) <= stay:
                return EndTurn(self.seat)
        return Move(self.seat, options[scored[0]])

    def _careless_suggestion(self) -> Suggest:
        """What a hurried person asks: two cards not yet crossed off, picked at random."""
        notepad = self.notepad
        picks: list[int] = []
        for cat in (range(6), range(6, 12)):
            open_cards = [c for c in cat if c not in self.hand and (
                notepad is None or notepad.contradiction is not None
                or notepad.cell(c, ENVELOPE) is not Mark.NO)]
            picks.append(self.rng.choice(open_cards or list(cat)))
        return Suggest(self.seat, picks[0], picks[1])

    def _suggest(self, state: GameState) -> Decision:
        """The most informative suggestion here; none at all if it would teach nothing
        (it would only pull a token and hand its owner a free suggestion, R22)."""
        room = self._here(state)
        if not isinstance(room, int):  # pragma: no cover - can_suggest implies a room
            return EndTurn(self.seat)
        if self.style.careless > 0 and self.rng.random() < self.style.careless:
            return self._careless_suggestion()
        advice = self.advice()
        if advice is None:
            return Suggest(self.seat, self.rng.randrange(6), 6 + self.rng.randrange(6))
        gain, (s, w, _) = advice.best_in_room(room, rivals_away(state, self.seat, room))
        if gain <= 0:
            return RollIntent(self.seat) if state.phase is Phase.AWAIT_TURN_START else EndTurn(
                self.seat)
        return Suggest(self.seat, s, w)
