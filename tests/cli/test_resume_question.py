"""``join --create`` with an unfinished game on disk, in a real process on a pty read by
pyte: the person asked for a new table, so Enter opens it ([y/N]); the question about the
old game is wrapped between words at 80 columns. (Enter resumed the old game, and the line
broke mid-word.)"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from tests.cli.helpers import cli_env
from tests.cli.test_family_small import _unfinished_game
from tests.tui.drive import PtyProgram


def test_enter_at_the_resume_question_of_create_opens_the_new_table(tmp_path: Path) -> None:
    _unfinished_game(tmp_path)
    env = cli_env(P2PCLUE_HOME=str(tmp_path), LANG="C", TERM="xterm-256color")
    prog = PtyProgram([sys.executable, "-m", "p2pclue", "join", "--create", "--no-code",
                       "--bots", "2", "--name", "Pat", "--lang", "en"], env=env)
    try:
        deadline = time.monotonic() + 120  # a hang guard
        while "Resume it now?" not in prog.text():
            assert prog.proc.poll() is None and time.monotonic() < deadline, prog.text()
            prog.pump(0.2)
        asked = prog.text()
        assert "Resume it now? [y/N]" in asked, asked
        lines = [ln.rstrip() for ln in prog.screen.display if ln.strip()]
        told = lines[:next(i for i, ln in enumerate(lines) if "Resume it now?" in ln)]
        assert " ".join(told) == ("An unfinished game can be resumed (0123456789abcdef): "
                                  "the table may be waiting for you."), asked
        assert len(told) == 2 and all(len(ln) < 80 for ln in told), asked  # between words
        prog.press("\r")  # Enter: the default, no
        while "p2pclue: the lobby" not in prog.text():
            assert prog.proc.poll() is None and time.monotonic() < deadline, prog.text()
            prog.pump(0.2)
    finally:
        prog.close()
