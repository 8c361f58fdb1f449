"""``p2pclue bench`` holds its figures to their goals and says so by its exit status.

A real (quick) run of the crypto and game sections meets every goal it judges; the same
kind of run with one goal made impossible exits 1 and names that goal. Which goals a busy
machine can judge, and what an override changes, are checked on the verdicts directly.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from p2pclue.bench import ON_REQUEST, SECTION_NAMES
from p2pclue.bench.goals import BY_NAME, GOALS, IDLE, Goal, describe, is_idle, verdicts
from p2pclue.cli import main
from tests.cli.helpers import ROOT, TIMEOUT, cli_env

CRYPTO_GOALS = {"shuffle_prove_mults_per_card", "shuffle_verify_mults_per_card",
                "deal_6p_cpu_s", "deal_6p_mults", "commit_show_prove_mults",
                "commit_show_verify_mults"}


def last_json(out: str) -> dict[str, Any]:
    obj = json.loads(out.strip().splitlines()[-1])
    assert isinstance(obj, dict)
    return obj


def test_crypto_and_game_meet_their_goals(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["bench", "--json", "--only", "crypto", "game", "--quick"])
    out = capsys.readouterr().out
    result = last_json(out)
    assert status == 0, out
    assert result["goals_met"] is True and result["goals_missed"] == []
    assert result["sections"] == ["crypto", "game"]
    assert {g["name"] for g in result["goals"]} == CRYPTO_GOALS  # game has no goal
    for goal in result["goals"]:
        assert goal["judged"] is True and goal["met"] is True, goal
        assert set(goal) >= {"name", "figure", "goal", "comparison", "unit", "condition",
                             "met"}
    by_name = {g["name"]: g for g in result["goals"]}
    assert by_name["deal_6p_mults"]["figure"] == result["deal_mults"]["6"]
    assert by_name["deal_6p_mults"]["comparison"] == "<"
    for moment in ("start", "end"):
        assert len(result["load_average"][moment]) == 3
    assert result["game_turns"] > 0
    assert "goal deal_6p_mults: " in out and ": met" in out


def test_a_goal_forced_to_fail_makes_the_process_exit_1_and_says_which() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "p2pclue", "bench", "--json", "--only", "crypto", "--quick",
         "--goal", "deal_6p_mults=10000"],
        capture_output=True, text=True, env=cli_env(), timeout=TIMEOUT, cwd=ROOT)
    assert done.returncode == 1, done.stderr
    assert "goal missed: deal_6p_mults" in done.stderr
    result = last_json(done.stdout)
    assert result["goals_met"] is False and result["goals_missed"] == ["deal_6p_mults"]
    missed = next(g for g in result["goals"] if g["name"] == "deal_6p_mults")
    assert missed["goal"] == 10000 and missed["figure"] > 10000
    assert missed["judged"] is True and missed["met"] is False
    assert "goal deal_6p_mults: " in done.stdout and "MISSED" in done.stdout
    others = [g for g in result["goals"] if g["name"] != "deal_6p_mults"]
    assert others and all(g["met"] for g in others)


def test_an_unknown_goal_or_a_limit_that_is_no_number_is_a_usage_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    for wrong in ("no_such_goal=1", "deal_6p_mults", "deal_6p_mults=many",
                  "deal_6p_mults=nan"):
        with pytest.raises(SystemExit) as exc:
            main(["bench", "--only", "crypto", "--goal", wrong])
        assert exc.value.code == 2
        assert "argument --goal" in capsys.readouterr().err


def _goal(condition: str | None) -> Goal:
    return Goal("probe", "rules", "a probe", "<", 10.0, "ms", lambda f: f.get("probe"),
                condition)


def test_a_latency_goal_is_judged_only_on_an_idle_machine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("p2pclue.bench.goals.GOALS", (_goal(IDLE), _goal(None)))
    busy = verdicts(["rules"], {"probe": 12.0}, {}, idle=False)
    assert [(g["condition"], g["met"], g["judged"]) for g in busy] == [
        (IDLE, False, False), (None, False, True)]
    idle = verdicts(["rules"], {"probe": 12.0}, {}, idle=True)
    assert [(g["met"], g["judged"]) for g in idle] == [(False, True), (False, True)]
    assert "needs an idle machine" in describe(busy[0], [3.0, 2.0, 1.0])
    assert describe(idle[0], [0.1, 0.1, 0.1]).endswith(": MISSED")
    raised = verdicts(["rules"], {"probe": 12.0}, {"probe": 20.0}, idle=True)
    assert [(g["goal"], g["met"]) for g in raised] == [(20.0, True), (20.0, True)]
    unmeasured = verdicts(["rules"], {"probe": None}, {}, idle=True)
    assert [(g["met"], g["judged"]) for g in unmeasured] == [(False, False), (False, False)]
    assert verdicts(["crypto"], {"probe": 12.0}, {}, idle=True) == []  # rules did not run


def test_idle_means_a_low_load_for_the_cores() -> None:
    assert is_idle([0.4, 3.0, 3.0], 2) and not is_idle([0.6, 0.1, 0.1], 2)
    assert is_idle([1.9, 0.0, 0.0], 8)


def test_every_goal_belongs_to_a_section_and_has_a_unique_name() -> None:
    assert len(BY_NAME) == len(GOALS)
    assert {g.section for g in GOALS} <= set(SECTION_NAMES)
    assert set(SECTION_NAMES) > ON_REQUEST
    for goal in GOALS:
        assert goal.comparison in ("<", "<=", ">", ">=") and goal.what and goal.unit
