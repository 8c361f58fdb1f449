"""A player's game secrets as bytes for its own 0600 file, and nowhere else.

What a peer cannot recompute from the transcript: its key ``k`` (``Y = k*G``), its
hand secret ``r`` (``R = r*G``) and the seeds of its hash chains. Everything else
(hand, cards shown to it, chain position) follows from these and the transcript,
so a resumed peer replays its own transcript with them (``resume.resume_peer``).

Nothing here prints a secret: ``repr`` says only what is present, and every error
names a field, never a value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p2pclue.engine.errors import EngineError, WireError
from p2pclue.engine.wire import is_int, pack, unpack_canonical

SECRETS_VERSION = 2
MAX_SEEDS = 4096
MAX_SECRETS_BYTES = 64 + 52 * MAX_SEEDS + 256


class SecretsError(EngineError):
    """A secrets file that cannot be read (its text never contains a secret)."""


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
