"""Crash and resume over real loopback links: a player's session dies mid-game (its
process state is gone: only its game directory remains), it resumes from disk, the
others re-dial it, it catches up and the game finishes with identical transcripts."""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path
from typing import Any

from p2pclue.bots.registry import BOTS
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.net import api
from p2pclue.net.botplay import drive_bot
from p2pclue.net.gamedir import GameDir, unfinished_games
from p2pclue.net.play import Seat, join_table, open_table, resume_game
from p2pclue.net.profile import load
from p2pclue.net.session import NetSession
from p2pclue.rules.variants import preset
from tests.net.procs import HANG_GUARD

LOOPBACK = ["127.0.0.1"]


async def simulate_crash(session: NetSession, *tasks: asyncio.Task[Any]) -> None:
    """Everything the process held in memory goes at once: its tasks and its sockets
    (closing the session leaves the transcript unfinished, as a killed process does).
    The real thing, SIGKILL to a player process, is ``p2pclue bench --only faults`` and
    tests/net/test_fault_campaign.py."""
    for task in tasks:
        task.cancel()
    await session.close()
    while not all(task.done() for task in tasks):  # a cancel that raced a wake-up
        for task in tasks:
            task.cancel()
        await asyncio.sleep(0)
    await asyncio.gather(*tasks, return_exceptions=True)


def seat(home: Path, name: str) -> Seat:
    return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, interfaces=LOOPBACK)


async def _open(home: Path, n: int) -> list[NetSession]:
    opened: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
    host_task = asyncio.ensure_future(open_table(
        seat(home, "Host"), "Hall", preset("classic"), n, "777111",
        on_opened=lambda o: opened.set_result((o.host, o.port)), on_view=lambda v: None,
        announce=False))
    first: list[asyncio.Future[Any]] = [opened, host_task]
    await asyncio.wait(first, return_when=asyncio.FIRST_COMPLETED)
    host, port = await opened
    guests = [asyncio.ensure_future(join_table(
        seat(home, f"G{i}"), "Hall", host, port, "777111", on_view=lambda v: None))
        for i in range(1, n)]
    return [await host_task] + [await g for g in guests]


async def crash_and_resume(home: Path, victim: int, after_entries: int) -> tuple[
        list[NetSession], list[api.Ended], NetSession]:
    """``after_entries`` 0: the victim dies before it ran at all (no step of its own)."""
    sessions = await _open(home, 4)
    started = [i for i in range(len(sessions)) if after_entries or i != victim]
    runs = {i: asyncio.ensure_future(sessions[i].run()) for i in started}
    bots = {i: asyncio.ensure_future(drive_bot(sessions[i], BOTS["detective"], random.Random(i)))
            for i in started}
    dead = sessions[victim]
    async with asyncio.timeout(HANG_GUARD):
        while len(dead.peer.entries) < after_entries:
            await asyncio.sleep(0.01)
    # the crash: the process state is gone; only what is on disk remains
    await simulate_crash(dead, *[t[victim] for t in (bots, runs) if victim in t])
    profile_seat = seat(home, dead._name)
    games = unfinished_games(profile_seat.profile.games)
    assert [g.path for g in games] == [dead.transcript_path.parent]
    secrets = games[0].path / "secrets.bin"
    assert secrets.stat().st_mode & 0o777 == 0o600
    gone = dead._mesh.public
    async with asyncio.timeout(HANG_GUARD):  # the others see it away: their links to it are down
        while any(gone in s._mesh.linked() for s in sessions if s is not dead):
            await asyncio.sleep(0.01)
    back = await resume_game(profile_seat, games[0])
    sessions[victim] = back
    runs[victim] = asyncio.ensure_future(back.run())
    bots[victim] = asyncio.ensure_future(drive_bot(back, BOTS["detective"], random.Random(99)))
    ended = await asyncio.wait_for(asyncio.gather(*bots.values()), HANG_GUARD)
    await asyncio.gather(*runs.values())
    return sessions, list(ended), back


def test_a_player_killed_before_its_first_step_resumes(tmp_path: Path) -> None:
    """Killed right after "the game starts", before it drew a secret or sent a frame (the
    fault campaign's kill at the deal): its game is still offered, and the resume plays."""
    sessions, ended, back = asyncio.run(crash_and_resume(tmp_path, victim=1,
                                                         after_entries=0))
    assert all(e.status == "complete" and e.audit_ok for e in ended), ended
    assert len({s.transcript_path.read_bytes() for s in sessions}) == 1
    assert back.resumed_events == [] and back.peer.hand, "it drew its secrets after the resume"


def test_a_player_crashes_resumes_and_the_game_finishes(tmp_path: Path) -> None:
    sessions, ended, back = asyncio.run(crash_and_resume(tmp_path, victim=2,
                                                         after_entries=30))
    assert all(e.status == "complete" and e.audit_ok for e in ended), ended
    files = {s.transcript_path.read_bytes() for s in sessions}
    assert len(files) == 1, "identical transcripts everywhere, the resumed one included"
    assert audit(parse(files.pop())).valid
    assert back.resumed_events and back.peer.hand
    assert not unfinished_games(back.transcript_path.parent.parent)
    # the game directory keeps the secrets 0600 until the player deletes the game
    game = GameDir(back.transcript_path.parent)
    assert game.finished() and os.stat(game.path / "secrets.bin").st_mode & 0o077 == 0
    game.delete()
    assert not game.path.exists()
