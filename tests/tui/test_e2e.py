"""End to end: the real program in a real pseudo-terminal, a person's keys, a whole game.

The UI runs as its own process (``python -m p2pclue.tui``) on a pty whose output is
interpreted by pyte; the test reads the screen like a player and presses keys by
what the action bar offers, until the end screen; the saved transcript must then
pass ``p2pclue audit`` (run in this process: the audit is not what is tested here).
Also: ``--plain`` over pipes, and the not-a-terminal message.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.cli.helpers import run_main
from tests.tui.drive import ROOT, PtyProgram, play_to_the_end, pty_env


def test_a_whole_game_by_keys_in_a_real_terminal(tmp_path: Path) -> None:
    prog = PtyProgram([sys.executable, "-m", "p2pclue.tui", "--bots", "2", "--seed", "11",
                       "--fast", "--transcripts", str(tmp_path)])
    try:
        presses, _seen = play_to_the_end(prog, 600)
        prog.pump_until(lambda: "Every hand, revealed and checked" in prog.text(),
                        what="the hands read back from the transcript")
        end = prog.text()
        assert "The game is over" in end
        assert "The envelope:" in end
        assert "audit: valid" in end
        assert "Every hand, revealed and checked" in end
        assert presses > 5
        assert "Transcript (complete): " in end
        assert str(tmp_path)[:30] in end.replace("\n", "")
        prog.press("q")
        prog.proc.wait(30)
        assert prog.proc.returncode == 0
    finally:
        prog.close()
    files = list(tmp_path.glob("*.p2pclue"))
    assert len(files) == 1
    audit = run_main("audit", str(files[0]))
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "VALID" in audit.stdout


def test_plain_mode_plays_by_typed_numbers(tmp_path: Path) -> None:
    answers = "1\n" * 3000
    proc = subprocess.run(
        [sys.executable, "-m", "p2pclue.tui", "--plain", "--players", "3", "--seed", "5",
         "--fast", "--transcripts", str(tmp_path)],
        input=answers, capture_output=True, text=True, timeout=240, env=pty_env(), cwd=ROOT)
    out = proc.stdout
    assert proc.returncode == 0, out[-2000:] + proc.stderr
    assert "Dealing: " in out
    assert "Your turn:" in out and "1. roll the die" in out
    assert "audit: valid" in out
    assert len(list(tmp_path.glob("*.p2pclue"))) == 1


def test_not_a_terminal_says_so(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "p2pclue.tui", "--bots", "2", "--fast",
         "--transcripts", str(tmp_path)],
        capture_output=True, text=True, timeout=60, env=pty_env(), cwd=ROOT,
        stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert "not a terminal" in proc.stderr
    assert "--plain" in proc.stderr and "--bot" in proc.stderr and "watch" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_plain_mode_leaves_gracefully_and_the_game_goes_on(tmp_path: Path) -> None:
    """Typed ``leave`` then ``l`` at the first question: the hand goes public, the bots
    play to the end, and the transcript audits valid."""
    proc = subprocess.run(
        [sys.executable, "-m", "p2pclue.tui", "--plain", "--players", "3", "--seed", "5",
         "--fast", "--transcripts", str(tmp_path)],
        input="leave\nl\n", capture_output=True, text=True, timeout=240, env=pty_env(), cwd=ROOT)
    out = proc.stdout
    assert proc.returncode == 0, out[-2000:] + proc.stderr
    assert "l: leave gracefully" in out
    assert "You will leave as soon as the table waits for you." in out
    assert "audit: valid" in out
    files = list(tmp_path.glob("*.p2pclue"))
    assert len(files) == 1
    audit = run_main("audit", str(files[0]))
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "VALID" in audit.stdout and "left" in audit.stdout.lower()
