"""``p2pclue simulate``: a whole game of bots in one process."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "simulate", help="play a whole game of bots in one process",
        description="Play a whole game of bots in one process.",
    )
    p.add_argument("--players", type=int, default=4, choices=range(3, 7), metavar="3..6")
    p.add_argument("--rules", default="classic", choices=("classic", "cz"))
    p.add_argument("--seed", type=int)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print("p2pclue simulate: not available yet", file=sys.stderr)
    return 2
