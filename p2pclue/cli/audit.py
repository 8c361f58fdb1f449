"""``p2pclue audit``: check a finished (or halted) game from its transcript alone.

Exit status: 0 valid; 1 a violation (the first failing message and the culprit are
printed); 2 not a readable transcript.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from p2pclue.cli.narrate import Narrator
from p2pclue.engine.audit import Verdict, audit
from p2pclue.engine.errors import TranscriptError
from p2pclue.engine.transcript import parse

EXIT_VALID, EXIT_VIOLATION, EXIT_UNREADABLE = 0, 1, 2


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "audit",
        help="verify a game transcript: signatures, proofs, rules, result",
        description="Verify every signature, the hash chain, every proof, every rule, every "
                    "dice value and accusation, and (after the end-of-game reveal) every hand "
                    "and shown card. Exit 0: valid; 1: a violation; 2: not a transcript.",
    )
    p.add_argument("transcript", type=Path, help="path of the transcript file")
    p.add_argument("--json", action="store_true", help="print a machine-readable verdict")
    p.add_argument("--replay", action="store_true", help="tell the game turn by turn")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        raw = args.transcript.read_bytes()
    except OSError as exc:
        print(f"p2pclue audit: cannot read {args.transcript}: {exc.strerror}", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        transcript = parse(raw)
    except TranscriptError as exc:
        print(f"p2pclue audit: {args.transcript} is not a readable transcript: {exc}",
              file=sys.stderr)
        return EXIT_UNREADABLE
    verdict = audit(transcript, raw)
    if args.replay:
        _replay(verdict, transcript.config)
    if args.json:
        print(json.dumps(verdict.to_json(), sort_keys=True))
    else:
        _summary(verdict)
    return EXIT_VALID if verdict.valid else EXIT_VIOLATION


def _replay(verdict: Verdict, config: Any) -> None:
    shown = [card for _, card in verdict.shown] if verdict.shown is not None else None
    narrator = Narrator(config, shown_cards=shown, hands=verdict.hands)
    for event in verdict.events:
        for line in narrator.lines(event):
            print(line)


def _summary(v: Verdict) -> None:
    names = ", ".join(f"{p['seat']}: {p['name']}" for p in v.players)
    print(f"transcript {v.transcript_sha256[:16]}...: {v.entries} messages, players {names}")
    if v.violation is not None:
        x = v.violation
        who = "nobody can be blamed (the file itself is damaged or forged)" \
            if x.culprit is None else f"culprit: seat {x.culprit}"
        sender = "?" if x.sender is None else str(x.sender)
        print(f"VIOLATION at message {x.index} (sender {sender}): {x.check}: {x.reason}")
        print(f"  {who}")
    for note in v.notes:
        print(f"  note: {note}")
    if v.valid:
        outcome = {"won": f"seat {v.winner} won", "nobody": "nobody won",
                   "abandoned": "abandoned before the end"}.get(v.result, v.result)
        print(f"VALID: {outcome} after {v.turns} turns; every signature, proof and rule checked")
