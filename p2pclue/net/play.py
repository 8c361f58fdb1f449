"""From "I want to play" to a running session: open a table, find one, join, watch.

These are the steps every front end takes (the plain CLI, the TUI, bots, the bench):
listen, announce or browse with zeroconf (or dial ``--peer`` directly), run the lobby,
then build the ``NetSession``. Nothing here prints: callers get lobby views and
``TableInfoShown`` through callbacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from p2pclue import PROTOCOL_VERSION
from p2pclue.crypto.rand import ScalarSource, SeededRandom
from p2pclue.i18n import _, os_error_line
from p2pclue.net import discovery, hosts
from p2pclue.net.ads import SameName, TableAd, fingerprint
from p2pclue.net.door import OpenerDoor
from p2pclue.net.gamedir import GameDir, SavedStart
from p2pclue.net.links import TcpTransport
from p2pclue.net.lobby import GuestLobby, HostLobby, LobbyView, TableInfo
from p2pclue.net.mesh import Mesh
from p2pclue.net.profile import Profile
from p2pclue.net.reach import Ticket, is_reach, parse_reach
from p2pclue.net.session import DEFAULT_TIMEOUT, NetSession
from p2pclue.net.table import (
    LinkSink,
    LobbyAction,
    Seated,
    TableClosed,
    guest_lobby,
    host_lobby,
    links_shown,
    start_members,
)
from p2pclue.net.transport import (
    Announcement,
    BadAddress,
    Busy,
    Discovery,
    HandshakeTimeout,
    LinkClosed,
    LinkError,
    Refused,
    Transport,
    Unreachable,
    WrongCode,
)
from p2pclue.rules.variants import Rules

TABLE_ID_PREFIX = b"p2pclue/v1/table-id\x00"
TRANSCRIPT_NAME = "transcript.p2pclue"


BUSY_PATIENCE = 3.0
"""A table that is slowing this address down (after a wrong code) is tried this long more."""


class WrongTableCode(TableClosed):
    """The code did not open the table (a typo, or a stranger's record): ask again."""


class CodeNeeded(TableClosed):
    """The table needs a code and none was given: ask for it."""


class NoTable(Exception):
    """No table answered (with a message that says what to try)."""


def table_id(name: str) -> bytes:
    """The id a table's links are bound to: from its name, so ``--peer`` needs no lookup."""
    return hashlib.sha256(TABLE_ID_PREFIX + name.encode("utf-8")).digest()[:16]


def parse_peer(text: str) -> tuple[str, int]:
    """``HOST:PORT`` as typed; ``ValueError`` (one clear line) for anything that cannot be
    dialled: the port is ASCII digits 1-65535 (``'²'.isdigit()`` is true, ``int`` refuses
    it), the host one the resolver can take (a DNS name is fine, ``a..b`` is not)."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port:
        raise ValueError(_("--peer wants HOST:PORT, not {text}").format(text=repr(text)))
    if not (port.isascii() and port.isdigit() and len(port) <= 5 and 0 < int(port) < 65536):
        raise ValueError(_("the port in {text} must be a number from 1 to 65535").format(
            text=repr(text)))
    if not hosts.dialable(host):
        raise ValueError(_("{host} in {text} is not a host name or IP address").format(
            host=repr(host), text=repr(text)))
    return host, int(port)


@dataclass
class Opened:
    """What the opener's screen shows while the lobby fills."""

    name: str
    code: str | None
    host: str
    port: int
    fingerprint: str
    announced: bool
    announce_error: str | None = None
    code_turns: int = 0
    """Fresh codes the table turned to after too many wrong codes (``code`` is the last)."""
    entry_closed: bool = False
    """The last code is used up too: nobody new can join (the seated play on)."""
    ticket: str | None = None
    """An internet table's ticket (``net.reach``): what others paste to join."""
    door: OpenerDoor | None = None
    """The opener's door for the bots it seats in its own process (``bot_transport``)."""

    @property
    def address(self) -> str:
        """HOST:PORT others can dial (``--peer``): the machine's real addresses when the
        table listens on all of them, up to three, separated by " / " (an internet
        table: its ticket)."""
        if self.ticket is not None:
            return self.ticket
        return " / ".join(f"{a}:{self.port}" for a in discovery.dial_addresses(self.host)[:3])


@dataclass
class Seat:
    """Who this process is at a table."""

    profile: Profile
    name: str
    suspect: int | None = None
    interfaces: list[str] = field(default_factory=list)
    timeout: float = DEFAULT_TIMEOUT
    pass_delay: tuple[float, float] = (0.0, 0.0)
    """A person plays this seat: its "cannot refute" is paced (``HUMAN_PASS_DELAY``)."""
    relays: tuple[str, ...] | None = None
    """Internet tables: the relays' URLs (None: n0's public relays; empty: direct only)."""
    port: int = 0
    """Internet tables: the UDP port to listen on (0: any), e.g. one a router forwards."""
    external: tuple[str, ...] = ()
    """Internet tables: ``IP:PORT`` addresses that reach this seat from outside (a port
    forward), told to the others beside the ones it listens on."""
    test_seed: bytes | None = None
    """Tests only (``P2PCLUE_TEST_SEED``, read by the command line, never by the engine):
    this seat's lobby nonce and its secret randomness are drawn from this seed, its
    identity and the game, so that a test's games are the same on every run. Anyone who
    knows the seed can work out the seat's cards: never set in play."""

    def nonce(self, after: bytes | None) -> bytes:
        """The fresh nonce this seat brings to a lobby (the session id hashes everyone's)."""
        if self.test_seed is None:
            return secrets.token_bytes(32)
        return _seeded(self, b"nonce", after or b"").random_bytes(32)

    def randomness(self, session: bytes) -> ScalarSource | None:
        """This seat's secret randomness for the game ``session`` (None: the OS's)."""
        return None if self.test_seed is None else _seeded(self, b"game", session)

    @property
    def listen_host(self) -> str:
        return self.interfaces[0] if self.interfaces else "0.0.0.0"


def _seeded(seat: Seat, use: bytes, game: bytes) -> SeededRandom:
    assert seat.test_seed is not None
    return SeededRandom(hashlib.sha256(b"p2pclue/test-seed/v1\x00" + use + b"\x00"
                                       + seat.test_seed + b"\x00" + seat.profile.public
                                       + game).digest())


def internet_transport(seat: Seat, table_name: str | bytes, code: str | None) -> Transport:
    """The iroh transport of ``seat`` at an internet table (``MissingExtra`` without the
    ``internet`` extra); ``table_name``: the name, or the table id itself."""
    from p2pclue.net.iroh_link import IrohTransport

    tid = table_name if isinstance(table_name, bytes) else table_id(table_name)
    return IrohTransport(seat.profile.identity, tid, code, relays=seat.relays,
                         port=seat.port, external=seat.external)


def bot_transport(opened: Opened, seat: Seat, table_name: str) -> Transport:
    """The transport of a bot the opener seats in its own process (``join --bots``): it
    enters the opener's lobby through the opener's door, so no code is guessed and a code
    that turned (or an entry that closed) before it came does not keep it out. Its gate
    holds the table's code of now, for the late spectators its listener admits."""
    assert opened.door is not None, "open_table(own_bots=True) opens the door"
    inner = (internet_transport(seat, table_name, opened.code) if opened.ticket is not None
             else TcpTransport(seat.profile.identity, table_id(table_name), opened.code))
    return opened.door.for_bot(inner, seat.profile.public)


def _transcript_path(seat: Seat, seated: Seated, path: Path | None) -> Path:
    if path is not None:
        return path
    directory = seat.profile.game_dir(seated.start.config.session)
    return directory / TRANSCRIPT_NAME


def _session(seat: Seat, seated: Seated, transcript: Path | None,
             host_addr: tuple[str, int] | None = None) -> NetSession:
    config = seated.start.config
    if seat.profile.seen(config.session):
        raise TableClosed(_("this game was played before: refusing to play it again"))
    seat.profile.remember(config.session)
    game = None
    if config.players and seat.profile.public in {p.identity for p in config.players}:
        game = GameDir(seat.profile.game_dir(config.session))
        host, port = host_addr if host_addr is not None else ("", 0)
        game.save_start(SavedStart(seated.start, seated.mesh.table_id, seated.mesh.code,
                                   host, port))
    return NetSession(seated.start, seated.mesh, seat.profile.identity,
                      _transcript_path(seat, seated, transcript), name=seat.name,
                      pending=seated.pending, timeout=seat.timeout, game=game,
                      host_addr=host_addr, pass_delay=seat.pass_delay,
                      src=seat.randomness(config.session))


async def resume_game(seat: Seat, game: GameDir) -> NetSession:
    """Rebuild an unfinished game after a crash: listen where this player listened, dial
    the players it owes a link (the smaller identity key dials), replay the transcript
    and catch up. ``StoreError`` (clear text) if the game directory cannot be used."""
    saved = game.load_start()
    start = saved.start
    me = seat.profile.public
    mine = next((a for a in start.addresses if a.identity == me), None)
    if mine is None or me not in {p.identity for p in start.config.players}:
        raise TableClosed(_("this game directory is not one of this profile's seats"))
    internet = is_reach(saved.host) or any(is_reach(a.host) for a in start.addresses)
    mesh = Mesh(seat.profile.identity, saved.table_id, saved.code,
                accept=lambda ident: ident in {a.identity for a in start.addresses},
                transport=internet_transport(seat, saved.table_id, saved.code)
                if internet else None)
    mesh.enter_game(start_members(start), start.config.session)
    try:
        await mesh.listen(seat.listen_host, mine.port)
        host_addr = (saved.host, saved.port) if saved.host else None
        session = NetSession(start, mesh, seat.profile.identity, game.transcript,
                             name=seat.name, timeout=seat.timeout, game=game, resume=True,
                             host_addr=host_addr, pass_delay=seat.pass_delay)
        session.start_redials()
        return session
    except BaseException:
        await mesh.close()
        raise


def _ad(opened: Opened, tid: bytes, rules: Rules, view: LobbyView | None, wanted: int,
        playing: bool) -> TableAd:
    taken = len(view.players) if view is not None else 1
    suspects = None if view is None else tuple(sorted(
        m.suspect for m in view.players if m.suspect is not None))
    return TableAd(
        table_id=tid, name=opened.name, preset=rules.name(), seats_taken=taken,
        seats_wanted=wanted, playing=playing, version=PROTOCOL_VERSION,
        fingerprint=opened.fingerprint, host=opened.host, port=opened.port,
        needs_code=opened.code is not None, taken=suspects)


async def open_table(
    seat: Seat, table_name: str, rules: Rules, players: int, code: str | None, *,
    on_opened: Callable[[Opened], None], on_view: Callable[[LobbyView], None],
    actions: asyncio.Queue[LobbyAction] | None = None, announce: bool = True,
    transcript: Path | None = None, finder: Discovery | None = None,
    transport: Transport | None = None, internet: bool = False,
    on_code: Callable[[Opened], None] | None = None, own_bots: bool = False,
    port: int = 0, after: bytes | None = None, on_links: LinkSink | None = None,
) -> NetSession:
    """Open a table, keep its lobby until the signed start, and return the session.
    ``finder``: how the table is announced (mDNS by default); ``transport``: what makes
    its links (TCP with the table code by default); ``internet``: over iroh, not
    announced, with a ticket to show (``Opened.ticket``). ``on_code``: told when too many
    wrong codes turned the table to a fresh code (``Opened.code``, ``code_turns``) or closed
    its entry (``entry_closed``); the lobby view changes at the same time. ``own_bots``:
    this process seats bots of its own (``bot_transport``): they come through a door of
    the opener's transport (``Opened.door``), not with the code. Playing again:
    ``port``, where the table listened for its last game (its players dial it there
    again), and ``after``, that game's session id, named in the table's view.
    ``on_links``: told every few seconds how the links run (direct or relayed, round
    trip) while the lobby fills, when the transport measures it (iroh does)."""
    tid = table_id(table_name)
    if internet:
        transport = transport or internet_transport(seat, table_name, code)
        announce = False
    door = OpenerDoor(transport or TcpTransport(seat.profile.identity, tid, code),
                      seat.profile.public) if own_bots else None
    mesh = Mesh(seat.profile.identity, tid, code, transport=door or transport)
    announcer: Announcement | None = None
    updates: list[asyncio.Task[None]] = []
    try:
        listener = await mesh.listen(seat.listen_host, port)
        fp = fingerprint(seat.profile.public)
        opened = Opened(table_name, code, listener.host, listener.port, fp, False, door=door)
        if is_reach(listener.host):
            opened.ticket = Ticket(table_name, parse_reach(listener.host)).text()
        lobby = HostLobby(seat.profile.identity, TableInfo(table_name, rules, players, after),
                          seat.name, listener.port, seat.nonce(after),
                          seen=seat.profile.seen, suspect=seat.suspect)
        if announce:
            try:
                announcer = await (finder or discovery.Mdns()).announce(
                    _ad(opened, tid, rules, lobby.view(), players, False), seat.interfaces)
                opened.announced = True
            except Exception as exc:  # zeroconf raises many kinds; the table still works
                opened.announce_error = f"{type(exc).__name__}: {exc}"
        on_opened(opened)

        def view_changed(view: LobbyView) -> None:
            on_view(view)
            if announcer is not None:
                updates.append(asyncio.ensure_future(
                    announcer.update(_ad(opened, tid, rules, view, players, False))))

        def code_turned(code: str | None) -> None:
            if code is None:
                opened.entry_closed = True
            else:
                opened.code, opened.code_turns = code, opened.code_turns + 1
            if on_code is not None:
                on_code(opened)

        async with links_shown(mesh, on_links):
            seated = await host_lobby(lobby, mesh, view_changed, actions, on_code=code_turned)
        session = _session(seat, seated, transcript)
    except BaseException:
        await mesh.close()
        for task in updates:
            task.cancel()
        if announcer is not None:
            with contextlib.suppress(Exception):
                await announcer.close()
        raise
    if announcer is not None:
        session.on_close.append(_announce_playing(
            announcer, updates, _ad(opened, tid, rules, lobby.view(), players, True)))
    return session


def _announce_playing(announcer: Announcement, updates: list[asyncio.Task[None]],
                      ad: TableAd) -> Callable[[], Awaitable[None]]:
    """Mark the table as playing in the background; returns the hook that withdraws it.

    An mDNS update takes about half a second (python-zeroconf repeats the announcement
    with pauses), and every guest waits for the host's first frame: the session starts
    at once and the record catches up meanwhile (docs/protocol.md, "Discovery records").
    The last update waits for the lobby's own updates, so "playing" is the final word.
    """

    async def mark() -> None:
        await asyncio.gather(*updates, return_exceptions=True)
        with contextlib.suppress(Exception):
            await announcer.update(ad)

    marking = asyncio.ensure_future(mark())

    async def withdraw() -> None:
        marking.cancel()
        await asyncio.gather(marking, return_exceptions=True)
        await announcer.close()

    return withdraw


async def find_table(interfaces: list[str], name: str | None, timeout: float,
                     finder: Discovery | None = None) -> TableAd:
    """Wait for a table (by name, or any) to be announced on the LAN (``finder``: how;
    mDNS by default)."""
    browser = await (finder or discovery.Mdns()).browse(interfaces)
    try:
        try:
            return await browser.wait_for(name, timeout)
        except SameName as exc:
            raise NoTable(str(exc)) from None
        except (TimeoutError, LookupError):
            found = (_("found no answer for the table {name} within {seconds} s.") if name
                     else _("found no answer for any table within {seconds} s.")).format(
                name=repr(name), seconds=f"{timeout:g}")
            raise NoTable(found + " " + _(
                "If the table is open, multicast may be blocked on this network (Wi-Fi "
                "client isolation, some company LANs): join it directly with --peer "
                "HOST:PORT --table NAME, as shown on the opener's screen.")) from None
    finally:
        with contextlib.suppress(Exception):
            await browser.close()


async def list_tables(interfaces: list[str], wait: float,
                      finder: Discovery | None = None) -> list[TableAd]:
    browser = await (finder or discovery.Mdns()).browse(interfaces)
    try:
        await asyncio.sleep(wait)
        return browser.tables()
    finally:
        with contextlib.suppress(Exception):
            await browser.close()


async def join_table(
    seat: Seat, table_name: str, host: str, port: int, code: str | None, *,
    role: str = "player", on_view: Callable[[LobbyView], None],
    actions: asyncio.Queue[LobbyAction] | None = None, transcript: Path | None = None,
    wait: float = 0.0, opener: str | None = None, ask_last_seat: bool = False,
    transport: Transport | None = None, after: bytes | None = None,
    on_links: LinkSink | None = None,
) -> NetSession:
    """Join a table at ``host:port`` (as a player or a spectator); returns the session.

    ``wait``: keep trying to reach the table that long (it may not be open yet).
    ``opener``: the fingerprint its record showed; another key there is not that table.
    ``ask_last_seat``: a person sits here; should this seat fill the table without a
    wish (the record was stale), the start waits for their ``Pick`` (``GuestLobby``).
    A wrong code raises ``WrongTableCode``, a missing one ``CodeNeeded`` (both
    ``TableClosed``): a front end asks for the code again. A table that answers the hello
    with a refusal raises ``TableRefused`` at once: only a table not reached is re-dialled.
    ``after``: playing again, the session id of the game just played here; another table
    is left (``LobbyError``). ``on_links``: as for ``open_table`` (a joiner's one link in
    the lobby is the opener's).
    """
    if transport is None and is_reach(host):  # an internet table's opener (its ticket)
        transport = internet_transport(seat, table_name, code)
    mesh = Mesh(seat.profile.identity, table_id(table_name), code, transport=transport)
    try:
        listener = await mesh.listen(seat.listen_host, 0)
        lobby = GuestLobby(seat.profile.identity, seat.name, listener.port,
                           seat.nonce(after), role=role, wish=seat.suspect,
                           seen=seat.profile.seen, ask_last_seat=ask_last_seat,
                           via=listener.host if is_reach(listener.host) else None,
                           after=after)
        loop = asyncio.get_running_loop()
        end = loop.time() + wait
        delay = 0.2
        while True:
            try:
                async with links_shown(mesh, on_links):
                    seated = await guest_lobby(lobby, mesh, host, port, on_view, actions,
                                               opener=opener)
                break
            except (OSError, Unreachable, HandshakeTimeout, LinkClosed, Busy,
                    BadAddress) as exc:
                if isinstance(exc, Busy):  # it slows this address after a wrong
                    end = max(end, loop.time() + BUSY_PATIENCE)  # code: wait it out once
                if isinstance(exc, BadAddress) or loop.time() + delay > end:
                    where = "iroh" if is_reach(host) else f"{host}:{port}"
                    raise NoTable(_("cannot reach the table at {address}: {error}").format(
                        address=where,
                        error=os_error_line(exc) if isinstance(exc, OSError) else exc)) from None
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
            except WrongCode:
                raise WrongTableCode(_("the table refused the code (wrong code?)")) from None
            except Refused as exc:
                if exc.reason == "needs-code":
                    raise CodeNeeded(str(exc)) from None
                raise TableClosed(_("the table refused the link: {error}").format(
                    error=exc)) from None
            except LinkError as exc:
                raise TableClosed(_("the table refused the link: {error}").format(
                    error=exc)) from None
        return _session(seat, seated, transcript, (host, port))
    except BaseException:
        await mesh.close()
        raise


def environ_interfaces(cli_values: list[str] | None) -> list[str]:
    return discovery.interfaces(cli_values or [], os.environ)
