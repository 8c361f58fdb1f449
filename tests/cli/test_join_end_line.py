"""The last line a bot's ``join`` prints when its game stops without a transcript file
(a full disk, a transcript changed by another program): words, not Python's ``None``."""

from __future__ import annotations

import pytest

from p2pclue.bots.protocol import make_config
from p2pclue.cli.join import Printer, _tell
from p2pclue.cli.narrate import Narrator
from p2pclue.net import api
from p2pclue.rules.variants import preset


def test_an_end_without_a_transcript_says_not_saved(capsys: pytest.CaptureFixture[str]) -> None:
    config, _ = make_config(preset("classic"), 3, seed=3)
    ended = api.Ended("abandoned", None, None,
                      "cannot write the transcript: cannot write t.p2pclue: the disk is full")
    _tell(Narrator(config), ended, Printer(quiet=False), private=True)
    line = capsys.readouterr().out.strip()
    assert line.startswith("game over: abandoned; transcript not saved (audit: cannot write")
    assert "None" not in line
