"""``p2pclue join``: networked play on a LAN, not built in this version.

The help says so plainly, so nobody expects a lobby; the command explains and
exits 2. The networked session replaces this module when it exists.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "join",
        help="networked play on a LAN (not built in this version yet)",
        description="Networked play on a LAN is not built in this version yet: this command "
                    "only says so and exits with status 2. Watch a whole verified game with "
                    "'p2pclue simulate' and check its transcript with 'p2pclue audit'.",
    )
    p.add_argument("--name", help="the name other players would see (not used yet)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print(
        "p2pclue join: networked play is not available in this version yet; "
        "try 'p2pclue simulate' to watch a whole verified game.",
        file=sys.stderr,
    )
    return 2
