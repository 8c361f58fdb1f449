"""Bench section "rules": movement search and whole simulated games.

Registered in ``sections()`` of ``p2pclue/bench/__init__.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from p2pclue.bots.table import play_game
from p2pclue.rules.board import classic_board
from p2pclue.rules.movement import legal_destinations
from p2pclue.rules.variants import CLASSIC, CZ


def section(emit: Callable[[str], None], quick: bool) -> dict[str, Any]:
    """Worst and mean time of all destinations for a roll of 12, per variant; game time."""
    board = classic_board()
    legal_destinations(board, (24, 7), 2, (), revisit_ok=False, enter_exact=False)  # warm up
    starts = sorted(board.corridor)[:: 6 if quick else 1] + list(board.rooms())
    taken = ((7, 7), (8, 8), (13, 16), (17, 0), (0, 9))
    figures: dict[str, Any] = {}
    for revisit_ok in (False, True):
        for enter_exact in (False, True):
            times = []
            for start in starts:
                t0 = time.perf_counter()
                legal_destinations(board, start, 12, (t for t in taken if t != start),
                                   revisit_ok=revisit_ok, enter_exact=enter_exact)
                times.append(time.perf_counter() - t0)
            key = (f"rules.roll12_{'revisit' if revisit_ok else 'norevisit'}_"
                   f"{'exact' if enter_exact else 'any'}")
            figures[f"{key}_worst_ms"] = round(max(times) * 1000, 3)
            figures[f"{key}_mean_ms"] = round(sum(times) / len(times) * 1000, 3)
            emit(f"rules: roll 12 destinations, revisit_ok={revisit_ok} "
                 f"enter_exact={enter_exact}: worst {figures[f'{key}_worst_ms']} ms, "
                 f"mean {figures[f'{key}_mean_ms']} ms over {len(starts)} starts")
    for name, rules in (("classic", CLASSIC), ("cz", CZ)):
        seeds = range(2 if quick else 10)
        t0 = time.perf_counter()
        turns = sum(play_game(rules, 4, seed).final.turn_number for seed in seeds)
        per_game = (time.perf_counter() - t0) / len(seeds)
        figures[f"rules.sim_game_{name}_s"] = round(per_game, 4)
        figures[f"rules.sim_game_{name}_turns"] = turns / len(seeds)
        emit(f"rules: simulated 4-player {name} game: {per_game:.3f} s, "
             f"{turns / len(seeds):.0f} turns on average")
    return figures
