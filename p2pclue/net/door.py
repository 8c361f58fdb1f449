"""The opener's own door, for the bots it seats in its own process (``join --bots``).

Such a bot is no stranger: the opener started it, so it needs no table code, which may
turn (or close the table's entry) before the bot dials. The opener's transport is wrapped
(``OpenerDoor``): it listens and dials as before, and a bot's transport (``BotTransport``)
reaches it through memory instead of a socket. Only code in this process holding the door
can use it: nothing on the network changes, and no guess of the code is spent. Every other
link of the bot (to the other players, from late spectators) is its own real transport's,
with the table's code as the bot's gate holds it.
"""

from __future__ import annotations

from collections.abc import Callable

from p2pclue.net.hosts import LOOPBACK
from p2pclue.net.memlinks import MemoryLink
from p2pclue.net.transport import Gate, Link, LinkInfo, Listening, OnLink, Transport, Unreachable


class _Wrapped:
    """A transport that hands everything to ``inner`` (its gate, its wrong-code reports)."""

    def __init__(self, inner: Transport) -> None:
        self.inner = inner
        self.gate: Gate = inner.gate

    @property
    def on_refused(self) -> Callable[[str], None] | None:
        return self.inner.on_refused

    @on_refused.setter
    def on_refused(self, report: Callable[[str], None] | None) -> None:
        self.inner.on_refused = report

    async def listen(self, host: str, port: int, on_link: OnLink) -> Listening:
        return await self.inner.listen(host, port, on_link)

    async def dial(self, host: str, port: int, *, timeout: float,
                   expect: bytes | None = None) -> Link:
        return await self.inner.dial(host, port, timeout=timeout, expect=expect)

    async def close(self) -> None:
        await self.inner.close()


class OpenerDoor(_Wrapped):
    """The opener's transport (``inner``), with a door its in-process bots come through."""

    def __init__(self, inner: Transport, public: bytes) -> None:
        super().__init__(inner)
        self.public = public
        """The opener's identity key: who a bot's link through the door reaches."""
        self._on_link: OnLink | None = None
        self.where: tuple[str, int] | None = None
        """The opener's listener (host, port): what its bots dial."""
        self.closed = False

    async def listen(self, host: str, port: int, on_link: OnLink) -> Listening:
        listening = await self.inner.listen(host, port, on_link)
        if self._on_link is None:
            self._on_link, self.where = on_link, (listening.host, listening.port)
        return listening

    async def close(self) -> None:
        self.closed = True
        await self.inner.close()

    def for_bot(self, bot: Transport, public: bytes) -> BotTransport:
        """The transport of a bot with identity key ``public`` (its own is ``bot``)."""
        return BotTransport(self, bot, public)

    async def enter(self, public: bytes) -> Link:
        """A link from the bot ``public`` to the opener, in memory. The opener sees it come
        from where a loopback dial would (its socket's address)."""
        if self.closed or self._on_link is None or self.where is None:
            raise Unreachable("the opener's table is closed")
        host, port = self.where
        seen_from = host if host not in ("", "0.0.0.0", "::") else LOOPBACK
        mine = MemoryLink(self.public, LinkInfo(host, port))
        theirs = MemoryLink(public, LinkInfo(seen_from, 0))
        mine.other, theirs.other = theirs, mine
        await self._on_link(theirs)
        return mine


class BotTransport(_Wrapped):
    """A bot's own transport (``inner``); a dial of the opener's listener goes through the
    opener's door instead (in the lobby and for every re-dial in the game)."""

    def __init__(self, door: OpenerDoor, inner: Transport, public: bytes) -> None:
        super().__init__(inner)
        self.door = door
        self.public = public

    async def dial(self, host: str, port: int, *, timeout: float,
                   expect: bytes | None = None) -> Link:
        if (host, port) == self.door.where:
            if expect is not None and expect != self.door.public:
                raise Unreachable(f"{host}:{port} is the opener's, not the key expected")
            return await self.door.enter(self.public)
        return await self.inner.dial(host, port, timeout=timeout, expect=expect)
