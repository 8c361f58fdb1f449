"""Command line: ``p2pclue <subcommand>``.

Each subcommand lives in its own module with ``register(subparsers)``, which
adds its parser and sets ``func`` to a callable taking the parsed arguments
and returning the exit status. This keeps ``main`` free of subcommand logic.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from p2pclue import __version__
from p2pclue.cli import audit, bench, join, simulate

_SUBCOMMANDS = (join, simulate, audit, bench)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="p2pclue",
        description="Clue for 3 to 6 players on one LAN, with nobody to trust. Open or join "
                    "a table and play in the terminal (join; try: p2pclue join --create "
                    "--bots 2), follow a game (watch), play whole games of bots (simulate), "
                    "check any game's transcript (audit) and measure it all (bench).",
    )
    parser.add_argument("--version", action="version", version=f"p2pclue {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _SUBCOMMANDS:
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        status: int = args.func(args)
    except BrokenPipeError:  # the reader went away (piped into head): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
