"""Command line: ``p2pclue <subcommand>``.

Each subcommand's parser is declared by a light module that imports nothing heavy:
``join_options`` (``join`` and ``watch``), ``simulate_options``, ``audit_options`` and
``bench`` (whose sections load only when it runs). Its ``register(subparsers)`` adds the
subcommand with its one-line help and hands ``subparsers.later`` the function that adds its
arguments; ``func`` is set to a handler that imports the module doing the work only when it
runs. So ``p2pclue audit FILE`` never loads the terminal UI or the network, and
``p2pclue --help`` loads neither the engine nor the cryptography.

A subcommand's arguments are added when ``main`` picks that subcommand (some need a
registry to list their choices, the bots' or the cheats'); ``build_parser()`` adds them
all, for whoever wants to read the whole parser.

The language (``--lang``, before or after the subcommand, else the locale) is
installed before the parsers are built, so that their help is translated too.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from p2pclue import __version__
from p2pclue.cli import audit_options, bench, join_options, simulate_options
from p2pclue.cli.subcommands import Subcommands
from p2pclue.i18n import LocalizedArgumentParser, _, add_lang_option, apply_language, prescan_lang

_SUBCOMMANDS = (join_options, simulate_options, audit_options, bench)

def build_parser(*, complete: bool = True) -> argparse.ArgumentParser:
    """The whole command line; with ``complete=False`` a subcommand's arguments are added
    only when it is parsed (what ``main`` does)."""
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
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", action=Subcommands)
    assert isinstance(subparsers, Subcommands)
    for module in _SUBCOMMANDS:
        module.register(subparsers)
    if complete:
        subparsers.complete()
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    apply_language(prescan_lang(argv))
    parser = build_parser(complete=False)
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
