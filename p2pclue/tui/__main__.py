"""``python -m p2pclue.tui``: play now against bots on this machine (no network).

    python -m p2pclue.tui --bots 2 [--plain] [--seed N] [--players 3..6] [--rules classic|cz]
                          [--lang it|ko|fr|sq|cs|en]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from p2pclue.bots.registry import BOTS, DEFAULT_BOT
from p2pclue.i18n import LocalizedArgumentParser, _, add_lang_option, apply_language, prescan_lang
from p2pclue.net.local import FAST, LocalSession, Pace
from p2pclue.rules.variants import preset
from p2pclue.tui import run_ui


def build_parser() -> argparse.ArgumentParser:
    p = LocalizedArgumentParser(
        prog="python -m p2pclue.tui",
        description=_("Play Clue in this terminal against bots, every seat a real protocol "
                      "peer."))
    p.add_argument("--bots", type=int, choices=range(2, 6), metavar="2..5",
                   help=_("how many bots sit at the table (default: players - 1)"))
    p.add_argument("--players", type=int, choices=range(3, 7), metavar="3..6",
                   help=_("players in all, you included (default: bots + 1, else 3)"))
    p.add_argument("--rules", default="classic", choices=("classic", "cz"))
    p.add_argument("--seed", type=int,
                   help=_("reproduce a table (default: fresh randomness)"))
    p.add_argument("--bot", default=DEFAULT_BOT, choices=sorted(BOTS),
                   help=_("which bots play"))
    p.add_argument("--seat", type=int, default=0, help=_("your seat (0 = first)"))
    p.add_argument("--plain", action="store_true", help=_("line by line: no full screen"))
    p.add_argument("--fast", action="store_true", help=_("bots act without pauses"))
    p.add_argument("--transcripts", type=Path, metavar="DIR",
                   help=_("where to save the transcript (default: the user data folder)"))
    add_lang_option(p, top_level=True)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    apply_language(prescan_lang(argv))
    args = build_parser().parse_args(argv)
    players = args.players or ((args.bots + 1) if args.bots else 3)
    if args.bots is not None and args.bots != players - 1:
        print(_("python -m p2pclue.tui: --bots {bots} and --players {players} disagree "
                "(one seat is yours)").format(bots=args.bots, players=players), file=sys.stderr)
        return 2
    if not 0 <= args.seat < players:
        print(_("python -m p2pclue.tui: --seat must be 0 to {last}").format(last=players - 1),
              file=sys.stderr)
        return 2

    async def play() -> int:
        session = LocalSession(preset(args.rules), players, seed=args.seed, seat=args.seat,
                               bot=args.bot, pace=FAST if args.fast else Pace(),
                               transcript_dir=args.transcripts)
        return await run_ui(session, plain=args.plain)

    try:
        return asyncio.run(play())
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
