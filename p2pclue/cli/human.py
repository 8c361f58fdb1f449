"""``p2pclue join`` for a person: the lobby on screen, then the table's UI for this seat.

``join --create`` opens a table, ``join --table NAME`` / ``--peer`` joins one, ``join``
alone lists the tables found and lets the person choose. ``--bots K`` (with
``--create``) seats K bot peers in this process, each with its own keys and links,
at the ``--level`` people choose. The lobby is drawn by ``tui.lobby`` and the game by
``tui.run_ui`` (or both as lines with ``--plain``), over the real network session.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import sys
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from p2pclue.bots.protocol import BOT_NAMES
from p2pclue.bots.registry import BOTS
from p2pclue.cli import internet
from p2pclue.cli.testseed import bot_random, seed_of
from p2pclue.cli.whoami import player_name
from p2pclue.engine import events as ev
from p2pclue.engine.config import MAX_PLAYERS, table_check
from p2pclue.i18n import (
    _,
    default_table_name,
    is_yes,
    ngettext,
    no_key,
    os_error_line,
    roster_name,
    yes_key,
)
from p2pclue.net import discovery
from p2pclue.net.api import SessionProxy
from p2pclue.net.botplay import drive_bot
from p2pclue.net.gamedir import GameDir, unfinished_games
from p2pclue.net.lobby import LobbyError, LobbyView
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
from p2pclue.net.profile import ProfileError, bot_profile_name, load
from p2pclue.net.runner import ended
from p2pclue.net.session import HUMAN_PASS_DELAY, NetSession
from p2pclue.net.store import StoreError
from p2pclue.net.table import LobbyAction, Ready, TableClosed
from p2pclue.rules.variants import preset
from p2pclue.tui import NOT_A_TERMINAL, PLAY_AGAIN, run_ui
from p2pclue.tui.evening import Evening
from p2pclue.tui.lobby import LineFeed, LobbyModel, LobbyScreen, PlainLobby
from p2pclue.tui.text import wrap

BOT_THINK = 0.8
"""Seconds a bot seated for a person waits before acting, so the story can be followed."""
BOTS_FINISH = 600.0
"""At most this long for the person's bots to finish a game the person left."""
BAD_INPUT: tuple[type[Exception], ...] = (ProfileError, StoreError, LobbyError, TableClosed,
                                          OSError)
"""What a local bot meets that people mend (its profile, its files, the table's name):
exit 2 as for the command's own bad input; anything else is exit 1."""

NEXT_GAME_WAIT = 120.0
"""Seconds a person who plays again waits for the table's opener to open the next game."""
OWN_FAILURE_WAIT = 0.5
"""Seconds an opener's wait may still end by its own failure once one of its bots failed."""

_T = TypeVar("_T")


class BotFailed(Exception):
    """One of this process's bots could not sit down or play: its opener stops waiting."""

    def __init__(self, line: str, status: int) -> None:
        super().__init__(line)
        self.status = status


class LocalBots:
    """The bots this process seats at its own table. The first one that fails ends
    whatever its opener waits for (``guard``) with a ``BotFailed`` naming it; each
    task's failure is read here, so none is left "never retrieved"."""

    def __init__(self) -> None:
        self.tasks: list[asyncio.Task[Any]] = []
        self.failed: asyncio.Future[BotFailed] = asyncio.get_running_loop().create_future()

    def add(self, k: int, profile: str, bot: Coroutine[Any, Any, object]) -> None:
        task = asyncio.ensure_future(bot)
        task.add_done_callback(lambda t: self._done(k, profile, t))
        self.tasks.append(task)

    def _done(self, k: int, profile: str, task: asyncio.Task[Any]) -> None:
        if task.cancelled():
            return
        exc = task.exception()
        if exc is None or self.failed.done():
            return
        why = os_error_line(exc) if isinstance(exc, OSError) else str(exc) or type(exc).__name__
        self.failed.set_result(BotFailed(
            _("local bot {number} (profile {profile}) failed: {error}").format(
                number=k + 1, profile=profile, error=why),
            2 if isinstance(exc, BAD_INPUT) else 1))

    async def finish(self) -> None:
        """Wait for every bot to end its game; the first failure is raised."""
        if self.tasks:
            await asyncio.wait(self.tasks)
        if self.failed.done():
            raise self.failed.result()

    async def guard(self, waited: Awaitable[_T]) -> _T:
        """``waited``'s result, unless a bot fails first: then ``waited`` is cancelled
        and the bot's failure raised.

        Cancelled itself (the person left the lobby), it returns only once ``waited`` has
        ended: its cleanup closes the table's links and endpoint before the command ends,
        not while the event loop closes (``net.runner`` says why that aborts)."""
        task = asyncio.ensure_future(waited)
        either: set[asyncio.Future[Any]] = {task, self.failed}
        try:
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ended(task)
            raise
        if not task.done():  # the opener's own failure (its bots' table closed) tells more
            await asyncio.wait({task}, timeout=OWN_FAILURE_WAIT)
        if task.done():
            return task.result()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        raise self.failed.result()


def can_draw() -> bool:
    return sys.stdout.isatty() and sys.stdin.isatty()


@dataclass(frozen=True)
class Asked:
    """What the person answered before the table: resume this game, or play as this name."""

    resume: GameDir | None
    name: str


def ask_first(args: argparse.Namespace) -> Asked | int:
    """The questions asked on the bare terminal, before any event loop runs: there Ctrl-C
    stops at once (inside ``asyncio.run`` the first Ctrl-C only cancels the task blocked
    in ``input()``, and is lost). An ``int``: the exit status (no terminal to draw on)."""
    if not args.plain and not can_draw():
        print(_(NOT_A_TERMINAL), file=sys.stderr)
        return 2
    profile = load(args.profile)
    unfinished = unfinished_games(profile.games)
    if unfinished and _wants_to_resume(unfinished[0], default=not args.create):
        return Asked(unfinished[0], "")
    return Asked(None, player_name(profile, args.name))


def _pass_delay(args: argparse.Namespace) -> tuple[float, float]:
    """How long this person's automatic "cannot refute" is held (``--pass-delay``)."""
    if args.pass_delay is None:
        return HUMAN_PASS_DELAY
    held = max(0.0, args.pass_delay)
    return (held, held)


async def play_human(args: argparse.Namespace, environ: dict[str, str],
                     asked: Asked) -> int:
    """Run the lobby and the game for a person, and the table's next games for as long as
    they play again; returns the exit status of the last ``run_ui``."""
    if asked.resume is not None:
        return await resume_human(args, environ, asked.resume)
    again = Again(Evening())
    feed = LineFeed() if args.plain else None
    while True:
        status = await _one_game(args, environ, asked.name, again, feed)
        if status != PLAY_AGAIN:
            return status


async def _one_game(args: argparse.Namespace, environ: dict[str, str], name: str,
                    again: Again, feed: LineFeed | None) -> int:
    """One game of the evening: its lobby (the first one as the command line asked, the
    next ones at the same table without a question), then the table."""
    profile = load(args.profile)
    interfaces = discovery.interfaces(args.interface, environ)
    seat = Seat(profile, name, interfaces=interfaces, pass_delay=_pass_delay(args),
                test_seed=seed_of(environ), **internet.options(args))
    seat.suspect = again.suspect
    actions: asyncio.Queue[LobbyAction] = asyncio.Queue()
    model = LobbyModel(profile.public, name)
    model.evening = again.evening
    front: LobbyScreen | PlainLobby = (PlainLobby(model, actions, feed) if feed is not None
                                       else LobbyScreen(model, actions))
    local = LocalBots()
    bots = local.tasks
    think = Think(args.bot_think)
    front.start()
    try:
        session = await _seat(args, seat, front, model, actions, interfaces, local, think,
                              again)
        if session is None:
            await front.close()
            await _stop(bots)
            if isinstance(front, PlainLobby) and front.input_ended:
                print(_("p2pclue join: the input ended before the game started"),
                      file=sys.stderr)
                return 2
            return 0
        check = table_check(session.config)
        await front.started(check)
        await front.close()
    except BaseException:
        await front.close()
        await _stop(bots)
        raise
    if session.seat is not None:
        again.suspect = session.config.players[session.seat].suspect
    notice = _("Table check: {check} (compare it aloud: every screen here shows the "
               "same).").format(check=check)
    try:
        return await run_ui(session, plain=args.plain, notice=notice,
                            read=feed.readline if feed is not None else None,
                            evening=again.evening)
    finally:
        await _after_the_person(session, bots, think, plain=args.plain)


@dataclass
class Again:
    """The evening's table: where it is, so that "play again" sits at its next game
    without a question (no table to pick, no code to type)."""

    evening: Evening
    table: str = ""
    host: str = ""
    port: int = 0
    code: str | None = None
    opener: str | None = None
    """The opener's key fingerprint, when discovery said it."""
    suspect: int | None = None
    """The suspect this person played last: asked for again."""

    @property
    def after(self) -> bytes | None:
        """The session id of the game just played (None before the first game)."""
        return self.evening.last_session if self.evening.games else None


async def _after_the_person(session: NetSession, bots: list[asyncio.Task[Any]],
                            think: Think, *, plain: bool) -> None:
    """The person's table closed. Its bots live in this process: after a graceful leave
    they play the game to its end without the person (quickly, nobody watches them); after
    the end they confirm it; after "quit, resume later" they stop too, and resume with
    the person (their game folders stay unfinished)."""
    if session.left_table and bots and not all(b.done() for b in bots):
        think.seconds = 0.0
        print(_("The bots finish the game without you (Ctrl-C stops them)..."),
              file=sys.stderr, flush=True)
        await _stop(bots, grace=BOTS_FINISH)
    else:
        await _stop(bots, grace=15.0 if session.ended is not None else 0.0)
    if session.ended is None and not session.left_table and not plain:
        # the full screen is gone: say where the game waits (--plain said it in its lines)
        print(_("The table waits for you; come back with p2pclue join --resume."),
              file=sys.stderr, flush=True)


def _wants_to_resume(game: GameDir, *, default: bool) -> bool:
    """Ask before the lobby opens: after a crash, coming back is what people want; with
    --create they asked for a new table, so Enter opens it (``default``: Enter resumes)."""
    print("\n".join(wrap(_("An unfinished game can be resumed ({game}): the table may be "
                           "waiting for you.").format(game=game.name),
                         shutil.get_terminal_size().columns - 1)), flush=True)
    yes, no = yes_key(), no_key()  # the letters the question shows are the ones it takes
    try:
        answer = input(_("Resume it now? [{yes}/{no}] ").format(
            yes=yes.upper() if default else yes, no=no if default else no.upper()))
    except EOFError:
        return False
    return is_yes(answer) or (default and not answer.strip())


async def resume_human(args: argparse.Namespace, environ: dict[str, str],
                       game: GameDir) -> int:
    """A person's seat back after a crash: replay, re-link, catch up, then the table."""
    if not args.plain and not can_draw():
        print(_(NOT_A_TERMINAL), file=sys.stderr)
        return 2
    profile = load(args.profile)
    saved = game.load_start()
    players = saved.start.config.players
    mine = next((p for p in players if p.identity == profile.public), None)
    if mine is None:
        raise TableClosed(_("this game directory is not one of this profile's seats"))
    seat = Seat(profile, args.name or mine.name,
                interfaces=discovery.interfaces(args.interface, environ),
                pass_delay=_pass_delay(args), **internet.options(args))
    session = await resume_game(seat, game)
    think = Think(args.bot_think)
    bots = [asyncio.ensure_future(_resumed_bot(args, name, g, seat.interfaces, think))
            for name, g in _local_bot_games(args, profile.games, game.name)]
    notice = ngettext("Resumed: {count} message replayed from your game folder; "
                      "reconnecting to the table.",
                      "Resumed: {count} messages replayed from your game folder; "
                      "reconnecting to the table.", len(session.peer.entries)).format(
        count=len(session.peer.entries))
    try:
        return await run_ui(session, plain=args.plain, notice=notice)
    finally:
        await _after_the_person(session, bots, think, plain=args.plain)


def _local_bot_games(args: argparse.Namespace, games: Path,
                     session_dir: str) -> list[tuple[str, GameDir]]:
    """The person's ``--bots`` that sat at this game and have not finished it: they lived
    in the person's process, so they come back with it."""
    profiles = games.parent.parent
    found = []
    for k in range(MAX_PLAYERS - 1):
        name = bot_profile(args, k)
        mine = profiles / name / "games" / session_dir
        if mine.is_dir() and any(g.path == mine for g in unfinished_games(mine.parent)):
            found.append((name, GameDir(mine)))
    return found


async def _seat(args: argparse.Namespace, seat: Seat, front: LobbyScreen | PlainLobby,
                model: LobbyModel, actions: asyncio.Queue[LobbyAction], interfaces: list[str],
                bots: LocalBots, think: Think, again: Again) -> NetSession | None:
    """From the command line to a signed start (None: the person left the lobby); the
    evening's next game at the same table, its address and code (``again``)."""
    after = again.after
    if args.create:
        table_name = args.table or default_table_name(seat.name)
        if after is not None:
            code = again.code
        else:
            code = None if args.no_code else (args.code or new_table_code())

        def opened(o: Opened) -> None:
            again.table, again.host, again.port, again.code = table_name, o.host, o.port, code
            model.opened = o
            if o.announce_error:
                model.message = _("could not announce the table on the LAN ({error}): "
                                  "others join with --peer").format(error=o.announce_error)
            for k in range(args.bots):
                bots.add(k, bot_profile(args, k), _bot_guest(
                    args, k, o, table_name, interfaces, think, after))
            front.refresh()

        return await front.seated(bots.guard(open_table(
            seat, table_name, preset(args.rules), args.players, code, on_opened=opened,
            on_view=_shows(model, front), on_code=lambda o: front.refresh(),
            actions=actions, transcript=args.transcript if after is None else None,
            internet=args.internet, own_bots=args.bots > 0, port=again.port, after=after,
            on_links=front.on_links)))
    if after is not None:
        return await _join_again(seat, front, model, actions, again, after)
    return await _join_seat(args, seat, front, model, actions, interfaces, again)


async def _join_again(seat: Seat, front: LobbyScreen | PlainLobby, model: LobbyModel,
                      actions: asyncio.Queue[LobbyAction], again: Again,
                      after: bytes) -> NetSession | None:
    """The table's next game: its opener opens it where the last one was; until it does
    (the person may be quicker than the opener) the join is tried again."""
    loop = asyncio.get_running_loop()
    end = loop.time() + NEXT_GAME_WAIT
    model.message = _("Waiting for the table's next game to open...")
    while True:
        try:
            return await front.seated(join_table(
                seat, again.table, again.host, again.port, again.code,
                on_view=_shows(model, front), actions=actions, wait=2.0,
                opener=again.opener, after=after, on_links=front.on_links))
        except (NoTable, TableClosed, LobbyError):
            if loop.time() > end:
                raise
            await asyncio.sleep(0.5)


async def _join_seat(args: argparse.Namespace, seat: Seat, front: LobbyScreen | PlainLobby,
                     model: LobbyModel, actions: asyncio.Queue[LobbyAction],
                     interfaces: list[str], again: Again) -> NetSession | None:
    """Join by ``--peer``, ``--table`` or the list: ask the code when the table needs one
    (and again after a wrong one); a record whose code failed is marked, never looped on."""
    failed: set[tuple[bytes, str, str, int]] = set()
    tries: dict[str, int] = {}
    """Wrong codes typed per table name, told when the code is asked again."""
    code: str | None = args.code
    while True:
        ad: discovery.TableAd | None = None
        if args.peer:
            host, port = parse_peer(args.peer)
            table_name = args.table
        elif args.ticket:
            ticket = internet.ticket(args)
            table_name, host, port = ticket.table, ticket.reach.text(), 1
        else:
            model.wish, model.wish_asked = None, False  # a new pick: its own question
            ad = await _find(args, front, interfaces, failed)
            if ad is None:
                return None
            seat.suspect = model.wish  # asked before taking the last seat, or None
            table_name, host, port = ad.name, ad.host, ad.port
        ask = ad is not None and ad.needs_code and not args.no_code
        while True:  # the code, asked again after a wrong one
            if code is None and ask:
                model.code_tries = tries.get(table_name, 0)
                code = await front.ask_code(table_name, ad.fingerprint if ad else None)
                if code is None:
                    break
            try:
                session = await front.seated(join_table(
                    seat, table_name, host, port, code,
                    on_view=_shows(model, front), actions=actions, transcript=args.transcript,
                    wait=args.wait, opener=ad.fingerprint if ad else None,
                    ask_last_seat=not model.wish_asked, on_links=front.on_links))
                again.table, again.host, again.port, again.code = table_name, host, port, code
                again.opener = ad.fingerprint if ad else None
                return session
            except (WrongTableCode, CodeNeeded) as exc:
                # A typo, or a stranger's record answering to that name: say so, mark the
                # record (never picked by itself again) and ask again; when other tables
                # share its name, back to the list (marked), so the person can pick another.
                wrong = isinstance(exc, WrongTableCode)
                if wrong:
                    tries[table_name] = tries.get(table_name, 0) + 1
                if ad is not None and wrong:
                    failed.add(ad.place)
                if ad is not None and wrong:
                    model.message = _("Wrong code (or not the table you meant: its opener's "
                                      "key should be {key}).").format(key=ad.fingerprint)
                elif wrong:
                    model.message = str(exc)  # already in the reader's words
                else:  # the table's own reason travels in English: say it here
                    model.message = _("The table {name} needs its table code.").format(
                        name=repr(table_name))
                front.refresh()
                code, ask = None, True
                if ad is not None and wrong and any(
                        t.name == ad.name and t.place != ad.place for t in model.tables):
                    break
        if args.peer or args.ticket or model.quit:
            return None  # nothing to go back to


def _shows(model: LobbyModel, front: LobbyScreen | PlainLobby) -> Callable[[LobbyView], None]:
    def show(view: LobbyView) -> None:
        model.on_view(view)
        front.refresh()

    return show


async def _find(args: argparse.Namespace, front: LobbyScreen | PlainLobby,
                interfaces: list[str], failed: set[tuple[bytes, str, str, int]],
                ) -> discovery.TableAd | None:
    """The table by ``--table NAME``, or the one the person picks from those found.

    Several tables with that name (each its own opener's key: one may be a stranger's
    record) are all listed with their keys, and the person picks; ``failed`` records (a
    handshake that failed) are marked and never picked by themselves."""
    browser = discovery.Browser()
    for place in failed:
        browser.mark_failed_place(place)
    try:
        await browser.start(interfaces)
        if args.table:
            loop = asyncio.get_running_loop()
            end = loop.time() + args.wait
            model = front.model
            model.phase = "tables"
            first: float | None = None

            def named() -> list[discovery.TableAd]:
                return [t for t in browser.tables() if t.name == args.table]

            while loop.time() < end and not model.quit:
                found = named()
                model.on_tables(found)
                front.refresh()
                live = [t for t in found if not t.failed]
                if live and first is None:
                    first = loop.time()
                if len(found) > 1 or (found and not live):
                    # same name, other keys (the person picks by the key), or only a
                    # record whose handshake failed (the person decides, nobody loops)
                    return await front.choose_table(named)
                if live and first is not None \
                        and loop.time() - first >= discovery.SAME_NAME_WAIT:
                    if model.last_seat(live[0]) and not await front.wish(live[0]):
                        return None
                    model.phase = "lobby"
                    return live[0]
                await asyncio.sleep(0.3)
            from p2pclue.net.play import NoTable

            if model.quit:
                return None
            raise NoTable(_("found no answer for the table {name} within {seconds} s.").format(
                name=repr(args.table), seconds=f"{args.wait:g}") + " " + _(
                "If the table is open, multicast may be blocked on this network (Wi-Fi "
                "client isolation, some company LANs): join it directly with --peer "
                "HOST:PORT --table NAME, as shown on the opener's screen."))
        return await front.choose_table(browser.tables)
    finally:
        with contextlib.suppress(Exception):
            await browser.close()


def bot_label(name: str, level: str) -> str:
    """A --bots bot's name at the table: its name and level in the one form every reader's
    screen says in its own language (``p2pclue.i18n.players``), whatever the opener reads."""
    return roster_name(name, level)


async def _bot_guest(args: argparse.Namespace, k: int, o: Opened, table_name: str,
                     interfaces: list[str], think: Think, after: bytes | None = None) -> None:
    """A bot peer at the person's table: its own keys, its own links; it enters the lobby
    through the opener's door (no code guessed: the code may have turned by then).
    ``after``: playing again, the game just played at this table."""
    profile = load(bot_profile(args, k))
    # distinct first letters, so the notepad's two-letter column heads tell the bots apart
    name = bot_label(BOT_NAMES[(k + 1) % len(BOT_NAMES)], args.level)
    seat = Seat(profile, name, interfaces=interfaces, test_seed=seed_of(),
                **internet.options(args))
    ready: asyncio.Queue[LobbyAction] = asyncio.Queue()
    ready.put_nowait(Ready(True))  # the person's r starts a table with seats still free
    session = await join_table(seat, table_name, o.host, o.port, o.code,
                               on_view=lambda v: None, actions=ready, wait=10.0,
                               transport=bot_transport(o, seat, table_name), after=after)
    await _drive(session, args, think)


async def _drive(session: NetSession, args: argparse.Namespace, think: Think) -> None:
    run = asyncio.ensure_future(session.run())
    try:
        await drive_bot(_Paced(session, think), BOTS[args.level], bot_random(session))
    finally:
        await session.close()
        run.cancel()  # a closed session's loop may still wait for its inbox
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await run


def bot_profile(args: argparse.Namespace, k: int) -> str:
    """The profile of the person's k-th local bot (0-based): own keys, own game folders."""
    return bot_profile_name(args.profile, k)


async def _resumed_bot(args: argparse.Namespace, profile_name: str, game: GameDir,
                       interfaces: list[str], think: Think) -> None:
    """One of the person's local bots, back in the game the person resumes."""
    profile = load(profile_name)
    players = game.load_start().start.config.players
    name = next(p.name for p in players if p.identity == profile.public)
    session = await resume_game(Seat(profile, name, interfaces=interfaces,
                                     **internet.options(args)), game)
    await _drive(session, args, think)


@dataclass
class Think:
    """Seconds a person's bot waits before it acts (one value for all of them: after the
    person leaves, nobody needs to follow them any more)."""

    seconds: float


class _Paced(SessionProxy):
    """A session whose submissions wait a moment, so a person can follow the bots."""

    def __init__(self, session: NetSession, think: Think) -> None:
        super().__init__(session)
        self._think = think

    async def submit(self, intent: ev.Intent) -> None:
        if self._think.seconds:
            await asyncio.sleep(self._think.seconds)
        await super().submit(intent)


async def _stop(bots: list[asyncio.Task[Any]], grace: float = 0.0) -> None:
    """Let the bots finish (their game ended too), then cancel what is left."""
    if bots and grace:
        await asyncio.wait(bots, timeout=grace)
    for task in bots:
        task.cancel()
    for task in bots:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


__all__ = ["can_draw", "play_human"]
