"""The parser of ``p2pclue simulate``; the game (``cli.simulate``) loads when it runs.

Its arguments list the bots and the cheat kinds, so they load the bots' and the cheats'
registries: only when ``simulate`` is the subcommand being run.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from p2pclue.cli import argtypes
from p2pclue.i18n import _

if TYPE_CHECKING:
    from p2pclue.cli.subcommands import Subcommands


def register(subparsers: Subcommands) -> None:
    p = subparsers.add_parser(
        "simulate", help=_("play a whole game of bots through the real protocol"),
        description=_("Play a whole game of bots, each a full protocol peer with its own "
                      "secrets, through the real cryptography, in one process."),
        epilog=_("Exit status: 0 a finished game; 1 abandoned; 2 bad arguments; 3 halted with "
                 "a seat blamed (what a cheat run should end with); 4 the cheat never happened."),
    )
    p.set_defaults(func=run, usage=p.format_usage)
    subparsers.later("simulate", arguments)


def arguments(p: argparse.ArgumentParser) -> None:
    from p2pclue.bots.registry import BOTS, DEFAULT_BOT
    from p2pclue.engine.cheats import CHEATS, PHASED

    p.add_argument("--players", type=int, default=4, choices=range(3, 7), metavar="3..6",
                   help=_("players at the table (default 4)"))
    p.add_argument("--rules", default="classic", choices=("classic", "cz"),
                   help=_("the rules: classic, or cz (the Czech edition's)"))
    p.add_argument("--seed", type=int, help=_("reproduce a game (default: a random seed)"))
    p.add_argument("--bot", default=DEFAULT_BOT, choices=sorted(BOTS),
                   help=_("which bots play"))
    p.add_argument("--transcript", type=argtypes.new_file, metavar="PATH",
                   help=_("write the transcript here, message by message as the game goes"))
    p.add_argument("--json", action="store_true",
                   help=_("end with one JSON line of the result"))
    p.add_argument("--quiet", action="store_true", help=_("print only the result"))
    p.add_argument("--cheat", choices=sorted(CHEATS), metavar="KIND",
                   help=_("make one seat cheat (see --list-cheats)"))
    p.add_argument("--cheater", type=int, metavar="SEAT",
                   help=_("the cheating seat (with --cheat; default 1)"))
    p.add_argument("--cheat-phase", metavar="PHASE",
                   help=_("with --cheat, where a cheat possible at several points happens: "
                          "{phases}").format(phases="; ".join(
                              f"{k}: {'/'.join(v)}" for k, v in PHASED.items())))
    p.add_argument("--list-cheats", action="store_true",
                   help=_("list the cheat kinds and exit"))


def run(args: argparse.Namespace) -> int:
    from p2pclue.cli.simulate import run

    return run(args)
