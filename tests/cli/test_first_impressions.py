"""Issue 10 through the command: quiet results, transcript paths, cheat options,
audit --json on unreadable files, honest help, and the story on a terminal.

``p2pclue`` runs in this process (``run_main``) where only its output is at stake; a real
process where the process is: a killed game, a write failing under a file-size limit, the
colours and the progress line on a real terminal. The stories are those of the two seeded
games in ``conftest.py``."""

from __future__ import annotations

import hashlib
import re
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import build, parse
from p2pclue.net.store import StoreError, read_unfinished

from .conftest import Game
from .helpers import ROOT, cli_env, last_json, on_terminal, run_main

ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*m")
COORDINATES = re.compile(r"\(\d+, \d+\)")
ARTICLE_BEFORE_PERSON = re.compile(
    r"\bthe (Miss|Colonel|Mrs|Reverend|Professor) ", re.IGNORECASE)


def test_quiet_prints_only_the_result(three_players: Game) -> None:
    done = run_main("simulate", "--players", "3", "--seed", "5", "--quiet")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1 and re.search(r"wins!|nobody wins", lines[0]), done.stdout
    assert "The envelope held" in lines[0] and "Turn" not in done.stdout
    assert lines[0] in three_players.told.stdout.splitlines(), "the same game's result line"
    both = run_main("simulate", "--players", "3", "--seed", "5", "--quiet", "--json")
    assert both.stdout.strip().splitlines()[0] == lines[0]
    assert last_json(both.stdout) == last_json(three_players.told.stdout)


@pytest.fixture
def places(tmp_path: Path) -> Iterator[dict[str, Path]]:
    locked = tmp_path / "locked"
    locked.mkdir()
    read_only = tmp_path / "read-only.p2pclue"
    read_only.write_bytes(b"an older game")
    read_only.chmod(0o444)
    locked.chmod(0o555)
    try:
        yield {"dir": tmp_path, "locked": locked, "read_only": read_only}
    finally:
        locked.chmod(0o755)
        read_only.chmod(0o644)


def test_bad_transcript_paths_fail_before_the_game(places: dict[str, Path]) -> None:
    cases = {
        str(places["dir"]): "is a folder",
        str(places["dir"] / "missing" / "game.p2pclue"): "does not exist",
        str(places["dir"] / ("g" * 300)): "too long",
        str(places["read_only"]): "read-only",
        str(places["locked"] / "game.p2pclue"): "permission denied",
    }
    for path, message in cases.items():
        done = run_main("simulate", "--players", "6", "--seed", "1", "--transcript", path)
        assert done.returncode == 2, (path, done.stdout, done.stderr)
        assert message in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.startswith("p2pclue simulate: ")
        assert len(done.stderr.strip().splitlines()) == 1
        assert "Turn" not in done.stdout and done.stdout == "", "checked before the game"
    assert places["read_only"].read_bytes() == b"an older game"
    assert list(places["locked"].iterdir()) == []
    empty = run_main("simulate", "--players", "6", "--seed", "1", "--transcript", "")
    assert empty.returncode == 2 and empty.stdout == "", "an empty path is a usage error"
    assert empty.stderr.splitlines()[-1].endswith("--transcript: the path is empty: name a file")
    assert "Traceback" not in empty.stderr


def test_a_device_is_no_transcript() -> None:
    """/dev/full is refused before the game (only regular files are transcripts); a write
    that fails mid-game is the next test, with a real write failure."""
    done = run_main("simulate", "--players", "3", "--seed", "1", "--transcript", "/dev/full")
    assert done.returncode == 2 and "not a regular file" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_a_write_failing_mid_game_is_a_clear_message(tmp_path: Path) -> None:
    """A real fault, not a mock: the file-size limit (RLIMIT_FSIZE) makes a write fail with
    EFBIG once the transcript passes 20 kB, in the middle of the deal."""
    path = tmp_path / "limited.p2pclue"

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))

    done = subprocess.run(
        [sys.executable, "-m", "p2pclue", "simulate", "--players", "3", "--seed", "1",
         "--transcript", str(path)],
        capture_output=True, text=True, env=cli_env(), timeout=300, preexec_fn=limit)
    assert done.returncode == 2, done.stderr
    assert "the transcript could not be written" in done.stderr
    assert "file is too large" in done.stderr and "Traceback" not in done.stderr
    _, entries = read_unfinished(path)
    assert entries and path.stat().st_size <= 20_000, "what was written before is kept"


def test_the_transcript_matches_the_result_and_audits(three_players: Game) -> None:
    path, done = three_players.transcript, three_players.told
    result = last_json(done.stdout)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == result["transcript_sha256"]
    assert f"p2pclue audit {path}" in done.stdout
    checked = run_main("audit", str(path), "--json")
    assert checked.returncode == 0 and last_json(checked.stdout)["valid"] is True


def test_a_killed_game_keeps_what_was_played(tmp_path: Path) -> None:
    path = tmp_path / "killed.p2pclue"
    proc = subprocess.Popen(
        [sys.executable, "-m", "p2pclue", "simulate", "--players", "3", "--seed", "3",
         "--quiet", "--transcript", str(path)],
        env=cli_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    entries: list[bytes] = []
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                config, entries = read_unfinished(path)
            except StoreError:
                entries = []
            if len(entries) >= 25:  # past the deal (18 messages for three players)
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the game ended before it could be interrupted"
        proc.send_signal(signal.SIGKILL)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
    config, entries = read_unfinished(path)
    assert len(entries) >= 25
    kept = build(config, entries, "abandoned")
    verdict = audit(parse(kept.to_bytes()))
    assert verdict.valid and verdict.result == "abandoned", verdict.violation


@pytest.mark.parametrize("options", [["--cheater", "1"], ["--cheat-phase", "deal"],
                                     ["--cheater", "2", "--cheat-phase", "deal"]])
def test_cheat_options_without_cheat_are_usage_errors(options: list[str]) -> None:
    done = run_main("simulate", "--players", "3", *options)
    assert done.returncode == 2 and done.stdout == ""
    assert "usage: p2pclue simulate" in done.stderr
    assert "with --cheat KIND" in done.stderr and "Traceback" not in done.stderr


def test_a_phase_the_cheat_does_not_have_is_a_usage_error() -> None:
    done = run_main("simulate", "--players", "3", "--cheat", "replay", "--cheat-phase", "deal")
    assert done.returncode == 2 and "does not apply to --cheat replay" in done.stderr


def test_audit_json_always_ends_with_a_verdict(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage"
    garbage.write_bytes(b"not a transcript")
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    for path in (tmp_path / "missing", tmp_path, garbage, empty):
        done = run_main("audit", str(path), "--json")
        assert done.returncode == 2, done.stderr
        verdict = last_json(done.stdout)
        assert verdict["valid"] is False and verdict["result"] == "unreadable"
        assert str(path) in verdict["error"] and "Traceback" not in done.stderr
    garbage_verdict = last_json(run_main("audit", str(garbage), "--json").stdout)
    assert garbage_verdict["transcript_sha256"] == hashlib.sha256(b"not a transcript").hexdigest()


def test_help_says_what_works_now() -> None:
    top = run_main("--help")
    assert top.returncode == 0 and "not built" not in top.stdout
    for command in ("join", "watch", "simulate", "audit", "bench"):
        assert command in top.stdout
    join = run_main("join", "--help")
    assert join.returncode == 0 and "not built" not in join.stdout
    assert "--create" in join.stdout and "--bots" in join.stdout
    assert "--plain" in join.stdout and "--level" in join.stdout
    tried = run_main("join")  # no terminal to draw on, and it says what to do (a real
    assert tried.returncode == 2 and "not a terminal" in tried.stderr  # process with a
    assert "--plain" in tried.stderr and "Traceback" not in tried.stderr  # pipe: test_join_e2e)


def test_the_story_reads_like_a_story(four_players: Game) -> None:
    told, replay, summary = four_players.told, four_players.replay, four_players.summary
    for text in (told.stdout, replay.stdout):
        assert not ARTICLE_BEFORE_PERSON.search(text), ARTICLE_BEFORE_PERSON.search(text)
        assert not COORDINATES.search(text), "coordinates belong to --json"
        assert not ANSI_COLOUR.search(text), "no colours through a pipe"
        story = text.split("Around the table")[1].split("\ntranscript ")[0]
        assert "seat " not in story, "players are called by their names"
        assert re.search(r"Turn \d+: Ada \((Miss|Colonel|Mrs|Reverend|Professor) \w+\)", text)
        assert "steps from the " in text and "goes into the " in text
        # R22 (seed 5 has two): a player brought into a room by another's suggestion.
        assert re.search(r"\w+ was brought into the [\w ]+ by \w+'s suggestion, so may "
                         r"suggest there without rolling\.", text), text
        winner = re.search(r"(\w+) \(([\w. ]+)\) wins!", text)
        assert winner, text
    assert winner is not None
    assert "was dealt " in replay.stdout and "shows Ada the " in replay.stdout
    assert re.search(rf"VALID: {winner[1]} \(seat \d, {winner[2]}\) won", summary.stdout)
    events = four_players.events
    moved = [line for line in events.stdout.splitlines() if '"Moved"' in line]
    assert moved and '"path": [[' in moved[0], "coordinates stay in --json"
    assert last_json(events.stdout)["valid"] is True


def test_colours_and_progress_on_a_terminal_only(three_players: Game) -> None:
    status, screen = on_terminal("simulate", "--players", "3", "--seed", "5")
    assert status == 0, screen
    assert ANSI_COLOUR.search(screen), "colours on a terminal"
    assert "\r\x1b[2KDealing the cards" in screen, "a progress line while dealing"
    assert re.search(r"Dealing the cards, step \d+ of 18: \w+ is ", screen)
    status, plain = on_terminal("simulate", "--players", "3", "--seed", "5", NO_COLOR="1")
    assert status == 0 and not ANSI_COLOUR.search(plain), "NO_COLOR is respected"
    assert "Dealing the cards" in plain
    piped = three_players.told  # through a pipe: neither
    assert "Dealing" not in piped.stderr and not ANSI_COLOUR.search(piped.stdout)


def test_the_readme_quick_start_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    quick = readme.split("## Quick start")[1].split("## ")[0]
    commands = re.findall(r"^(python3 -m venv .+)$", quick, re.MULTILINE)
    assert len(commands) == 2, commands
    play, test = commands
    assert "p2pclue join --create --bots 2" in play and "pytest" in test
    assert test in ci.splitlines(), ".ci/run runs the README's test command verbatim"
    assert "Python 3.11 or newer" in readme
