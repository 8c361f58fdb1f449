"""The transcript file: header, the chained frames, and a footer.

Layout (all integers big-endian)::

    magic        8 bytes  b"P2PCLUE\\x00"
    version      u16      PROTOCOL_VERSION
    header       u32 length + msgpack map {"config": GameConfig wire form}
    entries      u32 length + frame bytes, repeated (a frame is never empty)
    end marker   u32 0
    footer       u32 length + msgpack map (see ``Footer``)

The entries are the signed frames exactly as received, in chain order; the
footer is the writer's account of how the game ended (complete, halted with a
blame record and its evidence, or abandoned). Nothing in the footer is
trusted: the audit recomputes it from the entries and the evidence frames, and
rejects a footer that says anything else (so no byte of the file goes unchecked).

Exactly one byte sequence is a transcript of a given game and ending: header and
footer must be the canonical encodings (``parse`` re-encodes what it read and
requires the same bytes), entries are canonical frames (the audit refuses any
other), and the footer's every field is recomputed by the audit.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from p2pclue import PROTOCOL_VERSION
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import Blame, TranscriptError, WireError, Words, words
from p2pclue.engine.wire import MAX_FRAME_BYTES, is_int, pack, unpack_strict
from p2pclue.rules.errors import N_

MAGIC = b"P2PCLUE\x00"
MAX_ENTRIES = 200_000
MAX_META_BYTES = 4 * 1024 * 1024
MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024
"""No transcript is larger (a played game is tens to hundreds of KiB): a reader refuses a
file over this before holding it, so a huge or endless file (``/dev/zero``) costs nothing."""
STATUSES = ("complete", "halted", "abandoned")


MAX_VOTES = 6


@dataclass(frozen=True)
class Footer:
    status: str
    entries: int
    blame: Blame | None = None
    votes: tuple[bytes, ...] = ()
    """An abandon by vote: the signed abandon votes of the quorum, in voter order
    (engine/votes.py); the key is written only when there are votes."""

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "entries": self.entries,
            "blame": self.blame.to_wire() if self.blame else None,
        }
        if self.votes:
            out["votes"] = list(self.votes)
        return out


@dataclass(frozen=True)
class Transcript:
    config: GameConfig
    entries: tuple[bytes, ...]
    footer: Footer
    extra: dict[str, Any] = field(default_factory=dict)

    def to_bytes(self) -> bytes:
        out = [opening_bytes(self.config)]
        out.extend(entry_bytes(e) for e in self.entries)
        out.append(closing_bytes(self.footer))
        return b"".join(out)


# ---- the layout, in the three pieces a file is written in -----------------------------
# ``Transcript.to_bytes`` and the append-only writer (``p2pclue.net.store``) both use
# these, so a file written as the game goes is byte for byte the finished transcript.


def opening_bytes(config: GameConfig) -> bytes:
    """Magic, version and the header chunk: the first bytes of every transcript file."""
    return MAGIC + struct.pack(">H", PROTOCOL_VERSION) + _chunk(
        pack({"config": config.to_wire()}))


def entry_bytes(frame: bytes) -> bytes:
    """One chained frame as an entry (length-prefixed; a frame is never empty)."""
    if not frame:
        raise ValueError("an entry is never empty (a zero length is the end marker)")
    return _chunk(frame)


def closing_bytes(footer: Footer) -> bytes:
    """The end marker and the footer: the last bytes of a finished transcript."""
    return struct.pack(">I", 0) + _chunk(pack(footer.to_wire()))


def _chunk(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


HEADER = words(N_("the header"))
FOOTER = words(N_("the footer"))
AN_ENTRY = words(N_("an entry"))


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int, what: Words) -> bytes:
        if self.pos + n > len(self.data):
            raise TranscriptError(N_("truncated: the file ends inside {what} at byte {at}"),
                                  what=what, at=self.pos)
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def length(self, what: Words) -> int:
        (n,) = struct.unpack(">I", self.take(4, words(N_("the length of {part}"), part=what)))
        return int(n)


def parse(data: bytes) -> Transcript:
    """Read a transcript file; ``TranscriptError`` if it is not one."""
    _check_size(data)
    r = _Reader(data)
    config = _opening(r)
    entries: list[bytes] = []
    while True:
        n = r.length(words(N_("entry {index}"), index=len(entries)))
        if n == 0:
            break
        _check_entry_length(n, len(entries))
        entries.append(r.take(n, words(N_("entry {index}"), index=len(entries))))
    n = r.length(FOOTER)
    footer = _footer(r.take(n, FOOTER))
    culprit = footer.blame.culprit if footer.blame else None
    if culprit is not None and not 0 <= culprit < config.n_players:
        raise TranscriptError(N_("the blame names seat {seat}, which is not in the game"),
                              seat=culprit)
    if r.pos != len(data):
        raise TranscriptError(N_("stray bytes after the footer: {count}"),
                              count=len(data) - r.pos)
    transcript = Transcript(config, tuple(entries), footer)
    if transcript.to_bytes() != bytes(data):
        # Everything decoded, yet writing it back differs: the header or the footer is not
        # the canonical encoding of what it says (docs/protocol.md, "Canonical encodings").
        raise TranscriptError(N_("the header or footer is not in its canonical encoding"))
    return transcript


def parse_unfinished(data: bytes) -> tuple[GameConfig, list[bytes]]:
    """The config and the whole entries of a file whose writer stopped mid-game.

    A last entry cut short (the writer crashed while appending it) is dropped; a
    finished file gives all its entries (its footer is not read). Damage anywhere
    else (magic, version, header, an impossible length) is a ``TranscriptError``.
    The entries are not verified here: ``audit`` or a resuming peer does that.
    """
    _check_size(data)
    r = _Reader(data)
    config = _opening(r)
    entries: list[bytes] = []
    while len(data) - r.pos >= 4:
        n = r.length(words(N_("entry {index}"), index=len(entries)))
        if n == 0:
            break
        _check_entry_length(n, len(entries))
        if len(data) - r.pos < n:
            break
        entries.append(r.take(n, words(N_("entry {index}"), index=len(entries))))
    return config, entries


def parse_open(data: bytes) -> tuple[GameConfig, list[bytes]]:
    """The config and entries of a file that has no end marker yet, for the audit.

    Stricter than ``parse_unfinished``: the file must end exactly after its last whole
    entry (that is what a writer leaves when it stops between two appends: a quit to
    resume later, a crash, a pulled plug). Bytes after the last whole entry that do not
    make one are a torn tail, reported as such (``TranscriptError``, "truncated"); a file
    with an end marker is read by ``parse``.
    """
    _check_size(data)
    r = _Reader(data)
    config = _opening(r)
    entries: list[bytes] = []
    while r.pos < len(data):
        n = r.length(words(N_("entry {index}"), index=len(entries)))
        if n == 0:
            raise TranscriptError(N_("the file has an end marker: read it with parse"))
        _check_entry_length(n, len(entries))
        entries.append(r.take(n, words(N_("entry {index} (a torn last entry; the ones before "
                                          "it are whole)"), index=len(entries))))
    return config, entries


def has_end_marker(data: bytes) -> bool:
    """Whether the entries of ``data`` are followed by the end marker (u32 0): a finished
    file, or one whose footer is damaged. False for a file that stops after an entry or
    inside one, and for anything unreadable before that."""
    try:
        r = _Reader(data)
        _opening(r)
        while True:
            n = r.length(AN_ENTRY)
            if n == 0:
                return True
            r.take(n, AN_ENTRY)
    except TranscriptError:
        return False


def _check_size(data: bytes) -> None:
    if len(data) > MAX_TRANSCRIPT_BYTES:
        raise TranscriptError(N_("over {size} MiB: larger than any transcript"),
                              size=MAX_TRANSCRIPT_BYTES // 2**20)


def _check_entry_length(n: int, index: int) -> None:
    if n > MAX_FRAME_BYTES:
        raise TranscriptError(N_("entry {index} claims {size} bytes (limit {limit})"),
                              index=index, size=n, limit=MAX_FRAME_BYTES)
    if index >= MAX_ENTRIES:
        raise TranscriptError(N_("more than {count} entries"), count=MAX_ENTRIES)


def _opening(r: _Reader) -> GameConfig:
    if r.take(len(MAGIC), words(N_("the magic"))) != MAGIC:
        raise TranscriptError(N_("not a p2pclue transcript (wrong magic bytes)"))
    (version,) = struct.unpack(">H", r.take(2, words(N_("the version"))))
    if version != PROTOCOL_VERSION:
        raise TranscriptError(N_("transcript of protocol version {version}; this reads "
                                 "{supported}"), version=version, supported=PROTOCOL_VERSION)
    n = r.length(HEADER)
    raw = r.take(n, HEADER)
    try:
        header = unpack_strict(raw, MAX_META_BYTES)
        if not isinstance(header, dict) or set(header) != {"config"}:
            raise WireError("the header is a map with exactly one key, config")
        config = GameConfig.from_wire(header["config"])
    except WireError as exc:
        raise TranscriptError(N_("unreadable header: {detail}"), detail=exc) from None
    if pack({"config": config.to_wire()}) != raw:
        # An unfinished file has no footer to round-trip, so the header is checked here.
        raise TranscriptError(N_("the header is not in its canonical encoding"))
    return config


def _footer(raw: bytes) -> Footer:
    try:
        obj = unpack_strict(raw, MAX_META_BYTES)
    except WireError as exc:
        raise TranscriptError(N_("unreadable footer: {detail}"), detail=exc) from None
    keys = {"status", "entries", "blame"}
    if not isinstance(obj, dict) or set(obj) not in (keys, keys | {"votes"}):
        raise TranscriptError(N_("unreadable footer: wrong keys"))
    status, entries, blame = obj["status"], obj["entries"], obj["blame"]
    if status not in STATUSES or not is_int(entries) or entries < 0:
        raise TranscriptError(N_("unreadable footer: bad status or entry count"))
    if (status == "halted") != (blame is not None):
        raise TranscriptError(N_("unreadable footer: a blame record comes with, and only "
                                 "with, the status halted"))
    votes = obj.get("votes", [])
    if "votes" in obj and (status != "abandoned" or not isinstance(votes, list) or not votes
                           or len(votes) > MAX_VOTES
                           or not all(isinstance(v, bytes) for v in votes)):
        raise TranscriptError(N_("unreadable footer: votes are 1 to 6 signed votes, only "
                                 "for the status abandoned"))
    return Footer(status, entries, _blame(blame), tuple(votes))


def _blame(obj: Any) -> Blame | None:
    if obj is None:
        return None
    keys = {"culprit", "check", "reason", "index", "evidence"}
    if not isinstance(obj, dict) or set(obj) != keys:
        raise TranscriptError(N_("unreadable blame record: wrong keys"))
    evidence = obj["evidence"]
    if (
        not (obj["culprit"] is None or is_int(obj["culprit"]))
        or not is_int(obj["index"])
        or not isinstance(obj["check"], str)
        or not isinstance(obj["reason"], str)
        or not isinstance(evidence, list)
        or not all(isinstance(e, bytes) for e in evidence)
        or len(evidence) > 4
    ):
        raise TranscriptError(N_("unreadable blame record: bad field types"))
    return Blame(obj["culprit"], obj["check"], obj["reason"], obj["index"], tuple(evidence))


def build(
    config: GameConfig, entries: Sequence[bytes], status: str, blame: Blame | None = None,
    votes: Sequence[bytes] = (),
) -> Transcript:
    return Transcript(config, tuple(entries), Footer(status, len(entries), blame, tuple(votes)))
