"""A person out after a wrong accusation leaves the table, and is not offered it to resume.

``p2pclue join --create --bots 2`` on a real pseudo-terminal (pyte); the bots live in the
person's process, every seat a real peer on loopback links. At its first turn the person
accuses (Enter, Enter, Enter: never cards of its own hand) and is out. It then asks to go
(``q``). It used to be offered only "y: leave" (the game then stopped for everyone, and
``join`` offered the person that game to resume); now it leaves gracefully (``l``): its
leave goes out at its next refutation (an eliminated player is awaited only to refute), the
bots play on, and no game is offered for resume, then or after the process ends.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli.helpers import ROOT
from tests.tui.drive import PtyProgram, next_keys
from tests.tui.test_local_bots_stay import JOIN, _audit, _env, _transcripts


def _resumable(env: dict[str, str]) -> str:
    listed = subprocess.run([sys.executable, "-m", "p2pclue", "join", "--resume", "list"],
                            env=env, capture_output=True, text=True, timeout=60, cwd=ROOT)
    return listed.stdout.strip()


def test_a_person_out_after_a_wrong_accusation_leaves_for_good(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = _env(home)
    prog = PtyProgram(JOIN, env=env)
    try:
        deadline = time.monotonic() + 180
        accused = False
        while "(out)" not in prog.text():  # the status line: "you: <suspect> (out)"
            assert time.monotonic() < deadline, prog.text()
            assert prog.proc.poll() is None, prog.text()
            prog.pump(0.3)
            bar = prog.bar()
            if accused and "q:leave" in bar:  # the end screen: the accusation was right
                pytest.skip("the first accusation happened to be right (about 1 in 300)")
            if "a:accuse" in bar and "r:roll" in bar and not accused:  # our turn: accuse
                accused = True
                for key in ("a", "\r", "\r", "\r", "y"):
                    prog.press(key)
                    prog.pump(0.3)
            elif (key := next_keys(bar)) is not None:
                prog.press(key)
        asked = False
        deadline = time.monotonic() + 240
        while prog.proc.poll() is None:
            assert time.monotonic() < deadline, prog.text()
            prog.pump(0.3)
            bar = prog.bar()
            if "l:" in bar and "leave" in bar:  # the quit question: leave, cards face up
                prog.press("l")
            elif "y:" in bar and "leave" in bar:  # the only way out offered (before the fix)
                prog.press("y")
            elif "q:leave" in bar:  # the end screen (our leave is in), or the game's end
                prog.press("q")
            elif not asked and "q:quit" in bar:
                asked = True
                prog.press("q")
        assert prog.proc.wait(10) == 0, prog.text()
    finally:
        prog.close()
    assert _resumable(env) == "", "a game this player left is not offered to resume"
    bots = [_transcripts(home, f"default.bot{k}") for k in (1, 2)]
    assert all(len(found) == 1 for found in bots), bots
    assert len({found[0].read_bytes() for found in bots}) == 1, "the bots end with one transcript"
    _audit(bots[0][0], env)
