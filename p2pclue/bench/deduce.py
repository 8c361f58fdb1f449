"""Benchmark section "deduce": notepad update time and detective bot strength.

Update time: every observation a detective receives in seeded 6-player games
(one detective, five random bots) is timed, notepad analysis included; the goal
is under 50 ms at the worst point. Strength: seeded 3-player games on the
trusted-dealer table (``bots.table``), one detective against two random bots,
the detective's seat rotated; the win rate (goal >= 90%) and the mean table turn
of its correct accusations.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from p2pclue.bench import Emit
from p2pclue.bots import Bot, Decision, Observation
from p2pclue.bots.detective import DetectiveBot
from p2pclue.bots.random_bot import RandomBot
from p2pclue.bots.table import play_game
from p2pclue.rules.state import GameState
from p2pclue.rules.variants import preset

UPDATE_GOAL_MS = 50.0
WIN_GOAL = 0.90


class _TimedDetective:
    """A detective whose every observation (a notepad update) is timed."""

    def __init__(self, seat: int, rng: random.Random, sink: list[float]) -> None:
        self.bot = DetectiveBot(seat, rng)
        self.seat = seat
        self.sink = sink

    def observe(self, event: Observation) -> None:
        t0 = time.perf_counter()
        self.bot.observe(event)
        self.sink.append((time.perf_counter() - t0) * 1000)

    def decide(self, state: GameState) -> Decision:
        return self.bot.decide(state)


def _update_times(games: int) -> list[float]:
    times: list[float] = []
    for g in range(games):
        def factory(seat: int, rng: random.Random, g: int = g) -> Bot:
            if seat == g % 6:
                return _TimedDetective(seat, rng, times)
            return RandomBot(seat, rng)
        play_game(preset("classic"), 6, 600 + g, bot_factory=factory)
    return times


def _strength(games: int) -> tuple[int, list[int]]:
    wins, turns = 0, []
    for g in range(games):
        seat = g % 3

        def factory(s: int, rng: random.Random, seat: int = seat) -> Bot:
            return DetectiveBot(s, rng) if s == seat else RandomBot(s, rng)
        record = play_game(preset("classic"), 3, 3000 + g, bot_factory=factory)
        if record.final.winner == seat:
            wins += 1
            turns.append(record.final.turn_number)
    return wins, turns


def section(emit: Emit, quick: bool) -> dict[str, Any]:
    update_games, strength_games = (1, 12) if quick else (6, 240)
    t0 = time.perf_counter()
    times = _update_times(update_games)
    worst, mean = max(times), statistics.fmean(times)
    emit(f"deduce: notepad update after each event, {len(times)} events in {update_games} "
         f"6-player games: max {worst:.1f} ms, mean {mean:.2f} ms "
         f"(goal < {UPDATE_GOAL_MS:.0f} ms)")
    wins, turns = _strength(strength_games)
    rate = wins / strength_games
    mean_turns = statistics.fmean(turns) if turns else float("nan")
    emit(f"deduce: detective vs two random bots, {strength_games} 3-player games: "
         f"won {rate:.1%} (goal >= {WIN_GOAL:.0%}), mean table turn of its correct "
         f"accusation {mean_turns:.1f}")
    emit(f"deduce: section took {time.perf_counter() - t0:.0f} s")
    return {
        "deduce_update_ms_max": round(worst, 2),
        "deduce_update_ms_mean": round(mean, 3),
        "deduce_update_events": len(times),
        "detective_games_3p": strength_games,
        "detective_win_rate_3p": round(rate, 4),
        "detective_mean_turns_3p": round(mean_turns, 2) if turns else None,
    }
