"""The detective (hard) never accuses wrongly on the bots benchmark's games.

The tests replay 21 of the benchmark's own games (the same seeds, lineups and
rotation as ``p2pclue bench --only bots``): the first games of every table.
``p2pclue bench --only bots`` plays all of them (5 tables x 240 games).
"""

from __future__ import annotations

import pytest

from p2pclue.bench.bots import LINEUPS, SEED_BASE, play_one, seating

SUBSET = {"hard_vs_random_3p": 9, "hard_vs_medium_3p": 3, "medium_vs_easy_3p": 3,
          "mixed_4p": 4, "mixed_6p": 2}
"""Games per table: every seat rotation of the headline table, a few of each other."""


def test_seating_rotates_every_level_through_every_seat() -> None:
    for table, lineup in LINEUPS.items():
        seen = {seating(table, g)[0] for g in range(len(lineup))}
        assert seen == set(lineup)
        assert sorted(seating(table, 1)) == sorted(lineup)


@pytest.mark.parametrize("table", sorted(SUBSET))
def test_detective_never_accuses_wrongly_on_benchmark_games(table: str) -> None:
    for game in range(SUBSET[table]):
        result = play_one(table, game)
        assert result.seed == SEED_BASE[table] + game
        assert result.wrong_by_level.get("hard", 0) == 0, (table, game)
        if result.winner is not None and result.levels[result.winner] == "hard":
            assert result.turns > 0
