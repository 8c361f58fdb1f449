"""``p2pclue bench``: print speed and size figures (numbers, not pass/fail)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from p2pclue.bench import ON_REQUEST, SECTION_NAMES, sections
from p2pclue.i18n import _


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "bench",
        help=_("measure the cryptography, a whole game and the audit"),
        description=_("Measure and print figures; with --json the last line is a JSON object. "
                      "The figures themselves are printed in English."),
    )
    p.add_argument("--json", action="store_true",
                   help=_("end with one JSON line of all figures"))
    p.add_argument(
        "--only", action="append", choices=sorted(SECTION_NAMES),
        help=_("run only these sections (cheats, the full cheat sweep, runs only when named)")
    )
    p.add_argument("--quick", action="store_true",
                   help=_("fewer repetitions (for smoke tests)"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    figures: dict[str, Any] = {}
    for name, section in sections().items():
        if (args.only and name not in args.only) or (not args.only and name in ON_REQUEST):
            continue
        figures.update(section(print, args.quick))
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    return 0
