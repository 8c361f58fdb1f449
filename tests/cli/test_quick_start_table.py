"""The README's first command must reach the game with nothing but the person's seat.

``join --create --bots 2`` seats two bots: with no ``--players`` the table has three
seats, so the game starts as soon as they sit down; with more seats the bots say they are
ready, so the person's ``r`` starts the game with the seats still free. Plain mode over
pipes, every link on 127.0.0.1.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.cli.helpers import ROOT, cli_env

JOIN = [sys.executable, "-m", "p2pclue", "join", "--create", "--no-code", "--bots", "2",
        "--plain", "--bot-think", "0", "--lang", "en"]


def _until(proc: subprocess.Popen[str], out: Path, text: str, timeout: float) -> str:
    """What the process said, once it said ``text``; ``timeout`` is a hang guard."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        said = out.read_text("utf-8", "replace")
        if text in said:
            return said
        assert proc.poll() is None, said[-3000:]
        time.sleep(0.1)
    raise AssertionError(f"no {text!r} in {timeout} s:\n{out.read_text()[-3000:]}")


def _start(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[str], Path]:
    out = tmp_path / "out.txt"
    with out.open("w") as sink:
        proc = subprocess.Popen([*JOIN, *extra], stdin=subprocess.PIPE, stdout=sink,
                                stderr=subprocess.STDOUT, text=True, cwd=ROOT,
                                env=cli_env(P2PCLUE_HOME=str(tmp_path / "home")))
    return proc, out


def test_bots_only_table_starts_by_itself(tmp_path: Path) -> None:
    proc, out = _start(tmp_path)
    try:
        said = _until(proc, out, "Table check:", 180)
        assert "3/3 seats" in said
    finally:
        proc.kill()
        proc.wait(10)


def test_with_free_seats_the_persons_ready_starts_the_game(tmp_path: Path) -> None:
    proc, out = _start(tmp_path, "--players", "4")
    assert proc.stdin is not None
    try:
        said = _until(proc, out, "Bruno (medium bot)", 180)
        _until(proc, out, "Chiara (medium bot)", 180)
        assert "Table check:" not in said  # a free seat: nobody said "ready" yet
        proc.stdin.write("r\n")
        proc.stdin.flush()
        said = _until(proc, out, "Table check:", 180)
        assert "3/4 seats" in said
    finally:
        proc.kill()
        proc.wait(10)
