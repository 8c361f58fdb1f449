"""``p2pclue join`` speaks the player's language: lobby, start, story and end.

A whole table in one process (``--bots``: each bot a full peer with its own keys and
links on 127.0.0.1), once per language; the lines are compared with the catalog's
translations, so a message that slipped out of ``_()`` shows up in English here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from p2pclue.i18n import LANGUAGES, _, install, outcome_word

ROOT = Path(__file__).resolve().parents[2]
GAME_TIMEOUT = 240


def _head(template: str) -> str:
    """The fixed words of a message up to its first field."""
    return template.split("{")[0].strip()


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_a_whole_table_in_each_language(lang: str, tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), P2PCLUE_HOME=str(tmp_path / "home"),
               P2PCLUE_INTERFACES="127.0.0.1", LANG="C", LC_ALL="", LC_MESSAGES="")
    done = subprocess.run(
        [sys.executable, "-m", "p2pclue", "join", "--create", "--no-code", "--players", "3",
         "--bot", "random", "--bots", "2", "--lang", lang, "--json"],
        env=env, capture_output=True, text=True, timeout=GAME_TIMEOUT)
    assert done.returncode == 0, done.stderr[-3000:]
    told = done.stderr  # with --json the story goes to stderr, the result to stdout
    install(lang)
    try:
        for template in ("you are {name}; your key's fingerprint: {key}",
                         "Table {name}: {rules} rules, {taken}/{wanted} seats",
                         "the game starts; table check: {check} (compare it aloud: every "
                         "screen shows the same)",
                         "{player} is here",
                         "game over: {status}; transcript {path} (audit: {audit})"):
            local = _(template)
            assert local != template
            words = _head(local) or local.split("}")[-1].strip()
            assert words and words in told, (template, words)
        assert outcome_word("complete") in told
    finally:
        install("en")
    for english in ("the game starts", "table check:", "game over:", " is here", "seats"):
        assert english not in told, english
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["result"] in ("won", "nobody")  # --json never changes with the language
    assert "Traceback" not in told


def test_usage_errors_in_the_players_language(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), P2PCLUE_HOME=str(tmp_path / "home"))
    done = subprocess.run(
        [sys.executable, "-m", "p2pclue", "join", "--bots", "2", "--bot", "random",
         "--lang", "cs"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "přidejte --create" in done.stderr and "Traceback" not in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "p2pclue", "watch", "--peer", "127.0.0.1:9", "--lang", "fr"],
        env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--peer demande --table NAME" in done.stderr
