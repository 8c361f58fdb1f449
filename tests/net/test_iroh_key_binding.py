"""A link over iroh authenticates the seat it claims: the QUIC peer key (the endpoint id
iroh proves in its TLS handshake) must be the identity key the pairing handshake proves.

The attacker here knows the table code (the worst case) and runs a real iroh endpoint
under one key while proving another identity, its own, in the handshake. The opener drops
the link: nobody is seated for it, it spends none of the code's guesses, and the honest
joiners then fill the table and play a whole game with a valid transcript. The other way
round, an endpoint that answers a dial for a key that is not its own gives no link at all.
Real QUIC on 127.0.0.1, relays off.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.bots.registry import BOTS
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.net.botplay import drive_bot
from p2pclue.net.iroh_link import IrohTransport, available
from p2pclue.net.lobby import LobbyView
from p2pclue.net.play import NoTable, Seat, join_table, open_table, table_id
from p2pclue.net.reach import Reach, parse_reach
from p2pclue.net.table import TableClosed
from p2pclue.net.transport import LinkError
from p2pclue.rules.variants import preset
from tests.net.iroh_seats import iroh_transport, seat, tap_refusals
from tests.net.procs import HANG_GUARD

pytestmark = pytest.mark.skipif(not available(), reason="the internet extra (iroh) is missing")

CODE = "271828"
REFUSED_WITHIN = 60.0
"""Seconds the liar's join may take to be refused (well under 1 s on loopback): a liar
who is seated instead waits for the start and fails the test here."""


class SplitKeyTransport(IrohTransport):
    """Proves ``identity`` in the pairing handshake but binds its iroh endpoint under
    ``endpoint_key``: what a member who lies about which endpoint is its seat sends."""

    def __init__(self, identity: Ed25519PrivateKey, endpoint_key: Ed25519PrivateKey,
                 table: str) -> None:
        super().__init__(identity, table_id(table), CODE, relays=())
        self.endpoint_key = endpoint_key

    async def _bind(self, host: str, port: int) -> Any:
        identity, public = self.identity, self.public
        self.identity = self.endpoint_key
        self.public = self.endpoint_key.public_key().public_bytes_raw()
        try:
            return await super()._bind(host, port)
        finally:
            self.identity, self.public = identity, public


def honest(s: Seat, table: str) -> IrohTransport:
    return iroh_transport(s, table, CODE)


def test_an_endpoint_under_another_key_is_refused_a_seat(tmp_path: Path) -> None:
    async def play() -> None:
        opener = seat(tmp_path, "Host")
        views: list[LobbyView] = []
        opened: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        t_open = honest(opener, "Attic")
        host_task = asyncio.ensure_future(open_table(
            opener, "Attic", preset("classic"), 3, CODE, announce=False,
            on_opened=lambda o: opened.set_result(o.host), on_view=views.append,
            transport=t_open))
        runs: list[asyncio.Future[Any]] = []
        try:
            reach = await asyncio.wait_for(opened, HANG_GUARD)
            refused = tap_refusals(t_open)
            mallory = seat(tmp_path, "Mallory")
            lying_key = Ed25519PrivateKey.generate()
            liar = SplitKeyTransport(mallory.profile.identity, lying_key, "Attic")
            with pytest.raises((NoTable, TableClosed)):
                await asyncio.wait_for(join_table(
                    mallory, "Attic", reach, 1, CODE, on_view=lambda v: None,
                    transport=liar), REFUSED_WITHIN)
            door = t_open._listeners[0].listener
            assert door.dropped >= 1, "the opener closed the link whose keys differ"
            assert door.failed_attempts == 0 and refused == [], \
                "the attacker knew the code: no guess is spent, no wrong code reported"
            mallory_id = mallory.profile.public
            lying_id = lying_key.public_key().public_bytes_raw()
            assert not any(m.identity in (mallory_id, lying_id) or m.name == "Mallory"
                           for v in views for m in v.members), "never in the lobby"

            guests = [seat(tmp_path, f"G{i}") for i in (1, 2)]
            joined = [asyncio.ensure_future(join_table(
                g, "Attic", reach, 1, CODE, on_view=lambda v: None,
                transport=honest(g, "Attic"))) for g in guests]
            sessions = [await asyncio.wait_for(host_task, HANG_GUARD)]
            sessions += [await asyncio.wait_for(j, HANG_GUARD) for j in joined]
            players = {p.identity for p in sessions[0].config.players}
            assert players == {opener.profile.public, *(g.profile.public for g in guests)}
            runs = [asyncio.ensure_future(s.run()) for s in sessions]
            ended = await asyncio.wait_for(asyncio.gather(*(
                drive_bot(s, BOTS["detective"], random.Random(i))
                for i, s in enumerate(sessions))), HANG_GUARD)
            await asyncio.gather(*runs)
            assert all(e.status == "complete" and e.audit_ok for e in ended), ended
            files = {s.transcript_path.read_bytes() for s in sessions}
            assert len(files) == 1
            raw = files.pop()
            verdict = audit(parse(raw), raw)
            assert verdict.valid and verdict.blamed is None, "nobody honest is blamed"
        finally:
            host_task.cancel()
            for r in runs:
                r.cancel()
            await asyncio.gather(host_task, *runs, return_exceptions=True)

    asyncio.run(play())


def test_an_endpoint_answering_for_another_key_gives_no_link(tmp_path: Path) -> None:
    """A reach text naming A's key but the address of B's endpoint: iroh's TLS finds
    B's key there, and the dial fails without any link reaching B."""
    async def dial() -> None:
        a, b, c = (seat(tmp_path, n) for n in ("A", "B", "C"))
        ta, tb, tc = honest(a, "T"), honest(b, "T"), honest(c, "T")
        reached: list[Any] = []

        async def on_link(link: Any) -> None:
            reached.append(link)
            await link.close()

        try:
            await ta.listen("127.0.0.1", 0, on_link)
            door_b = await tb.listen("127.0.0.1", 0, on_link)
            at_b = parse_reach(door_b.host)
            forged = Reach(a.profile.public, at_b.addrs, ()).text()
            with pytest.raises(LinkError):
                await tc.dial(forged, 0, timeout=10, expect=a.profile.public)
            await asyncio.sleep(0.2)
            assert reached == [], "B was handed no link"
        finally:
            for t in (ta, tb, tc):
                await t.close()

    asyncio.run(dial())
