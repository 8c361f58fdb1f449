"""``p2pclue bench --only model``: the generative fault model of a whole table, run deep.

Hypothesis draws tables and programs of faults (``bench.tablemodel``) until the model has
run ``STEPS`` rules in all, with random seeds (every run explores other examples). A
property that breaks stops the run: Hypothesis shrinks the example to a minimal program
of rules, which the section prints and returns. Hypothesis is a test dependency; without
it the section says so and measures nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from p2pclue.bench import Emit

if TYPE_CHECKING:
    from p2pclue.bench.tablemodel.machine import TableModel
    from p2pclue.bench.tablemodel.table import Tally

    Machine = Callable[[Tally], type[TableModel]]

STEPS = 20_000
QUICK_STEPS = 100
BATCH = 40
"""Examples per call of Hypothesis: a failure is reported within one batch's time."""
QUICK_BATCH = 5
STEP_COUNT = 100
"""The most rules of one example (Hypothesis draws fewer often): each example plays its
table to the end and audits it, so longer programs explore more per second."""


def explore(steps: int, batch: int = BATCH, step_count: int = STEP_COUNT,
            derandomize: bool = False, model: Machine | None = None,
            shrink: bool = True, progress: Emit | None = None) -> dict[str, Any]:
    """Run the model until ``steps`` rules ran or a property broke; its figures.
    ``model``: the state machine for a tally (the table model's by default); ``shrink``:
    Hypothesis shrinks a failing example (each try plays a table to its end: minutes);
    ``progress`` hears a line after each batch."""
    from hypothesis import HealthCheck, Phase, settings
    from hypothesis.reporting import with_reporter
    from hypothesis.stateful import run_state_machine_as_test

    from p2pclue.bench.tablemodel.machine import machine
    from p2pclue.bench.tablemodel.table import Tally

    tally = Tally()
    built = (model or machine)(tally)
    lines: list[str] = []
    failure: str | None = None
    chosen = settings(max_examples=batch, stateful_step_count=step_count, deadline=None,
                      database=None, derandomize=derandomize, print_blob=True,
                      suppress_health_check=list(HealthCheck),
                      phases=list(Phase) if shrink else [Phase.generate])
    wall, cpu = time.perf_counter(), time.process_time()
    while tally.steps < steps and failure is None:
        before = tally.steps
        lines.clear()
        try:
            with with_reporter(lambda value: lines.append(str(value))):
                run_state_machine_as_test(built, settings=chosen)
        except Exception as error:  # any failure is the report
            notes = getattr(error, "__notes__", [])  # Hypothesis's failing program
            failure = "\n".join([*lines, *notes, f"{type(error).__name__}: {error}"])
        if progress is not None:
            progress(f"  ... {tally.examples:,} tables, {tally.steps:,} rules, "
                     f"{time.process_time() - cpu:.0f} s CPU")
        if tally.steps == before and failure is None:
            break  # nothing more to draw (cannot happen with random seeds; never loop)
        if derandomize:
            break  # the same examples again would add nothing
    return {
        "model_examples": tally.examples,
        "model_steps": tally.steps,
        "model_seconds": round(time.perf_counter() - wall, 1),
        "model_cpu_seconds": round(time.process_time() - cpu, 1),
        "model_rules": dict(sorted(tally.rules.items())),
        "model_ends": dict(sorted(tally.ends.items())),
        "model_cheats": tally.cheats,
        "model_cheats_fired": tally.cheats_fired,
        "model_cheats_halted": tally.cheats_blamed,
        "model_audits": tally.audits,
        "model_resumes": tally.resumes,
        "model_failures": 0 if failure is None else 1,
        "model_failure": failure,
    }


def section(emit: Emit, quick: bool) -> dict[str, Any]:
    try:
        import hypothesis  # noqa: F401
    except ModuleNotFoundError:
        emit("model: needs Hypothesis (pip install 'p2pclue[test]'); not measured")
        return {"model_failures": None, "model_failure": None}
    target = QUICK_STEPS if quick else STEPS
    emit(f"model: fault model of a whole table, {target:,} rules or more in all ...")
    f = explore(target, batch=QUICK_BATCH if quick else BATCH, progress=emit)
    rate = f["model_steps"] / f["model_cpu_seconds"] if f["model_cpu_seconds"] else 0.0
    emit(f"  {f['model_examples']:,} tables, {f['model_steps']:,} rules in "
         f"{f['model_seconds']:g} s ({f['model_cpu_seconds']:g} s CPU, {rate:.1f} rules/s "
         "CPU)")
    emit("  rules: " + ", ".join(f"{k} {v:,}" for k, v in f["model_rules"].items()))
    emit("  honest seats ended: " + ", ".join(f"{k} {v:,}" for k, v in f["model_ends"].items())
         + f"; {f['model_audits']:,} transcripts audited; {f['model_resumes']:,} resumes")
    emit(f"  cheaters: {f['model_cheats']:,} tables, cheat made in {f['model_cheats_fired']:,}, "
         f"an honest seat halted on it in {f['model_cheats_halted']:,}")
    if f["model_failure"] is None:
        emit("  no property broken")
    else:
        emit("  PROPERTY BROKEN; minimal example:")
        for line in f["model_failure"].splitlines():
            emit("    " + line)
    f["model_steps_per_cpu_s"] = round(rate, 1)
    return f
