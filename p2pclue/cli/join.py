"""``p2pclue join`` and ``p2pclue watch``: play or watch a verified game on this LAN.

``join --create`` opens a table (announced with zeroconf, private behind a table code
unless ``--no-code``); ``join --table NAME`` (or ``join`` alone: pick from the tables
found) joins one; ``--peer HOST:PORT`` skips multicast. Without ``--bot`` a person plays
the seat on screen (``cli.human``); ``--bot`` plays it as a bot and ``--bots K`` seats K
more bot peers in this process, each with its own keys and links.
The lobby and the game logic live in ``p2pclue.net``; this module only prints.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from p2pclue.bots.protocol import BOT_NAMES
from p2pclue.bots.registry import BOTS
from p2pclue.cli import internet
from p2pclue.cli.human import BotFailed, LocalBots
from p2pclue.cli.narrate import Narrator
from p2pclue.cli.result import result_object
from p2pclue.cli.testseed import bot_random, seed_of
from p2pclue.crypto.group import MULT_COUNTER
from p2pclue.engine import events as ev
from p2pclue.engine.config import MAX_NAME_CHARS, MIN_PLAYERS, table_check
from p2pclue.i18n import (
    _,
    card_word,
    check_words,
    default_table_name,
    ngettext,
    os_error_line,
    outcome_word,
    player_word,
    roster_name,
    rules_label,
    seats,
)
from p2pclue.i18n.players import bot_level, spectator_word
from p2pclue.net import api, discovery, guesses, links, runner
from p2pclue.net.botplay import drive_bot, follow, is_private
from p2pclue.net.gamedir import unfinished_games
from p2pclue.net.lobby import LobbyError, LobbyView, check_name
from p2pclue.net.pairing import new_table_code
from p2pclue.net.play import (
    CodeNeeded,
    NoTable,
    Opened,
    Seat,
    WrongTableCode,
    bot_transport,
    join_table,
    open_table,
    parse_peer,
    resume_game,
)
from p2pclue.net.profile import (
    MAX_PROFILE_CHARS,
    ProfileError,
    bot_profile_name,
    check_profile_name,
    load,
)
from p2pclue.net.session import NetSession
from p2pclue.net.store import StoreError, check_new
from p2pclue.net.table import TableClosed
from p2pclue.rules.variants import preset
from p2pclue.tui.text import wrap

if TYPE_CHECKING:
    from p2pclue.tui.lobby import LineFeed

EXIT_HALTED = 3
DEFAULT_PLAYERS = 4
EXIT_USAGE = 2
"""How a game ended, as people read it (the status codes in --json stay English)."""


class UsageError(Exception):
    pass


# ---- entry points ---------------------------------------------------------------------


def run_join(args: argparse.Namespace) -> int:
    def play() -> int:
        wrong = internet.problem(args)
        if wrong is not None:
            raise UsageError(wrong)
        if args.resume is not None:
            return runner.run(_resume(args))
        _check_join(args)
        if args.bot is None:
            return _run_human(args)
        return runner.run(_join(args))

    return _guarded("join", play)


def run_watch(args: argparse.Namespace) -> int:
    def watch() -> int:
        wrong = internet.problem(args)
        if wrong is not None:
            raise UsageError(wrong)
        if args.peer and not args.table:
            raise UsageError(_("--peer needs --table NAME (the name on the opener's screen)"))
        _check_table(args)
        if getattr(args, "transcript", None) is not None:
            check_new(args.transcript)
        return runner.run(_watch(args))

    return _guarded("watch", watch)


def _guarded(command: str, run: Callable[[], int]) -> int:
    """Every failure people can cause or meet (usage, network, disk) is one line, exit 2."""
    try:
        return run()
    except BotFailed as exc:
        print((_("p2pclue join: {error}") if command == "join"
               else _("p2pclue watch: {error}")).format(error=exc), file=sys.stderr)
        return exc.status
    except (UsageError, NoTable, TableClosed, LobbyError, ProfileError, StoreError,
            links.LinkError, discovery.DiscoveryError, OSError) as exc:
        line = (_("p2pclue join: {error}") if command == "join"
                else _("p2pclue watch: {error}"))
        error = os_error_line(exc) if isinstance(exc, OSError) else exc
        print(line.format(error=error), file=sys.stderr)
        return EXIT_USAGE


def _check_join(args: argparse.Namespace) -> None:
    if args.players is None:
        args.players = max(MIN_PLAYERS, args.bots + 1) if args.bots else DEFAULT_PLAYERS
    if args.bots and not args.create:
        raise UsageError(_("--bots seats bots at a table you open: add --create"))
    if not 0 <= args.bots <= args.players - 1:
        raise UsageError(ngettext("--bots must be 0 to {most} for {players} player",
                                  "--bots must be 0 to {most} for {players} players",
                                  args.players).format(most=args.players - 1,
                                                       players=args.players))
    if args.no_code and args.code:
        raise UsageError(_("--code and --no-code exclude each other"))
    if args.peer and args.create:
        raise UsageError(_("--peer joins a table; --create opens one"))
    if args.peer and not args.table:
        raise UsageError(_("--peer needs --table NAME (the name on the opener's screen)"))
    if args.name is not None and not (0 < len(args.name) <= MAX_NAME_CHARS
                                      and args.name.isprintable()):
        raise UsageError(_("--name is 1-{most} printable characters").format(
            most=MAX_NAME_CHARS))
    if getattr(args, "transcript", None) is not None:
        try:  # before the table is opened or joined, not once the game is under way
            check_new(args.transcript)
        except StoreError as exc:
            raise UsageError(str(exc)) from None
    _check_table_and_profile(args)
    if args.timing is not None:
        _check_writable(args.timing, "--timing")


def _check_table(args: argparse.Namespace) -> None:
    """A table's name, checked by the rule every guest applies, before anything opens."""
    if args.table is not None:
        try:
            check_name(args.table)
        except LobbyError:
            raise UsageError(_("--table is 1-{most} printable characters: {name}").format(
                most=MAX_NAME_CHARS, name=repr(args.table))) from None


def _check_table_and_profile(args: argparse.Namespace) -> None:
    """Before anything opens: the table's name, and the bots' profiles (``PROFILE.botK``)
    must be valid profile names."""
    _check_table(args)
    check_profile_name(args.profile)
    if args.bots:
        last = bot_profile_name(args.profile, args.bots - 1)
        try:
            check_profile_name(last)
        except ProfileError:
            most = MAX_PROFILE_CHARS - (len(last) - len(args.profile))
            raise UsageError(ngettext(
                "--profile {name} is too long for its bots' profiles ({bot}): with --bots, "
                "use a profile name of at most {most} character",
                "--profile {name} is too long for its bots' profiles ({bot}): with --bots, "
                "use a profile name of at most {most} characters", most).format(
                name=repr(args.profile), bot=repr(last), most=most)) from None


def _check_writable(path: Path, option: str) -> None:
    """A file written at the end of a game can be written: said before the game."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise UsageError(_("{option} {path} is a folder; give a file name").format(
            option=option, path=path))
    if (path.exists() and not os.access(path, os.W_OK)) or not folder.is_dir() \
            or not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(_("{option} {path} cannot be written; give a file in a folder you "
                           "can write to").format(option=option, path=path))


def _run_human(args: argparse.Namespace) -> int:
    """A person plays this seat: the lobby and the table on screen (``cli.human``)."""
    from p2pclue.cli.human import ask_first, play_human

    if args.peer:
        try:
            parse_peer(args.peer)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    try:
        asked = ask_first(args)
        if isinstance(asked, int):
            return asked
        return runner.run(play_human(args, _environ(), asked))
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr)
        return 130


class Printer:
    """Narration: to stdout, or to stderr when stdout is kept for the JSON result."""

    def __init__(self, quiet: bool, to_stderr: bool = False) -> None:
        self.quiet = quiet
        self.away: set[tuple[str, bool]] = set()
        """Who was seen leaving the links (name, spectator): their next arrival reads "is
        back"."""
        self.here: set[tuple[str, bool]] = set()
        """Who was told "is here" (each of their links comes up: one arrival to tell)."""
        self.stream = sys.stderr if to_stderr else sys.stdout

    def __call__(self, line: str) -> None:
        if self.quiet:
            return
        if self.stream.isatty():  # wrapped between words, never by the terminal mid-word
            width = shutil.get_terminal_size().columns
            indent = " " * (len(line) - len(line.lstrip(" ")) + 3)
            line = "\n".join(wrap(line, max(20, width - 1), indent))
        print(line, file=self.stream, flush=True)


# ---- join -----------------------------------------------------------------------------


async def _join(args: argparse.Namespace) -> int:
    say = Printer(args.quiet, to_stderr=args.json)
    profile = load(args.profile)
    interfaces = discovery.interfaces(args.interface, _environ())
    name = args.name or (roster_name(BOT_NAMES[0], bot_level(args.bot)) if args.bot
                         else profile.name)
    seat = Seat(profile, name, interfaces=interfaces, test_seed=seed_of(),
                **internet.options(args))
    say(_("you are {name}; your key's fingerprint: {key}").format(
        name=player_word(name), key=discovery.fingerprint(profile.public)))
    _offer_resume(profile.games, say)
    views = _view_printer(say)
    bots = LocalBots()
    if args.create:
        table_name = args.table or default_table_name(name)
        code = None if args.no_code else (args.code or new_table_code())
        opened_at: list[Opened] = []

        def opened(o: Opened) -> None:
            opened_at.append(o)
            if o.ticket is not None:
                _say_ticket(o, say)
            for k in range(args.bots if o.ticket is not None else 0):
                bots.add(k, bot_profile_name(args.profile, k), _bot_guest(
                    args, k, o, table_name, interfaces))
            if o.ticket is not None:
                return
            address = o.address
            say((_("table {name} open at {address}; table code: {code}") if o.code
                 else _("table {name} open at {address} (no code)")).format(
                name=repr(o.name), address=address, code=o.code))
            if o.announce_error:
                say(_("could not announce it on the LAN ({error}); others can join with "
                      "--peer {address} --table {name}").format(
                    error=o.announce_error, address=address, name=repr(o.name)))
            command = f"p2pclue join --table {o.name!r}" + (f" --code {o.code}" if o.code
                                                             else "")
            say(_("others join with: {command}  (or --peer {address})").format(
                command=command, address=address))
            for k in range(args.bots):
                bots.add(k, bot_profile_name(args.profile, k), _bot_guest(
                    args, k, o, table_name, interfaces))

        session = await bots.guard(open_table(
            seat, table_name, preset(args.rules), args.players, code, on_opened=opened,
            on_view=views, transcript=args.transcript, internet=args.internet,
            on_code=lambda o: say(guesses.code_news(None if o.entry_closed else o.code)),
            own_bots=args.bots > 0))
    else:
        table_name, host, port, opener = await _locate(args, interfaces, say)
        session = await join_table(seat, table_name, host, port, args.code, on_view=views,
                                   transcript=args.transcript, wait=args.wait, opener=opener)
    say(_("the game starts; table check: {check} (compare it aloud: every screen shows the "
          "same)").format(check=table_check(session.config)))
    ended = await bots.guard(_play(session, args, say))
    await bots.finish()
    return _report(session, ended, args)


async def _resume(args: argparse.Namespace) -> int:
    """``join --resume [GAME]``: rebuild an unfinished game from its directory and play on."""
    say = Printer(args.quiet, to_stderr=args.json)
    profile = load(args.profile)
    skipped: list[str] = []
    games = unfinished_games(profile.games, skipped)
    for note in skipped:  # a game folder holding a pipe, a device or a huge file
        print(note, file=sys.stderr)
    if args.resume == "list":
        for g in games:
            print(f"{g.name}  {g.path}")
        if not games:  # an empty list is no error, but silence reads as one (wrong --profile?)
            print(_("no unfinished game in {folder}").format(folder=profile.games),
                  file=sys.stderr)
        return 0
    chosen = [g for g in games if not args.resume or g.name.startswith(args.resume)]
    if not chosen:
        raise UsageError((_("no unfinished game {game} in {folder}") if args.resume
                          else _("no unfinished game in {folder}")).format(
            game=repr(args.resume), folder=profile.games))
    if args.bot is None:  # a person's seat: the table's UI on the resumed session
        from p2pclue.cli.human import resume_human

        return await resume_human(args, _environ(), chosen[0])
    interfaces = discovery.interfaces(args.interface, _environ())
    saved = chosen[0].load_start()
    me = next((p for p in saved.start.config.players if p.identity == profile.public), None)
    if me is None:  # as for a person's seat (cli.human.resume_human)
        raise TableClosed(_("this game directory is not one of this profile's seats"))
    seat = Seat(profile, args.name or me.name, interfaces=interfaces,
                **internet.options(args))
    say(_("resuming game {game} from {path}").format(game=chosen[0].name, path=chosen[0].path))
    session = await resume_game(seat, chosen[0])
    say(ngettext("replayed {count} message; reconnecting to the table",
                 "replayed {count} messages; reconnecting to the table",
                 len(session.peer.entries)).format(count=len(session.peer.entries)))
    ended = await _play(session, args, say)
    return _report(session, ended, args)


def _offer_resume(profile_games: Path, say: Printer) -> None:
    games = unfinished_games(profile_games)
    if games:
        say(_("an unfinished game can be resumed: p2pclue join --resume {game} (all: "
              "p2pclue join --resume list)").format(game=games[0].name))


async def _locate(args: argparse.Namespace, interfaces: list[str],
                  say: Printer) -> tuple[str, str, int, str | None]:
    """Where the table is, and its opener's key fingerprint when a record said it (a table
    is its opener's key: another key answering there is not that table)."""
    if args.peer:
        try:
            host, port = parse_peer(args.peer)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        return args.table, host, port, None
    if args.ticket:
        ticket = internet.ticket(args)
        return ticket.table, ticket.reach.text(), 1, discovery.fingerprint(ticket.reach.key)
    from p2pclue.net.play import find_table

    say((_("looking for the table {name} on the LAN (up to {seconds} s)...") if args.table
         else _("looking for a table on the LAN (up to {seconds} s)...")).format(
        name=repr(args.table), seconds=f"{args.wait:g}"))
    ad = await find_table(interfaces, args.table, args.wait)
    say(_("found {name} at {address} ({rules}, {seats}, opener's key {key})").format(
        name=repr(ad.name), address=f"{ad.host}:{ad.port}", rules=rules_label(ad.preset),
        seats=seats(ad.seats_taken, ad.seats_wanted), key=ad.fingerprint))
    return ad.name, ad.host, ad.port, ad.fingerprint


def _say_ticket(o: Opened, say: Printer) -> None:
    """An internet table: the ticket and the code, each on a line of its own."""
    say(_("internet table {name} open; table code: {code}").format(
        name=repr(o.name), code=o.code) if o.code
        else _("internet table {name} open (no code)").format(name=repr(o.name)))
    say(_("ticket: {ticket}").format(ticket=o.ticket))
    say(_("others join with: {command}").format(
        command=f"p2pclue join --ticket {o.ticket}" + (f" --code {o.code}" if o.code else "")))


async def _bot_guest(args: argparse.Namespace, k: int, o: Opened, table_name: str,
                     interfaces: list[str]) -> tuple[NetSession, api.Ended]:
    """A bot of the opener's (``--bots``): through the opener's door, with no code guessed."""
    profile = load(bot_profile_name(args.profile, k))
    seat = Seat(profile, roster_name(BOT_NAMES[(k + 1) % len(BOT_NAMES)], bot_level(args.bot)),
                interfaces=interfaces, test_seed=seed_of(), **internet.options(args))
    session = await join_table(seat, table_name, o.host, o.port, o.code,
                               on_view=lambda v: None, wait=10.0,
                               transport=bot_transport(o, seat, table_name))
    run = asyncio.ensure_future(session.run())
    ended = await drive_bot(session, BOTS[args.bot], bot_random(session))
    await run
    return session, ended


def lobby_lines(view: LobbyView) -> list[str]:
    """The lobby as plain lines, each player with a bot's level in the reader's language."""
    t = view.table
    lines = [_("Table {name}: {rules} rules, {seats}").format(
        name=repr(t.name), rules=rules_label(t.rules.name()),
        seats=seats(len(view.players), t.wanted))]
    for m in view.players:
        if m.suspect is None:
            line = (_("{player}, no suspect yet (ready)") if m.ready
                    else _("{player}, no suspect yet"))
        else:
            line = _("{player} as {suspect} (ready)") if m.ready else _("{player} as {suspect}")
        lines.append("  " + line.format(player=player_word(m.name),
                                        suspect=card_word(m.suspect or 0)))
    for m in view.spectators:
        lines.append("  " + _("{player} watching").format(player=player_word(m.name)))
    if view.failed_attempts:
        lines.append("  " + guesses.describe(view.failed_attempts))
    return lines


def _view_printer(say: Printer) -> Any:
    last: list[list[str]] = []

    def show(view: LobbyView) -> None:
        lines = lobby_lines(view)
        if not last or last[-1] != lines:
            last.append(lines)
            for line in lines:
                say(line)

    return show


async def _play(session: NetSession, args: argparse.Namespace, say: Printer) -> api.Ended:
    narrator = Narrator(session.config)
    # Wall times for the table's latencies; this process's CPU seconds beside them, so that
    # the bench can sum the whole table's work and show the floor two cores put under them.
    marks: dict[str, Any] = {"start": time.time(), "start_cpu": time.process_time(),
                             "first_turn": None, "suggested": [], "suggested_cpu": [],
                             "resolved": [], "resolved_cpu": [], "proofs": [],
                             "answered": [], "entries": []}

    def tell(event: api.SessionEvent) -> None:
        _tell(narrator, event, say, private=True)
        if isinstance(event, api.Engine):
            e = event.event
            if isinstance(e, ev.Accepted) and marks["first_turn"] is None:
                marks["entries"].append([e.index, e.sender, time.time()])  # the deal's
            if marks["first_turn"] is None and session.state is not None:
                marks["first_turn"] = time.time()
                marks["first_turn_cpu"] = time.process_time()
                marks["deal_mults"] = MULT_COUNTER.total
            if isinstance(e, ev.Suggested):
                marks["suggested"].append(time.time())
                marks["suggested_cpu"].append(time.process_time())
                pending.clear()
            elif isinstance(e, ev.Refuted) or (
                    isinstance(e, ev.Passed) and _all_passed(e, pending, session)):
                marks["resolved"].append(time.time())
                marks["resolved_cpu"].append(time.process_time())
                marks["proofs"].append(len(pending) + isinstance(e, ev.Refuted))
            elif isinstance(e, ev.Accepted) and e.type in ("ack", "sealed"):
                # the suggester answered the show: [suggestion number, time]
                marks["answered"].append([len(marks["suggested"]) - 1, time.time()])

    pending: list[int] = []
    run = asyncio.ensure_future(session.run())
    ended = await drive_bot(session, BOTS[args.bot], bot_random(session), tell)
    await run
    if args.timing is not None:
        marks["seat"] = session.seat
        marks["max_rss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        marks["resent"] = session.resent
        marks["junk"] = session.junk_charged
        marks["junk_cuts"] = session.junk_cuts
        args.timing.write_text(json.dumps(marks))
    return ended


def _all_passed(e: ev.Passed, pending: list[int], session: NetSession) -> bool:
    """Whether this pass was the last one: nobody could refute the suggestion."""
    pending.append(e.seat)
    return len(pending) == session.config.n_players - 1


def _tell(narrator: Narrator, event: api.SessionEvent, say: Printer, private: bool) -> None:
    if isinstance(event, api.Engine):
        if isinstance(event.event, ev.Accepted) or (is_private(event) and not private):
            return
        for line in narrator.lines(event.event):
            say(line)
    elif isinstance(event, api.Presence):
        key = (event.name, event.seat is None)
        who = player_word(event.name) if event.seat is not None else spectator_word(event.name)
        if not event.present:
            say.away.add(key)
            say(_("{player} is not answering (network?): reconnecting; the table waits for "
                  "them.").format(player=who) if event.silent
                else _("{player} is away").format(player=who))
        elif key in say.away:
            say.away.discard(key)
            say(_("{player} is back").format(player=who))
        elif key not in say.here:
            say.here.add(key)
            say(_("{player} is here").format(player=who))
    elif isinstance(event, api.Guesses):
        say(guesses.describe(event.count))
    elif isinstance(event, api.Waiting):
        waited = max(0.0, time.monotonic() - event.since)
        left = max(0.0, event.deadline - time.monotonic())
        say(_("waiting for {player} for {waited} s (the table votes in {left} s if still "
              "silent)").format(player=narrator.who(event.seat), waited=f"{waited:.0f}",
                                left=f"{left:.0f}"))
    elif isinstance(event, api.Ended):
        say(_("game over: {status}; transcript {path} (audit: {audit})").format(
            status=outcome_word(event.status),
            path=event.transcript if event.transcript is not None else _("not saved"),
            audit=event.message))


def _report(session: NetSession, ended: api.Ended, args: argparse.Namespace) -> int:
    peer = session.peer
    state, blame = peer.rules_state, peer.blame
    result = ended.status
    if result == "complete" and state is not None:
        result = state.result or "nobody"
    raw = ended.transcript.read_bytes() if ended.transcript is not None else b""
    if blame is not None:
        # Translators: {check} and {reason} come from the protocol checks, in English.
        print((_("halted, nobody to blame: {what} ({check}): {reason}") if blame.culprit is None
               else _("halted, seat {seat} to blame: {what} ({check}): {reason}")).format(
            seat=blame.culprit, what=check_words(blame.check), check=blame.check,
            reason=blame.reason), file=sys.stderr)
    if args.json:
        obj = result_object(
            result=result, state=state, blame=blame, rules=session.config.rules.name(),
            players=session.config.n_players, seed=None, bot=args.bot,
            messages=len(peer.entries), raw=raw)
        obj["transcript"] = str(ended.transcript) if ended.transcript else None
        print(json.dumps(obj, sort_keys=True), flush=True)
    if result == "halted":
        return EXIT_HALTED
    return 0 if result in ("won", "nobody") and ended.audit_ok else 1


# ---- watch ----------------------------------------------------------------------------


async def _watch(args: argparse.Namespace) -> int:
    say = Printer(args.quiet)
    profile = load(args.profile)
    interfaces = discovery.interfaces(args.interface, _environ())
    seat = Seat(profile, args.name or _("spectator"), interfaces=interfaces,
                **internet.options(args))
    table_name, host, port, opener = await _locate(args, interfaces, say)
    code: str | None = args.code
    feed: LineFeed | None = None
    tries = 0
    while True:
        try:
            session = await join_table(seat, table_name, host, port, code, role="spectator",
                                       on_view=_view_printer(say), transcript=args.transcript,
                                       wait=args.wait, opener=opener)
            break
        except (WrongTableCode, CodeNeeded) as exc:
            if not sys.stdin.isatty():  # nobody to ask: the refusal is the answer
                raise
            wrong = isinstance(exc, WrongTableCode)
            tries += wrong
            if feed is None:
                from p2pclue.tui.lobby import LineFeed

                feed = LineFeed()
            code = await _ask_code(feed, table_name, opener, str(exc) if wrong else "", tries)
            if code is None:
                raise
    say(_("watching; table check: {check}").format(check=table_check(session.config)))
    narrator = Narrator(session.config)
    run = asyncio.ensure_future(session.run())
    ended = await follow(session, lambda e: _tell(narrator, e, say, private=False))
    await run
    print(_("{status}: transcript {path}; audit: {audit}").format(
        status=outcome_word(ended.status),
        path=ended.transcript if ended.transcript is not None else _("not saved"),
        audit=ended.message))
    return 0 if ended.audit_ok else 1


async def _ask_code(feed: LineFeed, table_name: str, opener: str | None, refusal: str,
                    tries: int) -> str | None:
    """The table code, asked as ``join`` asks it (None: Enter alone or the input ended).
    A reader thread of its own reads the answer, so Ctrl-C still stops at once."""
    if refusal:
        print(refusal, flush=True)
    print((_("The table {name} (opener's key {key}) needs its table code.") if opener
           else _("The table {name} needs its table code.")).format(name=repr(table_name),
                                                                    key=opener))
    print(_("It is on the opener's screen: ask them to read it out."))
    if tries:
        from p2pclue.tui.lobby import code_tries

        print(code_tries(tries))
    print(_("Table code: {typed}").format(typed=""), end="", flush=True)
    while (line := await feed.poll(0.5)) is None:
        pass
    return line.strip() or None


def _environ() -> dict[str, str]:
    import os

    return dict(os.environ)
