"""Disk faults: a torn last record, a full disk, a transcript another program changed.
Each gives a clear ``StoreError`` (never a traceback) and loses nothing verified."""

from __future__ import annotations

import errno
import hashlib
import os
from pathlib import Path
from typing import Any

import pytest

from p2pclue.bots.protocol import make_config
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine.harness import Network
from p2pclue.engine.peer import Peer, Status
from p2pclue.net.gamedir import GameDir, write_atomic
from p2pclue.net.lobby import Start
from p2pclue.net.mesh import Mesh
from p2pclue.net.session import NetSession
from p2pclue.net.store import StoreError, TranscriptFile, read_unfinished
from p2pclue.rules.variants import preset
from tests.net.procs import HANG_GUARD

Game = tuple[list[Peer], list[bytes]]


@pytest.fixture(scope="module")
def game() -> Game:
    """A real seeded game of 3 run in memory through its deal (18 entries, the first peer's
    copy; then it waits for the first player), once for the module: the tests only read it
    (a peer's config, entries, hand and secrets)."""
    config, keys = make_config(preset("classic"), 3, 31)
    peers = [Peer(config, s, keys[s], SeededRandom(b"leave/31/%d" % s)) for s in range(3)]
    net = Network(peers)
    for p in peers:
        p.start(net.now)
    while net.step():
        pass
    assert len(peers[0].entries) == 18 and all(p.hand for p in peers)
    return peers, list(peers[0].entries)


def test_a_torn_last_record_is_dropped_on_reopen(tmp_path: Path, game: Game) -> None:
    peers, entries = game
    path = tmp_path / "t.p2pclue"
    store = TranscriptFile.create(path, peers[0].config)
    for raw in entries[:10]:
        store.append(raw, sync=True)
    store.abandon()
    whole = path.stat().st_size
    with open(path, "ab") as f:  # the crash came in the middle of the 11th record
        f.write(len(entries[10]).to_bytes(4, "big") + entries[10][:7])
    store, config, got = TranscriptFile.reopen(path)
    assert got == entries[:10] and config == peers[0].config
    assert path.stat().st_size == whole + 11, "nothing is cut before the caller says so"
    store.keep_whole()  # the file is this game's: the torn entry goes
    assert path.stat().st_size == whole
    store.append(entries[10], sync=True)  # and the game goes on appending
    store.abandon()
    assert read_unfinished(path)[1] == entries[:11]


class FullDisk:
    """A file handle whose writes fail as on a full disk (ENOSPC cannot be caused here
    without a small filesystem of our own)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def write(self, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_a_full_disk_is_a_clear_error_and_keeps_what_was_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: Game) -> None:
    peers, entries = game
    path = tmp_path / "t.p2pclue"
    store = TranscriptFile.create(path, peers[0].config)
    for raw in entries[:5]:
        store.append(raw, sync=True)

    store._handle = FullDisk(store._handle)  # type: ignore[assignment]
    with pytest.raises(StoreError, match="the disk is full"):
        store.append(entries[5], sync=True)
    assert read_unfinished(path)[1] == entries[:5]  # nothing verified is lost

    # secrets: the old file stays whole when the new one cannot be written
    folder = GameDir(tmp_path)
    folder.save_secrets(peers[0].export_secrets())
    before = (tmp_path / "secrets.bin").read_bytes()
    real_write = os.write

    def failing_write(fd: int, data: Any) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", failing_write)  # gamedir.os: the same module
    with pytest.raises(StoreError, match="the disk is full"):
        folder.save_secrets(peers[0].export_secrets())
    monkeypatch.setattr(os, "write", real_write)
    assert (tmp_path / "secrets.bin").read_bytes() == before
    assert not (tmp_path / "secrets.bin.tmp").exists()


def test_a_transcript_changed_by_another_program_is_refused(tmp_path: Path,
                                                            game: Game) -> None:
    peers, entries = game
    path = tmp_path / "t.p2pclue"
    store = TranscriptFile.create(path, peers[0].config)
    for raw in entries[:5]:
        store.append(raw, sync=True)
    with open(path, "ab") as other:  # another program appends behind our back
        other.write(b"\x00\x00\x00\x05hello")
    with pytest.raises(StoreError, match="changed by another program"):
        store.append(entries[5], sync=True)
    assert not store.is_open


def _start_for(peer: Peer) -> Start:
    return Start(peer.config, tuple(b"\x00" * 32 for _ in peer.config.players),
                 tuple(b"\x00" * 64 for _ in peer.config.players), ())


def test_resuming_from_a_modified_transcript_is_a_clear_error(tmp_path: Path,
                                                              game: Game) -> None:
    me = game[0][1]
    folder = GameDir(tmp_path)
    folder.save_secrets(me.export_secrets())
    store = TranscriptFile.create(folder.transcript, me.config)
    for raw in me.entries:
        store.append(raw, sync=True)
    store.abandon()
    data = bytearray(folder.transcript.read_bytes())
    data[-40] ^= 0x01  # one bit of a signed entry flipped by someone else
    folder.transcript.write_bytes(bytes(data))
    assert me._identity is not None
    mesh = Mesh(me._identity, hashlib.sha256(b"t").digest(), None)
    with pytest.raises(StoreError) as info:
        NetSession(_start_for(me), mesh, me._identity, folder.transcript, name="x",
                   game=folder, resume=True)
    assert "cannot resume" in str(info.value) and "changed by another program" in str(
        info.value)
    # the same directory, unmodified, resumes to the same verified state
    folder.transcript.unlink()
    store = TranscriptFile.create(folder.transcript, me.config)
    for raw in me.entries:
        store.append(raw, sync=True)
    store.abandon()
    again = NetSession(_start_for(me), mesh, me._identity, folder.transcript, name="x",
                       game=folder, resume=True)
    assert again.peer.entries == me.entries and again.peer.status is Status.RUNNING
    assert again.peer.hand == me.hand
    again._store.abandon()


def test_secrets_on_disk_are_private(tmp_path: Path, game: Game) -> None:
    peers, _ = game
    folder = GameDir(tmp_path)
    folder.save_secrets(peers[2].export_secrets())
    assert (tmp_path / "secrets.bin").stat().st_mode & 0o777 == 0o600
    assert folder.load_secrets() == peers[2].export_secrets()
    os.chmod(tmp_path / "secrets.bin", 0o644)
    with pytest.raises(StoreError, match="readable by others"):
        folder.load_secrets()
    write_atomic(tmp_path / "secrets.bin", b"junk")
    with pytest.raises(StoreError, match="secrets"):
        folder.load_secrets()


def test_a_full_disk_mid_game_says_how_to_come_back(tmp_path: Path) -> None:
    """A player whose disk fills during a networked game stops with one clear line that says
    nothing is lost and how to resume (the write fails as ENOSPC would: a mocked handle)."""
    import asyncio
    import random

    from p2pclue.bots.registry import BOTS
    from p2pclue.net.botplay import drive_bot
    from tests.net.three_seats import three_seats

    async def play() -> str:
        sessions = await three_seats(tmp_path)
        runs = [asyncio.ensure_future(s.run()) for s in sessions]
        bots = [asyncio.ensure_future(drive_bot(s, BOTS["random"], random.Random(k)))
                for k, s in enumerate(sessions[1:])]
        full = sessions[0]
        try:
            while len(full.peer.entries) < 2:  # in the deal: many entries still to come
                await asyncio.sleep(0.001)
            full._store._handle = FullDisk(full._store._handle)  # type: ignore[assignment]
            async with asyncio.timeout(HANG_GUARD):
                while full.ended is None:
                    await asyncio.sleep(0.01)
            written = len(read_unfinished(full.transcript_path)[1])
            assert written >= 2  # what was written before stays
            return full.ended.message
        finally:
            for task in (*bots, *runs):
                task.cancel()
            for s in sessions:
                await s.close()
            await asyncio.gather(*bots, *runs, return_exceptions=True)

    message = asyncio.run(play())
    assert "the disk is full" in message and "p2pclue join --resume" in message, message
