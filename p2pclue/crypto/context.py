"""Fiat-Shamir transcripts bound to where a proof belongs.

Every challenge hashes a domain tag, the protocol version, the game id, the step id,
the prover's seat, the whole public statement and the prover's commitments. The byte
encoding (normative, see docs/protocol.md "Cryptography"):

* ``lp(x)``   = 4-byte big-endian length of ``x``, then ``x``.
* data item   = ``0x01 | lp(label) | lp(data)``
* list item   = ``0x02 | lp(label) | u32(count) | lp(e_1) | ... | lp(e_count)``
* challenge i = SHA-512(items so far | ``0x03 | lp(label) | u32(i)``), read
  little-endian and reduced mod L.

Integers are encoded as 8-byte big-endian, strings as UTF-8, points and scalars as
their 32-byte encodings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from p2pclue import PROTOCOL_VERSION
from p2pclue.crypto.errors import CryptoUsageError
from p2pclue.crypto.group import Point, Scalar, scalar_from_hash

DOMAIN = b"p2pclue/fiat-shamir"


def lp(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


@dataclass(frozen=True, slots=True)
class ProofContext:
    """Where a proof belongs: replaying it in another game, step or seat fails."""

    game_id: bytes
    step: str
    prover: int

    def __post_init__(self) -> None:
        if type(self.game_id) is not bytes:
            raise CryptoUsageError("ProofContext.game_id must be bytes")
        if type(self.step) is not str or not self.step:
            raise CryptoUsageError("ProofContext.step must be a non-empty str")
        if type(self.prover) is not int or not 0 <= self.prover < 2**32:
            raise CryptoUsageError("ProofContext.prover must be a seat number >= 0")

    def at(self, step: str, prover: int | None = None) -> ProofContext:
        """The same game at another step (and optionally another prover)."""
        return ProofContext(self.game_id, step, self.prover if prover is None else prover)


class Transcript:
    """Incremental SHA-512 over length-prefixed, typed items."""

    __slots__ = ("_h",)

    def __init__(self, tag: str, ctx: ProofContext | None = None) -> None:
        self._h = hashlib.sha512()
        self.data("domain", DOMAIN)
        self.data("tag", tag.encode())
        self.data("version", u64(PROTOCOL_VERSION))
        if ctx is not None:
            self.data("game_id", ctx.game_id)
            self.data("step", ctx.step.encode())
            self.data("prover", u64(ctx.prover))

    def data(self, label: str, data: bytes) -> Transcript:
        self._h.update(b"\x01" + lp(label.encode()) + lp(data))
        return self

    def items(self, label: str, items: Iterable[bytes]) -> Transcript:
        parts = [lp(x) for x in items]
        self._h.update(b"\x02" + lp(label.encode()) + len(parts).to_bytes(4, "big"))
        self._h.update(b"".join(parts))
        return self

    def point(self, label: str, p: Point) -> Transcript:
        return self.data(label, p.data)

    def points(self, label: str, ps: Sequence[Point]) -> Transcript:
        return self.items(label, (p.data for p in ps))

    def scalar(self, label: str, s: Scalar) -> Transcript:
        return self.data(label, bytes(s))

    def integer(self, label: str, n: int) -> Transcript:
        return self.data(label, u64(n))

    def integers(self, label: str, ns: Sequence[int]) -> Transcript:
        return self.items(label, (u64(n) for n in ns))

    def digest(self, label: str, index: int = 0) -> bytes:
        h = self._h.copy()
        h.update(b"\x03" + lp(label.encode()) + index.to_bytes(4, "big"))
        return h.digest()

    def challenge(self, label: str, index: int = 0) -> Scalar:
        return scalar_from_hash(self.digest(label, index))

    def challenges(self, label: str, n: int) -> list[Scalar]:
        return [self.challenge(label, i) for i in range(n)]


def transcript_hash(tag: str, ctx: ProofContext | None, *parts: bytes) -> bytes:
    """64-byte hash of a tag, an optional context and length-prefixed parts.

    For the engine: deriving ids or weights from agreed data with the same encoding
    as the proofs.
    """
    t = Transcript(tag, ctx).items("parts", parts)
    return t.digest("hash")
