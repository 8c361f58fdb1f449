"""The lobby: who sits at the table, as a sans-IO state machine (no sockets, no clock).

The opener's ``HostLobby`` keeps the seats; each joiner runs a ``GuestLobby``. Messages
travel over links already authenticated to identity keys, so every input names the
identity it came from. The host only orders things: it cannot start a game for anyone.
A game starts from a ``GameConfig`` that every player has signed, and its session id is
the hash of a fresh nonce of every player, each of whom checks that its own nonce is in
it before signing. So no one can start a game for others, and no old game can be replayed
(a peer also refuses a session id it has seen before).

Seats follow the chosen suspects' order around the board (Scarlett, Mustard, White,
Green, Peacock, Plum: clockwise from the start squares), so the seat order is a rule every
player checks rather than something the host decides. The table starts when every seat
is taken, or when at least three players are present and all of them said they are ready.

Message shapes (msgpack maps with a ``t`` key) are specified in docs/protocol.md.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.engine.config import (
    MAX_NAME_CHARS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    GameConfig,
    PlayerInfo,
    table_check,
)
from p2pclue.engine.errors import WireError
from p2pclue.net import hosts
from p2pclue.net.reach import ReachError, is_reach, parse_reach
from p2pclue.rules.cards import SUSPECTS
from p2pclue.rules.variants import Rules

SUSPECT_IDS = tuple(c.index for c in SUSPECTS)
MAX_SPECTATORS = 8
NONCE_BYTES = 32
START_PREFIX = b"p2pclue/v1/start\x00"
SESSION_PREFIX = b"p2pclue/v1/session\x00"
ROLES = ("player", "spectator")


class LobbyError(Exception):
    """A lobby message that breaks the lobby's rules (the link that sent it is refused)."""


MAX_REFUSAL_CHARS = 200
"""A refusal's reason is cut to this many characters (it is shown as the table sent it)."""


class HelloRefused(LobbyError):
    """The table answered this member's hello with ``refuse``: final, whatever is tried
    again. ``reason`` is the table's own text (the protocol's English), printable only."""

    def __init__(self, reason: str) -> None:
        self.reason = "".join(c for c in reason if c.isprintable())[:MAX_REFUSAL_CHARS]
        super().__init__(f"the table refused: {self.reason}")


# ---- values every side computes the same way --------------------------------------------


def session_id(nonces: list[bytes]) -> bytes:
    """The game's session id: one fresh nonce of every player, in seat order."""
    h = hashlib.sha256(SESSION_PREFIX)
    for n in nonces:
        h.update(len(n).to_bytes(1, "big") + n)
    return h.digest()


def start_message(config: GameConfig) -> bytes:
    """What each player signs to agree to start exactly this game."""
    return START_PREFIX + config.digest()


def seat_order(players: list[PlayerInfo]) -> tuple[PlayerInfo, ...]:
    """Clockwise seats: by the chosen suspect's place around the board."""
    return tuple(sorted(players, key=lambda p: SUSPECT_IDS.index(p.suspect)))


def check_name(name: Any) -> str:
    if not isinstance(name, str) or not name or len(name) > MAX_NAME_CHARS \
            or not name.isprintable():
        raise LobbyError(f"a name is 1-{MAX_NAME_CHARS} printable characters")
    return name


# ---- what the lobby looks like (for the front end to draw) -----------------------------


@dataclass(frozen=True)
class TableInfo:
    name: str
    rules: Rules
    wanted: int
    """Seats the opener asked for (3-6)."""
    after: bytes | None = None
    """The session id of the game this one follows at the same table ("play again"); None
    for a table's first game. It links an evening's games, nothing more: each game is its
    own session with its own signed start (docs/protocol.md, "An evening of games")."""

    def to_wire(self) -> dict[str, Any]:
        wire = {"name": self.name, "rules": self.rules.to_wire(), "wanted": self.wanted}
        if self.after is not None:
            wire["after"] = self.after
        return wire

    @classmethod
    def from_wire(cls, obj: Any) -> TableInfo:
        base = {"name", "rules", "wanted"}
        _keys(obj, base | {"after"} if isinstance(obj, dict) and "after" in obj else base,
              "table")
        after = obj.get("after")
        if "after" in obj and (not isinstance(after, bytes) or len(after) != 32):
            raise LobbyError("a table's previous session is a 32-byte id")
        try:
            rules = Rules.from_wire(obj["rules"])
        except Exception as exc:  # the rules' own WireError: any failure is a bad message
            raise LobbyError(f"bad rules: {exc}") from None
        wanted = obj["wanted"]
        if not isinstance(wanted, int) or isinstance(wanted, bool) \
                or not MIN_PLAYERS <= wanted <= MAX_PLAYERS:
            raise LobbyError("a table has 3 to 6 seats")
        return cls(check_name(obj["name"]), rules, wanted, after)


@dataclass(frozen=True)
class Member:
    identity: bytes
    name: str
    role: str
    suspect: int | None = None
    ready: bool = False

    def to_wire(self) -> dict[str, Any]:
        return {"id": self.identity, "name": self.name, "role": self.role,
                "suspect": self.suspect, "ready": self.ready}

    @classmethod
    def from_wire(cls, obj: Any) -> Member:
        _keys(obj, {"id", "name", "role", "suspect", "ready"}, "member")
        ident, role, suspect, ready = obj["id"], obj["role"], obj["suspect"], obj["ready"]
        if not isinstance(ident, bytes) or len(ident) != 32:
            raise LobbyError("a member id is a 32-byte key")
        if role not in ROLES or not isinstance(ready, bool):
            raise LobbyError("bad member role or ready flag")
        if suspect is not None and suspect not in SUSPECT_IDS:
            raise LobbyError("not a suspect")
        return cls(ident, check_name(obj["name"]), role, suspect, ready)


@dataclass(frozen=True)
class LobbyView:
    table: TableInfo
    members: tuple[Member, ...]
    """The host first, then players and spectators in the order they arrived."""
    failed_attempts: int = 0

    @property
    def players(self) -> tuple[Member, ...]:
        return tuple(m for m in self.members if m.role == "player")

    @property
    def spectators(self) -> tuple[Member, ...]:
        return tuple(m for m in self.members if m.role == "spectator")

    def free_suspects(self) -> tuple[int, ...]:
        taken = {m.suspect for m in self.players}
        return tuple(s for s in SUSPECT_IDS if s not in taken)

    def to_wire(self) -> dict[str, Any]:
        return {"t": "lobby", "table": self.table.to_wire(),
                "members": [m.to_wire() for m in self.members],
                "attempts": self.failed_attempts}

    @classmethod
    def from_wire(cls, obj: Any) -> LobbyView:
        _keys(obj, {"t", "table", "members", "attempts"}, "lobby")
        members = obj["members"]
        if not isinstance(members, list) or len(members) > MAX_PLAYERS + MAX_SPECTATORS:
            raise LobbyError("bad member list")
        attempts = obj["attempts"]
        if not isinstance(attempts, int) or isinstance(attempts, bool) or attempts < 0:
            raise LobbyError("bad attempt count")
        return cls(TableInfo.from_wire(obj["table"]),
                   tuple(Member.from_wire(m) for m in members), attempts)


@dataclass(frozen=True)
class Address:
    identity: bytes
    role: str
    host: str
    """"": reach it where you reached the lobby (the host itself, and a guest that came
    from the host's own machine)."""
    port: int

    def to_wire(self) -> dict[str, Any]:
        return {"id": self.identity, "role": self.role, "host": self.host, "port": self.port}

    @classmethod
    def from_wire(cls, obj: Any) -> Address:
        _keys(obj, {"id", "role", "host", "port"}, "address")
        ident, role, host, port = obj["id"], obj["role"], obj["host"], obj["port"]
        if not isinstance(ident, bytes) or len(ident) != 32 or role not in ROLES:
            raise LobbyError("bad address entry")
        if not isinstance(host, str) or not isinstance(port, int) \
                or isinstance(port, bool) or not 0 < port < 65536:
            raise LobbyError("bad address")
        if is_reach(host):  # an internet table: the member's own iroh reach
            check_via(host, ident)
        elif len(host) > 64 or (host and not hosts.ip_literal(host)):  # what a socket reported
            raise LobbyError(f"bad address: {host!r} is not an IP address")
        return cls(ident, role, host, port)


def check_via(text: Any, identity: bytes) -> str:
    """An internet member's reach text (``net.reach``): well formed, naming its own key."""
    try:
        reach = parse_reach(text)
    except ReachError as exc:
        raise LobbyError(f"bad endpoint address: {exc}") from None
    if reach.key != identity:
        raise LobbyError("an endpoint address names another key than its member's")
    return str(text)


@dataclass(frozen=True)
class Start:
    """A started game: the config, every player's signature on it, and where peers listen."""

    config: GameConfig
    nonces: tuple[bytes, ...]
    signatures: tuple[bytes, ...]
    addresses: tuple[Address, ...]

    @property
    def check(self) -> str:
        return table_check(self.config)

    def to_wire(self) -> dict[str, Any]:
        return {"t": "start", "config": self.config.to_wire(), "nonces": list(self.nonces),
                "sigs": list(self.signatures), "peers": [a.to_wire() for a in self.addresses]}


def verify_start(obj: Any, seen: Callable[[bytes], bool]) -> Start:
    """Check a ``start`` message as any member (player or spectator) must."""
    _keys(obj, {"t", "config", "nonces", "sigs", "peers"}, "start")
    config = _config(obj["config"])
    nonces = _bytes_list(obj["nonces"], config.n_players, NONCE_BYTES, "nonces")
    sigs = _bytes_list(obj["sigs"], config.n_players, 64, "signatures")
    _check_derived(config, nonces)
    if seen(config.session):
        raise LobbyError("this session was played before: refusing a replayed game")
    message = start_message(config)
    for seat, (player, sig) in enumerate(zip(config.players, sigs, strict=True)):
        try:
            player.public_key().verify(sig, message)
        except InvalidSignature:
            raise LobbyError(f"seat {seat} ({player.name}) did not sign this game") from None
    peers = obj["peers"]
    if not isinstance(peers, list) or len(peers) > MAX_PLAYERS + MAX_SPECTATORS:
        raise LobbyError("bad peer list")
    addresses = tuple(Address.from_wire(a) for a in peers)
    roster = {p.identity for p in config.players}
    if {a.identity for a in addresses if a.role == "player"} != roster:
        raise LobbyError("the peer list does not match the players")
    return Start(config, tuple(nonces), tuple(sigs), addresses)


def _config(obj: Any) -> GameConfig:
    try:
        return GameConfig.from_wire(obj)
    except WireError as exc:
        raise LobbyError(f"bad config: {exc}") from None


def _check_derived(config: GameConfig, nonces: list[bytes]) -> None:
    if config.session != session_id(nonces):
        raise LobbyError("the session id is not the hash of the players' nonces")
    if tuple(config.players) != seat_order(list(config.players)):
        raise LobbyError("the seats are not in the suspects' order around the board")


def _keys(obj: Any, keys: set[str], what: str) -> None:
    if not isinstance(obj, dict) or set(obj) != keys:
        raise LobbyError(f"a {what} message has exactly the keys {sorted(keys)}")


def _bytes_list(obj: Any, n: int, size: int, what: str) -> list[bytes]:
    if not isinstance(obj, list) or len(obj) != n \
            or not all(isinstance(b, bytes) and len(b) == size for b in obj):
        raise LobbyError(f"{what}: {n} values of {size} bytes")
    return list(obj)


# ---- the opener's side ---------------------------------------------------------------


Out = tuple[bytes | None, dict[str, Any]]
"""A message to send: to one identity, or (None) to every member."""


@dataclass
class _Guest:
    member: Member
    host: str
    port: int
    nonce: bytes


@dataclass
class HostLobby:
    """The opener's lobby: keeps seats, proposes the start, gathers the signatures."""

    key: Ed25519PrivateKey
    table: TableInfo
    name: str
    port: int
    nonce: bytes
    seen: Callable[[bytes], bool] = field(default=lambda s: False)
    suspect: int | None = None
    ready: bool = False
    failed_attempts: int = 0
    guests: dict[bytes, _Guest] = field(default_factory=dict)
    proposal: tuple[GameConfig, tuple[bytes, ...]] | None = None
    signatures: dict[bytes, bytes] = field(default_factory=dict)
    started: Start | None = None

    def __post_init__(self) -> None:
        check_name(self.name)
        if len(self.nonce) != NONCE_BYTES:
            raise LobbyError("the nonce is 32 bytes")
        self.identity = self.key.public_key().public_bytes_raw()
        if self.suspect is None:
            self.suspect = SUSPECT_IDS[0]
        elif self.suspect not in SUSPECT_IDS:
            raise LobbyError("not a suspect")

    # -- what the front end draws

    def view(self) -> LobbyView:
        me = Member(self.identity, self.name, "player", self.suspect, self.ready)
        return LobbyView(self.table, (me, *(g.member for g in self.guests.values())),
                         self.failed_attempts)

    # -- inputs

    def connected(self, identity: bytes, host: str) -> list[Out]:
        """A link came up; nothing happens until its ``hello``."""
        return []

    def disconnected(self, identity: bytes) -> list[Out]:
        if identity not in self.guests or self.started is not None:
            return []
        del self.guests[identity]
        return self._changed()

    def refused_attempt(self) -> list[Out]:
        """A dial with the wrong code (counted and shown to the table)."""
        return self.set_attempts(self.failed_attempts + 1)

    def set_attempts(self, total: int) -> list[Out]:
        """The table's wrong codes so far (``net.guesses``: every member's count)."""
        if total == self.failed_attempts:
            return []
        self.failed_attempts = total
        return self._changed() if self.started is None else []

    def receive(self, identity: bytes, host: str, msg: Any) -> list[Out]:
        """A lobby message from a linked peer; ``LobbyError`` means: refuse that link."""
        if not isinstance(msg, dict) or not isinstance(msg.get("t"), str):
            raise LobbyError("a lobby message is a map with a type")
        kind = msg["t"]
        if kind == "hello":
            return self._hello(identity, host, msg)
        guest = self.guests.get(identity)
        if guest is None:
            raise LobbyError("say hello first")
        if self.started is not None:
            return []  # late chatter after the start changes nothing
        if kind == "pick":
            _keys(msg, {"t", "suspect"}, "pick")
            return self._pick(guest, msg["suspect"])
        if kind == "ready":
            _keys(msg, {"t", "ready"}, "ready")
            if not isinstance(msg["ready"], bool) or guest.member.role != "player":
                raise LobbyError("ready is true or false, for players")
            guest.member = replace(guest.member, ready=msg["ready"])
            return self._changed()
        if kind == "sign":
            _keys(msg, {"t", "digest", "sig"}, "sign")
            return self._signed(identity, msg["digest"], msg["sig"])
        raise LobbyError(f"unknown lobby message {kind!r}")

    def pick(self, suspect: int) -> list[Out]:
        """The opener picks a free suspect."""
        if suspect not in self.view().free_suspects():
            raise LobbyError("that suspect is taken")
        self.suspect = suspect
        return self._changed()

    def set_ready(self, ready: bool) -> list[Out]:
        self.ready = ready
        return self._changed()

    # -- internals

    def _hello(self, identity: bytes, host: str, msg: dict[str, Any]) -> list[Out]:
        plain = {"t", "role", "name", "suspect", "port", "nonce"}
        _keys(msg, plain | {"via"} if "via" in msg else plain, "hello")
        role, name, port, nonce = msg["role"], msg["name"], msg["port"], msg["nonce"]
        if "via" in msg:  # an internet table: where this guest is reached over iroh
            host = check_via(msg["via"], identity)
        elif host and not hosts.ip_literal(host):
            raise LobbyError("a hello over iroh says where its sender is reached (via)")
        elif host and hosts.loopback(host):
            # a guest on the host's own machine (the opener's --bots, a second terminal):
            # the others reach it where they reach the host, never at their own loopback
            host = ""
        if identity == self.identity or identity in self.guests:
            raise LobbyError("this key is already at the table")
        if role not in ROLES:
            raise LobbyError("the role is player or spectator")
        check_name(name)
        if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
            raise LobbyError("bad port")
        if not isinstance(nonce, bytes) or len(nonce) != NONCE_BYTES:
            raise LobbyError("the nonce is 32 bytes")
        view = self.view()
        if role == "player":
            if self.started is not None or self.proposal is not None:
                raise LobbyError("the game has already started")
            if len(view.players) >= self.table.wanted:
                raise LobbyError("the table is full")
        elif len(view.spectators) >= MAX_SPECTATORS:
            raise LobbyError("there are enough spectators")
        member = Member(identity, name, role)
        self.guests[identity] = _Guest(member, host, port, nonce)
        if role == "player":
            free = view.free_suspects()
            wish = msg["suspect"]
            member = replace(member, suspect=wish if wish in free else free[0])
            self.guests[identity].member = member
        if self.started is not None:  # a spectator arriving during the game
            return [(identity, self.started.to_wire())]
        return self._changed()

    def _pick(self, guest: _Guest, suspect: Any) -> list[Out]:
        # A pick while a start is proposed (not yet signed by all) withdraws that proposal
        # and proposes anew: the player who filled the table picks its suspect then.
        if guest.member.role != "player":
            return []
        if suspect not in SUSPECT_IDS:
            raise LobbyError("not a suspect")
        if suspect != guest.member.suspect and suspect in self.view().free_suspects():
            guest.member = replace(guest.member, suspect=suspect)
        return self._changed()

    def _changed(self) -> list[Out]:
        """Broadcast the new view, and propose the start when the table is ready."""
        if self.proposal is not None and not self._proposal_still_holds():
            self.proposal, self.signatures = None, {}
        out: list[Out] = [(None, self.view().to_wire())]
        if self.proposal is None and self._can_start():
            out += self._propose()
        return out

    def _can_start(self) -> bool:
        players = self.view().players
        if len(players) == self.table.wanted:
            return True
        return len(players) >= MIN_PLAYERS and all(m.ready for m in players)

    def _proposal_still_holds(self) -> bool:
        assert self.proposal is not None
        config, _ = self.proposal
        return {(p.identity, p.suspect) for p in config.players} == \
            {(m.identity, m.suspect) for m in self.view().players}

    def _propose(self) -> list[Out]:
        players = self.view().players
        infos = seat_order([PlayerInfo(m.name, m.suspect or 0, m.identity) for m in players])
        nonces = tuple(self.nonce if p.identity == self.identity else
                       self.guests[p.identity].nonce for p in infos)
        config = GameConfig(infos, self.table.rules, session_id(list(nonces)))
        if self.seen(config.session):
            return []  # cannot happen with a fresh nonce of our own
        self.proposal = (config, nonces)
        self.signatures = {self.identity: self.key.sign(start_message(config))}
        msg = {"t": "propose", "config": config.to_wire(), "nonces": list(nonces)}
        return [(p.identity, msg) for p in infos if p.identity != self.identity]

    def _signed(self, identity: bytes, digest: Any, sig: Any) -> list[Out]:
        if self.proposal is None:
            return []  # a signature for a proposal that no longer holds
        config, nonces = self.proposal
        if digest != config.digest():
            return []  # signed an older proposal
        player = next((p for p in config.players if p.identity == identity), None)
        if player is None or not isinstance(sig, bytes):
            raise LobbyError("only the players sign the start")
        try:
            player.public_key().verify(sig, start_message(config))
        except InvalidSignature:
            raise LobbyError("the signature on the start does not verify") from None
        self.signatures[identity] = sig
        if len(self.signatures) < config.n_players:
            return []
        addresses = [Address(self.identity, "player", "", self.port)]
        addresses += [Address(i, g.member.role, g.host, g.port) for i, g in self.guests.items()]
        self.started = Start(config, nonces,
                             tuple(self.signatures[p.identity] for p in config.players),
                             tuple(addresses))
        return [(None, self.started.to_wire())]


# ---- a joiner's side -----------------------------------------------------------------


@dataclass
class GuestLobby:
    """A joiner's lobby: says hello, follows the host's view, signs only a fair start."""

    key: Ed25519PrivateKey
    name: str
    port: int
    nonce: bytes
    role: str = "player"
    wish: int | None = None
    seen: Callable[[bytes], bool] = field(default=lambda s: False)
    view: LobbyView | None = None
    signed: GameConfig | None = None
    started: Start | None = None
    via: str | None = None
    """This member's iroh reach text (``net.reach``) at an internet table; None on a LAN."""
    ask_last_seat: bool = False
    """A person sits here: if this seat turns out to fill the table (the record said more
    seats were free) without a wish, the start is not signed until they chose a suspect."""
    asking: bool = False
    """This seat filled the table unasked: the person is choosing (``choose``)."""
    held: dict[str, Any] | None = None
    """A ``propose`` not signed yet: held while the person chooses, or until the host
    proposes anew after their pick (``sign_held`` if it never does)."""
    after: bytes | None = None
    """Playing again: the session id of the game just played at this table; a table whose
    view names another (or none) is not that table's next game, and is left."""

    def __post_init__(self) -> None:
        check_name(self.name)
        if self.role not in ROLES:
            raise LobbyError("the role is player or spectator")
        self.identity = self.key.public_key().public_bytes_raw()

    def hello(self) -> dict[str, Any]:
        msg: dict[str, Any] = {"t": "hello", "role": self.role, "name": self.name,
                               "suspect": self.wish, "port": self.port, "nonce": self.nonce}
        if self.via is not None:
            msg["via"] = self.via
        return msg

    def pick(self, suspect: int) -> dict[str, Any]:
        return {"t": "pick", "suspect": suspect}

    def set_ready(self, ready: bool) -> dict[str, Any]:
        return {"t": "ready", "ready": ready}

    def me(self) -> Member | None:
        if self.view is None:
            return None
        return next((m for m in self.view.members if m.identity == self.identity), None)

    def receive(self, msg: Any) -> list[dict[str, Any]]:
        """A message from the host; returns the replies. ``LobbyError``: leave the table."""
        if not isinstance(msg, dict) or not isinstance(msg.get("t"), str):
            raise LobbyError("a lobby message is a map with a type")
        kind = msg["t"]
        if kind == "lobby":
            first = self.view is None
            view = LobbyView.from_wire(msg)
            if self.after is not None and view.table.after != self.after:
                raise LobbyError("this table is not the next game of the one just played")
            self.view = view
            me = self.me()
            self.asking = self.asking or (
                first and self.ask_last_seat and self.wish is None and me is not None
                and me.role == "player" and len(self.view.players) == self.view.table.wanted)
            return []
        if kind == "propose":
            _keys(msg, {"t", "config", "nonces"}, "propose")
            if self.asking:
                self.held = msg
                return []
            self.held = None
            return self._propose(msg)
        if kind == "start":
            start = verify_start(msg, self.seen)
            if self.role == "player" and start.config != self.signed:
                raise LobbyError("the game started is not the one this player signed")
            if self.role == "spectator" and any(p.identity == self.identity
                                                for p in start.config.players):
                raise LobbyError("a spectator cannot be seated")
            self.started = start
            return []
        if kind == "refuse":
            _keys(msg, {"t", "reason"}, "refuse")
            raise HelloRefused(str(msg["reason"]))
        raise LobbyError(f"unknown lobby message {kind!r}")

    def choose(self, suspect: int) -> list[dict[str, Any]]:
        """The person's suspect for the seat that filled the table: the held start is
        signed if it seats them so; otherwise the host is asked for it (it proposes anew,
        and that proposal is signed)."""
        self.asking = False
        me = self.me()
        if self.held is not None and me is not None and me.suspect == suspect:
            return self.sign_held()
        return [self.pick(suspect)]

    def sign_held(self) -> list[dict[str, Any]]:
        """Sign the held start as it is (the person took long, or the host kept the
        suspect): nothing if it no longer holds (a newer proposal will come)."""
        self.asking = False
        held, self.held = self.held, None
        if held is None:
            return []
        try:
            return self._propose(held)
        except LobbyError:
            return []

    def _propose(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        if self.role != "player":
            raise LobbyError("a spectator is never asked to sign")
        config = _config(msg["config"])
        nonces = _bytes_list(msg["nonces"], config.n_players, NONCE_BYTES, "nonces")
        _check_derived(config, nonces)
        seat = next((i for i, p in enumerate(config.players) if p.identity == self.identity),
                    None)
        me, view = self.me(), self.view
        if seat is None or me is None or view is None:
            raise LobbyError("the proposed game does not seat this player")
        if nonces[seat] != self.nonce:
            raise LobbyError("the proposed game does not carry this player's fresh nonce")
        mine = config.players[seat]
        if mine.name != self.name or mine.suspect != me.suspect:
            raise LobbyError("the proposed game changes this player's name or suspect")
        if config.rules != view.table.rules:
            raise LobbyError("the proposed rules are not the table's")
        if config.n_players > view.table.wanted:
            raise LobbyError("more players than seats")
        if config.n_players < view.table.wanted and not me.ready:
            raise LobbyError("a game with free seats starts only when every player is ready")
        if self.seen(config.session):
            raise LobbyError("this session was played before: refusing a replayed game")
        self.signed = config
        return [{"t": "sign", "digest": config.digest(),
                 "sig": self.key.sign(start_message(config))}]

