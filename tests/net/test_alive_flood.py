"""``alive`` (link liveness) costs its sender when it is more than liveness: a seated
player floods ``alive`` down its authenticated links, then ``alive`` messages with a key
too many. Three session cores on the in-memory transport, with the table's clock: each
honest peer charges the flood to the link it came on and cuts it; nobody is blamed, the
honest players' own ``alive`` (sent all game long) is never charged, and the game ends
with one valid transcript."""

from __future__ import annotations

from typing import Any

from p2pclue.engine.wire import pack
from p2pclue.net.meta import TAG_SYNC
from tests.net.core_table import ended_well, make_table
from tests.net.test_junk_flood import FLOOD, VILLAIN, Message, flood_until_cut


def _alive(body: dict[str, Any]) -> list[Message]:
    return [(TAG_SYNC, pack(body))] * FLOOD


def test_an_alive_flood_and_a_malformed_alive_are_charged_and_cut() -> None:
    ct = make_table(3, seed=11, bot="detective")
    ct.run(until=lambda: len(ct.core(VILLAIN).peer.entries) >= 12)  # the deal is under way
    bodies: list[dict[str, Any]] = [{"t": "alive"}, {"t": "alive", "pad": 1}]
    for cuts, body in enumerate(bodies, 1):
        flood_until_cut(ct, lambda: _alive(body), cuts)  # noqa: B023
    ct.run()
    ended_well(ct)
    villain = ct.key(VILLAIN)
    for seat in (0, 2):
        core = ct.core(seat)
        others = [ct.key(s) for s in range(3) if s != VILLAIN]
        assert all(core.junk.charged(o) == 0 for o in others), "honest alive is never charged"
        assert core.junk.cuts(villain) == 2
