"""The append-only transcript file: byte-identical to ``Transcript.to_bytes()`` when
closed, recoverable when torn, and every bad path a ``StoreError`` before any write."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import Footer, Transcript, parse
from p2pclue.net.store import StoreError, TranscriptFile, check_writable, read_unfinished
from tests.net.samples import classic_3p as game


def write_all(path: Path, sync_every: int = 0) -> TranscriptFile:
    peer = game()
    store = TranscriptFile.create(path, peer.config)
    for i, frame in enumerate(peer.entries):
        store.append(frame, sync=bool(sync_every) and i % sync_every == 0)
    return store


def test_closed_file_is_exactly_the_transcript(tmp_path: Path) -> None:
    peer = game()
    store = write_all(tmp_path / "game.p2pclue", sync_every=7)
    t = peer
    store.close(t.footer)
    raw = (tmp_path / "game.p2pclue").read_bytes()
    assert raw == t.to_bytes()
    assert audit(parse(raw), raw).valid
    assert not store.is_open


def test_the_file_grows_as_the_game_goes(tmp_path: Path) -> None:
    peer = game()
    path = tmp_path / "live.p2pclue"
    store = TranscriptFile.create(path, peer.config)
    sizes = [path.stat().st_size]
    for frame in peer.entries[:5]:
        store.append(frame)
        sizes.append(path.stat().st_size)
        config, entries = read_unfinished(path)
        assert config == peer.config and entries == list(peer.entries[: len(entries)])
    assert sizes == sorted(set(sizes)), "every append reaches the file at once"
    store.abandon()
    assert read_unfinished(path)[1] == list(peer.entries[:5])


def test_a_torn_last_record_is_dropped(tmp_path: Path) -> None:
    peer = game()
    path = tmp_path / "torn.p2pclue"
    store = write_all(path)
    store.abandon()
    whole = path.read_bytes()
    n = len(peer.entries)
    for cut in (1, 3, 4, 5, len(peer.entries[-1]) + 3):
        path.write_bytes(whole[:-cut])
        _, entries = read_unfinished(path)
        assert entries == list(peer.entries[: n - 1]), cut
    path.write_bytes(whole)
    assert read_unfinished(path)[1] == list(peer.entries)


def test_a_finished_file_reads_as_unfinished_too(tmp_path: Path) -> None:
    peer = game()
    path = tmp_path / "done.p2pclue"
    write_all(path).close(peer.footer)
    config, entries = read_unfinished(path)
    assert config == peer.config and entries == list(peer.entries)


def test_damage_outside_the_last_record_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.p2pclue"
    write_all(path).abandon()
    raw = bytearray(path.read_bytes())
    raw[0] ^= 1
    path.write_bytes(bytes(raw))
    with pytest.raises(StoreError, match="wrong magic"):
        read_unfinished(path)
    path.write_bytes(b"P2PCLUE\x00")
    with pytest.raises(StoreError, match="not a readable transcript"):
        read_unfinished(path)
    with pytest.raises(StoreError, match="cannot read"):
        read_unfinished(tmp_path / "missing.p2pclue")


def test_footer_must_count_the_appended_entries(tmp_path: Path) -> None:
    peer = game()
    store = write_all(tmp_path / "x.p2pclue")
    with pytest.raises(ValueError, match="footer counts"):
        store.close(Footer("abandoned", len(peer.entries) + 1))
    store.abandon()
    with pytest.raises(ValueError, match="already closed"):
        store.append(peer.entries[0])


@pytest.fixture
def read_only_places(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    locked = tmp_path / "locked"
    locked.mkdir()
    ro_file = tmp_path / "ro.p2pclue"
    ro_file.write_bytes(b"keep me")
    ro_file.chmod(0o444)
    locked.chmod(0o555)
    try:
        yield locked, ro_file
    finally:
        locked.chmod(0o755)
        ro_file.chmod(0o644)


def test_bad_paths_fail_before_writing(
        tmp_path: Path, read_only_places: tuple[Path, Path]) -> None:
    locked, ro_file = read_only_places
    config = game().config
    cases = {
        tmp_path: "is a folder",
        tmp_path / "no" / "such" / "x.p2pclue": "does not exist",
        Path(""): "not a file name",
        tmp_path / ("x" * 300): "too long",
        locked / "x.p2pclue": "permission denied",
        ro_file: "read-only",
        ro_file / "x.p2pclue": "is not a folder",
    }
    for path, message in cases.items():
        with pytest.raises(StoreError, match=message) as info:
            TranscriptFile.create(path, config)
        assert "\n" not in str(info.value)
    assert ro_file.read_bytes() == b"keep me"
    assert list(locked.iterdir()) == []


def test_a_device_or_a_pipe_is_refused_before_it_is_opened(tmp_path: Path) -> None:
    """A pipe would block the open until a reader came; a device is no transcript (a full
    disk is tested with a real write failure in tests/net/test_disk_faults.py)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    config = game().config
    for path in (fifo, Path("/dev/null")):
        with pytest.raises(StoreError, match="not a regular file"):
            TranscriptFile.create(path, config)
        with pytest.raises(StoreError, match="not a regular file"):
            read_unfinished(path)


def test_check_writable_accepts_a_new_file(tmp_path: Path) -> None:
    check_writable(tmp_path / "new.p2pclue")
    assert not (tmp_path / "new.p2pclue").exists()


def test_a_footer_counting_fewer_entries_closes_the_file_cut_there(tmp_path: Path) -> None:
    """An abandon certificate about an earlier point voids the entries after it: the closed
    file holds exactly the entries before the point, then the footer (written to a new file
    and renamed over the old one: no leftover, no mix)."""
    peer = game()
    path = tmp_path / "cut.p2pclue"
    store = write_all(path, sync_every=3)
    footer = Footer("abandoned", 5)
    store.close(footer)
    assert not store.is_open and store.closed_with == footer and store.entries == 5
    raw = path.read_bytes()
    assert raw == Transcript(peer.config, tuple(peer.entries[:5]), footer).to_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.p2pclue"]
    verdict = audit(parse(raw), raw)
    assert verdict.valid and verdict.result == "abandoned"
