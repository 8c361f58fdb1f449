"""Part of the "link" section: how fast a player rejects junk, and when it cuts the link.

A 3-seat table on 127.0.0.1 (real lobby, real links, real sessions) runs its deal; no bot
plays, so the game then waits for a choice. Seat 1's process then sends seat 0 frames with
a broken signature (the dearest junk to reject: a full Ed25519 verification each) down its
authenticated link. First with a budget large enough to measure the rejection rate, then
with the default budget (``net.junk``): how many frames and how long until the cut.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from p2pclue.engine.wire import pack, split_frame
from p2pclue.net.junk import JunkBudget
from p2pclue.net.mesh import TAG_FRAME
from p2pclue.net.play import Seat, join_table, open_table
from p2pclue.net.profile import load
from p2pclue.net.session import NetSession
from p2pclue.rules.variants import preset

LOOPBACK = ["127.0.0.1"]
CHUNK = 1000
"""Frames queued at once (below the mesh's per-link queue limit)."""


async def _table(home: Path) -> list[NetSession]:
    def seat(name: str) -> Seat:
        return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, interfaces=LOOPBACK)

    opened: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
    host_task = asyncio.ensure_future(open_table(
        seat("Host"), "Junk", preset("classic"), 3, None,
        on_opened=lambda o: opened.set_result((o.host, o.port)), on_view=lambda v: None,
        announce=False))
    host, port = await opened
    guests = [asyncio.ensure_future(join_table(seat(f"G{i}"), "Junk", host, port, None,
                                               on_view=lambda v: None)) for i in (1, 2)]
    return [await host_task] + [await g for g in guests]


def _bad_signatures(session: NetSession, count: int) -> list[bytes]:
    sender, payload, signature = split_frame(session.peer.entries[-1])
    return [pack([sender, payload, bytes([signature[0] ^ 1]) + (i % 2**32).to_bytes(4, "big")
                  + signature[5:]]) for i in range(count)]


async def _flood(host: NetSession, villain: NetSession, frames: list[bytes]) -> float:
    """Send ``frames`` from the villain to the host; seconds until all were rejected or the
    link was cut (whichever comes first)."""
    target = host._mesh.public
    start_dropped, start_cuts = host.peer.dropped_count, host.junk_cuts
    began = time.perf_counter()
    for i in range(0, len(frames), CHUNK):
        if target not in villain._mesh.linked():
            break
        for raw in frames[i:i + CHUNK]:
            villain._mesh.send(target, TAG_FRAME, raw)
        while host.peer.dropped_count - start_dropped < min(i + CHUNK, len(frames)) \
                and host.junk_cuts == start_cuts:
            await asyncio.sleep(0.0005)
    while host.peer.dropped_count - start_dropped < len(frames) and host.junk_cuts == start_cuts:
        await asyncio.sleep(0.0005)
    return time.perf_counter() - began


async def _measure(home: Path, frames: int) -> dict[str, float]:
    sessions = await _table(home)
    runs = [asyncio.ensure_future(s.run()) for s in sessions]
    try:
        host, villain = sessions[0], sessions[1]
        async with asyncio.timeout(120):  # the deal is done: the game waits for a choice
            while not any(s.choice() is not None for s in sessions):
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)
        host.junk = JunkBudget(burst=frames + 1.0)
        elapsed = await _flood(host, villain, _bad_signatures(villain, frames))
        rate = frames / elapsed
        host.junk = JunkBudget()
        dropped = host.peer.dropped_count
        async with asyncio.timeout(30):
            while host._mesh.public not in villain._mesh.linked():
                await asyncio.sleep(0.01)
        to_cut = await _flood(host, villain, _bad_signatures(villain, int(host.junk.burst) * 4))
        return {"junk_rejected_per_s": round(rate), "junk_until_cut": host.peer.dropped_count
                - dropped, "junk_cut_ms": round(to_cut * 1000, 1), "junk_cuts": host.junk_cuts}
    finally:
        for run in runs:  # the game never ends: stop it as a killed process would
            run.cancel()
        for session in sessions:
            await session.close()
        await asyncio.gather(*runs, return_exceptions=True)


def junk_figures(quick: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="p2pclue-junk-") as tmp:
        return asyncio.run(_measure(Path(tmp), 2000 if quick else 20000))
