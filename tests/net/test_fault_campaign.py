"""The seeded fault campaign in CI: 10 games of four real bot processes over loopback.

Each game has one fault from its seed: a player process killed with SIGKILL and
restarted with ``join --resume``, a link closed from outside (``ss -K``), or a link that
loses every packet for a while (``tc netem``), the last two in a network namespace of
the campaign's own. Every game must finish with byte-identical transcripts and a valid
audit (``p2pclue bench --only faults`` runs 50 and prints the timings).
"""

from __future__ import annotations

import os

import pytest

from p2pclue.bench.faults import run_campaign

GAMES = 10


@pytest.mark.skipif(os.environ.get("P2PCLUE_SKIP_CAMPAIGN") == "1",
                    reason="P2PCLUE_SKIP_CAMPAIGN=1")
def test_ten_games_of_processes_survive_kills_cuts_and_lost_packets() -> None:
    campaign = run_campaign(GAMES, first_seed=101)
    summary = campaign.summary()
    assert summary["failures"] == [], summary["failures"]
    assert summary["games_finished"] == GAMES
    assert summary["ended_before_the_fault"] <= 2, "faults really happened"
    assert summary["crashes"] >= 3
    struck = [g for g in campaign.games if g.struck and g.kind != "crash"]
    assert all(g.evidence and not g.evidence.startswith("0 ") for g in struck), \
        [g.evidence for g in struck]
    if campaign.limited:
        pytest.skip(f"crashes checked; cut and dropped links not: {campaign.limited}")
    assert summary["cuts"] >= 1 and summary["drops"] >= 1
