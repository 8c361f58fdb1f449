"""Running the lobby over real links, then completing the mesh for the game.

``host_lobby`` drives the opener's ``HostLobby``; ``guest_lobby`` a joiner's or a
spectator's ``GuestLobby``. Both read one inbox (``Mesh``), hand every lobby view to
the front end through ``on_view``, take the local player's lobby choices from
``actions``, and return a ``Seated`` once every player signed the start. Engine and
sync messages that arrive early are kept for the session runner.

After the start every player links to every other player (the smaller identity key
dials, so two dials never cross) and a spectator dials every player.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from p2pclue.i18n import N_, _
from p2pclue.net.ads import fingerprint
from p2pclue.net.api import LinkPath
from p2pclue.net.guesses import CODE_BUDGET, CODE_DIGITS, CODE_TURNS, is_fresh_code
from p2pclue.net.lobby import (
    GuestLobby,
    HelloRefused,
    HostLobby,
    LobbyError,
    LobbyView,
    Out,
    Start,
)
from p2pclue.net.mesh import TAG_LOBBY, Item, LinkDown, LinkUp, Mesh, Received, Refused, decode_meta
from p2pclue.net.transport import BadAddress, LinkError

DIAL_ATTEMPTS = 6
LAST_SEAT_PATIENCE = 45.0
"""Seconds a joiner who filled the table unasked may take to choose its suspect before it
signs the start with the one the host gave (the others wait meanwhile)."""
REPROPOSE_PATIENCE = 5.0
"""Seconds to wait for the host's new proposal after such a pick (a host that ignores it
leaves the held start, signed as it is)."""
PENDING_PER_LINK = 16
"""Messages of one link kept for the game while this member is still in the lobby. An
honest peer sends only its ``have`` before it got ours (no frame: see ``NetSession._relay``),
so the rest is dropped unread: a lobby flood costs no memory."""


class TableClosed(Exception):
    """The lobby ended before the game started (with a message for the user)."""


SAID_REFUSALS = (N_("the table is full"), N_("the game has already started"),
                 N_("there are enough spectators"), N_("this key is already at the table"))
"""The reasons a table gives a hello that a person can meet, said in the reader's language
(the table sends them in the protocol's English; any other is shown as it came)."""


class TableRefused(TableClosed):
    """The table refused this member's hello: final, so it is never dialled again for it
    (``join_table`` re-dials only a table it could not reach). ``reason``: as sent."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        said = _(reason) if reason in SAID_REFUSALS else repr(reason)
        super().__init__(_("the table refused to seat you: {reason}").format(reason=said))


@dataclass(frozen=True)
class Pick:
    suspect: int


@dataclass(frozen=True)
class Ready:
    ready: bool


LobbyAction = Pick | Ready


@dataclass
class Seated:
    start: Start
    mesh: Mesh
    pending: list[Item] = field(default_factory=list)
    """Engine and sync messages that arrived before the start."""


ViewSink = Callable[[LobbyView], None]
CodeSink = Callable[[str | None], None]
"""Told the opener's fresh code when the table turns to one (None: nobody new can join)."""
LinkSink = Callable[[dict[bytes, LinkPath]], None]
"""Told how this member's links run (direct or relayed, round trip), by identity key."""
LINK_SAMPLE_EVERY = 2.0
"""Seconds between two looks at how the links run, while the lobby fills."""


@contextlib.asynccontextmanager
async def links_shown(mesh: Mesh, on_links: LinkSink | None,
                      every: float = LINK_SAMPLE_EVERY) -> AsyncIterator[None]:
    """While the block runs, tell ``on_links`` how the mesh's links run whenever a look
    every ``every`` seconds finds a change. A LAN table's links measure nothing, so its
    front end is told nothing; the lobby's own logic never sees these numbers."""
    if on_links is None:
        yield
        return

    async def sample() -> None:
        last: dict[bytes, LinkPath] = {}
        while True:
            now = mesh.paths()
            if now != last:
                last = now
                on_links(now)
            await asyncio.sleep(every)

    task = asyncio.ensure_future(sample())
    try:
        yield
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def _keep(pending: list[Item], item: Item) -> None:
    """Keep ``item`` for the game, but at most ``PENDING_PER_LINK`` messages of one link."""
    if isinstance(item, Received) and sum(
            1 for p in pending
            if isinstance(p, Received) and p.identity == item.identity) >= PENDING_PER_LINK:
        return
    pending.append(item)


async def _next(mesh: Mesh, actions: asyncio.Queue[LobbyAction] | None,
                timeout: float | None = None) -> Item | LobbyAction | None:
    """The next inbox item or local lobby action, whichever comes first (None: ``timeout``
    seconds passed first; a get that did not finish takes nothing from its queue)."""
    inbox = asyncio.ensure_future(mesh.inbox.get())
    if actions is None:
        got, _left = await asyncio.wait({inbox}, timeout=timeout)
        if not got:
            inbox.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await inbox
            return None
        return inbox.result()
    local = asyncio.ensure_future(actions.get())
    done, _pending = await asyncio.wait({inbox, local}, timeout=timeout,
                                        return_when=asyncio.FIRST_COMPLETED)
    if not done:
        for task in (inbox, local):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        return None
    for task, other in ((inbox, local), (local, inbox)):
        if task in done:
            if other in done:  # both arrived: keep the other for next time
                if other is inbox:
                    mesh.inbox.put_nowait(other.result())  # type: ignore[arg-type]
                else:
                    actions.put_nowait(other.result())  # type: ignore[arg-type]
            else:
                other.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await other
            return task.result()
    raise AssertionError("asyncio.wait returned nothing")


async def host_lobby(lobby: HostLobby, mesh: Mesh, on_view: ViewSink,
                     actions: asyncio.Queue[LobbyAction] | None = None,
                     on_error: Callable[[str], None] | None = None,
                     on_code: CodeSink | None = None) -> Seated:
    """Keep the table until every player signed the start; returns with the mesh ready.
    ``on_code``: the opener's screen, told each fresh code (``_count_guesses``)."""
    hosts: dict[bytes, str] = {}
    pending: list[Item] = []
    on_view(lobby.view())
    while lobby.started is None:
        item = await _next(mesh, actions)
        assert item is not None  # no timeout asked
        outs: list[Out] = []
        try:
            if isinstance(item, Pick):
                outs = lobby.pick(item.suspect)
            elif isinstance(item, Ready):
                outs = lobby.set_ready(item.ready)
            elif isinstance(item, LinkUp):
                hosts[item.identity] = item.host
            elif isinstance(item, LinkDown):
                outs = lobby.disconnected(item.identity)
            elif isinstance(item, Refused):
                outs = _count_guesses(lobby, mesh, on_code)
            elif item.tag == TAG_LOBBY:
                msg = decode_meta(item.body)
                try:
                    if msg is not None and msg.get("t") == "attempts":
                        if not mesh.guesses.report(item.identity, msg.get("n")):
                            raise LobbyError("bad attempt count")
                        outs = _count_guesses(lobby, mesh, on_code)
                    else:
                        outs = lobby.receive(item.identity, hosts.get(item.identity, ""), msg)
                except LobbyError as exc:
                    mesh.send(item.identity, TAG_LOBBY, {"t": "refuse", "reason": str(exc)})
                    await mesh.flush(1.0)
                    await mesh.drop(item.identity)
                    outs = lobby.disconnected(item.identity)
            else:
                _keep(pending, item)
        except LobbyError as exc:  # a local choice that is not allowed now: say why
            if on_error is not None:
                on_error(str(exc))
        _route(mesh, lobby, outs)
        on_view(lobby.view())
    start = lobby.started
    await mesh.flush(2.0)
    await complete_mesh(start, mesh, host_addr=None)
    return Seated(start, mesh, pending)


def _count_guesses(lobby: HostLobby, mesh: Mesh, on_code: CodeSink | None) -> list[Out]:
    """The table's wrong codes changed: show every member. A used-up code turns to a fresh
    one (a fresh budget; links already up need no code), told to the opener's screen and
    to every member (``code``: their listeners admit late spectators with it); after
    ``CODE_TURNS`` turns the code stops for good."""
    outs: list[Out] = []
    guesses = mesh.guesses
    if guesses.dead and guesses.turn < CODE_TURNS and mesh.code is not None:
        code = fresh_code()
        mesh.turn_code(code)
        outs.append((None, {"t": "code", "code": code, "turn": guesses.turn}))
        if on_code is not None:
            on_code(code)
    elif guesses.dead and not mesh.gate.code_dead:
        mesh.code_used_up()
        if on_code is not None:
            on_code(None)
    return outs + lobby.set_attempts(guesses.total)


def _route(mesh: Mesh, lobby: HostLobby, outs: list[Out]) -> None:
    for to, msg in outs:
        if to is None:
            for ident in lobby.guests:
                mesh.send(ident, TAG_LOBBY, msg)
        else:
            mesh.send(to, TAG_LOBBY, msg)


async def guest_lobby(lobby: GuestLobby, mesh: Mesh, host: str, port: int, on_view: ViewSink,
                      actions: asyncio.Queue[LobbyAction] | None = None,
                      timeout: float = 10.0, opener: str | None = None) -> Seated:
    """Dial the table, say hello, follow it, sign a fair start; returns with the mesh ready.

    ``opener``: the key fingerprint the table's record showed: a table is its opener's key,
    so another key answering there is refused (a stranger's record with the same name)."""
    mesh.only_through_opener()
    host_ident = await mesh.dial(host, port, timeout=timeout)
    if opener is not None and fingerprint(host_ident) != opener:
        await mesh.drop(host_ident)
        raise TableClosed(_("{address} answered with the key {key}, not the opener's key "
                            "{expected} its record showed: not that table").format(
            address=f"{host}:{port}", key=fingerprint(host_ident), expected=opener))
    mesh.send(host_ident, TAG_LOBBY, lobby.hello())
    if mesh.guesses.own:
        mesh.send(host_ident, TAG_LOBBY, mesh.guesses.message())
    pending: list[Item] = []
    loop = asyncio.get_running_loop()
    hold_until: float | None = None
    """While a start is held (``GuestLobby.held``): when to sign it as it is."""
    while lobby.started is None:
        wait = None if hold_until is None else max(0.0, hold_until - loop.time())
        item = await _next(mesh, actions, wait)
        if item is None:  # the person took too long, or the host kept the suspect
            for reply in lobby.sign_held():
                mesh.send(host_ident, TAG_LOBBY, reply)
        elif isinstance(item, Refused):  # our own listener met a wrong code: tell the table
            mesh.send(host_ident, TAG_LOBBY, mesh.guesses.message())
        elif isinstance(item, Pick):
            replies = (lobby.choose(item.suspect) if lobby.asking or lobby.held is not None
                       else [lobby.pick(item.suspect)])
            for reply in replies:
                mesh.send(host_ident, TAG_LOBBY, reply)
            if lobby.held is not None:  # asked the host for another suspect: it re-proposes
                hold_until = loop.time() + REPROPOSE_PATIENCE
        elif isinstance(item, Ready):
            mesh.send(host_ident, TAG_LOBBY, lobby.set_ready(item.ready))
        elif isinstance(item, LinkDown) and item.identity == host_ident:
            raise TableClosed(_("the table closed before the game started"))
        elif isinstance(item, Received) and item.tag == TAG_LOBBY \
                and item.identity == host_ident:
            msg = decode_meta(item.body)
            try:
                if isinstance(msg, dict) and msg.get("t") == "code":
                    _take_code(mesh, msg)
                    continue
                replies = lobby.receive(msg)
            except HelloRefused as exc:
                raise TableRefused(exc.reason) from None
            except LobbyError as exc:
                raise TableClosed(str(exc)) from None
            for reply in replies:
                mesh.send(host_ident, TAG_LOBBY, reply)
            if lobby.view is not None:
                if lobby.view.failed_attempts >= CODE_BUDGET:
                    mesh.code_used_up()
                on_view(lobby.view)
        elif isinstance(item, Received | LinkUp | LinkDown):
            _keep(pending, item)
        if lobby.held is None:
            hold_until = None
        elif hold_until is None:  # a start held while the person chooses a suspect
            hold_until = loop.time() + LAST_SEAT_PATIENCE
    await complete_mesh(lobby.started, mesh, host_addr=(host, port))
    return Seated(lobby.started, mesh, pending)


def fresh_code() -> str:
    """A new random code for a table whose code is used up (six digits, as at its opening)."""
    return "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS))


def _take_code(mesh: Mesh, msg: dict[str, object]) -> None:
    """The opener turned the table to a fresh code: our listeners admit late spectators
    with it once the game starts. ``LobbyError`` for anything but the next turn's code."""
    code, turn = msg.get("code"), msg.get("turn")
    if set(msg) != {"t", "code", "turn"} or not is_fresh_code(code) \
            or not isinstance(turn, int) or isinstance(turn, bool) \
            or not mesh.guesses.turn < turn <= CODE_TURNS:
        raise LobbyError("bad code message")
    assert isinstance(code, str)
    mesh.turn_code(code, turn)


async def complete_mesh(start: Start, mesh: Mesh, host_addr: tuple[str, int] | None) -> None:
    """Dial the links this member owes (see the module docstring); retries with back-off."""
    me = mesh.public
    mesh.enter_game(start_members(start), start.config.session)
    players = {p.identity for p in start.config.players}
    spectator = me not in players
    targets = []
    for a in start.addresses:
        if a.identity == me or a.identity in mesh.linked() or a.role != "player":
            continue
        if spectator or me < a.identity:
            host = a.host if a.host else (host_addr[0] if host_addr else "")
            if host:
                targets.append((a.identity, host, a.port))
    await asyncio.gather(*(_dial_until(mesh, ident, host, port)
                           for ident, host, port in targets))


async def _dial_until(mesh: Mesh, ident: bytes, host: str, port: int) -> None:
    delay = 0.1
    for _attempt in range(DIAL_ATTEMPTS):
        if ident in mesh.linked():
            return
        try:
            await mesh.dial(host, port, timeout=5.0, expect=ident)
        except BadAddress:
            return  # no retry can help (the start names IP addresses only: the --peer host)
        except (LinkError, OSError):
            await asyncio.sleep(delay)
            delay *= 2
            continue
        return


def start_members(start: Start) -> frozenset[bytes]:
    """Every key the signed start names (players, and spectators present at the start)."""
    return frozenset({p.identity for p in start.config.players}
                     | {a.identity for a in start.addresses})

