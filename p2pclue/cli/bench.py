"""``p2pclue bench``: print speed and size figures (numbers, not pass/fail).

This module is the subcommand's parser too: it imports no section until ``bench`` runs.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from p2pclue.bench import ON_REQUEST, SECTION_NAMES
from p2pclue.i18n import _

if TYPE_CHECKING:
    from p2pclue.cli import Subcommands


def register(subparsers: Subcommands) -> None:
    p = subparsers.add_parser(
        "bench",
        help=_("measure the cryptography, a whole game and the audit"),
        description=_("Measure and print figures; with --json the last line is a JSON object. "
                      "The figures themselves are printed in English."),
    )
    p.set_defaults(func=run)
    subparsers.later("bench", arguments)


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true",
                   help=_("end with one JSON line of all figures"))
    p.add_argument(
        "--only", action="append", choices=sorted(SECTION_NAMES),
        help=_("run only these sections (cheats, the full cheat sweep, runs only when named)")
    )
    p.add_argument("--quick", action="store_true",
                   help=_("fewer repetitions (for smoke tests)"))


def run(args: argparse.Namespace) -> int:
    from p2pclue.bench import sections

    figures: dict[str, Any] = {}
    for name, section in sections().items():
        if (args.only and name not in args.only) or (not args.only and name in ON_REQUEST):
            continue
        figures.update(section(print, args.quick))
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    return 0
