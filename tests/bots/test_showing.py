"""How long a detective takes to show a card must not tell how many named cards it holds.

Choosing among two or three named cards needs the suggester's view (a deduction of
milliseconds to tens of them); with one card there is nothing to choose. The detective
works its answers out ahead (``think_ahead``), for every set of named cards it could
meet, so answering is one lookup. These tests count the deductions (notepads analysed,
views built) on the answer path, which is what a timing observer would measure: none
when the plan is ready, the same work for one, two and three cards when it is not. And
thinking ahead changes no decision.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from p2pclue.bots import (
    AccusationMade,
    HandDealt,
    HandOpened,
    Observation,
    SuggestionAnswered,
    ThinksAhead,
)
from p2pclue.bots import showing as showing_module
from p2pclue.bots.detective import DetectiveBot
from p2pclue.bots.levels import LEVELS
from p2pclue.bots.registry import BOTS
from p2pclue.bots.showing import named_sets, next_suggester
from p2pclue.bots.table import play_game
from p2pclue.deduce import Notepad, view_of
from p2pclue.deduce.table import STANDARD_DECK
from p2pclue.rules.actions import Refute
from p2pclue.rules.game import new_game
from p2pclue.rules.state import GameState, Phase, Suggestion
from p2pclue.rules.variants import preset

HAND = (0, 1, 6, 7, 12, 13)
NAMED = {1: (0, 8, 14), 2: (0, 6, 14), 3: (0, 6, 12)}
"""A suggestion naming 1, 2 and 3 of the cards in ``HAND``."""
HISTORY: tuple[Observation, ...] = (
    HandDealt(0, HAND),
    SuggestionAnswered(2, 3, 9, 15, (), 1),
    SuggestionAnswered(1, 4, 10, 16, (), 2),
    SuggestionAnswered(2, 2, 11, 17, (0,), 1),
)


def turn_of(seat: int, **changes: Any) -> GameState:
    state = new_game(preset("classic"), (0, 1, 2), hand_sizes=(6, 6, 6),
                     weapon_rooms=dict(zip(range(6, 12), range(12, 18), strict=True)))
    return replace(state, current_seat=seat, **changes)


def asked(suggester: int, named: tuple[int, int, int]) -> GameState:
    return turn_of(suggester, phase=Phase.AWAIT_REFUTATION, suggested=True,
                   pending_suggestion=Suggestion(suggester, *named))


def bot_with_history(level: str = "hard") -> DetectiveBot:
    bot = DetectiveBot(0, random.Random(3), LEVELS[level])
    for event in HISTORY:
        bot.observe(event)
    return bot


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts notepads analysed (made or extended) and suggesters' views built."""
    done: Counter[str] = Counter()
    analyse = Notepad._setup

    def counted_setup(self: Notepad, *args: Any) -> None:
        done["notepads"] += 1
        analyse(self, *args)

    def counted_view(notepad: Notepad, seat: int) -> Notepad:
        done["views"] += 1
        return view_of(notepad, seat)

    monkeypatch.setattr(Notepad, "_setup", counted_setup)
    monkeypatch.setattr(showing_module, "view_of", counted_view)
    yield done


def think_ahead_now(bot: DetectiveBot, state: GameState) -> None:
    job = bot.think_ahead(state)
    assert job is not None
    job()()


@pytest.mark.parametrize("level", ["hard", "medium"])
def test_with_the_plan_ready_a_show_deduces_nothing_whatever_is_held(
        level: str, work: Counter[str]) -> None:
    for held, named in NAMED.items():
        bot = bot_with_history(level)
        think_ahead_now(bot, turn_of(1))
        work.clear()
        decision = bot.decide(asked(1, named))
        assert isinstance(decision, Refute) and decision.card in named and decision.card in HAND
        assert work == Counter(), (held, work)


@pytest.mark.parametrize("level", ["hard", "medium"])
def test_without_a_plan_a_show_does_the_same_work_whatever_is_held(
        level: str, work: Counter[str]) -> None:
    """A plan that is missing is made in full before answering, one card held or three."""
    seen = {}
    for held, named in NAMED.items():
        bot = bot_with_history(level)
        work.clear()
        decision = bot.decide(asked(1, named))
        assert isinstance(decision, Refute) and decision.card in named
        seen[held] = dict(work)
    assert seen[1] == seen[2] == seen[3], seen
    assert seen[1]["notepads"] >= 1  # the notepad was read, with one card too
    assert seen[1].get("views", 0) == (1 if level == "hard" else 0)  # medium picks at random


def test_the_card_chosen_ahead_is_the_card_chosen_on_the_spot() -> None:
    for named in NAMED.values():
        for suggester in (1, 2):
            ahead, on_the_spot = bot_with_history(), bot_with_history()
            think_ahead_now(ahead, turn_of(suggester))
            assert ahead.decide(asked(suggester, named)) == on_the_spot.decide(
                asked(suggester, named))


def test_a_plan_for_another_suggester_is_not_used(work: Counter[str]) -> None:
    bot = bot_with_history()
    think_ahead_now(bot, turn_of(1))
    work.clear()
    on_the_spot = bot_with_history().decide(asked(2, NAMED[2]))
    work.clear()
    assert bot.decide(asked(2, NAMED[2])) == on_the_spot
    assert work["views"] == 1  # seat 2's view, built now: seat 1's plan was not used


def test_a_plan_made_before_news_is_not_used_and_its_notepad_is_kept(
        work: Counter[str]) -> None:
    """A plan worked out (on another thread) while the bot learned more: the answer is made
    again from everything learned, and the notepad the plan brought up to date is kept,
    the news still to be added to it."""
    news = HandOpened(2, (4, 5, 8, 18, 19, 20))  # seat 1 now knows more of the deal
    stale = bot_with_history().decide(asked(1, NAMED[2]))
    reference = bot_with_history()
    reference.observe(news)
    right = reference.decide(asked(1, NAMED[2]))
    assert right != stale  # the news changes which card to show
    bot = bot_with_history()
    job = bot.think_ahead(turn_of(1))
    assert job is not None
    bot.observe(news)  # learned while the work ran
    job()()
    work.clear()
    assert bot.decide(asked(1, NAMED[2])) == right
    # only the news deduced (one analysis), then the view (a notepad of its own)
    assert work["views"] == 1 and work["notepads"] == 2
    assert bot.notepad is not None and reference.notepad is not None
    assert bot.notepad.facts == reference.notepad.facts


def test_thinking_ahead_again_for_the_same_moment_hands_out_no_more_work() -> None:
    bot = bot_with_history()
    assert bot.think_ahead(turn_of(1)) is not None
    assert bot.think_ahead(turn_of(1)) is None  # handed out already
    assert bot.think_ahead(turn_of(0)) is None  # its own turn comes first
    bot.observe(AccusationMade(2, 0, 6, 12, False))
    assert bot.think_ahead(turn_of(1)) is not None  # it learned since


def test_whose_suggestion_comes_next() -> None:
    assert next_suggester(turn_of(1), 0) == 1
    assert next_suggester(turn_of(0), 0) is None
    assert next_suggester(turn_of(1, suggested=True), 0) == 2
    assert next_suggester(turn_of(2, suggested=True), 0) is None  # mine is next
    assert next_suggester(turn_of(2, suggested=True), 1) == 0
    assert next_suggester(turn_of(1, suggested=True, eliminated=(2,)), 1) == 0
    assert next_suggester(asked(2, NAMED[1]), 0) == 2
    assert next_suggester(asked(2, NAMED[1]), 2) is None
    assert next_suggester(turn_of(1, phase=Phase.AWAIT_ACCUSATION_RESULT), 0) is None
    assert next_suggester(turn_of(1, phase=Phase.GAME_OVER), 0) is None


def test_every_set_of_named_cards_a_hand_can_meet() -> None:
    sets = named_sets(HAND, STANDARD_DECK)
    assert len(sets) == 3 * 3 * 3 - 1  # none, or one of two, in each of three categories
    assert (0,) in sets and (0, 6) in sets and (0, 6, 12) in sets and (0, 1) not in sets
    assert named_sets((), STANDARD_DECK) == []


@pytest.mark.parametrize(("lineup", "seed"), [
    (("hard", "hard", "hard"), 11),
    (("hard", "medium", "easy", "random"), 12),
    (("easy", "hard", "medium", "hard", "random"), 13),
])
def test_thinking_ahead_changes_no_decision(lineup: tuple[str, ...], seed: int) -> None:
    """Whole games with and without thinking ahead: every action the same (each show too)."""
    def factory(seat: int, rng: random.Random) -> Any:
        return BOTS[lineup[seat]](seat, rng)

    plain = play_game(preset("classic"), len(lineup), seed, bot_factory=factory)
    ahead = play_game(preset("classic"), len(lineup), seed, bot_factory=factory,
                      think_ahead=True)
    assert ahead.actions == plain.actions
    assert any(isinstance(a, Refute) for a in plain.actions)


def test_only_the_detective_thinks_ahead() -> None:
    assert isinstance(BOTS["hard"](0, random.Random(1)), ThinksAhead)
    assert not isinstance(BOTS["random"](0, random.Random(1)), ThinksAhead)
