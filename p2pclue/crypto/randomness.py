"""Fair shared randomness for dice and random weapon placement.

Every player commits at setup to the head ``h_0`` of a hash chain
``h_{i-1} = H(h_i)`` and, for its e-th random event, reveals ``h_e`` (checked by
``H(h_e) == h_{e-1}``). An event's value is a byte stream hashed from the game id, the
event id and every player's reveal in seat order; values are drawn from it by rejection
sampling, so there is no modulo bias. As long as one player is honest the result is
unpredictable to the others when they commit; withholding a reveal is the only attack
and it is attributable. A chain that runs out is replaced by committing to a new head.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

from p2pclue import PROTOCOL_VERSION
from p2pclue.crypto.context import lp, u64
from p2pclue.crypto.errors import CryptoUsageError, MalformedProofError, ProofRejected
from p2pclue.crypto.rand import ScalarSource
from p2pclue.rules.cards import ROOMS, WEAPONS

CHAIN_DOMAIN = b"p2pclue/hash-chain"
EVENT_DOMAIN = b"p2pclue/random-event"
DEFAULT_CHAIN_LENGTH = 512
REVEAL_BYTES = 32


def chain_step(value: bytes) -> bytes:
    """``H(x)``: the first 32 bytes of SHA-512 over the domain, version and x."""
    return hashlib.sha512(lp(CHAIN_DOMAIN) + lp(u64(PROTOCOL_VERSION)) + lp(value)).digest()[:32]


class HashChain:
    """A player's secret hash chain; only ``head`` is public until values are revealed."""

    __slots__ = ("_values",)

    def __init__(self, seed: bytes, length: int = DEFAULT_CHAIN_LENGTH) -> None:
        if type(seed) is not bytes or len(seed) != REVEAL_BYTES:
            raise CryptoUsageError("a hash-chain seed is 32 bytes")
        if length < 1:
            raise CryptoUsageError("a hash chain needs at least one value")
        values = [seed]
        for _ in range(length):
            values.append(chain_step(values[-1]))
        values.reverse()  # values[0] = h_0 (head), values[length] = seed
        self._values = values

    @classmethod
    def create(cls, src: ScalarSource, length: int = DEFAULT_CHAIN_LENGTH) -> HashChain:
        return cls(src.random_bytes(REVEAL_BYTES), length)

    @property
    def head(self) -> bytes:
        return self._values[0]

    @property
    def length(self) -> int:
        """How many values can be revealed (events 1..length)."""
        return len(self._values) - 1

    def reveal(self, i: int) -> bytes:
        """The value for the i-th event (1-based); raises once the chain is used up."""
        if not 1 <= i <= self.length:
            raise CryptoUsageError(f"hash chain has values 1..{self.length}, not {i}")
        return self._values[i]

    def __repr__(self) -> str:
        return f"HashChain(head={self.head.hex()[:16]}..., length={self.length})"


def verify_reveal(prev: bytes, value: object) -> None:
    """Check that ``value`` is the preimage of ``prev`` (the head or the last reveal)."""
    if not isinstance(value, bytes) or len(value) != REVEAL_BYTES:
        raise MalformedProofError("reveal", "expected 32 bytes")
    if chain_step(value) != prev:
        raise ProofRejected("reveal", "value does not hash to the previous chain value")


def event_stream(game_id: bytes, event_id: str, reveals: Sequence[bytes]) -> Iterator[int]:
    """The event's bytes: SHA-512 blocks over (domain, version, game, event, reveals, k)."""
    if not reveals:
        raise CryptoUsageError("a random event needs at least one reveal")
    prefix = b"".join((
        lp(EVENT_DOMAIN), lp(u64(PROTOCOL_VERSION)), lp(game_id), lp(event_id.encode()),
        len(reveals).to_bytes(4, "big"), *(lp(r) for r in reveals),
    ))
    block = 0
    while True:
        yield from hashlib.sha512(prefix + block.to_bytes(4, "big")).digest()
        block += 1


def _below(stream: Iterator[int], n: int) -> int:
    """Uniform in [0, n) for 1 <= n <= 256: reject bytes at or above the largest multiple."""
    limit = 256 - 256 % n
    while True:
        b = next(stream)
        if b < limit:
            return b % n


def random_dice(
    game_id: bytes, event_id: str, reveals: Sequence[bytes], n_dice: int
) -> tuple[int, ...]:
    """``n_dice`` fair dice (1..6) for this event."""
    if not 1 <= n_dice <= 16:
        raise CryptoUsageError("between 1 and 16 dice")
    stream = event_stream(game_id, event_id, reveals)
    return tuple(_below(stream, 6) + 1 for _ in range(n_dice))


def random_weapon_rooms(game_id: bytes, event_id: str, reveals: Sequence[bytes]) -> dict[int, int]:
    """Uniform injective placement: weapon card index -> room card index (R9 random).

    Weapons in card-index order each take a uniformly chosen room among those left
    (the rooms kept in card-index order).
    """
    stream = event_stream(game_id, event_id, reveals)
    rooms = [r.index for r in ROOMS]
    placement: dict[int, int] = {}
    for w in WEAPONS:
        placement[w.index] = rooms.pop(_below(stream, len(rooms)))
    return placement
