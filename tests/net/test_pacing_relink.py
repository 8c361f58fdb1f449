"""A held "cannot refute" is not leaked to a peer that re-links during the hold.

Three real sessions on loopback, every seat a person's (``pass_delay``). The first time a
seat's engine passes (its pass is now held, on disk but unsent), another player drops its
link to that seat; the link comes back by the usual re-dial well inside the hold, and the
new link's catch-up (``have``) must not carry the held pass: that player gets it only when
everybody does, after the delay. The game then ends with identical, valid transcripts.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import replace
from pathlib import Path

from p2pclue.bots.registry import BOTS
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.net import api
from p2pclue.net.botplay import drive_bot
from p2pclue.net.play import Seat, join_table, open_table
from p2pclue.net.session import NetSession
from p2pclue.rules.variants import preset
from tests.net.procs import HANG_GUARD
from tests.net.test_session import seat

DELAY = 1.2


async def _watch(sessions: list[NetSession]) -> dict[str, float]:
    """Wait for the first held pass, cut a link to its seat, time what follows."""
    while not any(s._held is not None for s in sessions):
        if any(s.ended is not None for s in sessions):
            return {}  # nobody passed in this game (rare with three people's seats)
        await asyncio.sleep(0.002)
    held = time.monotonic()
    passer = next(s for s in sessions if s._held is not None)
    index = passer._hold_from
    other = next(s for s in sessions if s is not passer)
    for s in sessions:  # one held pass is enough: the rest of the game goes at full speed
        s.pass_delay = (0.0, 0.0)
    ident = passer._mesh.public
    assert ident in other._mesh.linked()
    other._mesh.cut(ident)
    times = {"held": held}
    while "relinked" not in times or "got" not in times:
        now = time.monotonic()
        if "relinked" not in times and ident in other._mesh.linked() \
                and other._mesh.public in passer._mesh.linked():
            times["relinked"] = now
        if "got" not in times and len(other.peer.entries) > index:
            times["got"] = now
            times["released"] = float(passer._held is None)
        if now - held > HANG_GUARD:
            break
        await asyncio.sleep(0.002)
    return times


def test_a_held_pass_is_not_sent_to_a_peer_that_relinks_during_the_hold(
        tmp_path: Path) -> None:
    async def play() -> tuple[list[NetSession], list[api.Ended], dict[str, float]]:
        loop = asyncio.get_running_loop()
        opened: asyncio.Future[tuple[str, int]] = loop.create_future()

        def person(name: str) -> Seat:
            return replace(seat(tmp_path, name), pass_delay=(DELAY, DELAY))

        host_task = asyncio.ensure_future(open_table(
            person("P0"), "Hold", preset("classic"), 3, None,
            on_opened=lambda o: opened.set_result((o.host, o.port)), on_view=lambda v: None,
            announce=False))
        host, port = await opened
        guests = [asyncio.ensure_future(join_table(
            person(f"P{i}"), "Hold", host, port, None, on_view=lambda v: None))
            for i in (1, 2)]
        sessions = [await host_task] + [await g for g in guests]
        runs = [asyncio.ensure_future(s.run()) for s in sessions]
        watch = asyncio.ensure_future(_watch(sessions))
        bots = [drive_bot(s, BOTS["detective"], random.Random(i)) for i, s in enumerate(sessions)]
        ended = await asyncio.wait_for(asyncio.gather(*bots), HANG_GUARD)
        await asyncio.gather(*runs)
        return sessions, list(ended), await asyncio.wait_for(watch, HANG_GUARD)

    sessions, ended, times = asyncio.run(play())
    assert all(e.status == "complete" and e.audit_ok for e in ended), ended
    files = {s.transcript_path.read_bytes() for s in sessions}
    assert len(files) == 1 and audit(parse(files.pop())).valid
    assert {"relinked", "got"} <= set(times), times
    assert times["relinked"] - times["held"] < DELAY * 0.8, "no re-link in the hold"
    assert times["got"] - times["held"] >= DELAY * 0.9, "the re-linked peer got the held pass early"
    assert times["released"] == 1.0, "the pass arrived before its release"
