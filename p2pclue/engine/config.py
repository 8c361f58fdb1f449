"""What the players agreed on before the first message: the game's identity.

The lobby (``net``) gathers names, identity keys and suspects and fixes the
seating order; the engine starts from the resulting ``GameConfig``. Its digest
seeds the transcript chain and, with every player's fresh nonce, the game id,
so a message signed for one game can never be accepted in another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2pclue import PROTOCOL_VERSION
from p2pclue.crypto.group import is_valid_point_bytes
from p2pclue.engine.errors import WeakKeyError, WireError
from p2pclue.engine.wire import is_int, pack, sha256
from p2pclue.rules.cards import SUSPECTS
from p2pclue.rules.errors import WireError as RulesWireError
from p2pclue.rules.variants import Rules

MIN_PLAYERS, MAX_PLAYERS = 3, 6
MAX_NAME_CHARS = 40
DEFAULT_CHAIN_LENGTH = 512
"""Random events one hash chain covers; a longer game renews it (see ``reveal``)."""


@dataclass(frozen=True)
class PlayerInfo:
    name: str
    suspect: int
    identity: bytes
    """Raw 32-byte Ed25519 public key: signs every message this seat sends."""

    def to_wire(self) -> dict[str, Any]:
        return {"name": self.name, "suspect": self.suspect, "identity": self.identity}

    def public_key(self) -> Ed25519PublicKey:
        return Ed25519PublicKey.from_public_bytes(self.identity)


@dataclass(frozen=True)
class GameConfig:
    players: tuple[PlayerInfo, ...]
    """In clockwise seating order: index = seat."""
    rules: Rules
    session: bytes
    """32 bytes, fresh for every game: every frame names the config digest, so no frame
    can be replayed from one game into another. The lobby must derive it from a fresh
    contribution of every player (for example the hash of all their random nonces), and a
    peer refuses a session it has seen before; otherwise a host could replay old frames."""
    chain_length: int = DEFAULT_CHAIN_LENGTH
    """Reveals one randomness hash chain covers before it must be renewed."""

    def __post_init__(self) -> None:
        _check_players(self.players)
        if not isinstance(self.session, bytes) or len(self.session) != 32:
            raise WireError("the session id is 32 bytes", "config.session")
        if not is_int(self.chain_length) or not 1 <= self.chain_length <= 65536:
            raise WireError("must be an integer from 1 to 65536", "config.chain_length")

    @property
    def n_players(self) -> int:
        return len(self.players)

    def to_wire(self) -> dict[str, Any]:
        return {
            "protocol": PROTOCOL_VERSION,
            "players": [p.to_wire() for p in self.players],
            "rules": self.rules.to_wire(),
            "session": self.session,
            "chain_length": self.chain_length,
        }

    def digest(self) -> bytes:
        return sha256(b"p2pclue/v1/config\x00" + pack(self.to_wire()))

    @classmethod
    def from_wire(cls, obj: Any) -> GameConfig:
        keys = {"protocol", "players", "rules", "session", "chain_length"}
        if not isinstance(obj, dict) or set(obj) != keys:
            raise WireError(f"config must be a map with keys {sorted(keys)}", "config")
        if not is_int(obj["protocol"]) or obj["protocol"] != PROTOCOL_VERSION:
            raise WireError(f"unsupported protocol version {obj['protocol']!r}", "config.protocol")
        raw_players = obj["players"]
        if not isinstance(raw_players, list):
            raise WireError("must be a list", "config.players")
        players = tuple(_player_from_wire(p, i) for i, p in enumerate(raw_players))
        try:
            rules = Rules.from_wire(obj["rules"])
        except RulesWireError as exc:
            raise WireError(str(exc), "config.rules") from None
        session = obj["session"]
        if not isinstance(session, bytes):
            raise WireError("must be bytes", "config.session")
        if not is_int(obj["chain_length"]):
            raise WireError("must be an integer", "config.chain_length")
        return cls(players, rules, session, obj["chain_length"])


def _player_from_wire(obj: Any, seat: int) -> PlayerInfo:
    where = f"config.players[{seat}]"
    if not isinstance(obj, dict) or set(obj) != {"name", "suspect", "identity"}:
        raise WireError("must be a map with name, suspect, identity", where)
    name, suspect, identity = obj["name"], obj["suspect"], obj["identity"]
    if not isinstance(name, str):
        raise WireError("must be a string", f"{where}.name")
    if not is_int(suspect):
        raise WireError("must be a suspect card index", f"{where}.suspect")
    if not isinstance(identity, bytes):
        raise WireError("must be bytes", f"{where}.identity")
    return PlayerInfo(name, suspect, identity)


def _check_players(players: Sequence[PlayerInfo]) -> None:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise WireError(f"{len(players)} players; a game has 3 to 6", "config.players")
    suspects = {c.index for c in SUSPECTS}
    for seat, p in enumerate(players):
        where = f"config.players[{seat}]"
        if not p.name or len(p.name) > MAX_NAME_CHARS or not p.name.isprintable():
            raise WireError(f"names are 1-{MAX_NAME_CHARS} printable characters", f"{where}.name")
        if p.suspect not in suspects:
            raise WireError("is not a suspect card", f"{where}.suspect")
        if not isinstance(p.identity, bytes) or len(p.identity) != 32:
            raise WireError("an Ed25519 public key is 32 bytes", f"{where}.identity")
        if not is_valid_point_bytes(p.identity):
            raise WeakKeyError("is not a sound Ed25519 public key (canonical, in the "
                               "prime-order subgroup, not of small order)", f"{where}.identity")
        try:
            p.public_key()
        except ValueError:
            raise WireError("is not an Ed25519 public key", f"{where}.identity") from None
    if len({p.suspect for p in players}) != len(players):
        raise WireError("two players chose the same suspect", "config.players")
    if len({p.identity for p in players}) != len(players):
        raise WireError("two players share an identity key", "config.players")


CHECK_PREFIX = b"p2pclue/v1/table-check\x00"


def table_check(config: GameConfig) -> str:
    """Nine digits from the config digest, for people in the room to compare aloud (here, not
    in ``net``, because the game screen's help shows it as well as the lobby)."""
    value = int.from_bytes(sha256(CHECK_PREFIX + config.digest())[:8], "big")
    digits = f"{value % 10**9:09d}"
    return f"{digits[:3]} {digits[3:6]} {digits[6:]}"
