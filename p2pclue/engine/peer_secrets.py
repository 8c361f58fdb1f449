"""A player's game secrets as bytes for its own 0600 file, and nowhere else.

What a peer cannot recompute from the transcript: its key ``k`` (``Y = k*G``), its
hand secret ``r`` (``R = r*G``) and the seeds of its hash chains. Everything else
(hand, cards shown to it, chain position) follows from these and the transcript,
so a resumed peer replays its own transcript with them (``resume.resume_peer``).

Nothing here prints a secret: ``repr`` says only what is present, and every error
names a field, never a value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from p2pclue.crypto.errors import CryptoError
from p2pclue.crypto.group import Point, Scalar, base_mul, scalar_from_bytes
from p2pclue.crypto.randomness import HashChain
from p2pclue.engine.chains import ChainCommitments
from p2pclue.engine.errors import EngineError, WireError
from p2pclue.engine.wire import is_int, pack, unpack_canonical

SECRETS_VERSION = 2
MAX_SEEDS = 4096
MAX_SECRETS_BYTES = 64 + 52 * MAX_SEEDS + 256


class SecretsError(EngineError):
    """A secrets file that cannot be read (its text never contains a secret)."""


@dataclass(repr=False)
class SeatSecrets:
    """A playing peer's secrets while it plays, drawn as the game reaches them: the key
    ``k`` and the first hash chain for its ``keys`` message, the hand secret ``r`` for its
    ``deal``. A resumed peer loads them from its file instead (``Peer.restore`` checks them
    against the transcript as it replays), so a step that needs one finds it; were one
    missing, the file did not fit the transcript (``SecretsError``)."""

    k: Scalar | None = None
    r: Scalar | None = None
    chain: HashChain | None = None
    used: int = 0
    """How many values of ``chain`` this seat has revealed."""
    seeds: list[bytes] = field(default_factory=list)
    """Every hash-chain seed drawn, oldest first (a resumed peer picks the committed one)."""
    acked: dict[int, int] = field(default_factory=dict)
    """Show index -> card, for the shows to this seat it acknowledged (a secret: the
    card is nowhere in the transcript)."""
    version: int = 0
    """Bumped whenever this seat draws or learns a new secret: a caller that persists
    secrets (``Peer.export_secrets``) writes them before it sends any frame queued after
    the bump (``Peer.secrets_version``)."""

    def __repr__(self) -> str:
        return "SeatSecrets(<hidden>)"

    def export(self, seat: int) -> PeerSecrets:
        """These secrets as ``seat``'s file holds them (``Peer.export_secrets``)."""
        return PeerSecrets(seat, None if self.k is None else bytes(self.k),
                           None if self.r is None else bytes(self.r), tuple(self.seeds),
                           tuple(sorted(self.acked.items())))

    def load(self, stored: PeerSecrets) -> None:
        """Take the secrets of a file (``Peer.restore`` then checks they fit the transcript).
        ``SecretsError`` if a stored scalar is not a valid one."""
        try:
            self.k = None if stored.k is None else scalar_from_bytes(stored.k, "k")
            self.r = None if stored.r is None else scalar_from_bytes(stored.r, "r")
        except CryptoError:
            raise SecretsError("a stored secret is not a valid scalar") from None
        self.seeds = list(stored.seeds)
        self.acked = dict(stored.shown)

    def key(self) -> Scalar:
        """``k`` (``Y = k*G``): every step of this seat after its ``keys`` uses it."""
        if self.k is None:
            raise SecretsError("this seat holds no key: its secrets do not fit the game")
        return self.k

    def hand_secret(self) -> Scalar:
        """``r`` (``R = r*G``), drawn for this seat's ``deal``."""
        if self.r is None:
            raise SecretsError("this seat holds no hand secret: its secrets do not fit the game")
        return self.r

    def hand_key(self) -> Scalar:
        """``s = k*r``, the layer on this seat's hand: every step after its ``deal``."""
        return self.key() * self.hand_secret()

    def check_fits(self, seat: int, keys: Sequence[Point], hand_keys: Sequence[Point],
                   chains: ChainCommitments) -> None:
        """Restored secrets against what the transcript so far committed ``seat`` to (its
        ``Y``, ``R`` and chain head): ``SecretsError`` unless they fit. Picks the stored
        chain that was committed, and where it stands."""
        if seat < len(keys) and (self.k is None or base_mul(self.k) != keys[seat]):
            raise SecretsError("the stored key does not match this seat's public key")
        if seat < len(hand_keys) and (self.r is None or base_mul(self.r) != hand_keys[seat]):
            raise SecretsError("the stored hand secret does not match this seat's")
        if seat >= len(chains.head):
            return
        if self.chain is None or self.chain.head != chains.head[seat]:
            for seed in reversed(self.seeds):
                chain = HashChain(seed, chains.length)
                if chain.head == chains.head[seat]:
                    self.chain = chain
                    break
            else:
                raise SecretsError("no stored hash chain matches the committed one")
        self.used = chains.used[seat]

    def current_chain(self) -> HashChain:
        """The hash chain this seat reveals from (committed in ``keys``, or renewed since)."""
        if self.chain is None:
            raise SecretsError("this seat holds no hash chain: its secrets do not fit the game")
        return self.chain


@dataclass(frozen=True, repr=False)
class PeerSecrets:
    seat: int
    k: bytes | None
    """32-byte scalar, once the ``keys`` message was built."""
    r: bytes | None
    """32-byte scalar, once the ``deal`` message was built."""
    seeds: tuple[bytes, ...]
    """Every hash-chain seed this peer drew, oldest first."""
    shown: tuple[tuple[int, int], ...] = ()
    """(transcript index of a show to this seat, card) for every show it acknowledged:
    the card came over a private link and is nowhere in the transcript."""

    def __repr__(self) -> str:
        have = [name for name in ("k", "r") if getattr(self, name) is not None]
        return (f"PeerSecrets(seat={self.seat}, holds={have}, seeds={len(self.seeds)}, "
                f"shown={len(self.shown)}, <hidden>)")

    __str__ = __repr__

    def to_bytes(self) -> bytes:
        return pack({"v": SECRETS_VERSION, "seat": self.seat, "k": self.k, "r": self.r,
                     "seeds": list(self.seeds), "shown": [list(x) for x in self.shown]})

    @classmethod
    def from_bytes(cls, data: bytes) -> PeerSecrets:
        try:
            obj: Any = unpack_canonical(data, MAX_SECRETS_BYTES)
        except WireError:
            raise SecretsError("the secrets file is not readable (damaged or not ours)") from None
        if not isinstance(obj, dict) or set(obj) != {"v", "seat", "k", "r", "seeds", "shown"}:
            raise SecretsError("the secrets file has the wrong fields")
        if obj["v"] != SECRETS_VERSION or not is_int(obj["seat"]) or not 0 <= obj["seat"] < 6:
            raise SecretsError("the secrets file has a wrong version or seat")
        for name in ("k", "r"):
            if obj[name] is not None and not (isinstance(obj[name], bytes)
                                              and len(obj[name]) == 32):
                raise SecretsError(f"the secret {name} is not 32 bytes")
        seeds = obj["seeds"]
        if not isinstance(seeds, list) or len(seeds) > MAX_SEEDS or not all(
                isinstance(x, bytes) and len(x) == 32 for x in seeds):
            raise SecretsError("the hash-chain seeds are not a list of 32-byte values")
        shown = obj["shown"]
        if not isinstance(shown, list) or len(shown) > MAX_SEEDS or not all(
                isinstance(x, list) and len(x) == 2 and all(is_int(v) for v in x)
                and 0 <= x[0] < 2**32 and 0 <= x[1] < 21 for x in shown):
            raise SecretsError("the shown cards are not a list of [index, card] pairs")
        return cls(obj["seat"], obj["k"], obj["r"], tuple(seeds),
                   tuple((x[0], x[1]) for x in shown))
