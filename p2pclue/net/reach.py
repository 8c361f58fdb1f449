"""Where an internet table's member can be reached, as text (pure: no sockets, no iroh).

An iroh endpoint is dialled by its key (the member's identity key) and reached at any of
its direct UDP addresses or through a relay. Two forms carry that (docs/protocol.md,
"Internet tables"):

- a *reach text*, ``iroh:KEYHEX@ITEM|ITEM...`` (an item is ``IPv4:PORT``, ``[IPv6]:PORT``
  or a relay URL ``http(s)://...``): what the iroh transport dials, what a joiner's
  ``hello`` says (``via``) and what the signed start's peer entries hold;
- a *ticket*, ``clue1`` and base32: the table name and the opener's reach in one line
  for people to paste (``join --ticket``).

Both are hints, like a LAN address: the handshake proves the key, and a text that lies
can only send a dial nowhere.
"""

from __future__ import annotations

import base64
import ipaddress
from dataclasses import dataclass

from p2pclue.net.ads import MAX_TABLE_NAME_BYTES

PREFIX = "iroh:"
TICKET_PREFIX = "clue1"
TICKET_VERSION = 1
MAX_ITEMS = 8
MAX_URL = 200
MAX_REACH_CHARS = 2048
_IP4, _IP6, _RELAY = 4, 6, 0x52


class ReachError(ValueError):
    """A reach text or a ticket that cannot be read; the message says what is wrong."""


@dataclass(frozen=True)
class Reach:
    """One endpoint: its key, direct addresses (``ip:port`` text) and relay URLs."""

    key: bytes
    addrs: tuple[str, ...] = ()
    relays: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.key) != 32:
            raise ReachError("an endpoint key is 32 bytes")
        if not self.addrs and not self.relays:
            raise ReachError("an endpoint needs an address or a relay")
        if len(self.addrs) + len(self.relays) > MAX_ITEMS:
            raise ReachError(f"at most {MAX_ITEMS} addresses and relays")
        for addr in self.addrs:
            split_addr(addr)
        for url in self.relays:
            check_relay(url)

    def text(self) -> str:
        return PREFIX + self.key.hex() + "@" + "|".join((*self.addrs, *self.relays))


def is_reach(text: str) -> bool:
    return text.startswith(PREFIX)


def parse_reach(text: str) -> Reach:
    """A ``Reach`` from untrusted text; ``ReachError`` if anything is off."""
    if not isinstance(text, str) or len(text) > MAX_REACH_CHARS or not is_reach(text):
        raise ReachError("not an iroh endpoint address")
    key_hex, sep, rest = text[len(PREFIX):].partition("@")
    if not sep or len(key_hex) != 64 or key_hex != key_hex.lower():
        raise ReachError("an endpoint address starts with its key in 64 hex digits")
    try:
        key = bytes.fromhex(key_hex)
    except ValueError:
        raise ReachError("the endpoint key is not hex") from None
    items = rest.split("|") if rest else []
    relays = tuple(i for i in items if i.startswith(("http://", "https://")))
    addrs = tuple(i for i in items if not i.startswith(("http://", "https://")))
    return Reach(key, addrs, relays)


def split_addr(addr: str) -> tuple[str, int]:
    """``(ip, port)`` of ``IPv4:PORT`` or ``[IPv6]:PORT``, in the canonical spelling only."""
    host, sep, port = addr.rpartition(":")
    if not sep or not port.isascii() or not port.isdigit() or not 0 < int(port) < 65536 \
            or str(int(port)) != port:
        raise ReachError(f"{addr!r} is not IP:PORT")
    bracketed = host.startswith("[") and host.endswith("]")
    try:
        ip = ipaddress.ip_address(host[1:-1] if bracketed else host)
    except ValueError:
        raise ReachError(f"{addr!r} is not IP:PORT") from None
    if (ip.version == 6) != bracketed or str(ip) != (host[1:-1] if bracketed else host):
        raise ReachError(f"{addr!r} is not IP:PORT in canonical form")
    return str(ip), int(port)


def check_relay(url: str) -> str:
    """A relay URL: ``http(s)://`` then printable ASCII without ``|`` or spaces."""
    if not url.startswith(("http://", "https://")) or len(url) > MAX_URL \
            or not url.isascii() or not url.isprintable() or "|" in url or " " in url:
        raise ReachError(f"{url!r} is not a relay URL (http:// or https://, "
                         f"at most {MAX_URL} characters)")
    return url


# ---- tickets ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Ticket:
    """What people paste to join an internet table: its name and its opener's reach."""

    table: str
    reach: Reach

    def text(self) -> str:
        name = self.table.encode("utf-8")
        if not 0 < len(name) <= MAX_TABLE_NAME_BYTES:
            raise ReachError("a table name is 1-120 bytes")
        out = bytearray([TICKET_VERSION, len(name)]) + name + self.reach.key
        out.append(len(self.reach.addrs) + len(self.reach.relays))
        for addr in self.reach.addrs:
            host, port = split_addr(addr)
            ip = ipaddress.ip_address(host)
            out += bytes([_IP4 if ip.version == 4 else _IP6]) + ip.packed + port.to_bytes(2, "big")
        for url in self.reach.relays:
            out += bytes([_RELAY, len(url)]) + url.encode("ascii")
        return TICKET_PREFIX + base64.b32encode(bytes(out)).decode("ascii").rstrip("=").lower()


def parse_ticket(text: str) -> Ticket:
    """A ``Ticket`` from what a person pasted (spaces and case do not matter)."""
    clean = "".join(text.split()).lower()
    if not clean.startswith(TICKET_PREFIX) or len(clean) > 2 * MAX_REACH_CHARS:
        raise ReachError("a ticket starts with clue1")
    body = clean[len(TICKET_PREFIX):].upper()
    try:
        data = base64.b32decode(body + "=" * (-len(body) % 8))
    except ValueError:
        raise ReachError("the ticket is damaged (not base32)") from None
    try:
        return _read_ticket(data)
    except (IndexError, UnicodeDecodeError):
        raise ReachError("the ticket is damaged (cut short)") from None


def _read_ticket(data: bytes) -> Ticket:
    if data[0] != TICKET_VERSION:
        raise ReachError(f"a ticket of version {data[0]}, not {TICKET_VERSION}")
    at = 2 + data[1]
    name = data[2:at].decode("utf-8")
    if not name or len(data) < at + 33:
        raise ReachError("the ticket is damaged (cut short)")
    key, count, at = data[at:at + 32], data[at + 32], at + 33
    addrs: list[str] = []
    relays: list[str] = []
    for _ in range(count):
        kind = data[at]
        if kind in (_IP4, _IP6):
            size = 4 if kind == _IP4 else 16
            if len(data) < at + 3 + size:
                raise IndexError
            ip = ipaddress.ip_address(data[at + 1:at + 1 + size])
            port = int.from_bytes(data[at + 1 + size:at + 3 + size], "big")
            addrs.append(f"{ip}:{port}" if kind == _IP4 else f"[{ip}]:{port}")
            at += 3 + size
        elif kind == _RELAY:
            size = data[at + 1]
            if len(data) < at + 2 + size:
                raise IndexError
            relays.append(data[at + 2:at + 2 + size].decode("ascii"))
            at += 2 + size
        else:
            raise ReachError("the ticket is damaged (an unknown address kind)")
    if at != len(data):
        raise ReachError("the ticket is damaged (bytes after the end)")
    return Ticket(name, Reach(key, tuple(addrs), tuple(relays)))
