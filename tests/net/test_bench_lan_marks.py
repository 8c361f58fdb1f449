"""``bench --only lan`` reads every process's timing marks into the table's figures."""

from __future__ import annotations

from typing import Any

import pytest

from p2pclue.bench.lan import read_marks


def _marks(offset: float, cpu: float, proofs: list[int]) -> dict[str, Any]:
    """One process's marks: two suggestions, the second one's ack seen."""
    return {"start": 100.0 + offset, "start_cpu": cpu, "first_turn": 101.0 + offset,
            "first_turn_cpu": cpu + 0.25, "deal_mults": 1000,
            "suggested": [110.0 + offset, 120.0 + offset],
            "suggested_cpu": [cpu + 1.0, cpu + 2.0],
            "resolved": [110.04 + offset, 120.07 + offset],
            "resolved_cpu": [cpu + 1.01, cpu + 2.03], "proofs": proofs,
            "answered": [[1, 120.09 + offset]], "max_rss_kb": 50 * 1024,
            "entries": [[0, 0, 100.01 + offset], [1, 1, 100.5 + offset]]}


def test_the_table_figures_sum_every_process_and_keep_the_latest_mark() -> None:
    marks = [_marks(0.0, 5.0, [1, 3]), _marks(0.002, 7.0, [1, 3]), _marks(0.001, 9.0, [1, 3])]
    got = read_marks(marks)
    assert got["deal_s"] == pytest.approx(1.002)  # the last first turn after the first start
    assert got["deal_cpu_s"] == pytest.approx(0.75)  # 0.25 s in each of three processes
    assert got["deal_mults"] == 3000
    # asked when the first process saw it, known by all when the last one accepted it
    assert got["refute_s"] == pytest.approx([0.042, 0.072])
    assert got["refute_cpu_s"] == pytest.approx([0.03, 0.09])
    assert got["refute_proofs"] == [1, 3]
    assert got["acked_s"] == pytest.approx([0.092])
    assert got["rss_mb"] == 50
    assert got["last_in_play_s"] == pytest.approx(0.002)  # the last process to start
    assert got["deal_messages"] == 2  # entries 0 and 1 came before the first turn


def test_the_deal_counts_the_messages_any_process_saw_before_its_first_turn() -> None:
    marks = [_marks(0.0, 1.0, [1, 3]), _marks(0.0, 2.0, [1, 3])]
    marks[1]["entries"] = [*marks[1]["entries"], [2, 0, 100.7]]  # its first turn came later
    assert read_marks(marks)["deal_messages"] == 3
    del marks[0]["entries"], marks[1]["entries"]  # marks written before they were kept
    assert read_marks(marks)["deal_messages"] == 0


def test_a_suggestion_some_process_never_saw_resolved_is_left_out() -> None:
    marks = [_marks(0.0, 1.0, [1, 3]), _marks(0.0, 2.0, [1, 3])]
    for key in ("resolved", "resolved_cpu"):
        marks[1][key] = marks[1][key][:1]
    got = read_marks(marks)
    assert len(got["refute_s"]) == len(got["refute_cpu_s"]) == len(got["refute_proofs"]) == 1
