"""The command line as a user meets it: exit codes, --help, JSON lines, bad input (``main``
in this process; the seeded game of ``conftest.py`` for what a whole game prints)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from p2pclue.cli import main
from p2pclue.engine.cheats import CHEATS
from tests.cli.conftest import Game
from tests.cli.helpers import ROOT, cli_env, run_main


def last_json(out: str) -> dict[str, object]:
    line = out.strip().splitlines()[-1]
    obj = json.loads(line)
    assert isinstance(obj, dict)
    return obj


@pytest.mark.parametrize("cmd", ["join", "simulate", "audit", "bench"])
def test_every_subcommand_has_help(cmd: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([cmd, "--help"])
    assert exc.value.code == 0
    assert "usage: p2pclue " + cmd in capsys.readouterr().out


def test_list_cheats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--list-cheats"]) == 0
    assert capsys.readouterr().out.split() == list(CHEATS)


def test_simulate_then_audit(three_players: Game) -> None:
    sim = last_json(three_players.told.stdout)
    assert sim["result"] in ("won", "nobody") and sim["blamed"] is None
    checked = run_main("audit", str(three_players.transcript), "--json")
    assert checked.returncode == 0
    verdict = last_json(checked.stdout)
    assert verdict["valid"] is True and verdict["result"] == sim["result"]
    assert verdict["winner"] == sim["winner"] and verdict["turns"] == sim["turns"]
    assert verdict["transcript_sha256"] == sim["transcript_sha256"]
    assert three_players.replay.returncode == 0
    told = three_players.replay.stdout
    assert "was dealt " in told and re.search(r"shows \w+ (the|[A-Z])", told) and "VALID" in told


def test_simulate_cheat_exits_3_and_audit_confirms(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "halted.p2pclue"
    assert main(["simulate", "--players", "3", "--seed", "2", "--json", "--cheat",
                 "bias-dice", "--cheater", "2", "--transcript", str(path)]) == 3
    sim = last_json(capsys.readouterr().out)
    assert sim["result"] == "halted" and sim["blamed"] == 2
    assert str(sim["reason"]).startswith("randomness")
    assert main(["audit", str(path)]) == 1
    out = capsys.readouterr().out
    assert "VIOLATION" in out and "culprit: Chiara (seat 2, " in out


def test_audit_of_garbage_or_missing_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk"
    junk.write_bytes(b"not a transcript at all")
    assert main(["audit", str(junk)]) == 2
    assert main(["audit", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert "not a readable transcript" in err and "cannot read" in err
    assert "Traceback" not in err


def test_simulate_rejects_a_cheater_outside_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "3", "--cheat", "replay", "--cheater", "5"]) == 2
    assert main(["simulate", "--players", "3", "--cheat", "replay", "--cheat-phase", "deal"]) == 2


def test_the_parser_knows_every_bench_section_without_importing_one() -> None:
    """``p2pclue join`` (any command) builds the whole parser; the bench's sections load
    only when ``bench`` runs: their names are listed apart, and must match."""
    from p2pclue.bench import SECTION_NAMES, sections

    assert tuple(sections()) == SECTION_NAMES
    probe = subprocess.run(
        [sys.executable, "-c", "import sys; from p2pclue.cli import build_parser; "
         "build_parser(); print(sorted(m for m in sys.modules if m.startswith('p2pclue.bench')))"],
        capture_output=True, text=True, timeout=60, cwd=ROOT, env=cli_env())
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == "['p2pclue.bench']", probe.stdout
