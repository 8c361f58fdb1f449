"""``p2pclue join``: find a game on the LAN and play it in the terminal."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "join",
        help="find or host a game on this LAN and play it in the terminal",
        description="Find or host a game on this LAN (zeroconf) and play it in the terminal.",
    )
    p.add_argument("--name", help="the name other players see")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print(
        "p2pclue join: networked play is not available in this version yet; "
        "try 'p2pclue simulate' to watch a whole verified game.",
        file=sys.stderr,
    )
    return 2
