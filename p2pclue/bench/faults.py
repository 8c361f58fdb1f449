"""The seeded fault campaign: 4-player bot games on 127.0.0.1 under crashes and cut links.

Each game follows a schedule drawn from its seed: at a random point of the game a random
player crashes (its session, mesh and bot are torn down at once, so only its game
directory survives, as after ``kill -9``) and comes back after a random delay through
``resume_game``; or a random link is cut (its socket closed) and re-dialled by the side
with the smaller key. A game counts as finished only if every player's transcript is
byte-identical and the audit finds it valid.

The players are in one process and one event loop (each with its own profile, listener,
links and game directory): what a crash loses is exactly what the process held in
memory. Figures: games finished / run, time from a restart to being back in play (the
resumed peer holds every entry the table had when it restarted), frames re-sent by
resync per fault.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from p2pclue.bench import Emit
from p2pclue.bots.random_bot import RandomBot
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.net.botplay import drive_bot
from p2pclue.net.gamedir import unfinished_games
from p2pclue.net.play import Seat, join_table, open_table, resume_game
from p2pclue.net.profile import load
from p2pclue.net.session import NetSession
from p2pclue.rules.variants import preset

LOOPBACK = ["127.0.0.1"]
PLAYERS = 4
GAME_TIMEOUT = 300.0
BOT_PATIENCE = 14


@dataclass
class FaultGame:
    seed: int
    kind: str
    """"crash" or "cut"."""
    finished: bool = False
    reason: str = ""
    back_in_play: float | None = None
    """Seconds from the restart to holding every entry the table had then (crashes)."""
    resent: int = 0
    faults: int = 0


@dataclass
class Campaign:
    games: list[FaultGame] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        back = [g.back_in_play for g in self.games if g.back_in_play is not None]
        faults = sum(g.faults for g in self.games)
        return {
            "games_run": len(self.games),
            "games_finished": sum(g.finished for g in self.games),
            "crashes": sum(g.kind == "crash" and g.faults > 0 for g in self.games),
            "cuts": sum(g.kind == "cut" and g.faults > 0 for g in self.games),
            "ended_before_the_fault": sum(g.faults == 0 for g in self.games),
            "back_in_play_mean_s": statistics.fmean(back) if back else None,
            "back_in_play_worst_s": max(back) if back else None,
            "resent_per_fault": sum(g.resent for g in self.games) / faults if faults else None,
            "failures": [f"seed {g.seed} ({g.kind}): {g.reason}"
                         for g in self.games if not g.finished],
        }


def _bot(seat: int, rng: random.Random) -> RandomBot:
    """Random bots that accuse early: short games, so a campaign stays affordable."""
    return RandomBot(seat, rng, patience=BOT_PATIENCE)


def _seat(home: Path, name: str) -> Seat:
    return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, interfaces=LOOPBACK,
                timeout=30.0)


async def _table(home: Path, table: str) -> list[NetSession]:
    loop = asyncio.get_running_loop()
    opened: asyncio.Future[tuple[str, int]] = loop.create_future()
    host_task = asyncio.ensure_future(open_table(
        _seat(home, "P0"), table, preset("classic"), PLAYERS, "246810",
        on_opened=lambda o: opened.set_result((o.host, o.port)), on_view=lambda v: None,
        announce=False))
    both: list[asyncio.Future[Any]] = [opened, host_task]
    await asyncio.wait(both, return_when=asyncio.FIRST_COMPLETED)
    host, port = await opened
    guests = [asyncio.ensure_future(join_table(
        _seat(home, f"P{i}"), table, host, port, "246810", on_view=lambda v: None))
        for i in range(1, PLAYERS)]
    return [await host_task] + [await g for g in guests]


async def fault_game(home: Path, seed: int) -> FaultGame:
    """One game under the seed's schedule; never raises for a game that goes wrong."""
    rng = random.Random(seed)
    kind = "crash" if rng.random() < 0.6 else "cut"
    result = FaultGame(seed, kind)
    at_entries = rng.randrange(20, 70)
    victim = rng.randrange(PLAYERS)
    other = rng.choice([s for s in range(PLAYERS) if s != victim])
    delay = rng.uniform(0.05, 0.6)
    sessions = await _table(home, f"Faults{seed}")
    runs = {i: asyncio.ensure_future(s.run()) for i, s in enumerate(sessions)}
    bots: dict[int, asyncio.Task[Any]] = {
        i: asyncio.ensure_future(drive_bot(s, _bot, random.Random(seed * 8 + i)))
        for i, s in enumerate(sessions)}
    try:
        await asyncio.wait_for(_inject(sessions, runs, bots, result, home, at_entries, victim,
                                       other, delay, rng), GAME_TIMEOUT)
        ended = await asyncio.wait_for(asyncio.gather(*bots.values()), GAME_TIMEOUT)
        await asyncio.wait_for(asyncio.gather(*runs.values()), 30)
        files = {s.transcript_path.read_bytes() for s in sessions}
        result.resent = sum(s.resent for s in sessions)
        junk = sum(s.junk_charged for s in sessions)
        if not all(e.status == "complete" for e in ended):
            result.reason = f"ended {[e.status for e in ended]}"
        elif len(files) != 1:
            result.reason = "the transcripts differ"
        elif not audit(parse(next(iter(files)))).valid:
            result.reason = "the audit found the transcript invalid"
        elif junk:  # re-links and catch-up must never look like junk (net.junk)
            result.reason = f"honest peers were charged {junk} junk frames"
        else:
            result.finished = True
    except Exception as exc:  # a campaign reports a broken game, it does not stop
        result.reason = f"{type(exc).__name__}: {exc}"
    finally:
        for task in (*bots.values(), *runs.values()):
            task.cancel()
        await asyncio.gather(*bots.values(), *runs.values(), return_exceptions=True)
        for s in sessions:
            await s.close()
    return result


async def _inject(sessions: list[NetSession], runs: dict[int, asyncio.Task[None]],
                  bots: dict[int, asyncio.Task[Any]], result: FaultGame, home: Path,
                  at_entries: int, victim: int, other: int, delay: float,
                  rng: random.Random) -> None:
    target = sessions[victim]
    while len(target.peer.entries) < at_entries and target.peer.status.value == "running":
        await asyncio.sleep(0.005)
    if target.peer.status.value != "running":
        return  # the game ended before the fault was due: nothing to inject
    result.faults = 1
    if result.kind == "cut":
        await target._mesh.drop(sessions[other]._mesh.public)
        return
    await simulate_crash(target, bots[victim], runs[victim])
    await asyncio.sleep(delay)
    seat = _seat(home, f"P{victim}")
    restarted = time.monotonic()
    games = unfinished_games(seat.profile.games)
    if not games:
        raise RuntimeError(f"no unfinished game of P{victim} to resume")
    back = await resume_game(seat, games[0])
    sessions[victim] = back
    runs[victim] = asyncio.ensure_future(back.run())
    bots[victim] = asyncio.ensure_future(drive_bot(back, _bot,
                                                   random.Random(rng.getrandbits(32))))
    table = max(len(s.peer.entries) for s in sessions if s is not back)
    while len(back.peer.entries) < table and back.peer.status.value == "running":
        await asyncio.sleep(0.005)
    result.back_in_play = time.monotonic() - restarted


async def simulate_crash(session: NetSession, *tasks: asyncio.Task[Any]) -> None:
    """Everything the process held in memory goes at once: its tasks and its sockets
    (closing the session leaves the transcript unfinished, as a killed process does)."""
    for task in tasks:
        task.cancel()
    await session.close()
    while not all(task.done() for task in tasks):  # a cancel that raced a wake-up
        for task in tasks:
            task.cancel()
        await asyncio.sleep(0)
    await asyncio.gather(*tasks, return_exceptions=True)


def run_campaign(games: int, first_seed: int = 1, emit: Emit | None = None) -> Campaign:
    campaign = Campaign()
    with tempfile.TemporaryDirectory(prefix="p2pclue-faults-") as tmp:
        for seed in range(first_seed, first_seed + games):
            game = asyncio.run(fault_game(Path(tmp) / f"g{seed}", seed))
            campaign.games.append(game)
            if emit is not None:
                back = "" if game.back_in_play is None else \
                    f", back in play {game.back_in_play:.2f} s"
                why = "" if game.finished else ": " + game.reason
                emit(f"  seed {seed}: {game.kind}, {'finished' if game.finished else 'FAILED'}"
                     f"{back}, {game.resent} frames re-sent{why}")
    return campaign


def section(emit: Emit, quick: bool) -> dict[str, Any]:
    n = 10 if quick else 50
    emit(f"fault campaign: {n} four-player bot games on 127.0.0.1 (crash and restart, or a "
         "cut link, on a seeded schedule)")
    summary = run_campaign(n, emit=emit).summary()
    mean, worst = summary["back_in_play_mean_s"], summary["back_in_play_worst_s"]
    emit(f"  games finished / run: {summary['games_finished']}/{summary['games_run']} "
         f"({summary['crashes']} crashes, {summary['cuts']} cut links)")
    if mean is not None:
        emit(f"  restart to back in play: mean {mean:.2f} s, worst {worst:.2f} s (goal < 2 s)")
    if summary["resent_per_fault"] is not None:
        emit(f"  frames re-sent by resync per fault: {summary['resent_per_fault']:.1f}")
    return summary
