"""Links in memory for asyncio drivers: a second ``net.transport.Transport``, no sockets.

A ``Hub`` stands for the network: members listen at an address on it and dial each
other; a link is two queues. The identity a link names is the key its dialler and
listener were built with (there is no handshake to prove it: this transport exists for
tests and in-process tables, where every member is this process). What the TCP transport
does at the door is kept where it decides who gets in: the ``Gate`` (a member of a
started game dials in game mode; a newcomer needs the table code while the code is
alive) and a wrong code, which is counted as one guess (``on_refused``) and refused.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.engine.wire import MAX_FRAME_BYTES
from p2pclue.net.transport import (
    FrameTooLarge,
    Gate,
    LinkClosed,
    LinkError,
    LinkInfo,
    OnLink,
    Refused,
    Unreachable,
    WrongCode,
)


@dataclass
class _Door:
    transport: MemoryTransport
    on_link: OnLink
    host: str
    port: int
    closed: bool = False

    async def close(self) -> None:
        self.closed = True
        self.transport.hub.doors.pop((self.host, self.port), None)


@dataclass
class Hub:
    """The network the members of one test share."""

    doors: dict[tuple[str, int], _Door] = field(default_factory=dict)
    ports: itertools.count[int] = field(default_factory=lambda: itertools.count(40000))


class MemoryLink:
    """One end of an in-memory link."""

    def __init__(self, peer_key: bytes, info: LinkInfo) -> None:
        self._peer_key = peer_key
        self._info = info
        self._inbox: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.other: MemoryLink | None = None
        self._closed = False

    @property
    def peer_key(self) -> bytes:
        return self._peer_key

    @property
    def info(self) -> LinkInfo:
        return self._info

    @property
    def closed(self) -> bool:
        return self._closed

    async def send(self, message: bytes) -> None:
        if len(message) > MAX_FRAME_BYTES:
            raise FrameTooLarge(f"a message of {len(message)} bytes is over {MAX_FRAME_BYTES}")
        if self._closed or self.other is None or self.other.closed:
            raise LinkClosed("closed")
        self.other._inbox.put_nowait(bytes(message))
        await asyncio.sleep(0)

    async def recv(self) -> bytes:
        if self._closed:
            raise LinkClosed("closed by this side")
        message = await self._inbox.get()
        if message is None:
            self._closed = True
            raise LinkClosed("closed")
        return message

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._inbox.put_nowait(None)
            if self.other is not None and not self.other.closed:
                self.other._inbox.put_nowait(None)


class MemoryTransport:
    """One member's transport on a ``Hub``; ``host`` is the address others see it at."""

    def __init__(self, hub: Hub, identity: Ed25519PrivateKey, code: str | None,
                 host: str, on_refused: Callable[[str], None] | None = None) -> None:
        self.hub = hub
        self.public = identity.public_key().public_bytes_raw()
        self.code = code
        self.host = host
        self.gate = Gate()
        self.on_refused = on_refused

    async def listen(self, host: str, port: int, on_link: OnLink) -> _Door:
        port = port or next(self.hub.ports)
        door = _Door(self, on_link, self.host, port)
        self.hub.doors[(self.host, port)] = door
        return door

    async def close(self) -> None:
        for door in [d for d in self.hub.doors.values() if d.transport is self]:
            await door.close()

    async def dial(self, host: str, port: int, *, timeout: float,
                   expect: bytes | None = None) -> MemoryLink:
        door = self.hub.doors.get((host, port))
        if door is None or door.closed:
            raise Unreachable(f"cannot reach {host}:{port}: nobody listens there")
        there = door.transport
        gate = there.gate
        game = self.gate.game if self.public in self.gate.members else None
        member = game is not None and game == gate.game and self.public in gate.members
        if not member and there.code is not None and (gate.code_dead or self.code != there.code):
            if gate.code_dead:
                raise Refused("code", "the table code is used up")
            if there.on_refused is not None:
                there.on_refused(f"refused {self.host}: wrong code")
            raise WrongCode(f"{host}:{port} refused the code")
        if expect is not None and there.public != expect:
            raise LinkError(f"{host}:{port} answered with another identity key than expected")
        mine = MemoryLink(there.public, LinkInfo(host, port))
        theirs = MemoryLink(self.public, LinkInfo(self.host, 0))
        mine.other, theirs.other = theirs, mine
        await door.on_link(theirs)
        return mine
