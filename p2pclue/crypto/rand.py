"""Where secret randomness comes from: an explicit object, never global state.

Production code uses ``OsRandom``. ``SeededRandom`` exists for tests, test vectors
and ``simulate --seed``: the same seed yields the same game, byte for byte.
"""

from __future__ import annotations

import hashlib
import os
from typing import Protocol

from p2pclue.crypto.errors import CryptoUsageError
from p2pclue.crypto.group import Scalar, scalar_from_hash


class ScalarSource(Protocol):
    """Anything that yields uniformly random bytes on demand."""

    def random_bytes(self, n: int) -> bytes: ...


class OsRandom:
    """The operating system's CSPRNG."""

    def random_bytes(self, n: int) -> bytes:
        return os.urandom(n)

    def __repr__(self) -> str:
        return "OsRandom()"


class SeededRandom:
    """Deterministic stream: block i = SHAKE-256("p2pclue/seeded-random/v1" | len | seed | i)."""

    __slots__ = ("_counter", "_seed")

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, bytes):
            raise CryptoUsageError("SeededRandom seed must be bytes")
        self._seed = seed
        self._counter = 0

    def random_bytes(self, n: int) -> bytes:
        if n < 0:
            raise CryptoUsageError("cannot draw a negative number of bytes")
        h = hashlib.shake_256()
        h.update(b"p2pclue/seeded-random/v1")
        h.update(len(self._seed).to_bytes(4, "big") + self._seed)
        h.update(self._counter.to_bytes(8, "big"))
        self._counter += 1
        return h.digest(n)

    def __repr__(self) -> str:
        return "SeededRandom(<seed hidden>)"


def random_scalar(src: ScalarSource) -> Scalar:
    """Uniform non-zero scalar: 64 random bytes reduced mod L."""
    while True:
        s = scalar_from_hash(src.random_bytes(64))
        if s.value != 0:
            return s


def uniform_below(n: int, src: ScalarSource) -> int:
    """Uniform integer in [0, n) by rejection sampling over 8-byte draws."""
    if n <= 0 or n > 2**32:
        raise CryptoUsageError("uniform_below needs 0 < n <= 2^32")
    limit = 2**64 - (2**64 % n)
    while True:
        v = int.from_bytes(src.random_bytes(8), "big")
        if v < limit:
            return v % n


def random_permutation(n: int, src: ScalarSource) -> list[int]:
    """Uniform permutation of range(n) (Fisher-Yates)."""
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = uniform_below(i + 1, src)
        perm[i], perm[j] = perm[j], perm[i]
    return perm
