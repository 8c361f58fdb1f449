"""An opener's own bots that cannot sit down end its wait at once, with one line naming the
bot and why; a table name or a profile its bots would refuse is refused before anything
opens. The refusals run ``p2pclue`` in this process (nothing opens, nothing to cross a
process for); what opens a table runs as real processes on loopback."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli.helpers import ROOT, Ran, cli_env, run_main
from tests.net.plain_person import PlainPerson
from tests.tui.drive import PtyProgram, pty_env

HANG = 240
"""Seconds: a process that hangs (the old behaviour: the opener waited for ever) fails the
test instead; a loaded machine takes its time, so this is generous."""


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own profiles, for ``p2pclue`` in this process and the ones it starts."""
    monkeypatch.setenv("P2PCLUE_HOME", str(tmp_path))
    monkeypatch.setenv("P2PCLUE_INTERFACES", "127.0.0.1")
    return tmp_path


def run(*args: str) -> Ran:
    return run_main("--lang", "en", *args)


def opener(*extra: str) -> list[str]:
    return ["join", "--create", "--bot", "random", "--bots", "2", "--no-code",
            "--bot-think", "0", *extra]


def until_the_game_starts(home: Path, *args: str) -> str:
    """Run ``p2pclue ARGS`` (an opener with its bots) until its bots sit down and the game
    starts, then stop it: what it printed. A refused table name or profile would end it
    first, with status 2."""
    out = home / "opener.txt"
    with out.open("w") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "p2pclue", "--lang", "en", *args],
                                stdin=subprocess.DEVNULL, stdout=sink,
                                stderr=subprocess.STDOUT, cwd=ROOT,
                                env=cli_env(P2PCLUE_HOME=str(home)))
    try:
        deadline = time.monotonic() + HANG
        while "the game starts; table check:" not in (said := out.read_text("utf-8")):
            assert proc.poll() is None, f"exited {proc.returncode}:\n{said[-2000:]}"
            assert time.monotonic() < deadline, said[-2000:]
            time.sleep(0.1)
        return said
    finally:
        proc.kill()
        proc.wait(30)


def test_a_long_name_gets_a_default_table_name_that_fits(home: Path) -> None:
    name = "N" * 33  # a valid name; "<name>'s table" is 41 characters
    said = until_the_game_starts(home, *opener("--name", name))
    assert f"table {'N' * 31 + '…' + chr(39) + 's table'!r} open at" in said  # and the bots
    # sat down at it: every guest checks a table's name by the rule the opener applied


@pytest.mark.parametrize("table", ["T" * 41, "a\tb", "line\nbreak"])
def test_a_table_name_guests_would_refuse_is_refused_before_opening(
        home: Path, table: str) -> None:
    done = run(*opener("--table", table))
    assert done.returncode == 2
    assert done.stderr.startswith("p2pclue join: --table is 1-40 printable characters")
    assert "open at" not in done.stdout and "Traceback" not in done.stderr
    done = run("watch", "--table", table, "--peer", "127.0.0.1:9")
    assert done.returncode == 2
    assert done.stderr.startswith("p2pclue watch: --table is 1-40 printable characters")


def test_a_profile_too_long_for_its_bots_is_refused(home: Path) -> None:
    done = run(*opener("--profile", "P" * 36))
    assert done.returncode == 2
    assert "too long for its bots' profiles" in done.stderr
    assert "at most 35 characters" in done.stderr and "Traceback" not in done.stderr
    assert not (home / "profiles").exists(), "refused before any profile was made"
    until_the_game_starts(home, *opener("--profile", "P" * 35))  # its bots sit down
    assert (home / "profiles" / ("P" * 35)).is_dir()


@pytest.mark.parametrize("name", [".", ".."])
def test_dot_profiles_are_refused(home: Path, name: str) -> None:
    done = run(*opener("--profile", name))
    assert done.returncode == 2
    assert "a profile name is" in done.stderr and "Traceback" not in done.stderr
    assert not (home / "identity.pem").exists()


def test_a_timing_file_that_cannot_be_written_is_refused_before_the_game(home: Path) -> None:
    done = run(*opener("--timing", str(home)))
    assert done.returncode == 2
    assert "--timing" in done.stderr and "is a folder" in done.stderr
    assert "open at" not in done.stdout
    done = run(*opener("--timing", str(home / "no" / "t.json")))
    assert done.returncode == 2 and "cannot be written" in done.stderr
    assert "open at" not in done.stdout


def test_a_bot_that_fails_ends_the_openers_wait(tmp_path: Path) -> None:
    """A real process: before the fix it waited for ever (``HANG`` fails it)."""
    (tmp_path / "profiles" / "default.bot1" / "seen-sessions").mkdir(parents=True)
    done = subprocess.run([sys.executable, "-m", "p2pclue", "--lang", "en", *opener()],
                          capture_output=True, text=True, timeout=HANG, cwd=ROOT,
                          env=cli_env(P2PCLUE_HOME=str(tmp_path)))
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert line.startswith("p2pclue join: local bot 1 (profile default.bot1) failed: ")
    assert "seen-sessions is a folder where p2pclue keeps a file" in line
    assert "\n" not in line and "never retrieved" not in done.stderr


def test_a_persons_bot_that_fails_ends_the_plain_lobby(tmp_path: Path) -> None:
    (tmp_path / "profiles" / "default.bot2" / "seen-sessions").mkdir(parents=True)
    person = PlainPerson(tmp_path, tmp_path / "person.txt", "--create", "--no-code",
                         "--bots", "2", "--bot-think", "0", "--name", "Ann")
    try:
        status = person.proc.wait(HANG)
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
        end = time.monotonic() + HANG
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
