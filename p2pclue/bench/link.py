"""Benchmark section "link": the transport alone, on 127.0.0.1.

Pairing time with a table code (SPAKE2 runs in pure Python) and without; the time for a
small frame to cross an established link and for a 256 KiB frame (a link's largest message,
split into several Noise records); and, where multicast works on loopback, how long after
an announcer starts another zeroconf instance's browser has resolved the table (the
issue's goal for two processes is under 2 s; here both live in one process); and how fast a
player rejects a link partner's junk frames, and when its budget cuts that link
(``junkflood``).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.bench import Emit
from p2pclue.bench.junkflood import junk_figures
from p2pclue.engine.wire import MAX_FRAME_BYTES
from p2pclue.net import discovery
from p2pclue.net.links import Link, dial, listen

HOST = "127.0.0.1"
TABLE = b"bench-table-0001"


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def _pairing(code: str | None, rounds: int) -> list[float]:
    accepted: asyncio.Queue[Link] = asyncio.Queue()
    listener = await listen(HOST, 0, identity=Ed25519PrivateKey.generate(), table_id=TABLE,
                            code=code, on_link=accepted.put)
    times: list[float] = []
    try:
        for _ in range(rounds):
            began = time.perf_counter()
            link = await dial(HOST, listener.port, identity=Ed25519PrivateKey.generate(),
                              table_id=TABLE, code=code)
            times.append((time.perf_counter() - began) * 1000)
            await link.close()
            await (await accepted.get()).close()
    finally:
        await listener.close()
    return times


async def _frames(rounds: int) -> tuple[list[float], list[float]]:
    accepted: asyncio.Queue[Link] = asyncio.Queue()
    listener = await listen(HOST, 0, identity=Ed25519PrivateKey.generate(), table_id=TABLE,
                            code=None, on_link=accepted.put)
    mine = await dial(HOST, listener.port, identity=Ed25519PrivateKey.generate(),
                      table_id=TABLE, code=None)
    theirs = await accepted.get()
    small: list[float] = []
    large: list[float] = []
    big = bytes(MAX_FRAME_BYTES)
    try:
        for frame, sink, count in ((b"s" * 300, small, rounds * 10), (big, large, rounds)):
            for _ in range(count):
                began = time.perf_counter()
                await mine.send(frame)
                await theirs.recv()
                sink.append((time.perf_counter() - began) * 1000)
    finally:
        await mine.close()
        await theirs.close()
        await listener.close()
    return small, large


async def _discovery() -> float:
    tid = os.urandom(16)  # other tables may be on the air: wait for this one
    ad = discovery.TableAd(table_id=tid, name="Bench table", preset="classic",
                           seats_taken=1, seats_wanted=4, playing=False, version=1,
                           fingerprint=discovery.fingerprint(bytes(32)), host=HOST, port=9,
                           needs_code=False)
    browser, announcer = discovery.Browser(), discovery.Announcer()
    await browser.start([HOST])
    try:
        began = time.perf_counter()
        starting = asyncio.create_task(announcer.start(ad, [HOST]))
        while not any(t.table_id == tid for t in browser.tables()):
            await asyncio.sleep(0.005)
        seen = (time.perf_counter() - began) * 1000
        await starting  # it goes on repeating its announcement after it was seen
        return seen
    finally:
        await announcer.close()
        await browser.close()


def section(emit: Emit, quick: bool) -> dict[str, Any]:
    rounds = 5 if quick else 30
    figures: dict[str, Any] = {}
    for code, key in (("123456", "link_pair_code_ms"), (None, "link_pair_nocode_ms")):
        times = asyncio.run(_pairing(code, rounds))
        figures[key] = {"median": round(statistics.median(times), 2),
                        "p95": round(_p95(times), 2)}
        emit(f"link: pairing {'with a code' if code else 'without a code'}: median "
             f"{figures[key]['median']} ms, p95 {figures[key]['p95']} ms ({rounds} links)")
    small, large = asyncio.run(_frames(rounds))
    figures["link_frame_300b_ms"] = round(statistics.median(small), 3)
    figures["link_frame_256kib_ms"] = round(statistics.median(large), 2)
    emit(f"link: a 300-byte frame crosses in {figures['link_frame_300b_ms']} ms, a 256 KiB "
         f"frame in {figures['link_frame_256kib_ms']} ms (medians, one process)")
    junk = junk_figures(quick)
    figures.update(junk)
    emit(f"link: junk frames (a broken signature each) are rejected at "
         f"{junk['junk_rejected_per_s']} per second over a real link (sender and receiver in "
         f"one process); the default budget cuts the link after {junk['junk_until_cut']} of "
         f"them ({junk['junk_cut_ms']} ms)")
    if discovery.multicast_available(HOST):
        seen = asyncio.run(_discovery())
        figures["link_discovery_ms"] = round(seen, 1)
        emit(f"link: a table announced on 127.0.0.1 is resolved by a browser after "
             f"{seen:.0f} ms (goal across processes: under 2000 ms)")
    else:
        emit("link: multicast does not work on 127.0.0.1 here: discovery not measured")
    return figures
