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
import errno
import os
import stat
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import TranscriptError
from p2pclue.engine.transcript import (
    Footer,
    closing_bytes,
    entry_bytes,
    opening_bytes,
    parse_unfinished,
)
from p2pclue.i18n import _

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
    """``check_writable``, and no game already there: a transcript named on the command
    line never silently replaces an earlier one (a device such as /dev/full is no game)."""
    check_writable(path)
    try:
        holds = path.is_file() and path.stat().st_size > 0
    except OSError as exc:
        raise StoreError(_os_message(path, exc)) from None
    if holds:
        raise StoreError(_("{path} already exists: choose another name or remove it "
                           "first").format(path=path))


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

    @classmethod
    def create(cls, path: Path, config: GameConfig) -> TranscriptFile:
        """Check ``path``, then create (or replace) the file and write the opening."""
        check_writable(path)
        try:
            handle = open(path, "wb")  # noqa: SIM115 (held open for the whole game)
        except OSError as exc:
            raise StoreError(_os_message(path, exc)) from None
        store = cls(path, handle)
        store._write(opening_bytes(config), sync=True)
        return store

    @classmethod
    def reopen(cls, path: Path) -> tuple[TranscriptFile, GameConfig, list[bytes]]:
        """Open an unfinished transcript to go on appending after a crash: a torn last
        record is cut off (it was never complete, so nobody depended on it), the whole
        entries are returned for the peer to replay (which verifies every one)."""
        config, entries = read_unfinished(path)
        if is_finished(path):
            raise StoreError(_("{path} is a finished game").format(path=path))
        good = len(opening_bytes(config)) + sum(len(entry_bytes(e)) for e in entries)
        try:
            handle = open(path, "r+b")  # noqa: SIM115 (held open for the whole game)
            handle.truncate(good)
            handle.seek(good)
            os.fsync(handle.fileno())
        except OSError as exc:
            raise StoreError(_os_message(path, exc)) from None
        store = cls(path, handle)
        store.entries = len(entries)
        store._size = good
        return store, config, entries

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
        try:
            if os.fstat(handle.fileno()).st_size != self._size or not _same_file(
                    self.path, handle):
                self._release()
                raise StoreError(_("{path} was changed by another program; nothing more is "
                                   "written to it (the game's verified state is kept)").format(
                    path=self.path))
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


def is_finished(path: Path) -> bool:
    """Whether the transcript file carries its end marker and footer."""
    try:
        from p2pclue.engine.transcript import parse

        parse(path.read_bytes())
    except (OSError, TranscriptError):
        return False
    return True


def read_unfinished(path: Path) -> tuple[GameConfig, list[bytes]]:
    """The config and entries of a transcript file that may never have been closed.

    A torn last entry (the writer died mid-append) is dropped; the entries are not
    verified here (``audit`` and a resuming peer check every one).
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise StoreError(_os_message(path, exc, "read")) from None
    try:
        return parse_unfinished(data)
    except TranscriptError as exc:
        raise StoreError(_("{path} is not a readable transcript: {error}").format(
            path=path, error=exc)) from None


def _os_message(path: Path, exc: OSError, verb: str = "write") -> str:
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENOSPC:
        reason = _("the disk is full")
    template = _("cannot read {path}: {error}") if verb == "read" \
        else _("cannot write {path}: {error}")
    return template.format(path=path, error=reason)
