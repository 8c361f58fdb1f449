"""The links of one table member: one reader and one writer task per link, one inbox.

Every link is already authenticated (``links``): it names the identity key at its other
end. The mesh only moves tagged messages: an engine frame, a lobby message, or a sync
message. It keeps one link per identity, bounds what it queues, and turns every link
event into an inbox item, so the lobby and the session runner are one loop reading one
queue. Nothing here decodes a frame: the lobby and the engine validate what they get.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.net import links
from p2pclue.net.api import LinkPath
from p2pclue.net.guesses import Guesses
from p2pclue.net.meta import MAX_META_BYTES as MAX_META_BYTES
from p2pclue.net.meta import META_LIMITS as META_LIMITS
from p2pclue.net.meta import TAG_FRAME as TAG_FRAME
from p2pclue.net.meta import TAG_LOBBY as TAG_LOBBY
from p2pclue.net.meta import TAG_SYNC as TAG_SYNC
from p2pclue.net.meta import TAGS
from p2pclue.net.meta import decode_meta as decode_meta
from p2pclue.net.meta import encode as encode
from p2pclue.net.transport import Link, LinkError, Listening, Transport, WrongCode

OUTBOX_LIMIT = 4096
"""Messages queued for one link; a peer that reads nothing for this long is dropped."""
INBOX_LIMIT = 1024
INBOX_BYTES_PER_LINK = 256 * 1024
"""Bytes one link may have waiting in the inbox; its reader then waits (TCP pushes back), so
a link partner that sends faster than this member reads holds at most about twice this."""


@dataclass(frozen=True)
class Received:
    identity: bytes
    tag: int
    body: bytes


@dataclass(frozen=True)
class LinkUp:
    identity: bytes
    host: str


@dataclass(frozen=True)
class LinkDown:
    identity: bytes


@dataclass(frozen=True)
class Refused:
    reason: str


Item = Received | LinkUp | LinkDown | Refused


class Inbox(asyncio.Queue[Item]):
    """The one queue of a member's items, counting the bytes each link has waiting in it."""

    def __init__(self, maxsize: int) -> None:
        super().__init__(maxsize)
        self.waiting: dict[bytes, int] = {}
        self._room: dict[bytes, asyncio.Event] = {}

    def _put(self, item: Item) -> None:
        if isinstance(item, Received):
            self.waiting[item.identity] = self.waiting.get(item.identity, 0) + len(item.body)
        super()._put(item)

    def _get(self) -> Item:
        item = super()._get()
        if isinstance(item, Received):
            left = self.waiting.get(item.identity, 0) - len(item.body)
            if left > 0:
                self.waiting[item.identity] = left
            else:
                self.waiting.pop(item.identity, None)
            room = self._room.get(item.identity)
            if room is not None and left < INBOX_BYTES_PER_LINK:
                room.set()
        return item

    async def room_for(self, ident: bytes) -> None:
        """Wait until ``ident``'s link has less than ``INBOX_BYTES_PER_LINK`` waiting."""
        while self.waiting.get(ident, 0) >= INBOX_BYTES_PER_LINK:
            room = self._room.setdefault(ident, asyncio.Event())
            room.clear()
            await room.wait()
        self._room.pop(ident, None)


@dataclass
class _Handle:
    link: Link
    outbox: asyncio.Queue[bytes | None] = field(default_factory=asyncio.Queue)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)


class Mesh:
    """All links of this member, keyed by the identity key at their other end."""

    def __init__(self, identity: Ed25519PrivateKey, table_id: bytes, code: str | None,
                 *, accept: Callable[[bytes], bool] | None = None,
                 transport: Transport | None = None) -> None:
        """``transport``: what makes the links (TCP with the table code by default)."""
        self.identity = identity
        self.public = identity.public_key().public_bytes_raw()
        self.table_id = table_id
        self.accept = accept
        """Who may link to us (None: anyone who passed the handshake)."""
        self.transport: Transport = transport or links.TcpTransport(identity, table_id, code)
        self.transport.on_refused = self._on_refused
        self.gate = self.transport.gate
        """What our listeners admit; ``enter_game``, ``turn_code`` and ``code_used_up``
        change it."""
        self.gate.code = code
        self.guesses: Guesses = self.gate.guesses
        """Wrong codes this member met and what the others reported: the table's budget,
        the one the transport reserves guesses in, and the one the session core shows."""
        self.inbox: Inbox = Inbox(INBOX_LIMIT)
        self._links: dict[bytes, _Handle] = {}
        self._listeners: list[Listening] = []
        self._closing = False
        self._late: set[asyncio.Task[None]] = set()
        self.dropped_messages = 0

    # -- links in and out

    async def listen(self, host: str, port: int = 0) -> Listening:
        listener = await self.transport.listen(host, port, self._on_link)
        self._listeners.append(listener)
        return listener

    @property
    def code(self) -> str | None:
        """The table's code now (a fresh one once the opener turned it), or None."""
        return self.gate.code

    def enter_game(self, members: frozenset[bytes], session: bytes) -> None:
        """The start is signed: links between its members use no code from now on (game
        mode, ``pairing``); a code still admits a newcomer, who can only watch (at any
        member's listener: it links to every player)."""
        self.gate.game, self.gate.members = session, members
        self.gate.code_entry = True

    def only_through_opener(self) -> None:
        """A joiner in the lobby: its listeners admit no newcomer with the code (they
        join through the opener), so the opener's listener holds the table's budget."""
        self.gate.code_entry = False

    def turn_code(self, code: str, turn: int | None = None) -> None:
        """The opener turned the table to a fresh code (a fresh budget): the next
        code-mode connection needs it; links already up need no code."""
        self.gate.code = code
        self.guesses.turn_code(turn)

    def code_used_up(self) -> None:
        """The table's wrong-code budget is spent: no listener of ours runs the code again."""
        self.gate.code_dead = True

    async def dial(self, host: str, port: int, timeout: float = 10.0,
                   expect: bytes | None = None) -> bytes:
        """Link to ``host:port``; a member of a started game dials in game mode (no code).
        A code-mode dial that let the other side test the code counts as a wrong code
        (``Refused`` in the inbox, as for our listeners) before ``WrongCode`` is raised."""
        try:
            link = await self.transport.dial(host, port, timeout=timeout, expect=expect)
        except WrongCode as exc:
            self._on_refused(f"dialled {host}:{port}: {exc}")
            raise
        await self._on_link(link)
        return link.peer_key

    async def _on_link(self, link: Link) -> None:
        ident = link.peer_key
        if self._closing or ident == self.public or ident in self._links \
                or (self.accept is not None and not self.accept(ident)):
            await _close_link(link)
            return
        handle = _Handle(link)
        self._links[ident] = handle
        await self.inbox.put(LinkUp(ident, link.info.host))
        handle.tasks = [asyncio.create_task(self._reader(ident, handle)),
                        asyncio.create_task(self._writer(ident, handle))]

    def _on_refused(self, reason: str) -> None:
        self.guesses.own += 1
        with contextlib.suppress(asyncio.QueueFull):
            self.inbox.put_nowait(Refused(reason))

    async def _reader(self, ident: bytes, handle: _Handle) -> None:
        try:
            while True:
                data = await handle.link.recv()
                if not data or data[0] not in TAGS:
                    self.dropped_messages += 1
                    continue
                await self.inbox.room_for(ident)
                await self.inbox.put(Received(ident, data[0], data[1:]))
        except (LinkError, OSError):
            pass
        finally:
            self._gone(ident, handle)

    async def _writer(self, ident: bytes, handle: _Handle) -> None:
        try:
            while True:
                data = await handle.outbox.get()
                if data is None:
                    break
                await handle.link.send(data)
        except (LinkError, OSError):
            pass
        finally:
            self._gone(ident, handle)

    def _gone(self, ident: bytes, handle: _Handle) -> None:
        if self._links.get(ident) is handle:
            del self._links[ident]
            for task in handle.tasks:
                if task is not asyncio.current_task():
                    task.cancel()
            closing = asyncio.get_running_loop().create_task(_close_link(handle.link))
            self._late.add(closing)  # held until done: a task nobody holds may vanish
            closing.add_done_callback(self._late.discard)
            if not self._closing:
                try:
                    self.inbox.put_nowait(LinkDown(ident))
                except asyncio.QueueFull:  # a full inbox must not lose the news: queue it
                    task = asyncio.get_running_loop().create_task(self.inbox.put(LinkDown(ident)))
                    self._late.add(task)
                    task.add_done_callback(self._late.discard)

    # -- sending

    def linked(self) -> set[bytes]:
        return set(self._links)

    def paths(self) -> dict[bytes, LinkPath]:
        """How each link that its transport measures runs now (direct or relayed, round
        trip), by the identity at its other end; LAN links are left out."""
        out = {}
        for ident, handle in self._links.items():
            path = handle.link.info.measured
            if path is not None:
                out[ident] = path
        return out

    def send(self, ident: bytes, tag: int, body: bytes | dict[str, Any]) -> None:
        self._send_raw(ident, encode(tag, body))

    def send_encoded(self, ident: bytes, data: bytes) -> None:
        """Queue one whole link message (``meta.encode``) for ``ident``; nothing if unlinked."""
        self._send_raw(ident, data)

    def _send_raw(self, ident: bytes, data: bytes) -> None:
        handle = self._links.get(ident)
        if handle is None:
            return
        if handle.outbox.qsize() >= OUTBOX_LIMIT:
            self._gone(ident, handle)  # it reads nothing: it costs us no memory
            return
        handle.outbox.put_nowait(data)

    def broadcast(self, tag: int, body: bytes | dict[str, Any],
                  exclude: set[bytes] | None = None) -> None:
        data = encode(tag, body)
        for ident in list(self._links):
            if exclude is None or ident not in exclude:
                self._send_raw(ident, data)

    async def drop(self, ident: bytes) -> None:
        self.cut(ident)

    def cut(self, ident: bytes) -> None:
        """Close the link to ``ident`` now (a ``LinkDown`` follows), from synchronous code."""
        handle = self._links.get(ident)
        if handle is not None:
            self._gone(ident, handle)

    async def flush(self, timeout: float = 5.0) -> None:
        """Wait until every queued message went out (or the time is up)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while any(h.outbox.qsize() for h in self._links.values()) and loop.time() < end:
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        """Flush, then close every link and listener and await every task."""
        if self._closing:
            return
        await self.flush(2.0)
        self._closing = True
        for listener in self._listeners:
            with contextlib.suppress(Exception):
                await listener.close()
        with contextlib.suppress(Exception):
            await self.transport.close()
        handles = list(self._links.values())
        self._links.clear()
        for h in handles:
            h.outbox.put_nowait(None)
        writers = [t for h in handles for t in h.tasks[1:]]
        if writers:  # every writer sends what it holds, all links at once
            await asyncio.wait(writers, timeout=1.0)
        tasks = [t for h in handles for t in h.tasks] + list(self._late)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(_close_link(h.link) for h in handles))


async def _close_link(link: Link) -> None:
    """Close a link; a close waiter already cancelled by a reader we cancelled is no
    reason to stop closing the others (but our own cancellation still propagates)."""
    try:
        await link.close()
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise
    except Exception:  # a broken socket: it is closed either way
        pass
