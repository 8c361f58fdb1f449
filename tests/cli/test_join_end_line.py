"""Lines ``join`` prints where it used to say nothing useful: the last line of a bot's game
that stopped without a transcript file (a full disk, a transcript changed by another
program) says so in words, not Python's ``None``; an empty ``--resume list`` says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pclue.bots.protocol import make_config
from p2pclue.cli.join import Printer, _tell
from p2pclue.cli.narrate import Narrator
from p2pclue.net import api
from p2pclue.rules.variants import preset
from tests.cli.helpers import run_main


def test_an_end_without_a_transcript_says_not_saved(capsys: pytest.CaptureFixture[str]) -> None:
    config, _ = make_config(preset("classic"), 3, seed=3)
    ended = api.Ended("abandoned", None, None,
                      "cannot write the transcript: cannot write t.p2pclue: the disk is full")
    _tell(Narrator(config), ended, Printer(quiet=False), private=True)
    line = capsys.readouterr().out.strip()
    assert line.startswith("game over: abandoned; transcript not saved (audit: cannot write")
    assert "None" not in line


def test_resume_list_with_no_game_says_so(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("P2PCLUE_HOME", str(tmp_path))
    done = run_main("join", "--resume", "list", "--profile", "me")
    assert done.returncode == 0 and done.stdout == ""
    assert done.stderr.strip() == "no unfinished game in " + str(
        tmp_path / "profiles" / "me" / "games"), done.stderr
