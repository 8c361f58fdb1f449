"""The transcript on disk, written as the game goes.

A crash, a killed process or a pulled plug then keeps every message chained so
far: the file is the transcript's opening, then one entry per frame, appended
and flushed as each frame is accepted; ``close`` adds the end marker and footer,
and the finished file is byte for byte ``Transcript.to_bytes()`` of the same game
(the three pieces come from ``p2pclue.engine.transcript``, one definition of the
layout). ``read_unfinished`` recovers the entries of a file that was never closed.

Every failure is a ``StoreError`` with a one-line message a player can act on;
the path is checked before anything is written, so a bad path costs nothing.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

import msgpack

from p2pclue.engine.audit import audit
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import TranscriptError
from p2pclue.engine.transcript import (
    MAX_TRANSCRIPT_BYTES,
    Footer,
    closing_bytes,
    entry_bytes,
    opening_bytes,
    parse,
    parse_unfinished,
)
from p2pclue.engine.wire import MAX_FRAME_BYTES
from p2pclue.i18n import _, ngettext, os_error_text, outcome_word, transcript_error_text

NAME_MAX_BYTES = 255
"""The longest file name (in bytes) on the usual file systems (ext4, btrfs, APFS, NTFS)."""


class StoreError(Exception):
    """A transcript file that cannot be written or read; the message is one line."""


def check_writable(path: Path) -> None:
    """Raise ``StoreError`` unless ``path`` names a file that can be created or replaced.

    Checked before the game starts, so a typo never costs a played game. Read-only
    means no write permission bit at all, so the answer is the same for root.
    """
    text = str(path)
    if not text or path.name in ("", ".", ".."):
        raise StoreError(_("{path!r} is not a file name").format(
            path=text or _("the transcript path")))
    if len(os.fsencode(path.name)) > NAME_MAX_BYTES:
        raise StoreError(_("the file name is too long ({size} bytes; the limit is {limit})").format(
            size=len(os.fsencode(path.name)), limit=NAME_MAX_BYTES))
    folder = path.parent
    try:
        if path.is_dir():
            raise StoreError(_("{path} is a folder, not a file").format(path=path))
        if not folder.exists():
            raise StoreError(_("the folder {folder} does not exist").format(folder=folder))
        if not folder.is_dir():
            raise StoreError(_("{folder} is not a folder").format(folder=folder))
        if path.exists():
            mode = path.stat().st_mode
            if not stat.S_ISREG(mode):
                raise StoreError(_not_regular(path))
            if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(
                    path, os.W_OK):
                raise StoreError(_("{path} is read-only").format(path=path))
        elif not folder.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) \
                or not os.access(folder, os.W_OK | os.X_OK):
            raise StoreError(_("cannot create files in {folder} (permission denied)").format(
                folder=folder))
    except OSError as exc:
        raise StoreError(_os_message(path, exc)) from None


def check_new(path: Path) -> None:
    """``check_writable``, and nothing there yet: a transcript is only ever created, never
    written over (``TranscriptFile.create`` creates it exclusively, so two programs given
    the same path cannot both get it either)."""
    check_writable(path)
    if path.exists() or path.is_symlink():
        raise StoreError(_exists(path))


def _exists(path: Path) -> str:
    return _("{path} already exists: choose another name or remove it first").format(
        path=path)


def _not_regular(path: Path) -> str:
    return _("{path} is not a regular file (a pipe, a device or a folder is no "
             "transcript)").format(path=path)


class TranscriptFile:
    """An append-only transcript file; create it with ``TranscriptFile.create``."""

    def __init__(self, path: Path, handle: BinaryIO) -> None:
        self.path = path
        self._handle: BinaryIO | None = handle
        self.entries = 0
        """How many entries have been appended."""
        self.closed_with: Footer | None = None
        self._size = 0
        """The file's length as this writer left it: anything else means another program
        changed it, and nothing more is written (``StoreError``)."""
        self._whole = 0
        """Where the whole entries of a reopened file end (a torn tail after it is cut by
        ``keep_whole``, once the caller has checked the file is its game)."""
        self._torn = False

    @classmethod
    def create(cls, path: Path, config: GameConfig) -> TranscriptFile:
        """Check ``path``, then create the file (exclusively: an existing file, whatever
        it is, is never written over) and write the opening."""
        check_writable(path)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        except FileExistsError:
            raise StoreError(_exists(path)) from None
        except OSError as exc:
            raise StoreError(_os_message(path, exc)) from None
        store = cls(path, os.fdopen(fd, "wb"))
        store._write(opening_bytes(config), sync=True)
        return store

    @classmethod
    def reopen(cls, path: Path) -> tuple[TranscriptFile, GameConfig, list[bytes]]:
        """Open an unfinished transcript to go on appending after a crash, changing
        nothing: the whole entries are returned for the peer to replay (which verifies
        every one); a torn last entry (``torn_tail``) stays on disk until the caller,
        having checked that the file is its game, calls ``keep_whole``. Any other damage
        is a ``StoreError`` naming the entry, and the file is left as it is."""
        config, entries, whole, size, ended = _read_open(path)
        if ended:  # an end marker after the entries: the game was closed (its footer may
            # be damaged: nothing after the entries is ever cut but a torn entry)
            raise StoreError(_("{path} is a finished game").format(path=path))
        try:
            fd = os.open(path, os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as exc:
            raise StoreError(_os_message(path, exc)) from None
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != size:  # swapped since read
            os.close(fd)
            raise StoreError(_changed(path))
        os.set_blocking(fd, True)
        handle = os.fdopen(fd, "r+b")
        handle.seek(whole)
        store = cls(path, handle)
        store.entries = len(entries)
        store._size = size
        store._whole = whole
        store._torn = size != whole
        return store, config, entries

    def keep_whole(self) -> None:
        """Cut a torn last entry off a reopened file (it was never complete, so nobody
        depended on it); only once the file is known to be this game's."""
        handle = self._handle
        if handle is None or not self._torn:
            return
        try:
            if os.fstat(handle.fileno()).st_size != self._size or not _same_file(
                    self.path, handle):
                raise StoreError(_changed(self.path))
            handle.truncate(self._whole)
            handle.seek(self._whole)
            os.fsync(handle.fileno())
            self._size, self._torn = self._whole, False
        except OSError as exc:
            self._release()
            raise StoreError(_os_message(self.path, exc)) from None
        except StoreError:
            self._release()
            raise

    def append(self, frame: bytes, *, sync: bool = False) -> None:
        """Append one accepted frame; flushed now, and on disk now when ``sync``."""
        self._write(entry_bytes(frame), sync=sync)
        self.entries += 1

    def close(self, footer: Footer) -> None:
        """Finish the file: end marker and footer, synced, closed."""
        if footer.entries != self.entries:
            raise ValueError(f"the footer counts {footer.entries} entries; "
                             f"{self.entries} were appended")
        self._write(closing_bytes(footer), sync=True)
        self.closed_with = footer
        self._release()

    def abandon(self) -> None:
        """Close the handle and leave the file unfinished (``read_unfinished`` reads it)."""
        self._release()

    @property
    def is_open(self) -> bool:
        return self._handle is not None

    def __enter__(self) -> TranscriptFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.abandon()

    def _write(self, data: bytes, *, sync: bool) -> None:
        handle = self._handle
        if handle is None:
            raise ValueError(f"the transcript file {self.path} is already closed")
        if self._torn:
            raise ValueError(f"{self.path} still ends in a torn entry: keep_whole first")
        try:
            if os.fstat(handle.fileno()).st_size != self._size or not _same_file(
                    self.path, handle):
                self._release()
                raise StoreError(_changed(self.path))
            handle.write(data)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
            self._size += len(data)
        except OSError as exc:
            self._release()
            raise StoreError(_os_message(self.path, exc)) from None

    def _release(self) -> None:
        handle, self._handle = self._handle, None
        if handle is not None:
            with contextlib.suppress(OSError):  # a failed write already raised StoreError
                handle.close()


def _same_file(path: Path, handle: BinaryIO) -> bool:
    """Whether ``path`` is still the file this handle writes (not replaced or removed)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    mine = os.fstat(handle.fileno())
    return (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino)


def _changed(path: Path) -> str:
    return _("{path} was changed by another program; nothing more is written to it (the "
             "game's verified state is kept)").format(path=path)


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of ``path``, which must be a regular file of at most ``limit`` bytes:
    a pipe or a device is refused before anything is read from it (opened without
    blocking, then checked), and no more than ``limit + 1`` bytes are ever read, so a
    huge, endless or never-written file costs neither memory nor a hang."""
    fd, _size = _open_regular(path, limit)
    try:
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, limit + 1 - got)
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as exc:
        raise StoreError(_os_message(path, exc, "read")) from None
    finally:
        os.close(fd)
    if got > limit:
        raise StoreError(_too_big(path, limit))
    return b"".join(chunks)


def _open_regular(path: Path, limit: int) -> tuple[int, int]:
    """A read-only descriptor of ``path`` and its size; ``StoreError`` unless it is a
    regular file of at most ``limit`` bytes (opened without blocking: a pipe would wait for
    a writer, so it is checked before anything is read)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise StoreError(_os_message(path, exc, "read")) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise StoreError(_not_regular(path))
        if info.st_size > limit:
            raise StoreError(_too_big(path, limit))
    except BaseException:
        os.close(fd)
        raise
    return fd, info.st_size


def _too_big(path: Path, limit: int) -> str:
    return _("{path} is over {size} KiB: larger than such a file can be").format(
        path=path, size=limit // 1024)


def is_finished(path: Path) -> bool:
    """Whether the transcript file carries its end marker and footer (the one parser reads
    it). ``StoreError`` when ``path`` is not a regular file, is over
    ``MAX_TRANSCRIPT_BYTES`` or cannot be read (checked before anything is read); a file
    that is no finished transcript is simply not finished."""
    try:
        parse(read_regular(path, MAX_TRANSCRIPT_BYTES))
    except TranscriptError:
        return False
    return True


def read_unfinished(path: Path) -> tuple[GameConfig, list[bytes]]:
    """The config and entries of a transcript file that may never have been closed.

    A torn last entry (the writer died mid-append, ``torn_tail``) is dropped; any other
    damage is a ``StoreError`` naming the entry. The entries are not verified here
    (``audit`` and a resuming peer check every one). A finished file gives all its
    entries (its footer is not read).
    """
    config, entries, _whole, _size, _ended = _read_open(path)
    return config, entries


def _read_open(path: Path) -> tuple[GameConfig, list[bytes], int, int, bool]:
    """The config, the entries, where the whole entries end, the file's size and whether
    an end marker follows the entries."""
    data = read_regular(path, MAX_TRANSCRIPT_BYTES)
    try:
        config, entries = parse_unfinished(data)
    except TranscriptError as exc:
        raise StoreError(_("{path} is not a readable transcript: {error}").format(
            path=path, error=transcript_error_text(exc))) from None
    whole = len(opening_bytes(config)) + sum(len(entry_bytes(e)) for e in entries)
    tail = data[whole:]
    ended = tail.startswith(b"\x00" * 4)
    if tail and not ended and not torn_tail(tail):
        raise StoreError(_("{path} is damaged at entry {index} (byte {offset}): the bytes "
                           "after it are not one entry cut short by a crash; the file was "
                           "not changed (p2pclue audit tells more)").format(
            path=path, index=len(entries), offset=whole))
    return config, entries, whole, len(data), ended


def torn_tail(tail: bytes) -> bool:
    """Whether ``tail``, the bytes after a file's last whole entry, are one entry cut short
    by a crash mid-append, the only damage a reader may cut off (docs/protocol.md,
    "Transcript file"): fewer than 4 bytes (a cut length prefix), or a length prefix of
    1 to ``MAX_FRAME_BYTES`` followed by fewer bytes than it claims, and those bytes the
    beginning of one msgpack value but not a whole one. A frame is exactly one msgpack
    value, so a frame cut short never holds a whole one; a damaged length in the middle of
    a file is followed by a whole frame (and more entries), and is no torn tail."""
    if len(tail) < 4:
        return True
    claimed = int.from_bytes(tail[:4], "big")
    body = tail[4:]
    if not 0 < claimed <= MAX_FRAME_BYTES or len(body) >= claimed:
        return False
    unpacker = msgpack.Unpacker(max_buffer_size=MAX_FRAME_BYTES, raw=True,
                                strict_map_key=False)
    unpacker.feed(body)
    try:
        unpacker.unpack()
    except msgpack.OutOfData:
        return True
    except (ValueError, TypeError, msgpack.UnpackException):
        return False  # not the beginning of any msgpack value
    return False


def _os_message(path: Path, exc: OSError, verb: str = "write") -> str:
    reason = os_error_text(exc)
    template = _("cannot read {path}: {error}") if verb == "read" \
        else _("cannot write {path}: {error}")
    return template.format(path=path, error=reason)


def audit_file(path: Path) -> tuple[bool | None, str]:
    """The audit's verdict on a saved transcript, and one line that says it."""
    try:
        raw = path.read_bytes()
        verdict = audit(parse(raw), raw)
    except OSError as exc:
        return False, _("the saved transcript cannot be read: {error}").format(
            error=os_error_text(exc))
    except TranscriptError as exc:
        return False, _("the saved transcript cannot be read: {error}").format(
            error=transcript_error_text(exc))
    if verdict.valid:
        return True, ngettext("valid ({result}, {count} message)",
                              "valid ({result}, {count} messages)", verdict.entries).format(
            result=outcome_word(verdict.result), count=verdict.entries)
    v = verdict.violation
    # Translators: {reason} comes from the protocol checks, in English.
    return False, _("invalid: {reason}").format(reason=v.reason if v else "unknown")
