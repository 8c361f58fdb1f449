"""``p2pclue simulate``: a whole game of bots through the real protocol, in one process.

Every seat is a full engine peer with its own secrets; frames travel through the
in-memory network; nobody deals, nobody is trusted. ``--cheat`` makes one seat
deviate, and the run then ends with that seat blamed (exit status 3); a cheat run in
which the cheat never happened says so and exits with status 4.

The transcript (``--transcript``) is checked before the game starts and written
as the game goes, so an interrupted run keeps every message played so far.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from p2pclue.bots.protocol import make_config, play
from p2pclue.bots.registry import BOTS
from p2pclue.cli.narrate import Narrator
from p2pclue.cli.result import result_object
from p2pclue.cli.terminal import ProgressLine, Style, wants_colour
from p2pclue.engine import events as ev
from p2pclue.engine.cheats import CHEATS, PHASED, impossible
from p2pclue.engine.config import GameConfig
from p2pclue.engine.peer import Peer, Status
from p2pclue.i18n import N_, _, listing, ngettext, player_word, rules_label
from p2pclue.i18n.players import bot_level, level_word
from p2pclue.net.store import StoreError, TranscriptFile, check_new
from p2pclue.rules.variants import preset

EXIT_HALTED = 3
EXIT_USAGE = 2
EXIT_CHEAT_MISSED = 4
DEAL_ROUNDS = ("join", "keys", "envelope", "deal", "unlayer", "reveal")
DEAL_WORDS = {
    # Translators: what a player is doing while the cards are dealt, after "{player} is".
    "join": N_("joining the table"),
    "keys": N_("making a key and proving it"),
    "envelope": N_("shuffling the envelope cards and proving it"),
    "deal": N_("shuffling the deck and proving it"),
    "unlayer": N_("unlocking the other players' cards and proving it"),
    "reveal": N_("drawing the weapons' places together"),
}


def run(args: argparse.Namespace) -> int:
    if args.list_cheats:
        for kind in CHEATS:
            print(kind)
        return 0
    problem = _cheat_options_problem(args)
    if problem is not None:
        sys.stderr.write(args.usage())
        print(_("p2pclue simulate: error: {problem}").format(problem=problem), file=sys.stderr)
        return EXIT_USAGE
    cheater = (1 if args.cheater is None else args.cheater) if args.cheat else None
    why_not = impossible(args.cheat, args.cheat_phase, preset(args.rules)) if args.cheat else None
    if why_not is not None:
        print(_("p2pclue simulate: --cheat {cheat} cannot happen: {reason}").format(
            cheat=args.cheat, reason=why_not), file=sys.stderr)
        return EXIT_USAGE
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rules = preset(args.rules)
    config = make_config(rules, args.players, seed)[0]
    store: TranscriptFile | None = None
    if args.transcript is not None:
        try:
            check_new(Path(args.transcript))
            store = TranscriptFile.create(Path(args.transcript), config)
        except StoreError as exc:
            print(_("p2pclue simulate: {error}").format(error=exc), file=sys.stderr)
            return EXIT_USAGE
    try:
        return _play(args, seed, cheater, config, store)
    except StoreError as exc:
        print(_("p2pclue simulate: the transcript could not be written: {error}").format(
            error=exc), file=sys.stderr)
        return EXIT_USAGE
    finally:
        if store is not None:
            store.abandon()  # a no-op once closed; keeps what was written if we stopped early


def _cheat_options_problem(args: argparse.Namespace) -> str | None:
    """Options that only mean something with --cheat are usage errors without it."""
    if args.cheat is None:
        stray = [name for name, value in (("--cheater", args.cheater),
                                          ("--cheat-phase", args.cheat_phase))
                 if value is not None]
        if stray:
            return ngettext("{options} only applies with --cheat KIND",
                            "{options} only apply with --cheat KIND",
                            len(stray)).format(options=listing(stray))
        return None
    if args.cheater is not None and not 0 <= args.cheater < args.players:
        return _("--cheater must be a seat from 0 to {last}").format(last=args.players - 1)
    phases = PHASED.get(args.cheat, ())
    if args.cheat_phase is not None and args.cheat_phase not in phases:
        choices = (_("one of {phases}").format(phases=", ".join(phases)) if phases
                   else _("it has no phases"))
        return _("--cheat-phase {phase!r} does not apply to --cheat {kind} ({choices})").format(
            phase=args.cheat_phase, kind=args.cheat, choices=choices)
    return None


def _play(args: argparse.Namespace, seed: int, cheater: int | None, config: GameConfig,
          store: TranscriptFile | None) -> int:
    quiet = args.quiet
    style = Style(wants_colour(sys.stdout))
    if not quiet:
        fields = {"players": args.players, "rules": rules_label(args.rules),
                  "bot": level_word(bot_level(args.bot)), "seed": seed,
                  "cheater": player_word(config.players[cheater].name) if cheater is not None
                  else "",
                  "seat": cheater, "kind": args.cheat}
        print((ngettext("p2pclue simulate: {players} player, each a {bot}; rules {rules}; "
                        "seed {seed}; {cheater} (seat {seat}) will cheat ({kind})",
                        "p2pclue simulate: {players} players, each a {bot}; rules {rules}; "
                        "seed {seed}; {cheater} (seat {seat}) will cheat ({kind})",
                        args.players) if cheater is not None
               else ngettext("p2pclue simulate: {players} player, each a {bot}; rules {rules}; "
                             "seed {seed}",
                             "p2pclue simulate: {players} players, each a {bot}; rules "
                             "{rules}; seed {seed}", args.players)).format(**fields))
    narrator = Narrator(config, style=style)
    if not quiet:
        for line in narrator.introduction():
            print(line)
    watch = 1 if cheater == 0 else 0
    progress = ProgressLine(sys.stderr)
    progress.enabled = progress.enabled and not quiet
    peers: list[Peer] = []
    dealing = [True]

    def tell(seat: int, event: ev.Event) -> None:
        if seat != watch:
            return
        if isinstance(event, ev.Accepted):
            if store is not None:
                while store.entries <= event.index:
                    store.append(peers[watch].entries[store.entries])
            if dealing[0]:
                progress.show(_deal_progress(event, config))
            return
        if dealing[0] and not isinstance(event, ev.HandDealt):
            dealing[0] = False
            progress.clear()
        lines = list(narrator.lines(event))
        if quiet and not isinstance(event, ev.GameOver | ev.Halted):
            return
        for line in lines:
            print(line, flush=True)

    try:
        if not quiet:
            progress.show(_("Dealing the cards: every player shuffles and proves it..."))
        game = play(preset(args.rules), args.players, seed, BOTS[args.bot],
                    cheat=args.cheat, cheater=cheater, cheat_phase=args.cheat_phase,
                    watch=watch, on_event=tell, on_peers=peers.extend)
    finally:
        progress.clear()
    for line in narrator.flush():
        if not quiet:
            print(line)
    peer = game.peers[watch]
    transcript = peer.transcript()
    raw = transcript.to_bytes()
    if store is not None:
        store.close(transcript.footer)
        if not quiet:
            print(ngettext("Transcript: {path} ({size} bytes, {count} message); check it with: "
                           "p2pclue audit {path}",
                           "Transcript: {path} ({size} bytes, {count} messages); check it with: "
                           "p2pclue audit {path}", len(peer.entries)).format(
                path=store.path, size=len(raw), count=len(peer.entries)))
    missed = cheater is not None and not getattr(game.peers[cheater], "cheated", False)
    return _result(args, peer, seed, raw, quiet, cheater if missed else None)


def _deal_progress(accepted: ev.Accepted, config: GameConfig) -> str:
    """What the table is working on after ``accepted``: the next seat's message.

    The deal is rounds of one message per seat in seat order; the last round (drawing
    the weapons' places) exists only with WEAPONS-RANDOM.
    """
    n = config.n_players
    rounds = len(DEAL_ROUNDS) if config.rules.weapons_random else len(DEAL_ROUNDS) - 1
    step = min(accepted.index + 2, n * rounds)
    kind = DEAL_ROUNDS[min((step - 1) // n, rounds - 1)]
    seat = (step - 1) % n
    return _("Dealing the cards, step {step} of {steps}: {player} is {doing}...").format(
        step=step, steps=n * rounds, player=player_word(config.players[seat].name),
        doing=_(DEAL_WORDS[kind]))


def _result(args: argparse.Namespace, peer: Peer, seed: int, raw: bytes,
            quiet: bool, missed_cheater: int | None) -> int:
    state = peer.rules_state
    blame = peer.blame
    if peer.status is Status.HALTED and blame is not None:
        result = "halted"
    elif peer.status is Status.COMPLETE and state is not None:
        result = state.result or "nobody"
    else:
        print(_("The game did not finish: a player fell silent."), file=sys.stderr)
        result = "abandoned"
    if args.json:
        print(json.dumps(result_object(
            result=result, state=state, blame=blame, rules=args.rules, players=args.players,
            seed=seed, bot=args.bot, messages=len(peer.entries), raw=raw), sort_keys=True))
    if missed_cheater is not None:
        print(_("the cheat never happened: seat {seat} never had the chance to {cheat} "
                "({result})").format(seat=missed_cheater, cheat=args.cheat, result=result))
        return EXIT_CHEAT_MISSED
    if result == "halted":
        return EXIT_HALTED
    return 0 if result in ("won", "nobody") else 1
