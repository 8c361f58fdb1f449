"""A reviewer's findings on the transcript file and the game folder, each driven through
real files and the real command: a damaged length in the middle of a transcript is an
error that changes nothing (only a torn last entry is cut, and only once the file is known
to be the game's); a game played with ``--transcript PATH`` resumes; a transcript is never
created over another file; pipes, devices and huge files in a game folder are refused
without reading them; a profile that is not a player cannot resume a game as a bot.

The games are played in this process over loopback links (``base``: once for the module).
A resume that must play on is a real ``join --resume`` process; the command's refusals
run in this process (``p2pclue.cli.main``, under a hang guard: a pipe read by mistake
would block)."""

from __future__ import annotations

import asyncio
import hashlib
import os
import random
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from p2pclue.bots.registry import BOTS
from p2pclue.net.botplay import drive_bot
from p2pclue.net.gamedir import GameDir, unfinished_games
from p2pclue.net.play import join_table, open_table
from p2pclue.net.store import (
    StoreError,
    TranscriptFile,
    check_new,
    is_finished,
    read_unfinished,
)
from p2pclue.rules.variants import preset
from tests.net.inproc import Ran, run_main
from tests.net.procs import HANG_GUARD, Procs
from tests.net.samples import CLASSIC_3P
from tests.net.test_resume import seat, simulate_crash

VICTIM = "G1"
ENTRIES = 24


async def _played(home: Path, transcript: Path | None) -> None:
    """Three players on loopback, the guest ``VICTIM`` writing its transcript to
    ``transcript`` (its game folder when None); every process 'crashes' after ENTRIES."""
    opened: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
    host_task = asyncio.ensure_future(open_table(
        seat(home, "Host"), "Hall", preset("classic"), 3, "777111",
        on_opened=lambda o: opened.set_result((o.host, o.port)), on_view=lambda v: None,
        announce=False))
    first: list[asyncio.Future[Any]] = [opened, host_task]
    await asyncio.wait(first, return_when=asyncio.FIRST_COMPLETED)
    host, port = await opened
    guests = [asyncio.ensure_future(join_table(
        seat(home, name), "Hall", host, port, "777111", on_view=lambda v: None,
        transcript=transcript if name == VICTIM else None)) for name in (VICTIM, "G2")]
    sessions = [await host_task] + [await g for g in guests]
    runs = [asyncio.ensure_future(s.run()) for s in sessions]
    bots = [asyncio.ensure_future(drive_bot(s, BOTS["random"], random.Random(i)))
            for i, s in enumerate(sessions)]
    async with asyncio.timeout(HANG_GUARD):
        while len(sessions[1].peer.entries) < ENTRIES:
            await asyncio.sleep(0.01)
    for s, run, bot in zip(sessions, runs, bots, strict=True):
        await simulate_crash(s, bot, run)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("played")
    asyncio.run(_played(home, None))
    return home


def _copy(base: Path, tmp_path: Path) -> tuple[Path, GameDir]:
    home = tmp_path / "home"
    shutil.copytree(base, home)
    games = unfinished_games(home / "profiles" / VICTIM / "games")
    assert len(games) == 1
    return home, games[0]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _offsets(data: bytes) -> list[int]:
    """Where each entry's length prefix is."""
    pos = 14 + int.from_bytes(data[10:14], "big")
    out = []
    while pos + 4 <= len(data):
        out.append(pos)
        pos += 4 + int.from_bytes(data[pos:pos + 4], "big")
    return out


class Command:
    """``p2pclue`` in this process, for this test (its monkeypatch and captured output)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch,
                 capsys: pytest.CaptureFixture[str]) -> None:
        self.monkeypatch, self.capsys = monkeypatch, capsys

    def __call__(self, *argv: str, home: Path) -> Ran:
        return run_main(self.monkeypatch, self.capsys, home, "--lang", "en", *argv, guard=30)

    def resume(self, home: Path, profile: str = VICTIM) -> Ran:
        return self("join", "--resume", "--bot", "random", "--profile", profile, home=home)

    def listed(self, home: Path, profile: str = VICTIM) -> Ran:
        return self("join", "--resume", "list", "--profile", profile, home=home)


@pytest.fixture
def command(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Command:
    return Command(monkeypatch, capsys)


def test_a_damaged_length_in_the_middle_is_an_error_and_changes_nothing(
        base: Path, tmp_path: Path, command: Command) -> None:
    home, game = _copy(base, tmp_path)
    data = bytearray(game.transcript.read_bytes())
    at = _offsets(bytes(data))[10]
    # entry 10's length now points one byte past the end of the file: read naively, it
    # looks like a torn last entry, and cutting it deleted 13 verified entries
    data[at:at + 4] = (len(data) - at - 4 + 1).to_bytes(4, "big")
    game.transcript.write_bytes(bytes(data))
    before = _sha(game.transcript)
    done = command.resume(home)
    assert done.code == 2, (done.out, done.err)
    assert "entry 10" in done.err and str(game.transcript) in done.err
    assert "replayed" not in done.out
    assert _sha(game.transcript) == before, "the file is left byte for byte as it was"


def test_another_games_transcript_is_refused_unchanged_even_with_a_torn_tail(
        base: Path, tmp_path: Path, command: Command) -> None:
    home, game = _copy(base, tmp_path)
    data = CLASSIC_3P.read_bytes()  # a finished game that is not this one
    offsets = _offsets(data)
    end = next(at for at in offsets if data[at:at + 4] == bytes(4))  # the end marker
    last = offsets[offsets.index(end) - 1]
    # another game's file, unfinished, ending in a torn entry: nothing may be cut from it
    game.transcript.write_bytes(data[:end] + data[last:last + 4 + 9])
    before = _sha(game.transcript)
    done = command.resume(home)
    assert done.code == 2 and "another game" in done.err, done.err
    assert _sha(game.transcript) == before


def _replays(procs: Procs, home: Path) -> str:
    """Run ``join --resume`` (a real process) until it says how many messages it replayed;
    then stop it with Ctrl-C (nobody else is there to play on). Its line."""
    p = procs.p2pclue("resume", "--lang", "en", "join", "--resume", "--bot", "random",
                      "--profile", VICTIM, env={**procs.env, "P2PCLUE_HOME": str(home)})
    line = p.wait_for(r"^.*replayed.*$", stream="out").group(0)
    p.proc.send_signal(signal.SIGINT)
    _code, _out, err = p.finish()
    assert "Traceback" not in err, err
    return line


def test_a_torn_last_entry_is_cut_and_the_game_resumes(base: Path, tmp_path: Path,
                                                       procs: Procs) -> None:
    home, game = _copy(base, tmp_path)
    whole = game.transcript.read_bytes()
    entries = len(_offsets(whole))
    last = _offsets(whole)[-1]
    torn = whole[last:last + 4 + 9]
    game.transcript.write_bytes(whole + torn)  # a crash mid-append
    assert f"replayed {entries} messages" in _replays(procs, home)
    after = game.transcript.read_bytes()
    assert after.startswith(whole) and not after.startswith(whole + torn)
    assert read_unfinished(game.transcript)[1][:entries] == read_unfinished_bytes(whole)


def read_unfinished_bytes(data: bytes) -> list[bytes]:
    return [data[at + 4:at + 4 + int.from_bytes(data[at:at + 4], "big")]
            for at in _offsets(data)]


def test_a_game_played_with_a_transcript_path_resumes(tmp_path: Path, procs: Procs,
                                                       command: Command) -> None:
    path = tmp_path / "mine.p2pclue"
    home = tmp_path / "home"
    asyncio.run(_played(home, path))
    games = unfinished_games(home / "profiles" / VICTIM / "games")
    assert [g.transcript for g in games] == [path], "the game folder knows where it is"
    assert not (games[0].path / "transcript.p2pclue").exists()
    listed = command.listed(home)
    assert listed.code == 0 and games[0].name in listed.out, listed.err
    entries = len(_offsets(path.read_bytes()))
    assert entries >= ENTRIES
    assert f"replayed {entries} messages" in _replays(procs, home)


def test_a_transcript_is_never_created_over_another_file(tmp_path: Path,
                                                         base: Path) -> None:
    _home, game = _copy(base, tmp_path)
    config = TranscriptFile.reopen(game.transcript)[1]
    path = tmp_path / "shared.p2pclue"
    check_new(path)  # two players given the same path both pass this while it is absent
    check_new(path)
    first = TranscriptFile.create(path, config)
    written = path.read_bytes()
    with pytest.raises(StoreError, match="already exists"):
        TranscriptFile.create(path, config)
    assert path.read_bytes() == written, "the first player's file is untouched"
    first.abandon()
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    with pytest.raises(StoreError, match="already exists"):
        check_new(empty)


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    yield path


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "huge"])
def test_a_game_folder_holding_no_regular_transcript_is_left_out(
        base: Path, tmp_path: Path, kind: str, command: Command) -> None:
    home, game = _copy(base, tmp_path)
    game.transcript.unlink()
    if kind == "fifo":
        os.mkfifo(game.transcript)
    elif kind == "dev-zero":
        game.transcript.symlink_to("/dev/zero")
    else:
        with open(game.transcript, "wb") as f:  # sparse: 3 GB on paper, nothing on disk
            f.truncate(3 * 2**30)
    with pytest.raises(StoreError):
        is_finished(game.transcript)
    listed = command.listed(home)  # a read of the pipe would block: the guard ends it
    assert listed.code == 0, listed.err
    assert game.name in listed.err and game.name not in listed.out
    assert ("not a regular file" if kind != "huge" else "65536 KiB") in listed.err


def test_is_finished_reads_the_opening_and_the_end(base: Path, tmp_path: Path) -> None:
    _home, game = _copy(base, tmp_path)
    assert not is_finished(game.transcript)
    host = base / "profiles" / "Host" / "games" / game.name / "transcript.p2pclue"
    assert not is_finished(host)


def test_a_pipe_is_refused_by_audit_simulate_and_join(fifo: Path, tmp_path: Path,
                                                      command: Command) -> None:
    for argv in (("audit", str(fifo)), ("audit", "--json", str(fifo)),
                 ("simulate", "--players", "3", "--seed", "1", "--transcript", str(fifo)),
                 ("join", "--bot", "random", "--create", "--transcript", str(fifo))):
        done = command(*argv, home=tmp_path / "home")
        assert done.code == 2, (argv, done.err)
        assert "not a regular file" in done.err


def test_a_profile_that_is_no_player_cannot_resume_as_a_bot(
        base: Path, tmp_path: Path, command: Command) -> None:
    home, game = _copy(base, tmp_path)
    stranger = home / "profiles" / "Stranger" / "games"
    assert command.listed(home, "Stranger").code == 0  # the profile exists now
    stranger.mkdir(parents=True, exist_ok=True)
    shutil.copytree(game.path, stranger / game.name)
    done = command.resume(home, profile="Stranger")
    assert done.code == 2, (done.out, done.err)
    assert "not one of this profile's seats" in done.err
