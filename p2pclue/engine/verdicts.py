"""What a rejected message is blamed with: the check it failed, named as the spec names it.

A message fails in one of four ways: its fields do not read (``WireError``), the rules
refuse it (``RuleError``), a proof or a point fails (``CryptoError``) or a stage's own
check does (``Reject``). Each becomes one ``Violation`` whose ``check`` any verifier
written from docs/protocol.md derives the same way, so blames agree across
implementations. Points are read owing their subgroup test (``crypto.group.Owed``); a
fault among them is the one a test at reading would have found first, so it comes first.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from p2pclue.crypto.errors import CryptoError
from p2pclue.crypto.group import Owed, Point
from p2pclue.engine.errors import Reject, Violation, WireError
from p2pclue.engine.messages import field_check
from p2pclue.rules.errors import RuleError


def points_in(value: Any) -> Iterator[Point]:
    """Every point in a check's arguments: lists, tuples and proof dataclasses searched."""
    if isinstance(value, Point):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from points_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from points_in(getattr(value, f.name))


def owed_fault(owed: Owed, msg_type: str) -> Violation | None:
    """The first point read that fails its subgroup test, the points no multiplication has
    checked being checked now: the fault a test at reading would have found first."""
    bad = owed.first_bad()
    if bad is None:
        return None
    error, where = bad
    return violation(msg_type, WireError(str(error), where))


def violation(msg_type: str, exc: WireError | RuleError | CryptoError | Reject) -> Violation:
    if isinstance(exc, WireError):
        return Violation(field_check(msg_type, exc.field), str(exc))
    if isinstance(exc, RuleError):
        return Violation(exc.rule, exc.detail)
    if isinstance(exc, CryptoError):
        return Violation(_crypto_check(exc), str(exc))
    return exc.violation


def _crypto_check(exc: CryptoError) -> str:
    proof = getattr(exc, "proof", None)
    if isinstance(proof, str):
        return f"proof:{proof}"
    return "crypto"
