"""The sample transcripts judged by a checker written from docs/protocol.md alone
(``cleanroom_checker``, which imports nothing of p2pclue) and by ``p2pclue audit --json`` run
as a real process: the two verdicts must agree (issue 19, point 6)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.engine.cleanroom_checker import names_game, verdict

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "protocol" / "samples"
COMPARED = ("valid", "result", "blamed", "winner", "withheld", "forfeit")


def audit_process(path: Path) -> tuple[int, dict[str, Any]]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "p2pclue", "audit", "--json", str(path)],
                          capture_output=True, text=True, env=env, timeout=600, check=False)
    return done.returncode, json.loads(done.stdout.strip().splitlines()[-1])


def agree(mine: dict[str, Any], code: int, theirs: dict[str, Any]) -> None:
    expected_code = 0 if mine["valid"] else 2 if mine["result"] == "unreadable" else 1
    assert code == expected_code, (mine, theirs)
    for key in COMPARED if mine["result"] != "unreadable" else ("valid", "result"):
        assert mine[key] == theirs[key], (key, mine, theirs)
    if mine.get("violation") is not None:
        for key in ("check", "culprit", "index"):
            assert mine["violation"][key] == theirs["violation"][key], (key, mine, theirs)


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.p2pclue")))
def test_sample_verdicts_agree(name: str) -> None:
    path = SAMPLES / name
    mine = verdict(path.read_bytes())
    code, theirs = audit_process(path)
    agree(mine, code, theirs)


def test_lenient_vectors() -> None:
    vectors = json.loads((ROOT / "protocol" / "vectors" / "lenient-game-v1.json").read_text())
    game = bytes.fromhex(vectors["game"])
    for case in vectors["cases"]:
        assert names_game(bytes.fromhex(case["payload"]), game) == case["names_game"], case["name"]
