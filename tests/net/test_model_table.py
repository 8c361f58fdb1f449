"""The generative fault model of a whole table, in its bounded CI profile.

Hypothesis draws tables of 3-6 session cores (mostly 3, random bots with short patience,
a cheater in some) and programs of faults: deliveries, reorders, copies, losses, a clock
past a deadline, cut and restored links, crashes and resumes, leaves, a stranger's junk.
Every property of ``bench.tablemodel.checks`` holds after every rule, and after the heal
every honest seat ends with a transcript the audit agrees with. ``HYPOTHESIS_PROFILE=deep``
runs twenty times the examples; ``p2pclue bench --only model`` runs 20,000 rules.
"""

from __future__ import annotations

from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test

from p2pclue.bench.tablemodel.machine import machine
from p2pclue.bench.tablemodel.table import Tally
from tests.profiles import examples

RULES = {"play", "reorder", "duplicate", "drop", "delay", "cut", "restore", "crash", "resume",
         "leave", "stranger_junk"}
CI_EXAMPLES = 30
STEP_COUNT = 25


def test_every_fault_keeps_the_tables_promises() -> None:
    tally = Tally()
    run_state_machine_as_test(
        machine(tally),
        settings=settings(settings(), max_examples=examples(CI_EXAMPLES),
                          stateful_step_count=STEP_COUNT))
    assert tally.examples >= CI_EXAMPLES
    assert set(tally.rules) == RULES, f"rules never drawn: {RULES - set(tally.rules)}"
    assert tally.ends.get("complete", 0) > 0, tally.ends
    assert tally.cheats_fired > 0 and tally.cheats_blamed > 0, tally
    assert tally.resumes > 0 and tally.audits > 0, tally
