"""The random bot, the trusted table and ``p2pclue simulate``."""

from __future__ import annotations

import json
import random

import pytest

from p2pclue.bots import CardShown, HandDealt, LeftoversShown, RollIntent, SuggestionAnswered
from p2pclue.bots.random_bot import RandomBot
from p2pclue.bots.table import play_game
from p2pclue.cli import main
from p2pclue.rules.actions import Accuse, CannotRefute, Refute, Suggest, TakePassage
from p2pclue.rules.game import apply
from p2pclue.rules.state import Phase
from p2pclue.rules.variants import CZ, Rules

from .helpers import put, start


def test_R5_the_bot_notepad_records_what_its_seat_learns() -> None:
    bot = RandomBot(0, random.Random(1))
    bot.observe(HandDealt(0, (0, 3, 7)))
    bot.observe(HandDealt(1, (1, 4, 8)))  # someone else's hand: not for this seat
    bot.observe(LeftoversShown((12,)))
    bot.observe(CardShown(0, 2, 9))
    bot.observe(CardShown(1, 2, 10))  # shown to another seat: unseen
    assert bot.seen == {0, 3, 7, 12, 9}
    bot.observe(SuggestionAnswered(0, 5, 11, 20, (1, 2), None))
    assert bot.solved == {5, 11, 20}
    accusation = bot.decide(start())
    assert accusation == Accuse(0, 5, 11, 20)


def test_R21_bot_refutes_when_it_must_and_passes_when_it_cannot() -> None:
    state = put(start(), 0, 12)
    state = apply(apply(state, TakePassage(0)), Suggest(0, 1, 9))  # Mustard, Revolver, Study
    holder = RandomBot(1, random.Random(2))
    holder.observe(HandDealt(1, state.hands[1]))  # type: ignore[index]
    assert holder.decide(state) == Refute(1, 1)
    empty = RandomBot(1, random.Random(2))
    empty.observe(HandDealt(1, (3, 4)))
    assert empty.decide(state) == CannotRefute(1)


def test_R11_bot_starts_turns_by_rolling_or_moving_on() -> None:
    bot = RandomBot(0, random.Random(3))
    bot.observe(HandDealt(0, (0,)))
    assert bot.decide(start()) == RollIntent(0)


@pytest.mark.parametrize("rules", [Rules(), CZ])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_table_plays_whole_games(rules: Rules, players: int) -> None:
    record = play_game(rules, players, seed=players, patience=60)
    assert record.final.phase is Phase.GAME_OVER
    assert record.initial.n_players == players


def test_simulate_cli_is_reproducible_and_ends_with_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    outputs = []
    for _ in range(2):
        assert main(["simulate", "--players", "4", "--rules", "cz", "--seed", "5", "--json"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    summary = json.loads(outputs[0].strip().splitlines()[-1])
    assert summary["result"] in ("won", "nobody") and summary["rules"] == "cz"
    assert isinstance(summary["turns"], int) and summary["turns"] >= 1
    assert (summary["winner"] is None) == (summary["result"] == "nobody")
    assert "suggests" in outputs[0] or "accuses" in outputs[0]


def test_simulate_cli_without_seed_prints_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "3"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "seed" in first and first.split("seed ")[1].isdigit()


def test_simulate_cli_rejects_bad_player_counts(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--players", "7"])
    assert info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
