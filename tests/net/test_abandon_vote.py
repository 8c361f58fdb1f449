"""Silence over real links: a player stops answering (its process hangs), the table votes
to abandon after the timeout, and every transcript closes as abandoned, signed by the
players present, and audits valid as far as it goes."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from p2pclue.bots.registry import BOTS
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.net import api
from p2pclue.net.botplay import drive_bot
from p2pclue.net.play import Seat, join_table, open_table
from p2pclue.net.profile import load
from p2pclue.net.session import NetSession
from p2pclue.rules.variants import preset
from tests.net.procs import HANG_GUARD

TIMEOUT = 2.0


def seat(home: Path, name: str) -> Seat:
    return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, interfaces=["127.0.0.1"],
                timeout=TIMEOUT)


async def four_seated(home: Path, make_seat: Callable[[Path, str], Seat] | None = None
                      ) -> list[NetSession]:
    """A classic table for four on loopback: A opens it, B, C and D join; host first."""
    make = make_seat or seat
    loop = asyncio.get_running_loop()
    opened: asyncio.Future[tuple[str, int]] = loop.create_future()
    host_task = asyncio.ensure_future(open_table(
        make(home, "A"), "Study", preset("classic"), 4, None,
        on_opened=lambda o: opened.set_result((o.host, o.port)), on_view=lambda v: None,
        announce=False))
    both: list[asyncio.Future[Any]] = [opened, host_task]
    await asyncio.wait(both, return_when=asyncio.FIRST_COMPLETED)
    host, port = await opened
    guests = [asyncio.ensure_future(join_table(make(home, n), "Study", host, port, None,
                                               on_view=lambda v: None)) for n in "BCD"]
    return [await host_task] + [await g for g in guests]


async def hang_one(home: Path) -> tuple[list[NetSession], int]:
    sessions = await four_seated(home)
    runs = [asyncio.ensure_future(s.run()) for s in sessions]
    bots = [asyncio.ensure_future(drive_bot(s, BOTS["random"], random.Random(i)))
            for i, s in enumerate(sessions)]
    # the first seat to play a turn hangs: its bot stops, its links and process stay
    async with asyncio.timeout(HANG_GUARD):
        while all(s.state is None for s in sessions):
            await asyncio.sleep(0.01)
    first = next(s.state for s in sessions if s.state is not None)
    assert first is not None
    silent = first.current_seat
    bots[silent].cancel()
    ended = await asyncio.wait_for(
        asyncio.gather(*(b for i, b in enumerate(bots) if i != silent)), HANG_GUARD)
    assert all(isinstance(e, api.Ended) and e.status == "abandoned" for e in ended), ended
    await asyncio.gather(*runs, return_exceptions=True)
    return sessions, silent


def test_the_table_votes_a_silent_player_out_and_the_transcript_says_so(
        tmp_path: Path) -> None:
    sessions, silent = asyncio.run(hang_one(tmp_path))
    present = [s for s in sessions if s.seat != silent]
    files = {s.transcript_path.read_bytes() for s in present}
    assert len(files) <= 2  # the same entries; the quorum's votes may differ in who signed
    for s in present:
        data = s.transcript_path.read_bytes()
        transcript = parse(data)
        assert transcript.footer.status == "abandoned" and len(transcript.footer.votes) >= 2
        verdict = audit(transcript, data)
        assert verdict.valid and verdict.result == "abandoned"
        assert any("abandoned by the vote of seats" in n for n in verdict.notes)
