"""A path typed on the command line is read as typed: ``simulate --transcript new/`` (or
``join``'s) names a folder, and is refused before anything is written (exit 2) instead of
becoming a file ``new``; ``audit ""`` says the path is empty, where it said "cannot read .:
it is a folder" (``Path("")`` is "."). Real processes, run in a scratch folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.cli.helpers import last_json, p2pclue


@pytest.mark.parametrize("typed", ["new/", "deeper/new/", f"new{os.sep}{os.sep}"])
def test_simulate_refuses_a_transcript_path_ending_in_a_separator(tmp_path: Path,
                                                                  typed: str) -> None:
    done = p2pclue("simulate", "--players", "3", "--seed", "1", "--transcript", typed,
                   "--lang", "en", cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"p2pclue simulate: error: argument --transcript: {typed!r} ends with a separator: "
        "name a file, not a folder")
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == [], "nothing is written"


def test_simulate_refuses_an_empty_transcript_path(tmp_path: Path) -> None:
    done = p2pclue("simulate", "--players", "3", "--seed", "1", "--transcript", "",
                   "--lang", "en", cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.splitlines()[-1] == (
        "p2pclue simulate: error: argument --transcript: the path is empty: name a file")
    assert list(tmp_path.iterdir()) == []


def test_simulate_still_writes_a_transcript_named_as_a_file(tmp_path: Path) -> None:
    done = p2pclue("simulate", "--players", "3", "--seed", "1", "--transcript", "game",
                   "--quiet", "--lang", "en", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["game"]
    assert (tmp_path / "game").stat().st_size > 0


def test_join_refuses_a_transcript_path_ending_in_a_separator(tmp_path: Path) -> None:
    done = p2pclue("join", "--create", "--no-code", "--bots", "2", "--transcript", "x/",
                   "--lang", "cs", cwd=tmp_path, P2PCLUE_HOME=str(tmp_path / "home"))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.splitlines()[-1] == (
        "p2pclue join: chyba: parametr --transcript: 'x/' končí oddělovačem: zadejte soubor, "
        "ne složku")
    assert list(tmp_path.iterdir()) == []


def test_audit_of_an_empty_path_says_it_is_empty(tmp_path: Path) -> None:
    done = p2pclue("audit", "", "--lang", "en", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == "p2pclue audit: the transcript path is empty: name a transcript file\n"
    assert done.stdout == ""


def test_audit_json_of_an_empty_path_is_an_unreadable_verdict(tmp_path: Path) -> None:
    done = p2pclue("audit", "--json", "", "--lang", "fr", cwd=tmp_path)
    assert done.returncode == 2
    verdict = last_json(done.stdout)
    assert verdict["result"] == "unreadable" and verdict["valid"] is False
    assert verdict["error"] == "the transcript path is empty: name a transcript file"
    assert done.stderr == ("p2pclue audit\u202f: le chemin du journal de la partie est "
                           "vide\u202f: indiquez le fichier journal\n")
