"""Whole games over real authenticated links on 127.0.0.1, in one event loop.

Each seat has its own identity, its own listener and its own links; the lobby runs
over those links, every player signs the start, the mesh completes, and every peer
ends with the same transcript, which the audit finds valid. (A player replaying an old
game's frames is the session's own logic: played on the in-memory transport here.)
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from p2pclue.bots.registry import BOTS
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.net import api
from p2pclue.net.botplay import drive_bot, follow
from p2pclue.net.junk import JUNK_BURST
from p2pclue.net.meta import TAG_FRAME
from p2pclue.net.play import Seat, join_table, open_table
from p2pclue.net.profile import load
from p2pclue.net.session import MAX_DROPPED_KEPT, NetSession
from p2pclue.rules.variants import preset
from tests.net.core_table import ended_well, make_table
from tests.net.procs import HANG_GUARD

LOOPBACK = ["127.0.0.1"]


def seat(home: Path, name: str) -> Seat:
    return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, interfaces=LOOPBACK)


async def seated(home: Path, name: str, opener: Seat, n: int, code: str | None = None
                 ) -> tuple[list[NetSession], str, int]:
    """A classic table opened on loopback by ``opener`` (not announced), with guests G1..
    joined by address: the sessions, seat order, and where the opener listens."""
    opened: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
    host_task = asyncio.ensure_future(open_table(
        opener, name, preset("classic"), n, code,
        on_opened=lambda o: opened.set_result((o.host, o.port)), on_view=lambda v: None,
        announce=False))
    first: list[asyncio.Future[Any]] = [opened, host_task]
    await asyncio.wait(first, return_when=asyncio.FIRST_COMPLETED)
    host, port = await opened
    guests = [asyncio.ensure_future(join_table(
        seat(home, f"G{i}"), name, host, port, code, on_view=lambda v: None))
        for i in range(1, n)]
    return [await host_task] + [await g for g in guests], host, port


async def table(home: Path, n: int, code: str | None, spectators: int = 0,
                bot: str = "detective"
                ) -> tuple[list[NetSession], list[api.Ended]]:
    """A whole game at a table of ``n`` on loopback. Detective bots by default: the game is
    about the links, and their games are short and even (a random bot's game takes two to
    five times as long)."""
    sessions, host, port = await seated(home, "Kitchen", seat(home, "Host"), n, code)
    runs = [asyncio.ensure_future(s.run()) for s in sessions]
    watchers: list[NetSession] = []
    for i in range(spectators):  # they arrive while the deal runs, and catch up
        watchers.append(await join_table(seat(home, f"W{i}"), "Kitchen", host, port, code,
                                         role="spectator", on_view=lambda v: None))
    runs += [asyncio.ensure_future(w.run()) for w in watchers]
    bots = [drive_bot(s, BOTS[bot], random.Random(i)) for i, s in enumerate(sessions)]
    bots += [follow(w) for w in watchers]
    ended = await asyncio.wait_for(asyncio.gather(*bots), HANG_GUARD)
    await asyncio.gather(*runs)
    return sessions + watchers, list(ended)


def test_three_players_and_a_spectator_over_loopback(tmp_path: Path) -> None:
    sessions, ended = asyncio.run(table(tmp_path, 3, "424242", spectators=1))
    assert all(e.status == "complete" and e.audit_ok for e in ended), ended
    files = {s.transcript_path.read_bytes() for s in sessions}
    assert len(files) == 1, "every peer (and the spectator) has the same transcript"
    verdict = audit(parse(files.pop()))
    assert verdict.valid and verdict.result in ("won", "nobody")
    assert sessions[-1].seat is None
    assert any(sessions[0].spectators.values())


def test_no_code_table(tmp_path: Path) -> None:
    sessions, ended = asyncio.run(table(tmp_path, 3, None))
    assert all(e.audit_ok for e in ended), ended
    assert len({s.transcript_path.read_bytes() for s in sessions}) == 1
    # The game itself can never be started again by these profiles.
    session = sessions[0].config.session
    assert all(seat(tmp_path, n).profile.seen(session) for n in ("Host", "G1", "G2"))


def test_six_players_over_loopback(tmp_path: Path) -> None:
    """The largest table: six seats, fifteen links, one transcript."""
    sessions, ended = asyncio.run(table(tmp_path, 6, "606060"))
    assert all(e.status == "complete" and e.audit_ok for e in ended), ended
    files = {s.transcript_path.read_bytes() for s in sessions}
    assert len(files) == 1, "every peer has the same transcript"
    verdict = audit(parse(files.pop()))
    assert verdict.valid and len(verdict.players) == 6


def test_a_players_old_frames_from_another_game_are_refused() -> None:
    """A valid player replays every frame of an earlier game (same keys) into a new one,
    over its own links: nothing is accepted, nobody is blamed, the new game finishes, and
    what the peers keep of the junk stays bounded. (Session cores on the in-memory
    transport: what is decided here does not depend on the sockets.)"""
    old = make_table(3, seed=3, bot="detective")
    old.run()
    old_frames = list(old.core(0).peer.entries)
    ct = make_table(3, seed=3, bot="detective", session=bytes(range(32)))
    assert [ct.key(s) for s in range(3)] == [old.key(s) for s in range(3)]
    assert ct.start.config.session != old.start.config.session
    ct.run(until=lambda: len(ct.core(1).peer.entries) >= 6)  # the deal is under way
    villain = ct.key(1)
    for _ in range(3):
        for raw in old_frames:
            for seat in (0, 2):
                ct.table.inject(villain, ct.key(seat), TAG_FRAME, raw)
    ct.run()
    ended_well(ct)
    for seat in range(3):
        peer = ct.core(seat).peer
        assert peer.blame is None
        assert len(peer.dropped) <= MAX_DROPPED_KEPT
        assert not set(old_frames) & set(peer.entries)
    # Each one is junk charged to the villain's link, which is cut once its budget is spent;
    # what it sent after that is never read.
    assert ct.core(0).dropped_total >= JUNK_BURST and ct.core(0).junk.cuts(villain) >= 1


def test_a_wrong_code_is_refused_counted_and_shown_to_the_table(tmp_path: Path) -> None:
    from p2pclue.net import links
    from p2pclue.net.lobby import LobbyView
    from p2pclue.net.play import table_id

    async def scenario() -> tuple[list[LobbyView], type[BaseException]]:
        views: list[LobbyView] = []
        opened: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
        host_task = asyncio.ensure_future(open_table(
            seat(tmp_path, "Host"), "Den", preset("classic"), 3, "123456",
            on_opened=lambda o: opened.set_result((o.host, o.port)), on_view=views.append,
            announce=False))
        host, port = await opened
        stranger = load("Stranger", {"P2PCLUE_HOME": str(tmp_path)}).identity
        try:
            await links.dial(host, port, identity=stranger, table_id=table_id("Den"),
                             code="654321")
            raise AssertionError("a wrong code must not get a link")
        except links.WrongCode as exc:
            refused: type[BaseException] = type(exc)
        # Honest players still sit down (after the stranger's back-off, retried) and play.
        guests = [asyncio.ensure_future(join_table(seat(tmp_path, f"G{i}"), "Den", host, port,
                                                   "123456", on_view=lambda v: None, wait=30))
                  for i in (1, 2)]
        sessions = [await host_task] + [await g for g in guests]
        for s in sessions:
            await s.close()
        return views, refused

    views, refused = asyncio.run(scenario())
    assert refused is links.WrongCode
    assert max(v.failed_attempts for v in views) == 1, "the table sees the failed attempt"
    assert len(views[-1].players) == 3
