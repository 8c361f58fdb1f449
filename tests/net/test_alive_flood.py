"""``alive`` (link liveness) costs its sender when it is more than liveness: a seated
player's process floods ``alive`` down its authenticated links, then ``alive`` messages
with a key too many. Real sessions on 127.0.0.1: each honest peer charges the flood to the
link it came on and cuts it; nobody is blamed, the honest players' own ``alive`` (sent all
game long) is never charged, and the game ends with one valid transcript."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from p2pclue.net.junk import JUNK_BURST
from p2pclue.net.mesh import encode
from p2pclue.net.meta import TAG_SYNC
from p2pclue.net.session import NetSession
from tests.net.test_flood_charges import _send_all
from tests.net.test_junk_flood import _until, ended_well
from tests.net.test_session import table

FLOOD = int(JUNK_BURST) + 150


def test_an_alive_flood_and_a_malformed_alive_are_charged_and_cut(tmp_path: Path) -> None:
    failed: list[BaseException] = []

    async def flood(sessions: list[NetSession]) -> None:
        try:
            await attack(sessions)
        except BaseException as exc:  # reported after the game, which must end anyway
            failed.append(exc)

    async def attack(sessions: list[NetSession]) -> None:
        villain, honest = sessions[1], [sessions[0], sessions[2]]
        ident = villain._mesh.public
        players = {p.identity for p in villain.config.players} - {ident}
        while len(villain.peer.entries) < 12:  # the deal is under way
            await asyncio.sleep(0.01)
        bodies: list[dict[str, Any]] = [{"t": "alive"}, {"t": "alive", "pad": 1}]
        for n, body in enumerate(bodies, 1):
            await _until(lambda: villain._mesh.linked() == players,
                         lambda: "the villain back on both links")
            await _send_all(villain, [encode(TAG_SYNC, body)] * FLOOD)
            await _until(lambda: min(s.junk.cuts(ident) for s in honest) >= n,  # noqa: B023
                         lambda: f"cuts {[s.junk.cuts(ident) for s in honest]}")

    sessions, ended = asyncio.run(table(tmp_path, 3, "737373", during=flood))
    assert not failed, failed
    ended_well(sessions, ended)
    villain = sessions[1].config.players[1].identity
    for s in sessions:
        others = [p.identity for p in s.config.players if p.identity != villain]
        assert all(s.junk.charged(o) == 0 for o in others), "honest alive is never charged"
    assert all(s.junk.cuts(villain) >= 2 for s in (sessions[0], sessions[2]))
