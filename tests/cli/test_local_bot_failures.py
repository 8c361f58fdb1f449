"""An opener's own bots that cannot sit down end its wait at once, with one line naming the
bot and why; a table name or a profile its bots would refuse is refused before anything
opens (real processes on loopback)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli.helpers import ROOT, cli_env
from tests.net.plain_person import PlainPerson
from tests.tui.drive import PtyProgram, pty_env

QUICK = 30
"""Seconds: a process that hangs (the old behaviour) fails the test instead."""


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "p2pclue", "--lang", "en", *args],
                          capture_output=True, text=True, timeout=QUICK, cwd=ROOT,
                          env=cli_env(P2PCLUE_HOME=str(home)))


def opener(*extra: str) -> list[str]:
    return ["join", "--create", "--bot", "random", "--bots", "2", "--no-code",
            "--bot-think", "0", *extra]


def test_a_long_name_gets_a_default_table_name_that_fits(tmp_path: Path) -> None:
    name = "N" * 33  # a valid name; "<name>'s table" is 41 characters
    done = run(tmp_path, *opener("--name", name))
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"table {'N' * 31 + '…' + chr(39) + 's table'!r} open at" in done.stdout


@pytest.mark.parametrize("table", ["T" * 41, "a\tb", "line\nbreak"])
def test_a_table_name_guests_would_refuse_is_refused_before_opening(
        tmp_path: Path, table: str) -> None:
    done = run(tmp_path, *opener("--table", table))
    assert done.returncode == 2
    assert done.stderr.startswith("p2pclue join: --table is 1-40 printable characters")
    assert "open at" not in done.stdout and "Traceback" not in done.stderr
    done = run(tmp_path, "watch", "--table", table, "--peer", "127.0.0.1:9")
    assert done.returncode == 2
    assert done.stderr.startswith("p2pclue watch: --table is 1-40 printable characters")


def test_a_profile_too_long_for_its_bots_is_refused(tmp_path: Path) -> None:
    done = run(tmp_path, *opener("--profile", "P" * 36))
    assert done.returncode == 2
    assert "too long for its bots' profiles" in done.stderr
    assert "at most 35 characters" in done.stderr and "Traceback" not in done.stderr
    assert run(tmp_path, *opener("--profile", "P" * 35, "--quiet")).returncode == 0


@pytest.mark.parametrize("name", [".", ".."])
def test_dot_profiles_are_refused(tmp_path: Path, name: str) -> None:
    done = run(tmp_path, *opener("--profile", name))
    assert done.returncode == 2
    assert "a profile name is" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "identity.pem").exists()


def test_a_timing_file_that_cannot_be_written_is_refused_before_the_game(
        tmp_path: Path) -> None:
    start = time.monotonic()
    done = run(tmp_path, *opener("--timing", str(tmp_path)))
    assert done.returncode == 2
    assert "--timing" in done.stderr and "is a folder" in done.stderr
    assert "open at" not in done.stdout
    done = run(tmp_path, *opener("--timing", str(tmp_path / "no" / "t.json")))
    assert done.returncode == 2 and "cannot be written" in done.stderr
    assert time.monotonic() - start < 10


def test_a_bot_that_fails_ends_the_openers_wait(tmp_path: Path) -> None:
    (tmp_path / "profiles" / "default.bot1" / "seen-sessions").mkdir(parents=True)
    start = time.monotonic()
    done = run(tmp_path, *opener())
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert line.startswith("p2pclue join: local bot 1 (profile default.bot1) failed: ")
    assert "seen-sessions is a folder where p2pclue keeps a file" in line
    assert "\n" not in line and "never retrieved" not in done.stderr
    assert time.monotonic() - start < 15


def test_a_persons_bot_that_fails_ends_the_plain_lobby(tmp_path: Path) -> None:
    (tmp_path / "profiles" / "default.bot2" / "seen-sessions").mkdir(parents=True)
    person = PlainPerson(tmp_path, tmp_path / "person.txt", "--create", "--no-code",
                         "--bots", "2", "--bot-think", "0", "--name", "Ann")
    try:
        status = person.proc.wait(QUICK)
    finally:
        person.stop()
    said = person.said()
    assert status == 2, said[-2000:]
    assert "p2pclue join: local bot 2 (profile default.bot2) failed: " in said
    assert "Traceback" not in said and "never retrieved" not in said


def test_a_persons_bot_that_fails_ends_the_lobby_screen(tmp_path: Path) -> None:
    (tmp_path / "profiles" / "default.bot1" / "seen-sessions").mkdir(parents=True)
    env = pty_env()
    env.update(P2PCLUE_HOME=str(tmp_path), P2PCLUE_INTERFACES="127.0.0.1")
    prog = PtyProgram([sys.executable, "-m", "p2pclue", "--lang", "en", "join", "--create",
                       "--no-code", "--bots", "2", "--bot-think", "0", "--name", "Ann"],
                      columns=200, env=env)
    try:
        end = time.monotonic() + QUICK
        while prog.proc.poll() is None:
            assert time.monotonic() < end, prog.text()
            prog.pump(0.3)
        prog.pump(0.5)
        status = prog.proc.wait(10)
    finally:
        prog.close()
    text = prog.text()
    assert status == 2, text
    assert "p2pclue join: local bot 1 (profile default.bot1) failed: " in text
    assert "Traceback" not in text and "never retrieved" not in text
