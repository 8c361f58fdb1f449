"""The seam between a table's logic and whatever carries its messages and finds its tables.

The session core, the lobby runner (``net.table``) and the mesh see only these shapes:

- a ``Link``: one authenticated connection to one identity key (``peer_key``, proven by
  the transport's handshake, never taken from an address), carrying whole messages;
- a ``Transport``: listens for links and dials them, honouring a ``Gate`` (game mode
  after the signed start, a used-up table code), and reports each wrong code it meets;
- a ``Discovery``: announces a table, browses tables, resolves one by name.

TCP with PAKE (spake2) and Noise (``net.links``) and mDNS (``net.discovery``) are today's
implementations; ``Pasted`` below is the trivial discovery of an address a person typed;
a QUIC transport (iroh) or an in-memory one fits the same shapes. Every failure is one of
the ``LinkError`` kinds below, so callers never depend on a particular transport's errors.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from p2pclue.net.ads import TableAd, TableNotFound
from p2pclue.net.api import LinkPath
from p2pclue.net.guesses import Guesses

# ---- what can go wrong with a link (every transport raises these) ---------------------


class LinkError(Exception):
    """A link could not be made or broke. The message is safe to show: no secrets."""


class LinkClosed(LinkError):
    """The link ended (by either side, an error, or garbage from the other side)."""


class WrongCode(LinkError):
    """The table code did not match (the only guess this connection had is spent)."""


class HandshakeTimeout(LinkError):
    """The other side did not finish the handshake within the deadline."""


class Refused(LinkError):
    """The other side refused for a stated reason (``reason``: a key of ``REFUSALS``)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class Busy(Refused):
    """The table turned this connection away for now (``busy``: back-off after failures
    from this address; ``full``: too many handshakes in progress): retry later."""


class Unreachable(LinkError, ConnectionError):
    """Nothing answered at that address (not open yet, or gone): retrying may help."""


class BadAddress(LinkError, ValueError):
    """The address is not one any resolver can take (``a..b``, a label over 63
    characters): no retry can help. Raised before any connection is tried."""


class FrameTooLarge(LinkError):
    """A message to send is over the 256 KiB limit every peer enforces."""


# ---- links and transports ----------------------------------------------------------------


@dataclass
class Gate:
    """What a table member's listeners admit, read at every new connection: the mesh
    changes it when the game starts (``game``, ``members``), when the opener turns the
    table to a fresh code (``code``), and when the table's last code is used up
    (``code_dead``). Every transport reserves a guess in ``guesses`` before it lets a
    code-mode dialler test the code, and reports each wrong one (``on_refused``)."""

    game: bytes | None = None
    """The session id of the signed start: links between its members need no code."""
    members: frozenset[bytes] = frozenset()
    """The identity keys named in the signed start."""
    code_dead: bool = False
    code: str | None = None
    """The table's code now (None: the code the transport was made with, or no code)."""
    code_entry: bool = True
    """Whether a code admits a newcomer here (a joiner's listeners admit none in the lobby:
    newcomers join through the opener, so one listener holds the whole budget)."""
    guesses: Guesses = field(default_factory=Guesses)
    """The table's wrong codes: the budget a code-mode handshake reserves a guess in."""


@dataclass(frozen=True)
class LinkInfo:
    """Where a link goes, for display and for re-dialling: never evidence of who is there."""

    host: str
    port: int
    path: str = "direct"
    """"direct", or "relayed" when a relay carries the link (a QUIC transport's)."""
    rtt_ms: int | None = None
    """The link's round-trip time as its transport measures it (QUIC does; TCP: None)."""

    @property
    def measured(self) -> LinkPath | None:
        """The path and round trip, for a transport that measures them (None: a LAN or
        in-process link, which has nothing to show)."""
        if self.rtt_ms is None:
            return None
        return LinkPath(self.path == "relayed", self.rtt_ms)


class Link(Protocol):
    """One authenticated connection to one peer; one reader, any writers."""

    @property
    def peer_key(self) -> bytes:
        """The identity key the other side proved in the handshake."""

    @property
    def info(self) -> LinkInfo: ...

    @property
    def closed(self) -> bool: ...

    async def send(self, message: bytes) -> None:
        """Send one whole message; ``LinkClosed`` if the link is gone."""

    async def recv(self) -> bytes:
        """The next whole message; ``LinkClosed`` at the end or on bad input."""

    async def close(self) -> None:
        """Close; safe to call twice; a pending ``recv`` raises ``LinkClosed``."""


OnLink = Callable[[Link], Awaitable[None]]


class Listening(Protocol):
    """A transport's open listener; links it accepts go to its ``on_link``."""

    host: str
    port: int

    async def close(self) -> None:
        """Stop accepting (links already handed out stay open)."""


class Transport(Protocol):
    """Makes authenticated links for one member of one table."""

    gate: Gate
    on_refused: Callable[[str], None] | None
    """Called for each wrong table code a listener or a dial met (one guess each)."""

    async def listen(self, host: str, port: int, on_link: OnLink) -> Listening: ...

    async def dial(self, host: str, port: int, *, timeout: float,
                   expect: bytes | None = None) -> Link:
        """A link to the member at ``host:port`` (``expect``: the key it must prove); in
        game mode once ``gate.game`` names a start this member is in."""

    async def close(self) -> None:
        """Stop every listener it opened and release what it holds (links handed out
        belong to their owner); safe to call twice."""


# ---- discovery -------------------------------------------------------------------------------


class Announcement(Protocol):
    async def update(self, ad: TableAd) -> None: ...

    async def close(self) -> None: ...


class Browsing(Protocol):
    def tables(self) -> list[TableAd]:
        """The tables seen so far (hints, unverified)."""

    def mark_failed(self, ad: TableAd) -> None:
        """Its handshake failed: never offer it in its place again."""

    async def wait_for(self, name: str | None, timeout: float,
                       opener: str | None = None) -> TableAd:
        """The first live table called ``name`` (any if None; ``opener``: that opener's
        key fingerprint); ``SameName`` or ``TableNotFound`` (``LookupError``s)."""

    async def close(self) -> None: ...


class Discovery(Protocol):
    async def announce(self, ad: TableAd, interfaces: list[str]) -> Announcement: ...

    async def browse(self, interfaces: list[str]) -> Browsing: ...


class Pasted:
    """The trivial discovery: tables whose address a person pasted (``--peer``), known as
    they are; announcing tells nobody (the opener's screen shows the address to read out)."""

    def __init__(self, ads: list[TableAd]) -> None:
        self._ads = list(ads)
        self._failed: set[tuple[bytes, str, str, int]] = set()

    async def announce(self, ad: TableAd, interfaces: list[str]) -> Announcement:
        return _Silent()

    async def browse(self, interfaces: list[str]) -> Browsing:
        return self

    def tables(self) -> list[TableAd]:
        return [ad for ad in self._ads if ad.place not in self._failed]

    def mark_failed(self, ad: TableAd) -> None:
        self._failed.add(ad.place)

    async def wait_for(self, name: str | None, timeout: float,
                       opener: str | None = None) -> TableAd:
        for ad in self.tables():
            if (name is None or ad.name == name) and opener in (None, ad.fingerprint):
                return ad
        raise TableNotFound(f"no pasted table is called {name!r}")

    async def close(self) -> None:
        return None


class _Silent:
    async def update(self, ad: TableAd) -> None:
        return None

    async def close(self) -> None:
        return None
