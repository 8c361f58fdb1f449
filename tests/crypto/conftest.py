"""Shared helpers for the crypto tests: contexts and systematic proof tampering."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.group import G, L, point_from_bytes, scalar_from_bytes

CTX = ProofContext(b"test-game", "test/step", 1)

Variant = tuple[str, Any]


def _tweak(value: bytes, field: str, is_point: bool) -> bytes:
    """Another valid element of the same kind (a point moved by G, a scalar plus one)."""
    if is_point:
        return (point_from_bytes(value, field) + G).data
    s = scalar_from_bytes(value, field)
    return ((s.value + 1) % L).to_bytes(32, "little")


def tamper_variants(wire: dict[str, Any], point_keys: frozenset[str] = frozenset()) -> Iterator[
        Variant]:
    """Every single-field change of a proof's wire dict that keeps it well formed.

    ``point_keys`` names the keys holding points; the others hold scalars.
    """
    for key, value in wire.items():
        is_point = key in point_keys
        if isinstance(value, bytes):
            yield f"{key} changed", {**wire, key: _tweak(value, key, is_point)}
        else:
            for i in range(len(value)):
                changed = list(value)
                changed[i] = _tweak(value[i], f"{key}[{i}]", is_point)
                yield f"{key}[{i}] changed", {**wire, key: changed}
            if len(value) >= 2 and value[0] != value[1]:
                swapped = list(value)
                swapped[0], swapped[1] = swapped[1], swapped[0]
                yield f"{key} swapped", {**wire, key: swapped}


def other_contexts(ctx: ProofContext) -> list[ProofContext]:
    return [
        ProofContext(ctx.game_id + b"x", ctx.step, ctx.prover),
        ProofContext(ctx.game_id, ctx.step + "x", ctx.prover),
        ProofContext(ctx.game_id, ctx.step, ctx.prover + 1),
    ]


@pytest.fixture
def ctx() -> ProofContext:
    return CTX


@pytest.fixture
def tampered() -> Callable[..., Iterator[Variant]]:
    return tamper_variants


@pytest.fixture
def contexts() -> Callable[[ProofContext], list[ProofContext]]:
    return other_contexts
