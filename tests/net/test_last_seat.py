"""Issue 20 (8, last): a joiner who fills the table unasked still chooses its suspect.

Whether a seat is the last one was read from the table's discovery record, which may be
stale (CI saw a record say two seats were free when one was). The joiner now reads it from
the host's own answer: if its seat filled the table and nobody asked it for a suspect, it
holds its signature on the start until the person chose; a pick then makes the host propose
anew. Through ``open_table`` / ``join_table`` over links in memory (``net.memlinks``: the
lobby's logic, no socket matters), and the host that ignores such a pick (an older one)
with the lobbies alone: the held start is signed as it was."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from p2pclue.net.lobby import GuestLobby, HostLobby, LobbyView
from p2pclue.net.memlinks import Hub, MemoryTransport
from p2pclue.net.play import Seat, join_table, open_table
from p2pclue.net.profile import load
from p2pclue.net.session import NetSession
from p2pclue.net.table import LobbyAction, Pick
from p2pclue.rules.cards import SUSPECTS
from p2pclue.rules.variants import preset
from tests.net.procs import HANG_GUARD
from tests.net.test_lobby import Table, key, nonce

PLUM = SUSPECTS[5].index


def _seat(home: Path, name: str) -> Seat:
    return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, interfaces=["127.0.0.1"])


def _links(hub: Hub, seat: Seat, host: str) -> MemoryTransport:
    return MemoryTransport(hub, seat.profile.identity, None, host)


async def _table(home: Path) -> tuple[int, int, list[LobbyView]]:
    """Three seats over links in memory; the third joiner fills the table unasked and picks Plum.
    Returns Bea's suspect in the game, how many configs the three started, Bea's views."""
    loop = asyncio.get_running_loop()
    opened: asyncio.Future[tuple[str, int]] = loop.create_future()
    at_host: list[LobbyView] = []
    hub = Hub()
    seats = {name: _seat(home, name) for name in ("Host", "Ada", "Bea")}
    host = asyncio.ensure_future(open_table(
        seats["Host"], "Attic", preset("classic"), 3, None, announce=False,
        on_opened=lambda o: opened.set_result((o.host, o.port)), on_view=at_host.append,
        transport=_links(hub, seats["Host"], "192.0.2.1")))
    tasks = [host]
    sessions = []
    try:
        addr, port = await asyncio.wait_for(opened, HANG_GUARD)
        tasks.append(asyncio.ensure_future(join_table(
            seats["Ada"], "Attic", addr, port, None, on_view=lambda v: None,
            transport=_links(hub, seats["Ada"], "192.0.2.2"))))
        async with asyncio.timeout(HANG_GUARD):  # the seat the record missed
            while not at_host or len(at_host[-1].players) < 2:
                await asyncio.sleep(0.05)
        actions: asyncio.Queue[LobbyAction] = asyncio.Queue()
        seen: list[LobbyView] = []

        def view(v: LobbyView) -> None:
            seen.append(v)
            if len(seen) == 1:  # the first answer: the table is full and nobody asked
                loop.call_later(0.5, actions.put_nowait, Pick(PLUM))

        tasks.append(asyncio.ensure_future(join_table(
            seats["Bea"], "Attic", addr, port, None, on_view=view, actions=actions,
            ask_last_seat=True, transport=_links(hub, seats["Bea"], "192.0.2.3"))))
        sessions = [await asyncio.wait_for(t, HANG_GUARD) for t in tasks]
        assert all(isinstance(s._mesh.transport, MemoryTransport) for s in sessions)
        bea = next(p.suspect for p in sessions[0].config.players if p.name == "Bea")
        return bea, len({s.config.digest() for s in sessions}), seen
    finally:
        await close_all(sessions, tasks)


async def close_all(sessions: Sequence[NetSession], tasks: Sequence[asyncio.Future[Any]]
                    ) -> None:
    """End a test's table on loopback: close the sessions it started, cancel the rest."""
    for s in sessions:
        await s.close()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def test_the_joiner_who_fills_the_table_unasked_picks_before_the_start(tmp_path: Path) -> None:
    bea, configs, seen = asyncio.run(_table(tmp_path))
    assert len(seen[0].players) == 3  # the host's first answer: this seat was the last one
    assert bea == PLUM, bea  # not the first free suspect the host gave
    assert configs == 1  # all three started the same game


def test_a_host_that_ignores_the_pick_still_gets_the_start_signed() -> None:
    t = Table(3, 1)
    late = GuestLobby(key(9), "Bea", 4009, nonce(9), ask_last_seat=True)
    t.guests[late.identity] = late
    t.deliver_host(late.identity, late.hello())
    assert late.asking and late.held is not None and t.host.started is None
    given = late.me().suspect  # type: ignore[union-attr]
    real_pick = HostLobby._pick
    HostLobby._pick = lambda self, guest, suspect: []  # type: ignore[method-assign]
    try:
        assert late.choose(PLUM) == [late.pick(PLUM)]  # asked for; the old host says nothing
    finally:
        HostLobby._pick = real_pick  # type: ignore[method-assign]
    assert t.host.started is None and late.held is not None
    replies: list[dict[str, Any]] = late.sign_held()  # the runner's patience ran out
    for r in replies:
        t.deliver_host(late.identity, r)
    assert t.host.started is not None
    mine = next(p for p in t.host.started.config.players if p.identity == late.identity)
    assert mine.suspect == given


def test_keeping_the_given_suspect_signs_at_once_and_an_asked_joiner_is_never_held() -> None:
    t = Table(3, 1)
    late = GuestLobby(key(9), "Bea", 4009, nonce(9), ask_last_seat=True)
    t.guests[late.identity] = late
    t.deliver_host(late.identity, late.hello())
    given = late.me().suspect  # type: ignore[union-attr]
    for r in late.choose(given):  # type: ignore[arg-type]
        t.deliver_host(late.identity, r)
    assert t.host.started is not None
    asked = Table(3, 1)
    wished = GuestLobby(key(8), "Cy", 4008, nonce(8), wish=PLUM, ask_last_seat=True)
    asked.guests[wished.identity] = wished
    asked.deliver_host(wished.identity, wished.hello())
    assert not wished.asking and asked.host.started is not None
