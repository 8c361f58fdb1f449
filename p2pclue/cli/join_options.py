"""The parsers of ``p2pclue join`` and ``p2pclue watch``; the game (``cli.join``) loads
when one of them runs.

Their arguments name the bots, the levels and the default profile, so they load those
registries: only when ``join`` or ``watch`` is the subcommand being run.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from p2pclue.cli import argtypes
from p2pclue.i18n import _

if TYPE_CHECKING:
    from p2pclue.cli.subcommands import Subcommands


def _common(p: argparse.ArgumentParser, table_help: str) -> None:
    from p2pclue.net.profile import DEFAULT_PROFILE

    p.add_argument("--table", metavar="NAME", help=table_help)
    p.add_argument("--peer", type=argtypes.peer, metavar="HOST:PORT",
                   help=_("reach the table directly, without multicast discovery (needs "
                          "--table NAME)"))
    p.add_argument("--ticket", metavar="TICKET",
                   help=_("join an internet table by the ticket on the opener's screen"))
    p.add_argument("--relay", action="append", metavar="URL", default=[],
                   help=_("internet tables: use this self-hosted iroh relay (repeatable; "
                          "default: n0's public relays)"))
    p.add_argument("--no-relay", action="store_true",
                   help=_("internet tables: direct links only, no relay"))
    p.add_argument("--code", metavar="CODE",
                   help=_("the table code shown on the opener's screen"))
    p.add_argument("--interface", action="append", metavar="ADDR", default=[],
                   help=_("use only this IPv4 address (repeatable; env P2PCLUE_INTERFACES)"))
    p.add_argument("--profile", default=DEFAULT_PROFILE, metavar="NAME",
                   help=_("a separate identity and game folder (several players on one "
                          "machine)"))
    p.add_argument("--wait", type=argtypes.seconds, default=30.0, metavar="SECONDS",
                   help=_("how long to wait for the table to appear (default 30)"))
    p.add_argument("--transcript", type=argtypes.new_file, metavar="PATH",
                   help=_("save the transcript here (default: in the profile's game folder)"))
    p.add_argument("--quiet", action="store_true", help=_("print only the result"))


def register(subparsers: Subcommands) -> None:
    p = subparsers.add_parser(
        "join", help=_("find or open a table on this LAN and play a verified game"),
        description=_("Find a table on this LAN (zeroconf) or open one, sit down and play a "
                      "verified game with no server."))
    p.set_defaults(func=run_join)
    subparsers.later("join", join_arguments)
    w = subparsers.add_parser(
        "watch", help=_("watch a table's game as a spectator (verifies every message)"),
        description=_("Join a table as a spectator: every message is verified as it arrives, "
                      "the game is told in plain words, and the transcript is saved."))
    w.set_defaults(func=run_watch)
    subparsers.later("watch", watch_arguments)


def join_arguments(p: argparse.ArgumentParser) -> None:
    from p2pclue.bots.registry import BOTS, DEFAULT_LEVEL, LEVEL_NAMES

    _common(p, _("the table's name (join it by name; with --create, the name of the new "
                 "table)"))
    p.add_argument("--create", action="store_true", help=_("open a new table"))
    p.add_argument("--internet", action="store_true",
                   help=_("with --create: open an internet table (iroh), joined by ticket"))
    p.add_argument("--resume", nargs="?", const="", metavar="GAME",
                   help=_("resume an unfinished game after a crash (the newest, or GAME as "
                          "listed by 'join --resume list')"))
    p.add_argument("--name", help=_("the name other players see"))
    p.add_argument("--rules", default="classic", choices=("classic", "cz"),
                   help=_("the rules: classic, or cz (the Czech edition's)"))
    p.add_argument("--players", type=int, choices=range(3, 7), metavar="3..6",
                   help=_("seats at a new table (default 4; with --bots K, K + 1 and at "
                          "least 3, so the game starts once the bots sit down)"))
    p.add_argument("--no-code", action="store_true",
                   help=_("a table without a code, for a trusted home network"))
    p.add_argument("--bot", choices=sorted(BOTS), help=_("play this seat as a bot"))
    p.add_argument("--bots", type=int, default=0, metavar="K",
                   help=_("with --create: seat K local bot players too (own keys, own links)"))
    p.add_argument("--json", action="store_true",
                   help=_("end with one JSON line (as simulate --json, plus the transcript "
                          "path)"))
    p.add_argument("--plain", action="store_true", help=_("plain text output, no screen"))
    p.add_argument("--level", choices=LEVEL_NAMES, default=DEFAULT_LEVEL,
                   help=_("how well the --bots play against you (default {level})").format(
                       level=DEFAULT_LEVEL))
    # the pause of a --bots bot before it acts (tests set 0)
    p.add_argument("--bot-think", type=float, default=0.8, help=argparse.SUPPRESS)
    # how long a person's automatic "cannot refute" is held, in seconds (default 1-3 s, drawn
    # like a person's pick; only this seat's own timing is at stake; tests set it short)
    p.add_argument("--pass-delay", type=float, default=None, help=argparse.SUPPRESS)
    # for ``bench --only lan`` and ``faults``: what happened here, when (wall clock), as JSON
    p.add_argument("--timing", type=Path, help=argparse.SUPPRESS)


def watch_arguments(w: argparse.ArgumentParser) -> None:
    _common(w, _("the table's name (watch it by name)"))
    w.add_argument("--name", help=_("the name the players see (default: spectator)"))


def run_join(args: argparse.Namespace) -> int:
    from p2pclue.cli.join import run_join

    return run_join(args)


def run_watch(args: argparse.Namespace) -> int:
    from p2pclue.cli.join import run_watch

    return run_watch(args)
