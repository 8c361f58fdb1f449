"""Cards and auxiliary generators as points with unknown discrete logarithms.

A card is never ``h*G``: if anyone knew the discrete log between two card points,
commutative encryption would leak which card is which. Points come from
hash-to-group: SHA-512 of a domain-separated label, first 32 bytes through
libsodium's ``crypto_core_ed25519_from_uniform`` (Elligator 2, then cofactor
clearing, so the result is in the main subgroup), counter incremented until the
result is a valid non-identity point (in practice the first try).
"""

from __future__ import annotations

import hashlib
from functools import cache

import nacl.bindings as _nb

from p2pclue import PROTOCOL_VERSION
from p2pclue.crypto.context import lp, u64
from p2pclue.crypto.errors import CryptoUsageError, NotACardError
from p2pclue.crypto.group import Point, is_valid_point_bytes, point_sum
from p2pclue.rules.cards import CARDS

H2G_DOMAIN = b"p2pclue/hash-to-group"


def hash_to_point(kind: str, label: bytes) -> Point:
    """Deterministic point of unknown discrete log for ``(kind, label)``."""
    for counter in range(256):
        msg = b"".join(
            (lp(H2G_DOMAIN), lp(u64(PROTOCOL_VERSION)), lp(kind.encode()), lp(label),
             counter.to_bytes(4, "big"))
        )
        r = hashlib.sha512(msg).digest()[:32]
        p = bytes(_nb.crypto_core_ed25519_from_uniform(r))
        if is_valid_point_bytes(p):
            return Point(p)
    raise RuntimeError("hash_to_point found no point")  # pragma: no cover - probability 2^-256


CARD_POINTS: tuple[Point, ...] = tuple(hash_to_point("card", c.slug.encode()) for c in CARDS)
_BY_BYTES: dict[bytes, int] = {p.data: i for i, p in enumerate(CARD_POINTS)}


def card_point(index: int) -> Point:
    if type(index) is not int or not 0 <= index < len(CARD_POINTS):
        raise CryptoUsageError(f"no card has index {index!r}")
    return CARD_POINTS[index]


def identify(point: Point) -> int | None:
    """Index of the card whose point this is, or None."""
    return _BY_BYTES.get(point.data)


def identify_strict(point: Point) -> int:
    idx = identify(point)
    if idx is None:
        raise NotACardError("the decrypted point is not one of the 21 card points")
    return idx


@cache
def generator(i: int) -> Point:
    """Independent Pedersen generator h_i of the shuffle argument (i >= 0)."""
    return hash_to_point("shuffle-generator", u64(i))


@cache
def generator_sum(n: int) -> Point:
    """``h_0 + ... + h_{n-1}``: the same for every shuffle of n cards, so added up once."""
    return point_sum([generator(i) for i in range(n)])


@cache
def product_base() -> Point:
    """Base U of the shuffle's product-argument chain."""
    return hash_to_point("shuffle-product-base", b"")
