"""Lines ``join`` prints where it used to say nothing useful: the last line of a bot's game
that stopped without a transcript file (a full disk, a transcript changed by another
program) says so in words, not Python's ``None``; an empty ``--resume list`` says so."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from p2pclue.bots.protocol import make_config
from p2pclue.cli.join import Printer, _tell
from p2pclue.cli.narrate import Narrator
from p2pclue.net import api
from p2pclue.rules.variants import preset

ROOT = Path(__file__).resolve().parents[2]


def test_an_end_without_a_transcript_says_not_saved(capsys: pytest.CaptureFixture[str]) -> None:
    config, _ = make_config(preset("classic"), 3, seed=3)
    ended = api.Ended("abandoned", None, None,
                      "cannot write the transcript: cannot write t.p2pclue: the disk is full")
    _tell(Narrator(config), ended, Printer(quiet=False), private=True)
    line = capsys.readouterr().out.strip()
    assert line.startswith("game over: abandoned; transcript not saved (audit: cannot write")
    assert "None" not in line


def test_resume_list_with_no_game_says_so(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), P2PCLUE_HOME=str(tmp_path),
               P2PCLUE_INTERFACES="127.0.0.1", LANG="C")
    env.pop("LC_ALL", None)
    env.pop("LC_MESSAGES", None)
    done = subprocess.run([sys.executable, "-m", "p2pclue", "join", "--resume", "list",
                           "--profile", "me"], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == ""
    assert done.stderr.strip() == "no unfinished game in " + str(
        tmp_path / "profiles" / "me" / "games"), done.stderr
