"""The "deduce" bench section runs in quick mode and reports its figures."""

from __future__ import annotations

from p2pclue.bench.deduce import section


def test_quick_bench_section_reports_update_times_and_strength() -> None:
    lines: list[str] = []
    figures = section(lines.append, True)
    assert figures["deduce_update_events"] > 10
    assert 0 < figures["deduce_update_ms_mean"] <= figures["deduce_update_ms_max"]
    assert figures["detective_games_3p"] == 12
    assert 0.0 <= figures["detective_win_rate_3p"] <= 1.0
    assert any("detective vs two random bots" in line for line in lines)
