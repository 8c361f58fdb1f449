"""Command line: ``p2pclue <subcommand>``.

Each subcommand lives in its own module with ``register(subparsers)``, which
adds its parser and sets ``func`` to a callable taking the parsed arguments
and returning the exit status. This keeps ``main`` free of subcommand logic.

The language (``--lang``, before or after the subcommand, else the locale) is
installed before the parsers are built, so that their help is translated too.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from p2pclue import __version__
from p2pclue.cli import audit, bench, join, simulate
from p2pclue.i18n import LocalizedArgumentParser, _, add_lang_option, apply_language, prescan_lang

_SUBCOMMANDS = (join, simulate, audit, bench)


def build_parser() -> argparse.ArgumentParser:
    parser = LocalizedArgumentParser(
        prog="p2pclue",
        description=_("Clue for 3 to 6 players on one LAN, with nobody to trust: play a "
                      "verified game with people and bots (join), follow one as a spectator "
                      "(watch), play whole games of bots through the real protocol (simulate), "
                      "check any game's transcript (audit) and measure it all (bench)."),
    )
    parser.add_argument("--version", action="version", version=f"p2pclue {__version__}",
                        help=_("show the version and exit"))
    add_lang_option(parser, top_level=True)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _SUBCOMMANDS:
        module.register(subparsers)
    for subparser in subparsers.choices.values():
        add_lang_option(subparser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    apply_language(prescan_lang(argv))
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
        print(_("interrupted"), file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
