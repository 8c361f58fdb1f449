"""A person's ``--bots`` live in the person's process: they must not take the game with them.

- The person leaves gracefully on the full-screen table (``q``, ``l``) and closes it: the
  bots play the game to its end before the process exits, their transcripts are finished,
  identical and valid, and the person is not offered to "resume" a game it left.
- The person quits to resume later (``q``, ``y``): the same ``join`` then asks to resume,
  and the person and both bots come back together and finish the game.

Real processes on a real pseudo-terminal (pyte) or pipes; every link on 127.0.0.1.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli.helpers import ROOT, run_main
from tests.net.test_resume_person import Person
from tests.tui.drive import PtyProgram, next_keys, press_and_read, pty_env

FAST = ["--bot-think", "0", "--pass-delay", "0.05"]
"""No pause before a bot acts, and a person's "cannot refute" held 0.05 s, not 1-3 s (pacing):
these tests are about who stays and who resumes, and a resumed ``join`` reads them again."""
JOIN = [sys.executable, "-m", "p2pclue", "join", "--create", "--no-code", "--bots", "2",
        "--lang", "en", "--name", "Pat", *FAST]


def _env(home: Path) -> dict[str, str]:
    env = pty_env()
    env.update(P2PCLUE_HOME=str(home), P2PCLUE_INTERFACES="127.0.0.1", LANG="C")
    env.pop("LC_ALL", None)
    return env


def _transcripts(home: Path, profile: str) -> list[Path]:
    return sorted((home / "profiles" / profile / "games").glob("*/transcript.p2pclue"))


def _audit(path: Path) -> None:
    done = run_main("audit", str(path))  # in this process: the audit is not tested here
    assert done.returncode == 0 and "VALID" in done.stdout, done.stdout + done.stderr


def test_bots_finish_the_game_a_person_left(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    env = _env(home)
    prog = PtyProgram(JOIN, env=env)
    try:
        deadline = time.monotonic() + 240
        leaving = False
        while "left the table" not in prog.text():
            assert time.monotonic() < deadline, prog.text()
            assert prog.proc.poll() is None, prog.text()
            bar, key = prog.bar(), None
            if "l:" in bar and "leave" in bar:  # the quit question: leave, cards face up
                key, leaving = "l", True
            elif not leaving and "q:quit" in bar and next_keys(bar) is not None:
                key = "q"  # our move: go instead (once: the leave then goes out by itself)
            press_and_read(prog, key, lambda: "left the table" in prog.text())
        prog.pump_until(lambda: "q:leave" in prog.bar(), what="the end screen's keys")
        prog.press("q")  # close the table; the bots play on in this process
        prog.proc.wait(240)
        assert prog.proc.returncode == 0, prog.text()
    finally:
        prog.close()
    bots = [_transcripts(home, f"default.bot{k}") for k in (1, 2)]
    assert all(len(found) == 1 for found in bots), bots
    data = {found[0].read_bytes() for found in bots}
    assert len(data) == 1, "the two bots end with the same transcript"
    _audit(bots[0][0])
    monkeypatch.setenv("P2PCLUE_HOME", str(home))
    listed = run_main("join", "--resume", "list")
    assert listed.stdout.strip() == "", "a game the person left is not offered to resume"


def test_a_person_quits_then_resumes_with_the_bots(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = _env(home)
    first = subprocess.Popen([*JOIN, "--plain"], stdin=subprocess.PIPE,
                             stdout=(tmp_path / "first.txt").open("w"),
                             stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
    assert first.stdin is not None
    try:
        deadline = time.monotonic() + 240
        while not any(ask in (tmp_path / "first.txt").read_text()
                      for ask in ("Your turn:", "asks you to refute")):
            assert time.monotonic() < deadline, (tmp_path / "first.txt").read_text()
            time.sleep(0.2)
        first.stdin.write("q\ny\n")  # quit now, resume later
        first.stdin.flush()
        first.wait(120)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(10)
    said = (tmp_path / "first.txt").read_text()
    assert first.returncode == 0, said[-3000:]
    again = Person(env, tmp_path / "again.txt", "--lang", "en", *FAST, first="y")
    try:
        again.proc.wait(480)
    finally:
        again.stop()
    said = again.said()
    assert again.proc.returncode == 0, said[-3000:]
    assert "Resumed:" in said and "valid (" in said, said[-3000:]
    files = [_transcripts(home, p) for p in ("default", "default.bot1", "default.bot2")]
    assert all(len(found) == 1 for found in files), files
    assert len({found[0].read_bytes() for found in files}) == 1
    _audit(files[0][0])
