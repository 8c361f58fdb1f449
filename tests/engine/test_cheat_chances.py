"""Every cheat gets its chance: every kind, every seat, both presets, 3 to 6 players.

``p2pclue bench --only cheats`` plays that whole sweep. Here: the sweep's cases are the
right ones, and ``p2pclue simulate`` reports a cheat by its exit status (real processes).
Each kind played once and caught: tests/engine/test_cheats.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from p2pclue.bench.cheats import cases
from p2pclue.engine.cheats import CHEATS, PHASED

ROOT = Path(__file__).resolve().parents[2]


def test_the_sweep_covers_every_kind_seat_preset_and_table_size() -> None:
    every = list(cases())
    assert {(c.kind, c.phase) for c in every} == {
        (k, p) for k in CHEATS for p in PHASED.get(k, (None,))}
    for players in range(3, 7):
        seats = {c.cheater for c in every if c.players == players and c.kind == "illegal-move"
                 and c.rules == "cz"}
        assert seats == set(range(players))
    # The one thing that cannot happen: biasing a random weapon placement under fixed weapons.
    assert not [c for c in every if c.kind == "bias-dice" and c.phase == "weapons"
                and c.rules == "cz"]
    assert len(every) == 24 * 2 * 18 - 18


def _simulate(*args: str, prelude: str = "") -> subprocess.CompletedProcess[str]:
    code = prelude + "import sys\nfrom p2pclue.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code, "simulate", *args], env=env,
                          capture_output=True, text=True, timeout=600, check=False)


def test_illegal_move_by_the_last_seat_fires_and_blames_it() -> None:
    # The reported run: seat 3 rolled, moved legally and the game was won, exit 0.
    out = _simulate("--cheat", "illegal-move", "--cheater", "3", "--players", "4",
                    "--seed", "16", "--quiet", "--json")
    assert out.returncode == 3, out.stdout + out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["result"] == "halted"
    assert result["blamed"] == 3
    assert result["reason"].startswith("R13: ")
    assert "R13: R13" not in out.stdout


def test_a_cheat_that_never_happens_is_reported_with_its_own_exit_status() -> None:
    # Fault injection: a cheater that never finds its moment (cannot be caused otherwise,
    # since every kind now makes its chance). The game ends normally; the run must not
    # pass for a success.
    never = ("import p2pclue.engine.cheats as c\n"
             "c.CheatingPeer._try_cheat = lambda self: None\n")
    out = _simulate("--cheat", "bad-decrypt", "--cheat-phase", "open", "--cheater", "1",
                    "--players", "3", "--seed", "4", "--quiet", prelude=never)
    assert out.returncode == 4, out.stdout + out.stderr
    assert "the cheat never happened" in out.stdout.lower()


def test_a_cheat_impossible_under_the_rules_is_a_usage_error() -> None:
    out = _simulate("--cheat", "bias-dice", "--cheat-phase", "weapons", "--rules", "cz",
                    "--players", "3", "--seed", "1")
    assert out.returncode == 2
    assert "cannot happen" in out.stderr
    assert "Traceback" not in out.stderr
