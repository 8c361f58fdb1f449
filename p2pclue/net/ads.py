"""A table as discovery describes it, whatever found it (mDNS, a pasted address): pure.

``TableAd`` holds the public facts of a table's record (docs/protocol.md, "Discovery
records"): hints for a menu, never proof of who anyone is (an identity key is proven in
the link handshake). ``fingerprint`` is the short form of an opener's key people compare
aloud; the TXT encoding lives here so every discovery reads and writes the same record.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from p2pclue.rules.cards import SUSPECTS

MAX_TXT_ITEM = 200
"""Each ``key=value`` item stays under this (DNS allows 255)."""
MAX_TABLE_NAME_BYTES = 120
_PRESET = re.compile(r"^[a-z0-9][a-z0-9_-]{0,23}$")
_FINGERPRINT = re.compile(r"^[0-9a-f]{4}(-[0-9a-f]{4}){3}$")
_HEX = re.compile(r"^[0-9a-f]{2,128}$")
_SMALL = re.compile(r"^[0-9]{1,2}$")
SUSPECT_IDS = tuple(c.index for c in SUSPECTS)


class DiscoveryError(Exception):
    """Discovery could not do what was asked; the message says what to try instead."""


class SameName(DiscoveryError, LookupError):
    """Several tables, each with its own opener's key, answer to one name: a person must
    pick by the key (one of them may be a stranger's record)."""

    def __init__(self, message: str, tables: list[TableAd]) -> None:
        super().__init__(message)
        self.tables = tables


class TableNotFound(DiscoveryError, LookupError):
    """No live table matched in time; the message suggests ``--peer``."""


def fingerprint(identity_public: bytes) -> str:
    """Short, human-comparable: 4 groups of 4 hex digits of a hash of the identity key."""
    digest = hashlib.sha256(b"p2pclue/v1/fingerprint\x00" + identity_public).hexdigest()[:16]
    return "-".join(digest[i : i + 4] for i in range(0, 16, 4))


@dataclass(frozen=True)
class TableAd:
    """One table as its DNS-SD record describes it: public facts, unverified hints."""

    table_id: bytes
    name: str
    preset: str
    seats_taken: int
    seats_wanted: int
    playing: bool
    version: int
    fingerprint: str
    host: str
    port: int
    needs_code: bool = True
    failed: bool = False
    """This browser's handshake with it failed (a wrong code, or not the opener's key):
    shown as such and never dialled again by itself. Not part of the record."""
    taken: tuple[int, ...] | None = None
    """The suspects already sat as, ascending (None: the record did not say). A hint for
    the last seat's question, like the rest of the record; the lobby decides."""

    @property
    def place(self) -> tuple[bytes, str, str, int]:
        """What tells one record from another: a table is its id *and* its opener's key
        (a name proves nothing), answered at one address."""
        return (self.table_id, self.fingerprint, self.host, self.port)

    def txt(self) -> dict[str, str]:
        """The TXT items (each checked under ``MAX_TXT_ITEM`` bytes)."""
        items = {
            "v": str(self.version),
            "id": self.table_id.hex(),
            "n": clip_utf8(self.name, MAX_TABLE_NAME_BYTES),
            "p": self.preset,
            "s": f"{self.seats_taken}/{self.seats_wanted}",
            "st": "playing" if self.playing else "lobby",
            "fp": self.fingerprint,
            "c": "1" if self.needs_code else "0",
        }
        if self.taken is not None:
            items["tk"] = ",".join(str(suspect) for suspect in sorted(self.taken))
        for key, value in items.items():
            if len(key.encode()) + 1 + len(value.encode()) > MAX_TXT_ITEM:
                raise ValueError(f"TXT item {key} is too long")
        return items


def clip_utf8(text: str, limit: int) -> str:
    """At most ``limit`` bytes of UTF-8, never half a character."""
    data = text.encode("utf-8")[:limit]
    return data.decode("utf-8", "ignore")


def _printable(text: str) -> bool:
    return bool(text) and all(unicodedata.category(ch)[0] != "C" for ch in text)


def parse_txt(props: Mapping[bytes, bytes | None], host: str, port: int) -> TableAd | None:
    """A ``TableAd`` from untrusted TXT items, or None if anything is off."""
    try:
        got = {k.decode("ascii"): (v or b"").decode("utf-8") for k, v in props.items()}
        taken, wanted = (int(x) for x in got["s"].split("/"))
        ad = TableAd(
            table_id=bytes.fromhex(got["id"]) if _HEX.match(got["id"]) else b"",
            name=got["n"],
            preset=got["p"],
            seats_taken=taken,
            seats_wanted=wanted,
            playing={"lobby": False, "playing": True}[got["st"]],
            version=int(got["v"]),
            fingerprint=got["fp"],
            host=host,
            port=port,
            needs_code=got.get("c", "1") != "0",
            taken=_taken(got["tk"]) if "tk" in got else None,
        )
    except (KeyError, ValueError, UnicodeDecodeError):
        return None
    ok = (
        1 <= len(ad.table_id) <= 64 and _printable(ad.name)
        and len(ad.name.encode()) <= MAX_TABLE_NAME_BYTES and bool(_PRESET.match(ad.preset))
        and 0 <= ad.seats_taken <= ad.seats_wanted <= 6 and 0 < ad.version < 1000
        and bool(_FINGERPRINT.match(ad.fingerprint)) and 0 < port < 65536
        and (ad.taken is None or len(ad.taken) <= ad.seats_taken)
    )
    return ad if ok else None


def _taken(value: str) -> tuple[int, ...]:
    """The ``tk`` item: distinct suspect ids, ascending, comma-separated ("" for none)."""
    if not value:
        return ()
    ids = tuple(int(part) for part in value.split(",") if _SMALL.match(part))
    if len(ids) != value.count(",") + 1 or any(i not in SUSPECT_IDS for i in ids) \
            or list(ids) != sorted(set(ids)):
        raise ValueError("bad taken suspects")
    return ids
