"""``p2pclue bench``: measure, print the figures, and hold them to their goals.

Exit status 0 when every goal judged was met, 1 when one was missed (``bench.goals`` says
which goals there are and when one is judged). This module is the subcommand's parser
too: it imports no section until ``bench`` runs, and then only the sections asked for.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import TYPE_CHECKING, Any

from p2pclue.bench import ON_REQUEST, SECTION_NAMES
from p2pclue.i18n import _

if TYPE_CHECKING:
    from p2pclue.cli.subcommands import Subcommands

EXIT_MISSED = 1


def register(subparsers: Subcommands) -> None:
    p = subparsers.add_parser(
        "bench",
        help=_("measure the cryptography, a whole game and the audit"),
        description=_("Measure and print figures, each beside its goal; with --json the last "
                      "line is a JSON object. Exit 0: every goal judged was met; 1: a goal "
                      "was missed. A goal on a latency is judged only on an idle machine (a "
                      "load average under a quarter per core as the run begins). The figures "
                      "themselves are printed in English."),
    )
    p.set_defaults(func=run)
    subparsers.later("bench", arguments)


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true",
                   help=_("end with one JSON line: every figure, and every goal with its "
                          "figure and whether it was met"))
    p.add_argument(
        "--only", action="extend", nargs="+", choices=SECTION_NAMES, metavar="SECTION",
        help=_("run only these sections, one or more: {sections} ({long}, the long ones, "
               "run only when named)").format(
            sections=", ".join(SECTION_NAMES),
            long=", ".join(n for n in SECTION_NAMES if n in ON_REQUEST))
    )
    p.add_argument("--quick", action="store_true",
                   help=_("fewer repetitions (for smoke tests)"))
    p.add_argument("--goal", action="append", type=goal_limit, default=[],
                   metavar="NAME=VALUE",
                   help=_("hold the goal NAME (the name printed after 'goal') to VALUE instead "
                          "of its own limit: a stricter bar, or one that fails on purpose "
                          "(repeatable)"))


def goal_limit(text: str) -> tuple[str, float]:
    """``--goal NAME=VALUE``: a goal's name and a finite number."""
    from p2pclue.bench.goals import BY_NAME

    name, sep, value = text.partition("=")
    if not sep or name not in BY_NAME:
        raise argparse.ArgumentTypeError(
            _("{text} is not NAME=VALUE with NAME a goal: {names}").format(
                text=repr(text), names=", ".join(sorted(BY_NAME))))
    try:
        limit = float(value)
    except ValueError:
        limit = math.nan
    if not math.isfinite(limit):
        raise argparse.ArgumentTypeError(
            _("{value} is not a number").format(value=repr(value)))
    return name, limit


def run(args: argparse.Namespace) -> int:
    from p2pclue.bench import load
    from p2pclue.bench.goals import cores, describe, is_idle, load_average, verdicts

    chosen = [name for name in SECTION_NAMES
              if (name in args.only if args.only else name not in ON_REQUEST)]
    start_load, n_cores = load_average(), cores()
    idle = is_idle(start_load, n_cores)
    print(f"bench: sections {', '.join(chosen)}{' (quick)' if args.quick else ''}; load "
          f"average {start_load[0]:g} / {start_load[1]:g} / {start_load[2]:g} on {n_cores} "
          f"cores{'' if idle else ' (busy: goals on latencies are not judged)'}", flush=True)
    figures: dict[str, Any] = {}
    for name in chosen:
        figures.update(load(name)(_emit, args.quick))
    end_load = load_average()
    goals = verdicts(chosen, figures, dict(args.goal), idle)
    for record in goals:
        print(describe(record, start_load))
    missed = [g["name"] for g in goals if g["judged"] and not g["met"]]
    judged = sum(g["judged"] for g in goals)
    print(f"goals: {judged - len(missed)} of {judged} judged met"
          + (f"; MISSED: {', '.join(missed)}" if missed else "")
          + (f"; {len(goals) - judged} not judged" if judged < len(goals) else ""), flush=True)
    if missed:
        print(f"p2pclue bench: goal missed: {', '.join(missed)}", file=sys.stderr)
    if args.json:
        figures.update({
            "sections": chosen, "quick": args.quick, "goals": goals,
            "goals_met": not missed, "goals_missed": missed,
            "load_average": {"start": start_load, "end": end_load}, "cores": n_cores,
            "idle": idle,
        })
        print(json.dumps(figures, sort_keys=True))
    return EXIT_MISSED if missed else 0


def _emit(line: str) -> None:
    print(line, flush=True)
