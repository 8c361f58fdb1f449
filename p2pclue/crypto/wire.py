"""Strict decoding of proofs from their msgpack-friendly wire form.

Proofs travel as str-keyed dicts whose values are 32-byte strings or lists of them.
Decoding checks the exact key set and every element, so that a malformed proof is a
typed error naming the field, never a traceback deeper in the verifier.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from p2pclue.crypto.errors import MalformedProofError
from p2pclue.crypto.group import Point, Scalar, point_from_bytes, scalar_from_bytes

MAX_LIST = 4096


def expect_dict(obj: object, name: str, keys: Sequence[str]) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise MalformedProofError(name, f"expected a map, got {type(obj).__name__}")
    got = set(obj)
    if got != set(keys):
        missing = sorted(set(keys) - {k for k in got if isinstance(k, str)})
        extra = sorted(repr(k) for k in got - set(keys))
        raise MalformedProofError(name, f"wrong keys (missing {missing}, unexpected {extra})")
    return obj


def expect_list(obj: object, field: str, length: int | None = None) -> list[Any]:
    if not isinstance(obj, list | tuple):
        raise MalformedProofError(field, f"expected a list, got {type(obj).__name__}")
    if len(obj) > MAX_LIST:
        raise MalformedProofError(field, f"list too long ({len(obj)} > {MAX_LIST})")
    if length is not None and len(obj) != length:
        raise MalformedProofError(field, f"expected {length} elements, got {len(obj)}")
    return list(obj)


def point_field(d: dict[str, Any], key: str, name: str) -> Point:
    return point_from_bytes(d[key], f"{name}.{key}")


def scalar_field(d: dict[str, Any], key: str, name: str) -> Scalar:
    return scalar_from_bytes(d[key], f"{name}.{key}")


def points_from_wire(obj: object, field: str, length: int | None = None) -> list[Point]:
    """A list of validated points (for decks and hand points received from peers)."""
    items = expect_list(obj, field, length)
    return [point_from_bytes(x, f"{field}[{i}]") for i, x in enumerate(items)]


def scalars_from_wire(obj: object, field: str, length: int | None = None) -> list[Scalar]:
    items = expect_list(obj, field, length)
    return [scalar_from_bytes(x, f"{field}[{i}]") for i, x in enumerate(items)]


def points_to_wire(points: Sequence[Point]) -> list[bytes]:
    return [p.data for p in points]


def scalars_to_wire(scalars: Sequence[Scalar]) -> list[bytes]:
    return [bytes(s) for s in scalars]


@dataclass(frozen=True, slots=True)
class ChallengeResponse:
    """The compact sigma-protocol form ``{c, s}`` shared by several proofs.

    Subclasses only name themselves (``WIRE_NAME``), so that errors say which proof
    was malformed and the types stay distinct for the verifiers.
    """

    challenge: Scalar
    response: Scalar
    WIRE_NAME: ClassVar[str] = "proof"

    def to_wire(self) -> dict[str, Any]:
        return {"c": bytes(self.challenge), "s": bytes(self.response)}

    @classmethod
    def from_wire(cls, obj: object) -> Self:
        d = expect_dict(obj, cls.WIRE_NAME, ("c", "s"))
        return cls(scalar_field(d, "c", cls.WIRE_NAME), scalar_field(d, "s", cls.WIRE_NAME))
