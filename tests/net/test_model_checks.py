"""The fault model's properties can fail: each one, shown a table that really breaks it
(a blame on a seat the model calls honest, two transcripts that fork, a disk that holds
what its seat never accepted, a table that never ended, a resume that lost entries),
raises ``Broken`` with a sentence that names whom. Real cores, real cryptography; the
breakage is made in the model's own view or in what a seat persisted."""

from __future__ import annotations

import dataclasses

import pytest

from p2pclue.bench.tablemodel import checks
from p2pclue.bench.tablemodel.table import ModelTable, Plan


def _played(plan: Plan, steps: int) -> ModelTable:
    mt = ModelTable(plan)
    mt.progress(steps)
    return mt


def test_a_blame_on_a_seat_the_model_calls_honest_is_caught() -> None:
    plan = Plan(3, seed=5, patience=3, cheat="illegal-move", cheater=1)
    mt = ModelTable(plan)
    mt.finish()
    assert mt.cheated
    checks.nobody_honest_blamed(mt)
    audits = checks.Audits()
    checks.halted_is_confirmed(mt, audits)
    assert audits.count > 0  # a halted transcript was audited
    mt.plan = dataclasses.replace(plan, cheater=2)  # the model now says seat 1 is honest
    with pytest.raises(checks.Broken, match="blames seat 1"):
        checks.nobody_honest_blamed(mt)
    with pytest.raises(checks.Broken, match="halted transcript"):
        checks.halted_is_confirmed(mt, checks.Audits())


def test_two_honest_transcripts_that_fork_are_caught() -> None:
    mt = _played(Plan(3, seed=2, patience=4), 300)
    checks.transcripts_agree(mt)
    mt.crash(1, power=False)
    disk = mt.member(1).disk.entries
    assert len(disk) > 2
    raw = bytearray(disk[1])
    raw[-1] ^= 1
    disk[1] = bytes(raw)
    with pytest.raises(checks.Broken, match="disagree at entry 1"):
        checks.transcripts_agree(mt)


def test_a_disk_holding_what_its_seat_never_accepted_is_caught() -> None:
    mt = _played(Plan(3, seed=3, patience=4), 200)
    checks.persisted_is_accepted(mt)
    mt.member(0).disk.entries.append(b"not an entry")
    with pytest.raises(checks.Broken, match="seat 0's disk holds entries"):
        checks.persisted_is_accepted(mt)


def test_a_table_that_never_ended_is_caught() -> None:
    mt = _played(Plan(3, seed=4, patience=4), 50)
    with pytest.raises(checks.Broken, match="did not reach its end"):
        checks.ended(mt, checks.Audits())


def test_a_resume_that_lost_entries_is_caught() -> None:
    mt = _played(Plan(3, seed=6, patience=4), 250)
    mt.crash(2, power=False)
    disk = list(mt.member(2).disk.entries)
    crash, core = mt.resume(2)
    checks.resumed_as_before(2, crash.snapshot, disk, crash.power, core)
    longer = dataclasses.replace(crash.snapshot, entries=(*crash.snapshot.entries, b"more"))
    with pytest.raises(checks.Broken, match="resumed seat 2 lost entries"):
        checks.resumed_as_before(2, longer, disk, crash.power, core)


def test_a_spectator_whose_complete_game_differs_is_caught() -> None:
    mt = ModelTable(Plan(3, seed=7, patience=3))
    mt.heal()  # links the spectator to every seat, as the end of every example does
    mt.finish()
    checks.spectator_agrees(mt)
    assert mt.stranger.peer.status.value == "complete"
    mt.stranger.peer.entries[-1] = b"another last entry"
    with pytest.raises(checks.Broken, match="spectator's complete game is not seat 0's"):
        checks.spectator_agrees(mt)
