"""The parser of ``p2pclue audit``; the audit itself (``cli.audit``) loads when it runs."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from p2pclue.i18n import _

if TYPE_CHECKING:
    from p2pclue.cli.subcommands import Subcommands


def register(subparsers: Subcommands) -> None:
    p = subparsers.add_parser(
        "audit",
        help=_("verify a game transcript: signatures, proofs, rules, result"),
        description=_("Verify every signature, the hash chain, every proof, every rule, every "
                      "dice value and accusation, and (after the end-of-game reveal) every "
                      "hand and shown card. Exit 0: valid; 1: a violation; 2: not a "
                      "transcript."),
    )
    p.set_defaults(func=run)
    subparsers.later("audit", arguments)


def arguments(p: argparse.ArgumentParser) -> None:
    # Kept as typed (not ``Path``, which reads "" as "."): ``audit.run`` says an empty path
    # is empty, with its JSON verdict.
    p.add_argument("transcript", help=_("path of the transcript file"))
    p.add_argument("--json", action="store_true",
                   help=_("end with one machine-readable JSON verdict (also when unreadable); "
                          "with --replay, one JSON line per event first"))
    p.add_argument("--replay", action="store_true", help=_("tell the game turn by turn"))


def run(args: argparse.Namespace) -> int:
    from p2pclue.cli.audit import run

    return run(args)
