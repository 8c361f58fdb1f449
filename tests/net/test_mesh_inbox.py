"""A link partner that sends faster than this member reads holds bounded memory here.

Two meshes on 127.0.0.1 over a real authenticated link: one sends 40 messages of 200 KiB
while the other reads nothing. The reader of that link stops once about
``INBOX_BYTES_PER_LINK`` waits in the inbox (TCP pushes back on the sender); when the member
reads again every message arrives, complete and in order.
"""

from __future__ import annotations

import asyncio

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.net.mesh import INBOX_BYTES_PER_LINK, TAG_FRAME, LinkUp, Mesh, Received
from tests.net.procs import HANG_GUARD

TABLE = b"inbox-test-table"
SIZE = 200 * 1024
COUNT = 40
BOUND = 256 * 1024 + SIZE + 1
"""docs/protocol.md, "Framing": a link with 256 KiB waiting is not read (one more message
may be on its way into the inbox when it stops)."""


async def _flood_unread() -> tuple[int, int, list[bytes]]:
    slow = Mesh(Ed25519PrivateKey.generate(), TABLE, None)
    fast = Mesh(Ed25519PrivateKey.generate(), TABLE, None)
    listener = await slow.listen("127.0.0.1", 0)
    try:
        ident = await fast.dial("127.0.0.1", listener.port)
        messages = [bytes([i]) * SIZE for i in range(COUNT)]
        for body in messages:
            fast.send(ident, TAG_FRAME, body)
        async with asyncio.timeout(HANG_GUARD):  # the reader of that link stops: the inbox is full
            while slow.inbox.waiting.get(fast.public, 0) < INBOX_BYTES_PER_LINK:
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)  # the sender goes on pushing; nobody reads the inbox
        held = list(slow.inbox._queue)  # type: ignore[attr-defined]  # what waits now
        waiting = sum(len(i.body) for i in held if isinstance(i, Received))
        queued = len(held)
        got: list[bytes] = []
        async with asyncio.timeout(HANG_GUARD):
            while len(got) < COUNT:
                item = await slow.inbox.get()
                if isinstance(item, Received):
                    got.append(item.body)
                else:
                    assert isinstance(item, LinkUp)
        return waiting, queued, got
    finally:
        await fast.close()
        await slow.close()


def test_an_unread_link_holds_bounded_memory_and_loses_nothing() -> None:
    waiting, queued, got = asyncio.run(_flood_unread())
    assert 0 < waiting <= BOUND, waiting
    assert queued <= 1 + BOUND // SIZE + 1, queued
    assert got == [bytes([i]) * SIZE for i in range(COUNT)], "all of it, in order"
