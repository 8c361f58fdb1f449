"""One game's directory: what a player needs to resume it after a crash.

Under the profile's ``games/`` folder (``profile.game_dir``), each game keeps:

- ``start.bin``: the signed start record (config, every player's signature, where
  each player listens) and the address this player reached the host at, written once
  before the first message;
- ``transcript.p2pclue``: the append-only transcript of the exact signed frames
  (``store.TranscriptFile``), own frames fsynced before any link sees them;
- ``transcript.path``, only for a game played with ``--transcript PATH``: the transcript's
  absolute path (the file system's bytes, at most 4 KiB), written atomically when the
  transcript is created and before ``secrets.bin``; the transcript is then that file, and
  the game folder holds none of its own;
- ``secrets.bin`` (mode 0600): this player's game secrets (``PeerSecrets``), a log of
  records, each the whole secrets as they were then (``secrets_record``); the last whole
  record counts. Created atomically (write, fsync, rename, fsync the folder) with the
  first; every later one is appended with one fsync (no new file, no rename, no folder
  fsync) before any frame that depends on a new secret is sent. A record torn by a crash
  is ignored, and cut off before the next one is appended.

A game is unfinished while its transcript has no footer. Every file here is read only if
it is a regular file, and never more of it than its limit (``store.read_regular``). Nothing
here ever prints a secret; every failure is a ``StoreError`` with a one-line message.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from p2pclue.engine.errors import WireError
from p2pclue.engine.peer_secrets import MAX_SECRETS_BYTES, PeerSecrets, SecretsError
from p2pclue.engine.wire import pack, unpack_canonical
from p2pclue.i18n import _, os_error_line, os_error_text
from p2pclue.net.lobby import LobbyError, Start, verify_start
from p2pclue.net.store import StoreError, read_regular

START_NAME = "start.bin"
SECRETS_NAME = "secrets.bin"
TRANSCRIPT_NAME = "transcript.p2pclue"
TRANSCRIPT_PATH_NAME = "transcript.path"
MAX_PATH_BYTES = 4096
LEFT_NAME = "left"
"""Written once this player asked to leave for good (its leave queued until the table next
awaits it, as for a player out after a wrong accusation, who is awaited only to refute) or
its own leave is on disk: the game goes on without it, so there is nothing to resume."""
MAX_START_BYTES = 64 * 1024
SECRETS_LOG_MAX = 256 * 1024
"""A secrets log longer than this is rewritten (atomically) as its last record alone."""
_RECORD_HEAD = 4 + 32
"""A secrets record: the length of the data (4 bytes, big-endian), its SHA-256, the data."""
_MAX_SECRETS_LOG = SECRETS_LOG_MAX + _RECORD_HEAD + MAX_SECRETS_BYTES
"""The longest secrets log there can be: one record appended to a log just under the limit."""


@dataclass(frozen=True)
class SavedStart:
    start: Start
    table_id: bytes
    code: str | None
    """The table code (the pairing secret); the file is 0600."""
    host: str
    """Where this player reached the table's host ("" for the host itself)."""
    port: int


def write_atomic(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves the old or the new file, never
    a mix: a fresh 0600 file, fsync, rename over, fsync the folder."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise StoreError(_os_error(path, exc)) from None


def _os_error(path: Path, exc: OSError) -> str:
    reason = os_error_text(exc)
    return _("cannot write {path}: {error}").format(path=path, error=reason)


def secrets_record(data: bytes) -> bytes:
    """One record of the secrets log: length, SHA-256, data (a torn one does not check)."""
    return len(data).to_bytes(4, "big") + hashlib.sha256(data).digest() + data


def last_secrets_record(log: bytes) -> tuple[bytes | None, int]:
    """The data of the last whole record of a secrets log, and where the whole records end
    (anything after that is a record torn by a crash)."""
    last, pos = None, 0
    while len(log) - pos >= _RECORD_HEAD:
        size = int.from_bytes(log[pos:pos + 4], "big")
        end = pos + _RECORD_HEAD + size
        data = log[pos + _RECORD_HEAD:end]
        if size > MAX_SECRETS_BYTES or end > len(log) \
                or hashlib.sha256(data).digest() != log[pos + 4:pos + _RECORD_HEAD]:
            break
        last, pos = data, end
    return last, pos


class GameDir:
    """The files of one game (the folder exists)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._log_end: int | None = None
        """Where this writer's last secrets record ends (None: not written by it yet)."""

    @property
    def transcript(self) -> Path:
        """Where this game's transcript is: the path ``transcript.path`` records, else
        ``transcript.p2pclue`` in the folder (``StoreError`` if the record is damaged)."""
        record = self.path / TRANSCRIPT_PATH_NAME
        if not record.exists():
            return self.path / TRANSCRIPT_NAME
        raw = read_regular(record, MAX_PATH_BYTES)
        where = Path(os.fsdecode(raw))
        if not raw or b"\x00" in raw or not where.is_absolute():
            raise StoreError(_("{path} is damaged: {error}").format(
                path=record, error="not an absolute path"))
        return where

    def record_transcript(self, path: Path) -> None:
        """Say where the transcript is, when it is not the folder's own file."""
        where = Path(os.path.abspath(path))
        if where != Path(os.path.abspath(self.path / TRANSCRIPT_NAME)):
            write_atomic(self.path / TRANSCRIPT_PATH_NAME, os.fsencode(where), 0o600)

    @property
    def name(self) -> str:
        return self.path.name

    def save_start(self, saved: SavedStart) -> None:
        write_atomic(self.path / START_NAME, pack({
            "start": saved.start.to_wire(), "table": saved.table_id, "code": saved.code,
            "host": saved.host, "port": saved.port}), 0o600)

    def load_start(self) -> SavedStart:
        path = self.path / START_NAME
        try:
            if not path.exists():
                raise FileNotFoundError(path)
            obj: Any = unpack_canonical(read_regular(path, MAX_START_BYTES),
                                        MAX_START_BYTES)
            if not isinstance(obj, dict) or set(obj) != {"start", "table", "code", "host",
                                                         "port"}:
                raise WireError("wrong fields")
            start = verify_start(obj["start"], lambda session: False)
            host, port, table, code = obj["host"], obj["port"], obj["table"], obj["code"]
            if not isinstance(host, str) or not isinstance(port, int) or isinstance(port, bool):
                raise WireError("bad host address")
            if not isinstance(table, bytes) or not (code is None or isinstance(code, str)):
                raise WireError("bad table id or code")
        except FileNotFoundError:
            raise StoreError(_("{path} holds no started game").format(path=self.path)) from None
        except OSError as exc:
            raise StoreError(_("cannot read {path}: {error}").format(
                path=path, error=os_error_text(exc))) from None
        except (WireError, LobbyError) as exc:
            raise StoreError(_("{path} is damaged: {error}").format(path=path,
                                                                    error=exc)) from None
        return SavedStart(start, table, code, host, port)

    def save_secrets(self, secrets: PeerSecrets) -> None:
        """Make ``secrets`` the ones on disk: one record appended and fsynced (the first,
        or one after a long log, by an atomic rewrite). ``StoreError`` if it cannot be
        done; the secrets on disk are then still the previous ones."""
        path = self.path / SECRETS_NAME
        record = secrets_record(secrets.to_bytes())
        end = self._log_end
        if end is None and path.exists():
            end = self._whole_records(path)  # a resumed game: cut a torn record off
        if end is None or end + len(record) > SECRETS_LOG_MAX:
            write_atomic(path, record, 0o600)
            self._log_end = len(record)
            return
        try:
            fd = os.open(path, os.O_WRONLY)
        except OSError as exc:
            raise StoreError(_os_error(path, exc)) from None
        try:
            if self._log_end is None:
                os.ftruncate(fd, end)  # a torn record left by a crash goes
            os.lseek(fd, end, os.SEEK_SET)
            view = memoryview(record)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
            self._log_end = end + len(record)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, end)  # the previous record stays the last whole one
            raise StoreError(_os_error(path, exc)) from None
        finally:
            os.close(fd)

    def _whole_records(self, path: Path) -> int | None:
        """Where the whole records of an existing log end (None: rewrite it whole)."""
        try:
            data = read_regular(path, _MAX_SECRETS_LOG)
        except StoreError:
            return None
        last, end = last_secrets_record(data)
        return None if last is None else end

    def load_secrets(self) -> PeerSecrets:
        path = self.path / SECRETS_NAME
        try:
            if path.stat().st_mode & 0o077:
                raise StoreError(_("{path} is readable by others; run: chmod 600 {path}")
                                 .format(path=path))
            data = read_regular(path, _MAX_SECRETS_LOG)
            last, _end = last_secrets_record(data)
            if last is None:
                try:  # a game saved before the log: the whole file was one secrets blob
                    return PeerSecrets.from_bytes(data)
                except SecretsError:
                    raise SecretsError("the secrets file holds no whole record (damaged "
                                       "or not ours)") from None
            return PeerSecrets.from_bytes(last)
        except FileNotFoundError:
            raise StoreError(_("{path} holds no secrets of this player").format(
                path=self.path)) from None
        except OSError as exc:
            raise StoreError(_("cannot read {path}: {error}").format(
                path=path, error=os_error_text(exc))) from None
        except SecretsError as exc:
            raise StoreError(f"{path}: {exc}") from None

    def mark_left(self) -> None:
        write_atomic(self.path / LEFT_NAME, b"", 0o600)

    def left(self) -> bool:
        return (self.path / LEFT_NAME).exists()

    def finished(self) -> bool:
        """Whether the transcript was closed with a footer (the game is over)."""
        from p2pclue.net.store import is_finished

        return is_finished(self.transcript)

    def delete(self) -> None:
        """Remove the game and its secrets (after a game, on the player's request)."""
        shutil.rmtree(self.path, ignore_errors=True)


def unfinished_games(games: Path, skipped: list[str] | None = None) -> list[GameDir]:
    """Games under ``games`` that started and never closed, newest first (not those this
    player left gracefully: the table plays them on without it). A game whose transcript
    cannot be read (not a regular file, too large, unreadable) is left out, and the reason
    appended to ``skipped`` (one line each) when it is given."""
    if not games.is_dir():
        return []
    found: list[tuple[float, GameDir]] = []
    for child in games.iterdir():
        gd = GameDir(child)
        if not (child / START_NAME).exists() or not (child / SECRETS_NAME).exists() \
                or gd.left():
            continue
        try:
            transcript = gd.transcript
            if not transcript.exists() or gd.finished():
                continue
            found.append((transcript.stat().st_mtime, gd))
        except (StoreError, OSError) as exc:
            if skipped is not None:
                skipped.append(_("game {game} left out: {error}").format(
                    game=gd.name, error=os_error_line(exc) if isinstance(exc, OSError) else exc))
    found.sort(key=lambda g: g[0], reverse=True)
    return [gd for _mtime, gd in found]
