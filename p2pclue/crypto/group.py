"""The prime-order main subgroup of edwards25519, through libsodium.

Every protocol value lives here. ``Point`` and ``Scalar`` are thin frozen wrappers;
the only entries for untrusted bytes are ``point_from_bytes`` and
``scalar_from_bytes``, which validate. Internal arithmetic may produce the identity
(sums, differences, a zero scalar); ``mul`` and ``base_mul`` handle it explicitly
because libsodium's multiplication refuses it.

The libsodium calls go through ``p2pclue.crypto.sodium``, which picks PyNaCl's
private cffi module when it is there (faster) and its public bindings otherwise.

``MULT_COUNTER`` counts libsodium multiplications so that the benchmark can report
per-card costs without timing noise.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import overload

from p2pclue.crypto import sodium as _na
from p2pclue.crypto.errors import CryptoUsageError, InvalidPointError, InvalidScalarError

L = 2**252 + 27742317777372353535851937790883648493
"""Order of the main subgroup (and of the scalar field)."""

_IDENTITY_BYTES = b"\x01" + bytes(31)
_base_bytes = _na.scalarmult_base((1).to_bytes(32, "little"))
assert _base_bytes is not None
_BASE_BYTES: bytes = _base_bytes


@dataclass(slots=True)
class MultCounter:
    """Running count of group multiplications (variable-base and fixed-base)."""

    var: int = 0
    base: int = 0

    def reset(self) -> None:
        self.var = 0
        self.base = 0

    @property
    def total(self) -> int:
        return self.var + self.base


MULT_COUNTER = MultCounter()


@dataclass(frozen=True, slots=True, repr=False)
class Scalar:
    """An integer modulo ``L`` (0 allowed internally; wire scalars must be non-zero)."""

    value: int

    def __post_init__(self) -> None:
        if type(self.value) is not int or not 0 <= self.value < L:
            raise CryptoUsageError("Scalar value must be an int in [0, L)")

    def __bytes__(self) -> bytes:
        return self.value.to_bytes(32, "little")

    def __repr__(self) -> str:
        return "Scalar(<hidden>)"

    def __add__(self, other: Scalar) -> Scalar:
        return Scalar((self.value + other.value) % L)

    def __sub__(self, other: Scalar) -> Scalar:
        return Scalar((self.value - other.value) % L)

    def __neg__(self) -> Scalar:
        return Scalar(-self.value % L)

    @overload
    def __mul__(self, other: Scalar) -> Scalar: ...

    @overload
    def __mul__(self, other: Point) -> Point: ...

    def __mul__(self, other: Scalar | Point) -> Scalar | Point:
        if isinstance(other, Point):
            return mul(self, other)
        return Scalar((self.value * other.value) % L)


@dataclass(frozen=True, slots=True, repr=False)
class Point:
    """A group element by its canonical 32-byte encoding (equal points, equal bytes)."""

    data: bytes

    def __post_init__(self) -> None:
        if type(self.data) is not bytes or len(self.data) != 32:
            raise CryptoUsageError("Point data must be 32 bytes")

    def __bytes__(self) -> bytes:
        return self.data

    def __repr__(self) -> str:
        return f"Point({self.data.hex()[:16]}...)"

    @property
    def is_identity(self) -> bool:
        return self.data == _IDENTITY_BYTES

    def __add__(self, other: Point) -> Point:
        return add(self, other)

    def __sub__(self, other: Point) -> Point:
        return sub(self, other)


IDENTITY = Point(_IDENTITY_BYTES)
ZERO = Scalar(0)
ONE = Scalar(1)


def scalar(value: int) -> Scalar:
    """Any integer reduced modulo ``L``."""
    return Scalar(value % L)


def scalar_from_hash(digest: bytes) -> Scalar:
    """A 64-byte hash output read little-endian and reduced mod ``L`` (bias < 2^-250)."""
    return Scalar(int.from_bytes(digest, "little") % L)


def inverse(s: Scalar) -> Scalar:
    if s.value == 0:
        raise CryptoUsageError("zero has no inverse")
    return Scalar(pow(s.value, L - 2, L))


def mul(s: Scalar, p: Point) -> Point:
    """``s * P``; identity in or zero scalar gives the identity."""
    if s.value == 0 or p.data == _IDENTITY_BYTES:
        return IDENTITY
    if p.data == _BASE_BYTES:
        return base_mul(s)
    MULT_COUNTER.var += 1
    out = _na.scalarmult(bytes(s), p.data)
    if out is None:
        raise InvalidPointError("point", "not in the main subgroup")
    owed = _OWED.get()
    if owed is not None:
        owed.points.pop(p.data, None)  # libsodium has just checked it (see ``Owed``)
    return Point(out)


def base_mul(s: Scalar) -> Point:
    """``s * G``."""
    if s.value == 0:
        return IDENTITY
    MULT_COUNTER.base += 1
    out = _na.scalarmult_base(bytes(s))
    if out is None:
        raise CryptoUsageError("base multiplication failed")  # pragma: no cover
    return Point(out)


def add(p: Point, q: Point) -> Point:
    """``P + Q`` (no subgroup check: both must already be valid group elements).

    Adding the identity costs no libsodium call (sums start from it)."""
    if p.data == _IDENTITY_BYTES:
        return q
    if q.data == _IDENTITY_BYTES:
        return p
    out = _na.add(p.data, q.data)
    if out is None:
        raise InvalidPointError("point", "not on the curve")
    return Point(out)


def sub(p: Point, q: Point) -> Point:
    out = _na.sub(p.data, q.data)
    if out is None:
        raise InvalidPointError("point", "not on the curve")
    return Point(out)


def point_sum(points: list[Point]) -> Point:
    acc = IDENTITY
    for p in points:
        acc = add(acc, p)
    return acc


def scalar_sum(values: Iterable[Scalar]) -> Scalar:
    """The sum mod L (an OR-proof's branch challenges, say)."""
    acc = ZERO
    for v in values:
        acc = acc + v
    return acc


def lincomb(scalars: list[Scalar], points: list[Point]) -> Point:
    """``sum s_i * P_i`` (one variable-base multiplication per term)."""
    if len(scalars) != len(points):
        raise CryptoUsageError("lincomb needs as many scalars as points")
    acc = IDENTITY
    for s, p in zip(scalars, points, strict=True):
        acc = add(acc, mul(s, p))
    return acc


G = base_mul(ONE)
MULT_COUNTER.reset()


def is_valid_point_bytes(data: bytes) -> bool:
    """Canonical, on the curve, in the main subgroup, not of small order (so not identity)."""
    return len(data) == 32 and _na.is_valid_point(data)


_OWN_POINTS: ContextVar[bool] = ContextVar("p2pclue_own_points", default=False)


@dataclass(slots=True)
class Owed:
    """Points read from a peer whose subgroup check is still owed, in the order read.

    libsodium's variable-base multiplication refuses a point that is not canonical, is of
    small order or lies outside the main subgroup: the same test ``point_from_bytes`` makes
    (``crypto_core_ed25519_is_valid_point`` adds "on the curve", which decoding a point at all
    already implies). A proof's verifier multiplies nearly every point it reads, so reading
    them under ``owing`` skips the first test (about 40 us a point) and the multiplication
    that takes a point settles it. What no multiplication took, ``first_bad`` checks; so the
    reader, which asks it before accepting anything and before reporting any other fault, gives
    exactly the verdict it would have given had every point been tested as read.
    ``where``: the field being read (the reader sets it; the error names it)."""

    where: str = ""
    points: dict[bytes, tuple[str, str]] = dataclasses.field(default_factory=dict)

    def test(self, points: Iterable[Point]) -> bool:
        """Test now those of ``points`` still owed, settling each that passes; False as soon
        as one fails (it stays owed, for ``first_bad`` to name)."""
        for point in points:
            if point.data in self.points:
                if not is_valid_point_bytes(point.data):
                    return False
                del self.points[point.data]
        return True

    def first_bad(self) -> tuple[InvalidPointError, str] | None:
        """The first point read that fails the test (its error, and where it was read), after
        checking all those still owed; None if every one passes."""
        for raw, (name, where) in list(self.points.items()):
            if not is_valid_point_bytes(raw):
                return InvalidPointError(name, _NOT_IN_GROUP), where
            self.points.pop(raw, None)
        return None


_OWED: ContextVar[Owed | None] = ContextVar("p2pclue_owed", default=None)
_NOT_IN_GROUP = "not a canonical encoding of a point of the prime-order subgroup"


@contextmanager
def owing(owed: Owed | None) -> Iterator[None]:
    """Points read within this block are owed to ``owed`` instead of tested at once."""
    token = _OWED.set(owed)
    try:
        yield
    finally:
        _OWED.reset(token)


def current_owed() -> Owed | None:
    return _OWED.get()


@contextmanager
def own_points() -> Iterator[None]:
    """Decode points this process has just computed itself: the subgroup check is skipped.

    Every point the group functions return is canonical and in the main subgroup (libsodium
    encodes canonically; the subgroup is closed under them), so re-checking one costs a
    hidden multiplication by ``L`` (30 us) for nothing. Only for a peer reading back the
    frame it has just built (``Peer._emit``); lengths and the identity are still refused.
    """
    token = _OWN_POINTS.set(True)
    try:
        yield
    finally:
        _OWN_POINTS.reset(token)


def point_from_bytes(data: object, field: str) -> Point:
    """Validate untrusted bytes as a non-identity point of the main subgroup."""
    if not isinstance(data, bytes | bytearray):
        raise InvalidPointError(field, f"expected 32 bytes, got {type(data).__name__}")
    raw = bytes(data)
    if len(raw) != 32:
        raise InvalidPointError(field, f"expected 32 bytes, got {len(raw)}")
    if raw == _IDENTITY_BYTES:
        raise InvalidPointError(field, "the identity element")
    if _OWN_POINTS.get():
        return Point(raw)
    owed = _OWED.get()
    if owed is not None:
        owed.points.setdefault(raw, (field, owed.where))
        return Point(raw)
    if not is_valid_point_bytes(raw):
        raise InvalidPointError(field, _NOT_IN_GROUP)
    return Point(raw)


def scalar_from_bytes(data: object, field: str) -> Scalar:
    """Validate untrusted bytes as a canonical (< L), non-zero little-endian scalar."""
    if not isinstance(data, bytes | bytearray):
        raise InvalidScalarError(field, f"expected 32 bytes, got {type(data).__name__}")
    raw = bytes(data)
    if len(raw) != 32:
        raise InvalidScalarError(field, f"expected 32 bytes, got {len(raw)}")
    value = int.from_bytes(raw, "little")
    if value >= L:
        raise InvalidScalarError(field, "not canonical (>= group order)")
    if value == 0:
        raise InvalidScalarError(field, "zero")
    return Scalar(value)
