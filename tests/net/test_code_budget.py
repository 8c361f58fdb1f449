"""The table code under attack by a stranger with many addresses, and a seat flooding
private openings: real sockets on loopback (127.0.0.0/8 is all this machine) and real cores.

A stranger who guesses from 20 source addresses at once never gets a guess past the budget
of a code (handshakes in flight are reserved before any PAKE), never more than its share
from one address; a used-up code turns to a fresh one the opener shows, so the honest
joiner with the code on the opener's screen still gets in and the seated joiner never
notices. A seat sending a different private opening for one future show, again and again,
pays for each and is cut, and nobody is blamed.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections import Counter
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.engine.peer import Status
from p2pclue.engine.wire import pack
from p2pclue.net import links
from p2pclue.net.guesses import ADDRESS_BUDGET, CODE_BUDGET, CODE_TURNS, Guesses, Reservation
from p2pclue.net.junk import JUNK_BURST
from p2pclue.net.lobby import GuestLobby, HostLobby, LobbyView, TableInfo
from p2pclue.net.mesh import Mesh
from p2pclue.net.meta import TAG_FRAME
from p2pclue.net.play import table_id
from p2pclue.net.table import guest_lobby, host_lobby
from p2pclue.rules.variants import preset
from tests.net.core_table import make_table
from tests.net.procs import HANG_GUARD
from tests.net.test_code_guesses import CODE, HOST, NAME, stranger
from tests.net.test_links import run

SOURCES = [f"127.0.0.{20 + k}" for k in range(20)]


class Peak(Guesses):
    """The table's budget, noting the most guesses it ever held spent and in flight."""

    peak = 0

    def reserve(self, address: str) -> Reservation | str:
        held = super().reserve(address)
        self.peak = max(self.peak, self.total + self.in_flight)
        return held


def _mesh(guesses: Guesses | None = None) -> Mesh:
    identity = Ed25519PrivateKey.generate()
    transport = links.TcpTransport(identity, table_id(NAME), CODE)
    if guesses is not None:
        transport.gate.guesses = guesses
    return Mesh(identity, table_id(NAME), CODE, transport=transport)


async def _until(cond: Any, limit: float = HANG_GUARD) -> None:
    end = asyncio.get_running_loop().time() + limit
    while not cond():
        assert asyncio.get_running_loop().time() < end, "timed out"
        await asyncio.sleep(0.02)


def test_a_crowd_of_handshakes_in_flight_never_takes_a_code_past_its_budget() -> None:
    """100 wrong-code dials at once from 20 addresses against one listener (no lobby: the
    code does not turn here): exactly ``CODE_BUDGET`` guesses are spent, never more held,
    at most ``ADDRESS_BUDGET`` from one address, and then even the right code is refused."""
    async def main() -> None:
        guesses = Peak()
        mesh = _mesh(guesses)
        listener = await mesh.listen(HOST)
        wrong: Counter[str] = Counter()
        refusals: Counter[str] = Counter()

        async def guesser(source: str, k: int) -> None:
            for attempt in range(200):  # bounded: each ends on code-dead well before
                try:
                    link = await links.dial(HOST, listener.port, local_host=source,
                                            identity=Ed25519PrivateKey.generate(),
                                            table_id=table_id(NAME), timeout=10.0,
                                            code=f"{(k * 1000 + attempt) % 1_000_000:06d}")
                except links.WrongCode:
                    wrong[source] += 1
                    continue
                except links.Refused as exc:
                    refusals[exc.reason] += 1
                    if exc.reason == "code-dead":
                        return
                    await asyncio.sleep(0.05)
                    continue
                except links.LinkError:  # a refusal cut short by a reset, under load
                    refusals["turned-away"] += 1
                    await asyncio.sleep(0.05)
                    continue
                await link.close()
                raise AssertionError("a wrong code opened the table")

        try:
            await asyncio.gather(*(guesser(source, n * 100 + i)
                                   for n, source in enumerate(SOURCES) for i in range(5)))
            assert sum(wrong.values()) == CODE_BUDGET == guesses.total
            assert listener.failed_attempts == CODE_BUDGET  # type: ignore[attr-defined]
            assert guesses.peak <= CODE_BUDGET and guesses.in_flight == 0
            assert max(wrong.values()) <= ADDRESS_BUDGET
            assert refusals["full"] > 0  # the budget was once all in flight: others waited
            with pytest.raises(links.Refused) as err:
                await links.dial(HOST, listener.port, identity=Ed25519PrivateKey.generate(),
                                 table_id=table_id(NAME), code=CODE)
            assert err.value.reason == "code-dead"
        finally:
            await mesh.close()

    run(main(), 2 * HANG_GUARD)


def test_a_stranger_with_many_addresses_cannot_lock_the_honest_joiner_out() -> None:
    """The review's attack: a stranger process guesses from 20 loopback addresses at once
    (68 wrong codes, past the budget of 50). The opener's code turns and its screen shows
    the fresh one; the seated joiner stays linked; the honest joiner with that code gets
    in; no code ever held more than 50 guesses."""
    async def main() -> None:
        guesses = Peak()
        host_mesh, seated_mesh, late_mesh = _mesh(guesses), _mesh(), _mesh()
        shown: list[str | None] = []
        views: list[LobbyView] = []
        tasks: list[asyncio.Task[Any]] = []
        try:
            host_port = (await host_mesh.listen(HOST)).port
            host = HostLobby(host_mesh.identity, TableInfo(NAME, preset("classic"), 4),
                             "Host", host_port, secrets.token_bytes(32))
            tasks.append(asyncio.ensure_future(host_lobby(host, host_mesh, views.append,
                                                          on_code=shown.append)))
            for mesh, name in ((seated_mesh, "Bruno"), (late_mesh, "Chiara")):
                port = (await mesh.listen(HOST)).port
                if mesh is late_mesh:  # the attack, before the last joiner comes
                    outcomes = await stranger(host_port, 68, 90.0, sources=len(SOURCES),
                                              each=2)
                    wrong = outcomes.count("wrong-code")  # its parallel dials overshoot
                    assert wrong >= 68, Counter(outcomes)
                    assert shown and shown[-1] is not None and host_mesh.code == shown[-1]
                    mesh.gate.code = shown[-1]  # the person types what the screen shows
                guest = GuestLobby(mesh.identity, name, port, secrets.token_bytes(32))
                tasks.append(asyncio.ensure_future(guest_lobby(guest, mesh, HOST, host_port,
                                                               lambda v: None)))
                want = 2 if mesh is seated_mesh else 3
                await _until(lambda w=want: bool(views) and len(views[-1].members) == w)
            assert seated_mesh.public in host_mesh.linked()  # untouched by the turn
            assert late_mesh.public in host_mesh.linked()
            assert not any(task.done() for task in tasks)
            assert seated_mesh.code == host_mesh.code == shown[-1]  # told the fresh code
            assert guesses.peak <= CODE_BUDGET and len(shown) <= CODE_TURNS
            assert None not in shown  # the table still admits newcomers
            assert CODE_BUDGET * len(shown) + guesses.total <= wrong
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for mesh in (late_mesh, seated_mesh, host_mesh):
                await mesh.close()

    run(main(), 4 * HANG_GUARD)


def _opening(digest: bytes, index: int, card: int) -> bytes:
    """A private opening as a refuter sends one (``engine.turn.private_frame``): unsigned,
    canonical; its rho random (31 bytes, so below the group order)."""
    rho = os.urandom(31) + b"\x00"
    return pack(["opening", digest, index, {"card": card, "rho": rho}])


def test_different_private_openings_for_one_future_show_are_charged_and_cut() -> None:
    """Seat 2 sends seat 0 different private openings for a show index not chained yet, as
    fast as the wire takes them: each replaces the one kept, so each is charged to seat 2's
    link, which is cut; an identical re-send is free; nobody is blamed and the game ends."""
    ct = make_table(3, seed=30)
    ct.run(until=lambda: len(ct.core(0).peer.entries) >= 6)
    while ct.table.wire:
        ct.table.deliver()
    zero, two = ct.key(0), ct.key(2)
    core = ct.core(0)
    digest = ct.start.config.digest()
    future = len(core.peer.entries) + 5
    first = _opening(digest, future, 3)
    for _ in range(3):  # an honest re-send is the same bytes: free
        ct.table.inject(two, zero, TAG_FRAME, first)
    while ct.table.wire:
        ct.table.deliver()
    assert core.junk.charged(two) == 0 and core.peer.dropped_count == 0
    flood = int(JUNK_BURST) + 100
    for k in range(flood):
        ct.table.inject(two, zero, TAG_FRAME, _opening(digest, future, k % 21))
    while ct.table.wire and frozenset((zero, two)) in ct.table.links:
        ct.table.deliver()
    assert core.junk_cuts == 1 and core.junk.charged(two) > JUNK_BURST
    assert core.junk.charged(ct.key(1)) == 0
    assert all(ct.core(s).peer.blame is None for s in range(3))
    ct.run()
    assert all(m.core is not None and m.core.peer.status is Status.COMPLETE
               for m in ct.members)
    assert all(ct.core(s).peer.blame is None for s in range(3))
    assert ct.core(1).junk_charged == 0 and ct.core(2).junk_charged == 0
