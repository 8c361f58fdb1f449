"""``p2pclue bench --only bots --quick --json`` runs as a process and reports its figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from p2pclue.bench.bots import LINEUPS, QUICK_GAMES

ROOT = Path(__file__).resolve().parents[2]


def test_bench_bots_quick_json_reports_strength_wrong_accusations_and_times() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "p2pclue", "bench", "--only", "bots", "--quick", "--json"],
        capture_output=True, text=True, env=env, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    figures = json.loads(lines[-1])
    assert figures["hard_vs_random_3p"]["games"] == QUICK_GAMES
    assert 0 <= figures["hard_vs_random_3p"]["wins"] <= QUICK_GAMES
    assert figures["detective_wrong_accusations"] == 0
    for table in LINEUPS:
        assert table in figures
    assert 0 < figures["bots_decision_ms_mean"] <= figures["bots_decision_ms_max"]
    assert any(line.startswith("bots: hard vs two random") for line in lines)
    assert any("wrong accusations by the detective" in line for line in lines)
    # a detective's shows, timed by how many named cards it holds (its choice made ahead)
    ahead = figures["bots_show_ms_ahead"]
    assert ahead["one_held"]["shows"] > 0 and ahead["more_held"]["shows"] > 0
    assert figures["bots_show_ms_on_the_spot"]["more_held"]["shows"] == ahead["more_held"][
        "shows"]
    assert figures["bots_show_cards_differing"] == 0
    assert figures["bots_show_ahead_work_ms"]["pieces"] > 0
    goals = {g["name"]: g for g in figures["goals"]}
    tell = goals["bot_show_time_tell_ms"]
    assert tell["figure"] == abs(figures["bots_show_median_diff_ms"])
    assert tell["judged"] and tell["met"], tell
    assert any(line.startswith("bots: show time, worked out ahead") for line in lines)
