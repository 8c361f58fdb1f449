"""Code guessing, attacked over real loopback sockets.

A stranger process guessing at a joiner's listener in the lobby gets no guess at all (the
opener's listener holds the budget). A spent budget turns the table to a fresh code, at
most ``CODE_TURNS`` times, then the code dies at every listener. After the signed start a
re-dial of a crashed player carries no code at all, so a stranger squatting the crashed
player's port learns nothing and the re-dials slow down.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.net import api, links
from p2pclue.net.guesses import CODE_BUDGET, CODE_TURNS, describe
from p2pclue.net.lobby import GuestLobby, HostLobby, LobbyView, TableInfo
from p2pclue.net.mesh import TAG_LOBBY, Mesh
from p2pclue.net.play import Seat, join_table, open_table, table_id
from p2pclue.net.profile import load
from p2pclue.net.session import NetSession
from p2pclue.net.table import guest_lobby, host_lobby
from p2pclue.rules.variants import preset
from tests.net.procs import HANG_GUARD
from tests.net.test_links import run

HOST = "127.0.0.1"
CODE = "482913"
NAME = "Guesses"
ROOT = Path(__file__).resolve().parents[2]


async def stranger(port: int, guesses: int, patience: float = 120.0, sources: int = 0,
                   each: int = 1) -> list[str]:
    """A separate process guessing ``guesses`` wrong codes at ``port`` (it gives up after
    ``patience`` seconds: a hang guard; it makes its guesses within seconds), from
    ``sources`` loopback addresses at once, ``each`` dials in parallel from each."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.net.stranger", HOST, str(port), NAME, str(guesses),
        str(patience), str(sources), str(each), stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    try:
        out, _err = await asyncio.wait_for(proc.communicate(), patience + 20)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    result: list[str] = json.loads(out)
    return result


class Lobby:
    """A host and one joiner in their lobby over real links (wanting 4: it never starts)."""

    def __init__(self, on_code: Callable[[str | None], None] | None = None) -> None:
        self.on_code = on_code
        self.host_views: list[LobbyView] = []
        self.guest_views: list[LobbyView] = []
        self.host_mesh = Mesh(Ed25519PrivateKey.generate(), table_id(NAME), CODE)
        self.guest_mesh = Mesh(Ed25519PrivateKey.generate(), table_id(NAME), CODE)
        self.tasks: list[asyncio.Task[Any]] = []
        self.host_port = self.guest_port = 0

    async def __aenter__(self) -> Lobby:
        host_listener = await self.host_mesh.listen(HOST)
        guest_listener = await self.guest_mesh.listen(HOST)
        self.host_port, self.guest_port = host_listener.port, guest_listener.port
        host = HostLobby(self.host_mesh.identity, TableInfo(NAME, preset("classic"), 4),
                         "Host", self.host_port, secrets.token_bytes(32))
        guest = GuestLobby(self.guest_mesh.identity, "Joiner", self.guest_port,
                           secrets.token_bytes(32))
        self.tasks = [
            asyncio.ensure_future(host_lobby(host, self.host_mesh, self.host_views.append,
                                             on_code=self.on_code)),
            asyncio.ensure_future(guest_lobby(guest, self.guest_mesh, HOST, self.host_port,
                                              self.guest_views.append))]
        await self.until(lambda: len(self.host_views[-1].members) == 2 if self.host_views
                         else False)
        return self

    async def until(self, cond: Any, limit: float = HANG_GUARD) -> None:
        end = asyncio.get_running_loop().time() + limit
        while not cond():
            assert asyncio.get_running_loop().time() < end, "timed out"
            await asyncio.sleep(0.05)

    async def __aexit__(self, *exc: object) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.guest_mesh.close()
        await self.host_mesh.close()


def test_a_joiners_listener_gives_a_stranger_no_guess_in_the_lobby() -> None:
    """Newcomers join through the opener: a joiner's listener refuses a code before any
    PAKE (no guess is spent, nothing counts), so the opener's listener holds the budget."""
    async def main() -> None:
        async with Lobby() as lobby:
            outcomes = await stranger(lobby.guest_port, 3)
            assert outcomes == ["no-entry"], outcomes
            assert lobby.guest_mesh.guesses.own == 0 and lobby.host_mesh.guesses.total == 0
            assert lobby.host_views[-1].failed_attempts == 0

    run(main(), 2 * HANG_GUARD)


def test_a_members_count_turns_the_code_then_closes_the_table() -> None:
    """A member reporting a spent budget (as after 50 guesses it met) turns the table to a
    fresh code, told to every member; after ``CODE_TURNS`` turns the last code is used up
    and even it is refused at every listener; the seated joiner stays linked throughout."""
    async def main() -> None:
        codes: list[str | None] = []
        async with Lobby(on_code=codes.append) as lobby:
            host_ident = lobby.host_mesh.public
            for turn in range(1, CODE_TURNS + 1):
                lobby.guest_mesh.send(host_ident, TAG_LOBBY, {"t": "attempts", "n": CODE_BUDGET})
                await lobby.until(lambda t=turn: lobby.guest_mesh.guesses.turn == t)
                assert lobby.guest_mesh.code == lobby.host_mesh.code == codes[-1] != CODE
                assert lobby.host_views[-1].failed_attempts == 0  # a fresh budget
            assert len(set(codes)) == CODE_TURNS
            lobby.guest_mesh.send(host_ident, TAG_LOBBY, {"t": "attempts", "n": CODE_BUDGET})
            await lobby.until(lambda: lobby.host_views[-1].failed_attempts >= CODE_BUDGET)
            await lobby.until(lambda: lobby.guest_mesh.gate.code_dead)
            assert codes[-1] is None and lobby.host_mesh.guesses.closed
            assert "used up" in describe(lobby.guest_views[-1].failed_attempts)
            for port in (lobby.host_port, lobby.guest_port):  # even the last code is refused
                with pytest.raises(links.Refused) as err:
                    await links.dial(HOST, port, identity=Ed25519PrivateKey.generate(),
                                     table_id=table_id(NAME), code=lobby.host_mesh.code)
                assert err.value.reason == "code-dead"
            assert lobby.guest_mesh.public in lobby.host_mesh.linked()
            assert not any(task.done() for task in lobby.tasks)

    run(main(), 2 * HANG_GUARD)


def _seat(home: Path, name: str, suspect: int) -> Seat:
    return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, suspect=suspect,
                interfaces=[HOST], timeout=30.0)


async def _coded_table(home: Path) -> list[NetSession]:
    loop = asyncio.get_running_loop()
    opened: asyncio.Future[int] = loop.create_future()
    host = asyncio.ensure_future(open_table(
        _seat(home, "Pat", 0), NAME, preset("classic"), 3, CODE,
        on_opened=lambda o: opened.set_result(o.port), on_view=lambda v: None, announce=False))
    port = await opened
    guests = [asyncio.ensure_future(join_table(_seat(home, name, k + 1), NAME, HOST, port, CODE,
                                               on_view=lambda v: None))
              for k, name in enumerate(("Bruno", "Chiara"))]
    return [await host] + [await g for g in guests]


async def _close(sessions: list[NetSession], runs: list[asyncio.Task[None]]) -> None:
    """Close every session of the table and end their run tasks."""
    for s in sessions:
        await s.close()
    for task in runs:
        task.cancel()
    await asyncio.gather(*runs, return_exceptions=True)


def test_a_redial_gives_a_stranger_on_the_crashed_players_port_no_guess(tmp_path: Path) -> None:
    async def main() -> None:
        sessions = await _coded_table(tmp_path)
        runs = [asyncio.ensure_future(s.run()) for s in sessions]
        squatter: links.Listener | None = None
        try:
            # the player with the largest key crashes: both others owe it the re-dial
            crashed = max(sessions, key=lambda s: s.config.players[s.seat or 0].identity)
            me = crashed.config.players[crashed.seat or 0].identity
            port = next(a.port for a in crashed.start_record.addresses if a.identity == me)
            await crashed.close()
            # a stranger takes the port, ready to test every code a re-dial brings
            squatter = await links.listen(HOST, port, identity=Ed25519PrivateKey.generate(),
                                          table_id=table_id(NAME), code="000000",
                                          on_link=lambda link: link.close())
            await asyncio.sleep(4.0)
            assert squatter.failed_attempts == 0  # no code was ever put to the test
            # and the re-dials it answered slowed down (2 s, doubling), both diallers
            assert squatter.dropped <= 6, squatter.dropped
            assert all(s.seat is not None for s in sessions)
        finally:
            if squatter is not None:
                await squatter.close()
            await _close(sessions, runs)

    run(main(), 2 * HANG_GUARD)


def test_guesses_during_the_game_reach_every_players_screen(tmp_path: Path) -> None:
    async def main() -> None:
        sessions = await _coded_table(tmp_path)
        runs = [asyncio.ensure_future(s.run()) for s in sessions]
        try:
            target = sessions[1]
            me = target.config.players[target.seat or 0].identity
            port = next(a.port for a in target.start_record.addresses if a.identity == me)
            outcomes = await stranger(port, 2)
            assert outcomes.count("wrong-code") == 2
            seen: list[list[api.SessionEvent]] = [[] for _s in sessions]

            def shown() -> bool:
                for s, events in zip(sessions, seen, strict=True):
                    while not s.events.empty():
                        events.append(s.events.get_nowait())
                return all(any(isinstance(e, api.Guesses) and e.count == 2 for e in events)
                           for events in seen)

            end = asyncio.get_running_loop().time() + HANG_GUARD
            while not shown():
                assert asyncio.get_running_loop().time() < end, seen
                await asyncio.sleep(0.1)
        finally:
            await _close(sessions, runs)

    run(main(), 2 * HANG_GUARD)


def test_a_member_can_only_raise_the_count_and_never_past_the_budget() -> None:
    from p2pclue.net.guesses import Guesses

    g = Guesses(own=2)
    assert g.report(b"a", 5) and g.total == 7
    assert g.report(b"a", 1) and g.total == 7  # counts never go down
    assert g.report(b"b", 10**9) and g.total == 2 + 5 + CODE_BUDGET and g.dead
    for bad in (-1, True, "3", None, 2.5):
        assert not g.report(b"c", bad)
    assert b"c" not in g.reported and g.message() == {"t": "attempts", "n": 2}
    assert "used up" in describe(CODE_BUDGET) and "used up" not in describe(CODE_BUDGET - 1)
