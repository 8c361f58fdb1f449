"""``p2pclue bench --only model`` reports what it explored, and a broken property as a
minimal program of rules that misses the goal ``model_failures``.

The failing model here is the real one with one property added that the table surely
breaks (no seat ever crashes): the run stops at the first example that breaks it and
reports its program of rules. (Not shrunk here: each try of a shrink plays a table to its
end, minutes in all; the bench shrinks.)"""

from __future__ import annotations

from hypothesis.stateful import invariant

from p2pclue.bench.goals import verdicts
from p2pclue.bench.model import explore
from p2pclue.bench.tablemodel import checks
from p2pclue.bench.tablemodel.machine import TableModel
from p2pclue.bench.tablemodel.table import Tally


class NoCrashModel(TableModel):
    @invariant()
    def nobody_crashed(self) -> None:
        if self.mt is not None:
            checks.require(not self.mt.crashed and self.mt.armed is None, "a seat crashed")


INVARIANTS = ("state.transcripts_agree(", "state.nobody_honest_blamed(",
              "state.persisted_is_accepted(", "state.honest_links_uncharged(",
              "state.nobody_crashed(", "state.teardown(")


def no_crash_model(tally: Tally) -> type[TableModel]:
    return type("NoCrashModel", (NoCrashModel,), {"tally": tally})


def test_a_broken_property_is_reported_with_its_program_and_misses_the_goal() -> None:
    f = explore(10_000, batch=30, step_count=8, derandomize=True, model=no_crash_model,
                shrink=False)
    assert f["model_failures"] == 1
    failure = f["model_failure"]
    assert "Broken: a seat crashed" in failure
    program = [line for line in failure.splitlines() if line.startswith("state.")]
    rules = [line for line in program if not line.startswith(INVARIANTS)]
    assert rules[0].startswith("state.open_table("), failure
    assert rules[-1].startswith("state.crash("), failure  # the rule that broke it, last
    assert sum(line.startswith("state.crash(") for line in rules) == 1, failure
    [goal] = verdicts(["model"], f, {}, idle=False)
    assert goal["name"] == "model_failures" and goal["judged"] and not goal["met"]


def test_a_sound_run_reports_its_figures_and_meets_the_goal() -> None:
    f = explore(20, batch=2, step_count=10, derandomize=True)
    assert f["model_failures"] == 0 and f["model_failure"] is None
    assert f["model_examples"] >= 2 and f["model_steps"] == sum(f["model_rules"].values()) > 0
    assert sum(f["model_ends"].values()) > 0 and f["model_audits"] > 0
    [goal] = verdicts(["model"], f, {}, idle=False)
    assert goal["judged"] and goal["met"] and goal["figure"] == 0
