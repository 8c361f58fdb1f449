"""The asyncio driver (``NetSession``) and the lobby over a second transport: links in
memory (``net.memlinks``), no socket anywhere. What the seam promises: the lobby, the
session and the core run unchanged over any ``net.transport.Transport``."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from p2pclue.bots.registry import BOTS
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import read_payload, split_frame
from p2pclue.net import api
from p2pclue.net.botplay import drive_bot
from p2pclue.net.lobby import LobbyView
from p2pclue.net.memlinks import Hub, MemoryTransport
from p2pclue.net.play import Opened, Seat, join_table, open_table
from p2pclue.net.profile import load
from p2pclue.net.session import NetSession
from p2pclue.rules.variants import preset

HANG_GUARD = 300.0


def _seat(home: Path, name: str) -> Seat:
    return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, interfaces=["127.0.0.1"])


async def linked_in_memory(home: Path, hub: Hub, code: str | None) -> list[NetSession]:
    """A classic table of three (Host, G1, G2) seated over links in memory on ``hub``."""
    opened: asyncio.Future[Opened] = asyncio.get_running_loop().create_future()
    host = _seat(home, "Host")
    opening = asyncio.ensure_future(open_table(
        host, "Attic", preset("classic"), 3, code, on_opened=opened.set_result,
        on_view=lambda v: None, announce=False,
        transport=MemoryTransport(hub, host.profile.identity, code, "192.0.2.1")))
    where = await asyncio.wait_for(opened, HANG_GUARD)
    joining = []
    for i in (1, 2):
        guest = _seat(home, f"G{i}")
        joining.append(asyncio.ensure_future(join_table(
            guest, "Attic", where.host, where.port, code, on_view=lambda v: None,
            transport=MemoryTransport(hub, guest.profile.identity, code, f"192.0.2.{i + 1}"))))
    return [await asyncio.wait_for(t, HANG_GUARD) for t in (opening, *joining)]


def test_a_whole_networked_game_over_links_in_memory(tmp_path: Path) -> None:
    async def play() -> tuple[list[NetSession], list[api.Ended]]:
        hub = Hub()
        sessions = await linked_in_memory(tmp_path, hub, "123456")
        runs = [asyncio.ensure_future(s.run()) for s in sessions]
        bots = [drive_bot(s, BOTS["detective"], random.Random(i))
                for i, s in enumerate(sessions)]
        ended = await asyncio.wait_for(asyncio.gather(*bots), HANG_GUARD)
        await asyncio.gather(*runs)
        assert not hub.doors, "every listener closed with its session"
        return sessions, list(ended)

    sessions, ended = asyncio.run(play())
    assert all(e.status == "complete" and e.audit_ok for e in ended), ended
    files = {s.transcript_path.read_bytes() for s in sessions}
    assert len(files) == 1
    raw = files.pop()
    assert audit(parse(raw), raw).valid
    types = [read_payload(split_frame(e)[1])[0].type for e in parse(raw).entries]
    # every show's private opening reached its suggester over their own link (a lost one
    # is complained about after the suggester's wait, and the game stalls that long)
    assert types.count("show") >= 1 and "complain" not in types, types
    assert all(s.junk_charged == 0 and s.resent >= 0 for s in sessions)
    assert all(isinstance(s._mesh.transport, MemoryTransport) for s in sessions)


def test_a_wrong_code_over_links_in_memory_is_counted_as_a_guess(tmp_path: Path) -> None:
    """The gate is the transport's: a newcomer with a wrong code is refused, and the
    listener's side counts the guess for the table."""
    views: list[LobbyView] = []

    async def attempt() -> tuple[int, str]:
        hub = Hub()
        opened: asyncio.Future[Opened] = asyncio.get_running_loop().create_future()
        host = _seat(tmp_path, "Host")
        opening = asyncio.ensure_future(open_table(
            host, "Attic", preset("classic"), 3, "111111", on_opened=opened.set_result,
            on_view=views.append, announce=False,
            transport=MemoryTransport(hub, host.profile.identity, "111111", "192.0.2.1")))
        where = await asyncio.wait_for(opened, HANG_GUARD)
        guest = _seat(tmp_path, "G1")
        try:
            await join_table(guest, "Attic", where.host, where.port, "222222",
                             on_view=lambda v: None, transport=MemoryTransport(
                                 hub, guest.profile.identity, "222222", "192.0.2.2"))
        except Exception as exc:
            why = type(exc).__name__
        else:
            why = "joined"
        async with asyncio.timeout(HANG_GUARD):  # the host's lobby takes the news
            while not views[-1].failed_attempts:
                await asyncio.sleep(0.01)
        opening.cancel()
        await asyncio.gather(opening, return_exceptions=True)
        return len(hub.doors), why

    doors, why = asyncio.run(attempt())
    assert why == "WrongTableCode" and doors == 0
    assert views[-1].failed_attempts == 1 and len(views[-1].players) == 1


def test_a_pasted_address_is_a_discovery_of_its_own() -> None:
    """``Pasted``: the table a person typed is found by name (and opener's key) without
    any multicast; one whose handshake failed is not offered again; nothing else is."""
    from p2pclue.net.ads import TableAd, TableNotFound, fingerprint
    from p2pclue.net.play import find_table, table_id
    from p2pclue.net.transport import Pasted

    ad = TableAd(table_id("Attic"), "Attic", "classic", 1, 3, False, 1,
                 fingerprint(b"\x01" * 32), "192.0.2.1", 40000)
    finder = Pasted([ad])

    async def look() -> tuple[TableAd, str, str]:
        found = await find_table([], "Attic", 1.0, finder=finder)
        missing = ""
        try:
            await find_table([], "Cellar", 1.0, finder=finder)
        except Exception as exc:
            missing = type(exc).__name__
        browsing = await finder.browse([])
        browsing.mark_failed(ad)
        try:
            await browsing.wait_for("Attic", 1.0, opener=ad.fingerprint)
        except TableNotFound:
            return found, missing, "not offered again"
        return found, missing, "offered again"

    found, missing, again = asyncio.run(look())
    assert found == ad and missing == "NoTable" and again == "not offered again"


def test_a_table_announced_through_another_discovery_needs_no_mdns(tmp_path: Path) -> None:
    """``open_table`` announces through whatever discovery it is given."""
    from p2pclue.net.transport import Pasted

    async def open_one() -> Opened:
        hub = Hub()
        host = _seat(tmp_path, "Host")
        opened: asyncio.Future[Opened] = asyncio.get_running_loop().create_future()
        opening = asyncio.ensure_future(open_table(
            host, "Attic", preset("classic"), 3, None, on_opened=opened.set_result,
            on_view=lambda v: None, finder=Pasted([]),
            transport=MemoryTransport(hub, host.profile.identity, None, "192.0.2.1")))
        where = await asyncio.wait_for(opened, HANG_GUARD)
        opening.cancel()
        await asyncio.gather(opening, return_exceptions=True)
        return where

    where = asyncio.run(open_one())
    assert where.announced and where.announce_error is None


def test_closing_a_session_while_its_loop_waits_ends_run_quietly(tmp_path: Path) -> None:
    """A front end that quits closes the session while its loop waits for a message: run
    returns (no CancelledError leaks out of it), the transcript stays unfinished."""
    async def quit_early() -> list[NetSession]:
        sessions = await linked_in_memory(tmp_path, Hub(), None)
        runs = [asyncio.ensure_future(s.run()) for s in sessions]
        async with asyncio.timeout(HANG_GUARD):  # the deal is done: everyone waits
            while not any(s.choice() is not None for s in sessions):
                await asyncio.sleep(0.01)
        for s in sessions:
            await s.close()
        await asyncio.wait_for(asyncio.gather(*runs), HANG_GUARD)  # raises if one did
        return sessions

    sessions = asyncio.run(quit_early())
    assert all(s.ended is None for s in sessions)
    assert all(s.peer.status.value == "running" for s in sessions)
