"""``p2pclue audit``: check a finished (or halted) game from its transcript alone."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "audit",
        help="verify a game transcript: signatures, proofs, rules, result",
        description="Verify every signature, proof and rule of a game transcript.",
    )
    p.add_argument("transcript", help="path of the transcript file")
    p.add_argument("--json", action="store_true", help="print a machine-readable verdict")
    p.add_argument("--replay", action="store_true", help="tell the game turn by turn")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print("p2pclue audit: not available in this version yet", file=sys.stderr)
    return 2
