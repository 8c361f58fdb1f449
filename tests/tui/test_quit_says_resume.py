"""After "y: quit now" the full screen is gone; the terminal keeps a line saying the table
waits and how to come back (review: the shell prompt came back with no word at all).

``p2pclue join --create --bots 2`` on a real pseudo-terminal (pyte), every link on loopback.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.cli.helpers import run_main
from tests.tui.drive import PtyProgram
from tests.tui.test_local_bots_stay import JOIN, _env


def test_quit_to_resume_later_says_how_to_come_back(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    env = _env(tmp_path / "home")
    prog = PtyProgram(JOIN, env=env)
    try:
        deadline = time.monotonic() + 240
        while "r:roll" not in prog.bar():  # the game is on and it is our turn
            assert time.monotonic() < deadline and prog.proc.poll() is None, prog.text()
            prog.pump(0.3)
        prog.press("q")
        prog.pump_until(lambda: "y: quit" in prog.text(), what="the quit question")
        prog.press("y")
        deadline = time.monotonic() + 120
        while prog.proc.poll() is None:
            assert time.monotonic() < deadline, prog.text()
            prog.pump(0.3)
        prog.pump(0.5)  # what it wrote last; it has exited, so no more comes
        assert prog.proc.returncode == 0
        shown = " ".join(prog.text().split())
        assert "The table waits for you; come back with p2pclue join --resume." in shown, shown
    finally:
        prog.close()
    monkeypatch.setenv("P2PCLUE_HOME", str(tmp_path / "home"))
    listed = run_main("join", "--resume", "list")
    assert listed.returncode == 0 and listed.stdout.strip(), listed.stdout + listed.stderr
