"""A point of small order, and points moved off the prime-order subgroup by it: what every
attack on point validation sends."""

from __future__ import annotations

from p2pclue.crypto import sodium
from p2pclue.crypto.group import is_valid_point_bytes

ORDER_8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
"""A point of order 8 (one of libsodium's small-order encodings)."""


def torsion(raw: bytes) -> bytes:
    """The same point plus one of order 8: on the curve, outside the main subgroup."""
    out = sodium.add(raw, ORDER_8)
    assert out is not None and not is_valid_point_bytes(out)
    return out
