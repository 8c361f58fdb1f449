"""``p2pclue simulate``: a whole game of bots through the real protocol, in one process.

Every seat is a full engine peer with its own secrets; frames travel through the
in-memory network; nobody deals, nobody is trusted. ``--cheat`` makes one seat
deviate, and the run then ends with that seat blamed (exit status 3); a cheat run in
which the cheat never happened says so and exits with status 4.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from p2pclue.bots.protocol import make_config, play
from p2pclue.bots.registry import BOTS, DEFAULT_BOT
from p2pclue.cli.narrate import Narrator
from p2pclue.engine import events as ev
from p2pclue.engine.cheats import CHEATS, PHASED, impossible
from p2pclue.engine.peer import Status
from p2pclue.rules.variants import preset

EXIT_HALTED = 3
EXIT_CHEAT_MISSED = 4


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "simulate", help="play a whole game of bots through the real protocol",
        description="Play a whole game of bots, each a full protocol peer with its own "
                    "secrets, through the real cryptography, in one process.",
        epilog="Exit status: 0 a finished game; 1 abandoned; 2 bad arguments; 3 halted with "
               "a seat blamed (what a cheat run should end with); 4 the cheat never happened.",
    )
    p.add_argument("--players", type=int, default=4, choices=range(3, 7), metavar="3..6")
    p.add_argument("--rules", default="classic", choices=("classic", "cz"))
    p.add_argument("--seed", type=int, help="reproduce a game (default: a random seed)")
    p.add_argument("--bot", default=DEFAULT_BOT, choices=sorted(BOTS), help="which bots play")
    p.add_argument("--transcript", type=Path, metavar="PATH", help="write the transcript here")
    p.add_argument("--json", action="store_true", help="end with one JSON line of the result")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.add_argument("--cheat", choices=sorted(CHEATS), metavar="KIND",
                   help="make one seat cheat (see --list-cheats)")
    p.add_argument("--cheater", type=int, default=1, metavar="SEAT", help="the cheating seat")
    p.add_argument("--cheat-phase", metavar="PHASE",
                   help="where a cheat possible at several points happens: " + "; ".join(
                       f"{k}: {'/'.join(v)}" for k, v in PHASED.items()))
    p.add_argument("--list-cheats", action="store_true", help="list the cheat kinds and exit")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.list_cheats:
        for kind in CHEATS:
            print(kind)
        return 0
    if args.cheat is not None and not 0 <= args.cheater < args.players:
        print(f"p2pclue simulate: --cheater must be a seat from 0 to {args.players - 1}",
              file=sys.stderr)
        return 2
    if args.cheat_phase is not None and args.cheat_phase not in PHASED.get(args.cheat, ()):
        print(f"p2pclue simulate: --cheat-phase {args.cheat_phase!r} does not apply to "
              f"--cheat {args.cheat}", file=sys.stderr)
        return 2
    why_not = impossible(args.cheat, args.cheat_phase, preset(args.rules)) if args.cheat else None
    if why_not is not None:
        print(f"p2pclue simulate: --cheat {args.cheat} cannot happen: {why_not}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"p2pclue simulate: {args.players} players, rules {args.rules}, bots {args.bot}, "
          f"seed {seed}" + (f", seat {args.cheater} cheats ({args.cheat})" if args.cheat else ""))
    narrator: Narrator | None = None
    watch = 1 if args.cheat is not None and args.cheater == 0 else 0

    def tell(seat: int, event: ev.Event) -> None:
        if seat == watch and narrator is not None and not args.quiet:
            for line in narrator.lines(event):
                print(line)

    narrator = Narrator(make_config(preset(args.rules), args.players, seed)[0])
    game = play(preset(args.rules), args.players, seed, BOTS[args.bot],
                cheat=args.cheat, cheater=args.cheater if args.cheat else None,
                cheat_phase=args.cheat_phase, watch=watch, on_event=tell)
    peer = game.peers[watch]
    raw = peer.transcript().to_bytes()
    if args.transcript is not None:
        args.transcript.write_bytes(raw)
        print(f"transcript: {args.transcript} ({len(raw)} bytes, {len(peer.entries)} messages)")
    state = peer.rules_state
    blame = peer.blame
    if peer.status is Status.HALTED and blame is not None:
        who = "nobody" if blame.culprit is None else f"seat {blame.culprit}"
        print(f"halted: {who} blamed ({blame.check}): {blame.reason}")
        result = "halted"
    elif peer.status is Status.COMPLETE and state is not None:
        result = state.result or "nobody"
    else:
        print("the game did not finish: a peer fell silent", file=sys.stderr)
        result = "abandoned"
    if args.json:
        print(json.dumps({
            "result": result,
            "winner": state.winner if state is not None and result == "won" else None,
            "blamed": blame.culprit if blame is not None else None,
            "reason": f"{blame.check}: {blame.reason}" if blame is not None else None,
            "turns": state.turn_number if state is not None else 0,
            "rules": args.rules,
            "players": args.players,
            "seed": seed,
            "bot": args.bot,
            "messages": len(peer.entries),
            "transcript_bytes": len(raw),
            "transcript_sha256": hashlib.sha256(raw).hexdigest(),
        }, sort_keys=True))
    if args.cheat is not None and not getattr(game.peers[args.cheater], "cheated", False):
        print(f"the cheat never happened: seat {args.cheater} never had the chance to "
              f"{args.cheat} ({result})")
        return EXIT_CHEAT_MISSED
    if result == "halted":
        return EXIT_HALTED
    return 0 if result in ("won", "nobody") else 1
