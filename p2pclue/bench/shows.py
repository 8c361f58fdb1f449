"""Bots figures: how long a detective takes to choose the card it shows, by how many of the
named cards it holds.

A refuter holding one named card has nothing to choose; one holding two or three chooses
from the suggester's view. If the second took longer, anyone timing the answers could
tell how many named cards the refuter holds. The detective works its answers out ahead
(``DetectiveBot.think_ahead``), as a networked seat does on its thinking thread: the
choice itself should take the same time whatever is held.

Seeded games of detectives (hard) only, 3 to 6 players, on the trusted table, each played
twice: with the work ahead (the networked seat's way; the work is timed apart, it is off
the critical path), and without (the plan made on the spot when asked: what a seat pays
when its work ahead is not ready; the same work whatever is held). Per show: the time of
the bot's decision, in its process (the proof and the network come on top, the same for
any card). Goal: with the work ahead, the medians of one card held and of two or three
held differ by less than ``SHOW_GOAL_MS``; both ways choose the same cards (goals in
``bench.goals``).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from p2pclue.bench import Emit
from p2pclue.bench.goals import BY_NAME
from p2pclue.bots import Bot, Decision, Observation, ThinksAhead
from p2pclue.bots.registry import BOTS
from p2pclue.bots.table import play_game
from p2pclue.rules.actions import Refute
from p2pclue.rules.state import GameState, Phase
from p2pclue.rules.variants import preset

SHOW_GOAL_MS = BY_NAME["bot_show_time_tell_ms"].limit
"""Most the median show time may differ between one card held and two or three held."""
SIZES = (3, 4, 5, 6)
GAMES_PER_SIZE = 8
QUICK_GAMES_PER_SIZE = 1
SEED_BASE = 50_000
"""Game g at n players uses seed SEED_BASE + 100 * n + g."""


@dataclass
class ShowTimes:
    """One game's shows: (named cards held, milliseconds, card) each; work ahead in ms."""

    shows: list[tuple[int, float, int]] = field(default_factory=list)
    ahead_ms: list[float] = field(default_factory=list)


class _Timed:
    """A detective whose shows are timed (and its work ahead, apart)."""

    def __init__(self, bot: Bot, times: ShowTimes) -> None:
        self.bot, self.seat, self.times = bot, bot.seat, times

    def observe(self, event: Observation) -> None:
        self.bot.observe(event)

    def decide(self, state: GameState) -> Decision:
        t0 = time.perf_counter()
        decision = self.bot.decide(state)
        ms = (time.perf_counter() - t0) * 1000
        s = state.pending_suggestion
        if state.phase is Phase.AWAIT_REFUTATION and isinstance(decision, Refute) and s:
            assert decision.card is not None
            hand = getattr(self.bot, "hand", ())
            held = sum(c in hand for c in (s.suspect, s.weapon, s.room))
            self.times.shows.append((held, ms, decision.card))
        return decision

    def think_ahead(self, state: GameState) -> Callable[[], Callable[[], None]] | None:
        assert isinstance(self.bot, ThinksAhead)
        work = self.bot.think_ahead(state)
        if work is None:
            return None
        todo = work

        def timed() -> Callable[[], None]:
            t0 = time.perf_counter()
            result = todo()
            self.times.ahead_ms.append((time.perf_counter() - t0) * 1000)
            return result

        return timed


def play_shows(job: tuple[int, int, bool]) -> ShowTimes:
    """One seeded game of ``n`` detectives, with or without the work ahead."""
    n, game, ahead = job
    times = ShowTimes()

    def factory(seat: int, rng: random.Random) -> Bot:
        return _Timed(BOTS["hard"](seat, rng), times)

    play_game(preset("classic"), n, SEED_BASE + 100 * n + game, bot_factory=factory,
              think_ahead=ahead)
    return times


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _split(shows: list[tuple[int, float, int]]) -> dict[str, Any]:
    one = [ms for held, ms, _ in shows if held == 1]
    more = [ms for held, ms, _ in shows if held > 1]
    out: dict[str, Any] = {}
    for name, values in (("one_held", one), ("more_held", more)):
        out[name] = ({"shows": len(values), "median_ms": round(statistics.median(values), 4),
                      "p95_ms": round(_p95(values), 4)} if values else {"shows": 0})
    if one and more:
        out["median_diff_ms"] = round(
            out["more_held"]["median_ms"] - out["one_held"]["median_ms"], 4)
        out["p95_diff_ms"] = round(out["more_held"]["p95_ms"] - out["one_held"]["p95_ms"], 4)
    return out


def _line(label: str, split: dict[str, Any]) -> str:
    parts = []
    for name, what in (("one_held", "1 named card held"), ("more_held", "2-3 held")):
        d = split[name]
        parts.append(f"{what} ({d['shows']}): median {d.get('median_ms', 0):.3f} ms, "
                     f"p95 {d.get('p95_ms', 0):.3f} ms")
    diff = (f"; difference of medians {split['median_diff_ms']:+.3f} ms, of p95 "
            f"{split['p95_diff_ms']:+.3f} ms" if "median_diff_ms" in split else "")
    return f"bots: show time, {label}: " + "; ".join(parts) + diff


def section_part(emit: Emit, quick: bool, workers: int | None = None) -> dict[str, Any]:
    per_size = QUICK_GAMES_PER_SIZE if quick else GAMES_PER_SIZE
    jobs = [(n, g, ahead) for ahead in (True, False) for n in SIZES for g in range(per_size)]
    workers = workers or min(2, os.cpu_count() or 1)
    with ProcessPoolExecutor(workers) as pool:
        played = list(pool.map(play_shows, jobs))
    ahead = [t for (_, _, a), t in zip(jobs, played, strict=True) if a]
    spot = [t for (_, _, a), t in zip(jobs, played, strict=True) if not a]
    shows_ahead = [s for t in ahead for s in t.shows]
    shows_spot = [s for t in spot for s in t.shows]
    differ = sum(a[2] != b[2] for a, b in zip(shows_ahead, shows_spot, strict=False)) + abs(
        len(shows_ahead) - len(shows_spot))
    work = [ms for t in ahead for ms in t.ahead_ms]
    with_ahead, on_the_spot = _split(shows_ahead), _split(shows_spot)
    games = f"{len(ahead)} games of detectives at 3-6 players, seeds from {SEED_BASE}"
    emit(_line(f"worked out ahead ({games})", with_ahead)
         + f" (goal: medians differ by < {SHOW_GOAL_MS:g} ms)")
    emit(_line("not ready, made on the spot (the same games)", on_the_spot))
    if work:
        emit(f"bots: the work ahead (on a networked seat's thinking thread), {len(work)} "
             f"pieces: median {statistics.median(work):.1f} ms, p95 {_p95(work):.1f} ms, "
             f"max {max(work):.1f} ms")
    emit(f"bots: shows whose card differs between the two ways: {differ} (goal 0)")
    diff = with_ahead.get("median_diff_ms")
    return {
        "bots_show_ms_ahead": with_ahead,
        "bots_show_ms_on_the_spot": on_the_spot,
        "bots_show_median_diff_ms": diff,
        "bots_show_ahead_work_ms": {
            "pieces": len(work),
            "median": round(statistics.median(work), 2) if work else None,
            "p95": round(_p95(work), 2) if work else None,
            "max": round(max(work), 2) if work else None},
        "bots_show_cards_differing": differ,
    }
