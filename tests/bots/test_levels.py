"""Every bot level plays only legal actions, whole games, at every table size."""

from __future__ import annotations

import random

import pytest

from p2pclue.bots import Bot, Decision, Observation
from p2pclue.bots.detective import DetectiveBot
from p2pclue.bots.levels import EASY, LEVELS, MEDIUM
from p2pclue.bots.registry import BOTS, DEFAULT_BOT, LEVEL_NAMES, make_bot
from p2pclue.bots.table import play_game
from p2pclue.rules.actions import AccusationResult, Action
from p2pclue.rules.game import replay
from p2pclue.rules.state import GameState, Phase
from p2pclue.rules.variants import preset


def test_registry_offers_levels_detective_and_random() -> None:
    assert {"easy", "medium", "hard", "detective", "random"} <= set(BOTS)
    assert LEVEL_NAMES == ("easy", "medium", "hard")
    assert DEFAULT_BOT in BOTS
    hard = make_bot("hard", 0, random.Random(1))
    assert isinstance(hard, DetectiveBot) and hard.style == LEVELS["hard"]
    detective = make_bot("detective", 1, random.Random(1))
    assert isinstance(detective, DetectiveBot) and detective.style == LEVELS["hard"]
    assert LEVELS["hard"].guess_at is None and LEVELS["hard"].forget == 0.0


class _Checked:
    """Asks the rules engine about every decision before the table applies it."""

    def __init__(self, bot: Bot, log: list[Decision]) -> None:
        self.bot, self.seat, self.log = bot, bot.seat, log

    def observe(self, event: Observation) -> None:
        self.bot.observe(event)

    def decide(self, state: GameState) -> Decision:
        assert state.awaiting_seat == self.seat
        decision = self.bot.decide(state)
        self.log.append(decision)
        return decision


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "random"])
@pytest.mark.parametrize(("rules", "players", "seed"), [
    ("classic", 3, 21), ("cz", 4, 22), ("classic", 6, 23),
])
def test_every_level_plays_whole_legal_games(level: str, rules: str, players: int,
                                             seed: int) -> None:
    decisions: list[Decision] = []

    def factory(seat: int, rng: random.Random) -> Bot:
        # the level under test in every other seat, random bots between them
        name = level if seat % 2 == 0 else "random"
        return _Checked(BOTS[name](seat, rng), decisions)

    record = play_game(preset(rules), players, seed, bot_factory=factory)
    assert record.final.phase is Phase.GAME_OVER
    assert decisions
    # an independent replay through the rules engine accepts every action, in order
    assert replay(record.initial, record.actions) == record.final


def test_easy_and_medium_differ_from_hard_as_documented() -> None:
    assert EASY.guess_at is not None and EASY.forget > MEDIUM.forget > 0
    assert not EASY.model and not MEDIUM.model and LEVELS["hard"].model
    assert not EASY.lookahead and MEDIUM.lookahead


def test_medium_never_accuses_wrongly_though_it_forgets() -> None:
    wrong: list[AccusationResult] = []

    def watch(before: GameState, action: Action, after: GameState) -> None:
        if isinstance(action, AccusationResult) and not action.correct and action.seat == 0:
            wrong.append(action)

    for seed in range(4):
        play_game(preset("classic"), 3, 500 + seed, on_action=watch,
                  bot_factory=lambda s, rng: BOTS["medium" if s == 0 else "easy"](s, rng))
    assert wrong == []
