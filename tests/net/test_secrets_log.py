"""The secrets file is a log (issue 21): a save after the first costs one fsync.

Before, every save replaced the file (fsync, rename, fsync of the folder), and a step that
drew a new secret (the suggester's ``ack``, which keeps the card it was shown) waited for
three fsyncs before its frame left. Now a save appends one record and fsyncs it; the last
whole record counts, a record torn by a crash is ignored and cut off before the next save,
and a long log is rewritten whole.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from p2pclue.engine.peer_secrets import PeerSecrets
from p2pclue.net import gamedir
from p2pclue.net.gamedir import SECRETS_LOG_MAX, GameDir, last_secrets_record
from p2pclue.net.store import StoreError


def _secrets(n: int) -> PeerSecrets:
    """Secrets as a game grows them: one more seed or shown card per save."""
    return PeerSecrets(1, bytes([7]) * 32, bytes([9]) * 32,
                       tuple(bytes([s]) * 32 for s in range(1 + n // 2)),
                       tuple((10 + i, i % 21) for i in range(n - n // 2)))


def _count_fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = os.fsync

    def counting(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", counting)  # gamedir.os: the same module
    return calls


def test_a_save_appends_one_record_with_one_fsync(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    game = GameDir(tmp_path)
    game.save_secrets(_secrets(0))  # created atomically: file and folder
    path = tmp_path / "secrets.bin"
    assert path.stat().st_mode & 0o777 == 0o600
    fsyncs = _count_fsyncs(monkeypatch)
    sizes = [path.stat().st_size]
    for n in range(1, 6):
        game.save_secrets(_secrets(n))
        assert game.load_secrets() == _secrets(n)
        sizes.append(path.stat().st_size)
    assert len(fsyncs) == 5, "one fsync a save"
    assert sizes == sorted(sizes) and len(set(sizes)) == 6, "each save appends"
    assert not (tmp_path / "secrets.bin.tmp").exists()


def test_a_torn_record_is_ignored_then_cut_off(tmp_path: Path) -> None:
    game = GameDir(tmp_path)
    for n in range(3):
        game.save_secrets(_secrets(n))
    path = tmp_path / "secrets.bin"
    whole = path.read_bytes()
    with open(path, "ab") as f:  # the crash: half a record of the next save
        f.write(gamedir.secrets_record(_secrets(3).to_bytes())[:50])
    assert GameDir(tmp_path).load_secrets() == _secrets(2)
    resumed = GameDir(tmp_path)  # the resumed session's directory
    resumed.save_secrets(_secrets(4))
    data = path.read_bytes()
    assert data.startswith(whole)
    assert last_secrets_record(data) == (_secrets(4).to_bytes(), len(data))
    assert GameDir(tmp_path).load_secrets() == _secrets(4)


def test_a_long_log_is_rewritten_whole(tmp_path: Path) -> None:
    game = GameDir(tmp_path)
    path = tmp_path / "secrets.bin"
    n, before = 0, 0
    while n < 2000:
        game.save_secrets(_secrets(n))
        size = path.stat().st_size
        assert size <= SECRETS_LOG_MAX
        if size < before:  # rewritten: the last record alone
            assert size == len(gamedir.secrets_record(_secrets(n).to_bytes()))
            break
        before, n = size, n + 1
    assert 2 < n < 2000
    assert game.load_secrets() == _secrets(n)


def test_a_secrets_file_of_no_whole_record_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "secrets.bin").write_bytes(b"\x00\x00\x00\x05" + bytes(32) + b"hello")
    os.chmod(tmp_path / "secrets.bin", 0o600)
    with pytest.raises(StoreError, match="secrets file holds no whole record"):
        GameDir(tmp_path).load_secrets()
    GameDir(tmp_path).save_secrets(_secrets(1))  # a damaged log is replaced whole
    assert GameDir(tmp_path).load_secrets() == _secrets(1)


def test_a_game_saved_before_the_log_still_resumes(tmp_path: Path) -> None:
    """The old file was one secrets blob: it is read as it is, and the next save starts a
    log in its place."""
    gamedir.write_atomic(tmp_path / "secrets.bin", _secrets(3).to_bytes(), 0o600)
    assert GameDir(tmp_path).load_secrets() == _secrets(3)
    game = GameDir(tmp_path)
    game.save_secrets(_secrets(4))
    game.save_secrets(_secrets(5))
    assert GameDir(tmp_path).load_secrets() == _secrets(5)
    assert last_secrets_record((tmp_path / "secrets.bin").read_bytes())[0] \
        == _secrets(5).to_bytes()
