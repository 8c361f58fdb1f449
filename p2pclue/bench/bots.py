"""Benchmark section "bots": how strong each level is, and how fast every bot decides.

Every game is played on the trusted-dealer table (``bots.table``: the rules
engine checks every action; no cryptography, so thousands of games are cheap),
seeded, with the seats rotated so that no level keeps the best seat. Tables:

- ``hard_vs_random_3p``: one hard bot (the detective) against two random bots;
  goal: the hard bot wins at least 90 %.
- ``hard_vs_medium_3p`` and ``medium_vs_easy_3p``: one bot against two of the
  level below; the ladder is real when the lone bot wins more than its fair
  third.
- ``mixed_4p`` (hard, medium, easy, random) and ``mixed_6p`` (hard, medium,
  easy, random, medium, easy): wins per level.

Also: mean table turn of the hard bot's correct accusations; wrong accusations
by hard bots over every game played (goal 0: it accuses only on proof); the
time of every bot decision and every observation (goal: worst decision under
100 ms). Games run on two processes; times are per call, in the worker. And how long a
detective takes to choose the card it shows, by how many named cards it holds
(``bench.shows``).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from p2pclue.bench import Emit, shows
from p2pclue.bots import Bot, Decision, Observation
from p2pclue.bots.registry import BOTS
from p2pclue.bots.table import play_game
from p2pclue.rules.actions import AccusationResult, Action
from p2pclue.rules.state import GameState
from p2pclue.rules.variants import preset

WIN_GOAL = 0.90
DECISION_GOAL_MS = 100.0
GAMES = 240
QUICK_GAMES = 6
SEED_BASE: dict[str, int] = {
    "hard_vs_random_3p": 0, "hard_vs_medium_3p": 10_000, "medium_vs_easy_3p": 20_000,
    "mixed_4p": 30_000, "mixed_6p": 40_000,
}
"""Game g of a table uses seed SEED_BASE[table] + g (so hard vs random plays seeds 0-239)."""
LINEUPS: dict[str, tuple[str, ...]] = {
    "hard_vs_random_3p": ("hard", "random", "random"),
    "hard_vs_medium_3p": ("hard", "medium", "medium"),
    "medium_vs_easy_3p": ("medium", "easy", "easy"),
    "mixed_4p": ("hard", "medium", "easy", "random"),
    "mixed_6p": ("hard", "medium", "easy", "random", "medium", "easy"),
}


@dataclass
class Timings:
    decide_ms: list[float] = field(default_factory=list)
    observe_ms: list[float] = field(default_factory=list)


class _Timed:
    """A bot whose every decision and observation is timed."""

    def __init__(self, bot: Bot, timings: Timings) -> None:
        self.bot, self.seat, self.timings = bot, bot.seat, timings

    def observe(self, event: Observation) -> None:
        t0 = time.perf_counter()
        self.bot.observe(event)
        self.timings.observe_ms.append((time.perf_counter() - t0) * 1000)

    def decide(self, state: GameState) -> Decision:
        t0 = time.perf_counter()
        decision = self.bot.decide(state)
        self.timings.decide_ms.append((time.perf_counter() - t0) * 1000)
        return decision


@dataclass(frozen=True, slots=True)
class GameResult:
    table: str
    seed: int
    levels: tuple[str, ...]
    """The level of each seat."""
    winner: int | None
    turns: int
    wrong_by_level: dict[str, int]
    decide_ms_max: float
    decide_ms_sum: float
    decisions: int
    observe_ms_max: float


def seating(table: str, game: int) -> tuple[str, ...]:
    """The lineup of ``table`` rotated by the game number."""
    lineup = LINEUPS[table]
    k = game % len(lineup)
    return lineup[-k:] + lineup[:-k] if k else lineup


def play_one(table: str, game: int) -> GameResult:
    """One seeded game of ``table`` (rotation ``game``); pure apart from the clock."""
    levels = seating(table, game)
    seed = SEED_BASE[table] + game
    timings = Timings()

    def factory(seat: int, rng: random.Random) -> Bot:
        return _Timed(BOTS[levels[seat]](seat, rng), timings)

    wrong: Counter[str] = Counter()

    def watch(before: GameState, action: Action, after: GameState) -> None:
        if isinstance(action, AccusationResult) and not action.correct:
            wrong[levels[action.seat]] += 1

    record = play_game(preset("classic"), len(levels), seed, bot_factory=factory,
                       on_action=watch)
    d = timings.decide_ms
    return GameResult(table, seed, levels, record.final.winner, record.final.turn_number,
                      dict(wrong), max(d), sum(d), len(d), max(timings.observe_ms))


def _play_job(job: tuple[str, int]) -> GameResult:
    return play_one(*job)


def run_tables(games: int, tables: Sequence[str] = tuple(LINEUPS),
               workers: int | None = None) -> list[GameResult]:
    """Every game of every table, on ``workers`` processes (default: up to two)."""
    jobs = [(t, g) for t in tables for g in range(games)]
    workers = workers or min(2, os.cpu_count() or 1)
    if workers <= 1:
        return [_play_job(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_play_job, jobs, chunksize=4))


def _wins_of(results: list[GameResult], level: str) -> tuple[int, int]:
    """(games won by a seat of ``level``, seats of ``level`` that played)."""
    wins = sum(1 for r in results if r.winner is not None and r.levels[r.winner] == level)
    seats = sum(r.levels.count(level) for r in results)
    return wins, seats


def section(emit: Emit, quick: bool) -> dict[str, Any]:
    games = QUICK_GAMES if quick else GAMES
    t0 = time.perf_counter()
    results = run_tables(games)
    by_table = {t: [r for r in results if r.table == t] for t in LINEUPS}
    figures: dict[str, Any] = {"bots_games_per_table": games}
    for table, rs in by_table.items():
        lead = LINEUPS[table][0]
        first = SEED_BASE[table]
        if table.endswith("_3p"):
            wins, _ = _wins_of(rs, lead)
            figures[table] = {"wins": wins, "games": len(rs)}
            foe = LINEUPS[table][1]
            emit(f"bots: {lead} vs two {foe}, {len(rs)} 3-player games (seeds {first}-"
                 f"{first + len(rs) - 1}, seat rotated): {lead} won {wins / len(rs):.1%} "
                 f"(fair share 33.3 %)" + (f", goal >= {WIN_GOAL:.0%}" if foe == "random"
                                           else ""))
        else:
            shares = {}
            parts = []
            for level in dict.fromkeys(LINEUPS[table]):
                wins, seats = _wins_of(rs, level)
                shares[level] = {"wins": wins, "seats": seats}
                parts.append(f"{level} {wins}/{len(rs)} games ({seats // len(rs)} "
                             f"seat{'s' if seats > len(rs) else ''})")
            figures[table] = shares
            emit(f"bots: {table[-2:]} mixed table, {len(rs)} games (seeds {first}-"
                 f"{first + len(rs) - 1}, rotated): wins " + ", ".join(parts))
    hard_rs = by_table["hard_vs_random_3p"]
    turns = [r.turns for r in hard_rs if r.winner is not None and r.levels[r.winner] == "hard"]
    mean_turns = statistics.fmean(turns) if turns else None
    wrong_hard = sum(r.wrong_by_level.get("hard", 0) for r in results)
    worst = max(r.decide_ms_max for r in results)
    mean = sum(r.decide_ms_sum for r in results) / sum(r.decisions for r in results)
    worst_observe = max(r.observe_ms_max for r in results)
    emit(f"bots: hard vs two random: mean table turn of its correct accusation "
         f"{mean_turns:.1f}" if mean_turns is not None else "bots: hard never won")
    emit(f"bots: wrong accusations by the detective (hard) over all {len(results)} games: "
         f"{wrong_hard} (goal 0)")
    emit(f"bots: time per bot decision: worst {worst:.1f} ms, mean {mean:.2f} ms (goal worst "
         f"< {DECISION_GOAL_MS:.0f} ms); worst observation (notepad update) "
         f"{worst_observe:.1f} ms")
    figures.update(shows.section_part(emit, quick))
    emit(f"bots: section took {time.perf_counter() - t0:.0f} s")
    figures.update({
        "hard_mean_turns_3p": round(mean_turns, 2) if mean_turns is not None else None,
        "detective_wrong_accusations": wrong_hard,
        "bots_decision_ms_max": round(worst, 2),
        "bots_decision_ms_mean": round(mean, 3),
        "bots_observe_ms_max": round(worst_observe, 2),
    })
    return figures
