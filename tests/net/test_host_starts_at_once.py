"""The host starts its session at once; its record says "playing" a little later (issue 21).

Real zeroconf on 127.0.0.1 and real links: three seats sign the start; the host's
``open_table`` must return before any browser sees the table as playing (the mDNS
update takes about half a second and every guest waits for the host's first frame),
and the record must still turn to "playing" afterwards, then go when the host closes.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from pathlib import Path

import pytest

from p2pclue.net.discovery import Browser
from p2pclue.net.play import Seat, join_table, open_table
from p2pclue.net.profile import load
from p2pclue.rules.variants import preset
from tests.net.procs import HANG_GUARD

LOOPBACK = ["127.0.0.1"]

pytestmark = pytest.mark.usefixtures("multicast")  # skipped where lo has no multicast


def _seat(home: Path, name: str) -> Seat:
    return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, interfaces=LOOPBACK)


async def _scenario(home: Path) -> tuple[float, float | None, bool]:
    name = f"Porch {secrets.token_hex(3)}"  # not another test run's table on this machine
    browser = Browser()
    await browser.start(LOOPBACK)
    seen_playing: list[float] = []
    stop = asyncio.Event()

    async def watch() -> None:
        while not stop.is_set():
            if not seen_playing and any(t.name == name and t.playing
                                        for t in browser.tables()):
                seen_playing.append(time.monotonic())
            await asyncio.sleep(0.005)

    watcher = asyncio.ensure_future(watch())
    opened: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
    host_task = asyncio.ensure_future(open_table(
        _seat(home, "Host"), name, preset("classic"), 3, None,
        on_opened=lambda o: opened.set_result((o.host, o.port)), on_view=lambda v: None))
    returns: list[float] = []  # when open_table returned, taken by the task's own callback
    host_task.add_done_callback(lambda _task: returns.append(time.monotonic()))
    sessions = []
    try:
        host, port = await asyncio.wait_for(opened, HANG_GUARD)
        guests = [asyncio.ensure_future(join_table(
            _seat(home, f"G{i}"), name, host, port, None, on_view=lambda v: None))
            for i in (1, 2)]
        sessions.append(await asyncio.wait_for(host_task, HANG_GUARD))
        returned = returns[0]
        sessions += [await asyncio.wait_for(g, HANG_GUARD) for g in guests]
        end = time.monotonic() + HANG_GUARD
        while not seen_playing and time.monotonic() < end:
            await asyncio.sleep(0.02)
        first_playing = seen_playing[0] if seen_playing else None
    finally:
        for s in sessions:
            await s.close()
        gone_by = time.monotonic() + HANG_GUARD
        while any(t.name == name for t in browser.tables()) and time.monotonic() < gone_by:
            await asyncio.sleep(0.05)
        withdrawn = not any(t.name == name for t in browser.tables())
        stop.set()
        await watcher
        await browser.close()
    return returned, first_playing, withdrawn


def test_host_session_starts_before_the_record_says_playing(tmp_path: Path) -> None:
    returned, first_playing, withdrawn = asyncio.run(_scenario(tmp_path))
    assert first_playing is not None, "the record never turned to 'playing'"
    assert returned < first_playing, "the host waited for its record update before starting"
    assert withdrawn, "closing the host's session withdraws the record"
