"""``p2pclue join`` speaks the player's language: lobby, start, story and end.

One table of five ``join --bot`` processes on 127.0.0.1 (the opener and four joiners by
``--peer``), each in another of the five languages besides English; every process's
lines are compared with its catalog's translations, so a message that slipped out of
``_()`` shows up in English here.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from p2pclue.i18n import LANGUAGES, _, install, outcome_word
from tests.net.inproc import run_main
from tests.net.procs import Procs
from tests.net.test_lan_processes import check_same_and_valid, results

TEMPLATES = ("you are {name}; your key's fingerprint: {key}",
             "Table {name}: {rules} rules, {seats}",
             "the game starts; table check: {check} (compare it aloud: every screen shows the "
             "same)",
             "{player} is here",
             "game over: {status}; transcript {path} (audit: {audit})")


def _head(template: str) -> str:
    """The fixed words of a message up to its first field."""
    return template.split("{")[0].strip()


def _told_in(lang: str, told: str) -> None:
    """``told`` (a process's story) is in ``lang``, none of it in English."""
    install(lang)
    try:
        for template in TEMPLATES:
            local = _(template)
            assert local != template
            words = _head(local) or local.split("}")[-1].strip()
            assert words and words in told, (lang, template, words)
        assert outcome_word("complete") in told
    finally:
        install("en")
    for english in ("the game starts", "table check:", "game over:", " is here", "seats"):
        assert english not in told, (lang, english)
    assert "Traceback" not in told


def test_a_table_of_five_languages(procs: Procs) -> None:
    first, *others = sorted(set(LANGUAGES) - {"en"})
    table = f"l-{uuid.uuid4().hex[:6]}"
    opener = procs.p2pclue(first, "join", "--create", "--table", table, "--no-code",
                           "--players", str(1 + len(others)), "--bot", "detective",
                           "--profile", first, "--lang", first, "--json")
    port = opener.wait_for(r"127\.0\.0\.1:(\d+)").group(1)
    joiners = [procs.p2pclue(lang, "join", "--peer", f"127.0.0.1:{port}", "--table", table,
                             "--bot", "detective", "--profile", lang, "--lang", lang, "--json")
               for lang in others]
    started = [opener, *joiners]
    found = results(started)
    check_same_and_valid(found, len(started))  # --json never changes with the language
    for lang, p in zip([first, *others], started, strict=True):
        _told_in(lang, p.err())  # with --json the story goes to stderr, the result to stdout


def test_usage_errors_in_the_players_language(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    ran = run_main(monkeypatch, capsys, tmp_path, "join", "--bots", "2", "--bot", "random",
                   "--lang", "cs")
    assert ran.code == 2
    assert "přidejte --create" in ran.err and "Traceback" not in ran.err
    ran = run_main(monkeypatch, capsys, tmp_path, "watch", "--peer", "127.0.0.1:9", "--lang",
                   "fr")
    assert ran.code == 2
    assert "--peer demande --table NAME" in ran.err
