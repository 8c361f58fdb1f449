"""Internet tables over iroh on 127.0.0.1 with relays off: the same lobby, start, session
and audit as on the LAN, only the links are QUIC connections dialled by key."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from p2pclue.bots.registry import BOTS
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.net.botplay import drive_bot, follow
from p2pclue.net.iroh_link import IrohLink, IrohTransport, available
from p2pclue.net.play import WrongTableCode, join_table, open_table, table_id
from p2pclue.net.reach import parse_reach
from p2pclue.net.session import NetSession
from p2pclue.rules.variants import preset
from tests.net.iroh_seats import iroh_transport as transport
from tests.net.iroh_seats import seat, tap_refusals
from tests.net.procs import HANG_GUARD

pytestmark = pytest.mark.skipif(not available(), reason="the internet extra (iroh) is missing")


async def internet_table(home: Path, n: int, code: str, spectators: int = 0
                         ) -> tuple[list[NetSession], list[Any], str]:
    opener = seat(home, "Host")
    opened: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    host_task = asyncio.ensure_future(open_table(
        opener, "Attic", preset("classic"), n, code, announce=False,
        on_opened=lambda o: opened.set_result(o.host), on_view=lambda v: None,
        transport=transport(opener, "Attic", code)))
    first: list[asyncio.Future[Any]] = [opened, host_task]
    await asyncio.wait(first, return_when=asyncio.FIRST_COMPLETED)
    if host_task.done():
        host_task.result()  # the opener failed before the table opened: say why
    reach = await opened
    guests = []
    for i in range(1, n):
        g = seat(home, f"G{i}")
        guests.append(asyncio.ensure_future(join_table(
            g, "Attic", reach, 1, code, on_view=lambda v: None,
            transport=transport(g, "Attic", code))))
    sessions = [await host_task] + [await g for g in guests]
    runs = [asyncio.ensure_future(s.run()) for s in sessions]
    for i in range(spectators):
        w = seat(home, f"W{i}")
        sessions.append(await join_table(w, "Attic", reach, 1, code, role="spectator",
                                         on_view=lambda v: None,
                                         transport=transport(w, "Attic", code)))
        runs.append(asyncio.ensure_future(sessions[-1].run()))
    bots = [drive_bot(s, BOTS["detective"], random.Random(i))
            for i, s in enumerate(sessions[:n])] + [follow(w) for w in sessions[n:]]
    ended = await asyncio.wait_for(asyncio.gather(*bots), HANG_GUARD)
    await asyncio.gather(*runs)
    return sessions, list(ended), reach


def test_a_whole_internet_game_on_loopback(tmp_path: Path) -> None:
    sessions, ended, reach = asyncio.run(internet_table(tmp_path, 3, "314159", spectators=1))
    assert parse_reach(reach).key in {p.identity for p in sessions[0].config.players}
    assert all(e.status == "complete" and e.audit_ok for e in ended), ended
    files = {s.transcript_path.read_bytes() for s in sessions}
    assert len(files) == 1, "every seat and the spectator hold the same transcript"
    verdict = audit(parse(files.pop()))
    assert verdict.valid and len(verdict.players) == 3


def test_links_are_direct_quic_and_prove_the_endpoint_key(tmp_path: Path) -> None:
    """The endpoint id is the identity key; a link reports direct and its round trip."""
    async def pair() -> None:
        a, b = seat(tmp_path, "A"), seat(tmp_path, "B")
        ta, tb = transport(a, "T", "1234"), transport(b, "T", "1234")
        got: asyncio.Queue[Any] = asyncio.Queue()

        async def on_link(link: Any) -> None:
            await got.put(link)

        try:
            door = await ta.listen("127.0.0.1", 0, on_link)
            assert parse_reach(door.host).key == a.profile.public
            await tb.listen("127.0.0.1", 0, on_link)
            mine = await tb.dial(door.host, door.port, timeout=10, expect=a.profile.public)
            theirs = await asyncio.wait_for(got.get(), 10)
            assert isinstance(mine, IrohLink) and isinstance(theirs, IrohLink)
            assert mine.peer_key == a.profile.public and theirs.peer_key == b.profile.public
            await mine.send(b"ping")
            assert await theirs.recv() == b"ping"
            assert mine.info.path == "direct" and mine.info.rtt_ms is not None
            await mine.close()
            await theirs.close()
        finally:
            await ta.close()
            await tb.close()

    asyncio.run(pair())


def test_a_wrong_code_is_refused_and_counted(tmp_path: Path) -> None:
    async def attempt() -> int:
        opener = seat(tmp_path, "Host")
        opened: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        t_open = transport(opener, "Attic", "111111")
        host_task = asyncio.ensure_future(open_table(
            opener, "Attic", preset("classic"), 3, "111111", announce=False,
            on_opened=lambda o: opened.set_result(o.host), on_view=lambda v: None,
            transport=t_open))
        reach = await opened
        refused = tap_refusals(t_open)
        g = seat(tmp_path, "Guesser")
        try:
            with pytest.raises(WrongTableCode):
                await join_table(g, "Attic", reach, 1, "222222", on_view=lambda v: None,
                                 transport=transport(g, "Attic", "222222"))
            await asyncio.sleep(0.2)
            return len(refused)
        finally:
            host_task.cancel()
            await asyncio.gather(host_task, return_exceptions=True)

    assert asyncio.run(attempt()) == 1


def test_the_listener_reports_its_external_addresses_at_once(tmp_path: Path) -> None:
    """The reach a listener reports (the one the start names) holds the external addresses
    it was given, even in the moment after ``bind`` when the endpoint does not list them
    yet: without them no member of another house could reach it. Twenty fresh endpoints,
    as the moment is short (about one in five fell in it before)."""
    external = ("192.0.2.7:7100", "198.51.100.3:7101")

    async def listen_once(i: int) -> tuple[str, ...]:
        s = seat(tmp_path, f"E{i}")
        t = IrohTransport(s.profile.identity, table_id("T"), None, relays=(),
                          external=external)

        async def on_link(link: Any) -> None:
            await link.close()

        try:
            door = await t.listen("127.0.0.1", 0, on_link)
            return parse_reach(door.host).addrs
        finally:
            await t.close()

    async def all_of_them() -> list[tuple[str, ...]]:
        return [await listen_once(i) for i in range(20)]

    for addrs in asyncio.run(all_of_them()):
        assert set(external) <= set(addrs), addrs
        assert any(a.startswith("127.0.0.1:") for a in addrs), addrs
