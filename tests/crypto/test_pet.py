"""Accusation check by a blinded plaintext-equivalence test (R26, R27)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from p2pclue.crypto.cards import card_point
from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.errors import CryptoUsageError, ProofRejected
from p2pclue.crypto.group import G, Point, Scalar, base_mul, mul
from p2pclue.crypto.pet import prove_pet_step
from p2pclue.crypto.proofs import (
    PetStepProof,
    open_public,
    pet_result,
    pet_start,
    pet_step,
    pet_weights,
    unlayer,
    verify_pet_step,
    verify_unlayer,
)
from p2pclue.crypto.rand import SeededRandom, random_scalar

Tamper = Callable[..., Iterator[tuple[str, Any]]]
ENVELOPE_CARDS = (1, 9, 18)  # Mustard, Revolver, Lounge


class Table:
    def __init__(self, n: int, seed: bytes) -> None:
        self.src = SeededRandom(seed)
        self.keys = [random_scalar(self.src) for _ in range(n)]
        self.pubs = [base_mul(k) for k in self.keys]
        big_k = Scalar(1)
        for k in self.keys:
            big_k = big_k * k
        self.envelope = [mul(big_k, card_point(c)) for c in ENVELOPE_CARDS]

    def run(self, ctx: ProofContext, accused: Sequence[int]) -> bool:
        w = pet_weights(ctx, accused, self.envelope)
        q, p = pet_start(self.envelope, accused, w)
        for j, (k, y) in enumerate(zip(self.keys, self.pubs, strict=True)):
            step = ctx.at("accuse/pet", j)
            q2, p2, proof = pet_step(step, q, p, k, y, self.src)
            verify_pet_step(step, q, p, q2, p2, y, PetStepProof.from_wire(proof.to_wire()))
            q, p = q2, p2
        return pet_result(q, p)


def test_R26_right_accusation_matches_and_envelope_opens(ctx: ProofContext) -> None:
    table = Table(4, b"pet1")
    assert table.run(ctx, ENVELOPE_CARDS) is True
    points: list[Point] = list(table.envelope)
    for j, (k, y) in enumerate(zip(table.keys, table.pubs, strict=True)):
        step = ctx.at("accuse/open", j)
        out, proof = unlayer(step, points, k, y, table.src)
        verify_unlayer(step, points, out, y, proof)
        points = out
    assert open_public(points) == list(ENVELOPE_CARDS)


@pytest.mark.parametrize("accused", [(0, 9, 18), (1, 10, 18), (1, 9, 19), (2, 6, 12)])
def test_R27_wrong_accusation_in_any_category_does_not_match(
    ctx: ProofContext, accused: tuple[int, int, int]
) -> None:
    assert Table(3, b"pet2").run(ctx, accused) is False


def test_pet_weights_depend_on_context_and_accusation(ctx: ProofContext) -> None:
    env = Table(3, b"pet3").envelope
    w = pet_weights(ctx, ENVELOPE_CARDS, env)
    assert len(set(w)) == 3
    assert pet_weights(ctx.at("other"), ENVELOPE_CARDS, env) != w
    assert pet_weights(ctx, (1, 9, 19), env) != w
    assert pet_weights(b"agreed-hash", ENVELOPE_CARDS, env) != pet_weights(
        b"agreed-hash2", ENVELOPE_CARDS, env)
    with pytest.raises(CryptoUsageError):
        pet_weights(ctx, (1, 9), env)


def test_pet_step_tampered_and_replayed_fail(
    ctx: ProofContext, tampered: Tamper, contexts: Callable[[ProofContext], list[ProofContext]]
) -> None:
    t = Table(3, b"pet4")
    q0, p0 = pet_start(t.envelope, (1, 9, 18), pet_weights(ctx, (1, 9, 18), t.envelope))
    q, p, proof = pet_step(ctx, q0, p0, t.keys[0], t.pubs[0], t.src)
    verify_pet_step(ctx, q0, p0, q, p, t.pubs[0], proof)
    for _, wire in tampered(proof.to_wire()):
        with pytest.raises(ProofRejected):
            verify_pet_step(ctx, q0, p0, q, p, t.pubs[0], PetStepProof.from_wire(wire))
    for other in contexts(ctx):
        with pytest.raises(ProofRejected):
            verify_pet_step(other, q0, p0, q, p, t.pubs[0], proof)
    with pytest.raises(ProofRejected):  # outputs swapped
        verify_pet_step(ctx, q0, p0, p, q, t.pubs[0], proof)
    with pytest.raises(ProofRejected):  # another player's key
        verify_pet_step(ctx, q0, p0, q, p, t.pubs[1], proof)


def test_pet_step_with_wrong_key_or_skipped_blinding_is_rejected(ctx: ProofContext) -> None:
    t = Table(3, b"pet5")
    q0, p0 = pet_start(t.envelope, (1, 9, 18), pet_weights(ctx, (1, 9, 18), t.envelope))
    k, y = t.keys[0], t.pubs[0]
    # Wrong key: a secret other than the one behind Y.
    wrong = random_scalar(t.src)
    q, p, proof = pet_step(ctx, q0, p0, wrong, y, t.src)
    with pytest.raises(ProofRejected):
        verify_pet_step(ctx, q0, p0, q, p, y, proof)
    # Skipped blinding (b = 1): a valid witness, refused because it reveals matches.
    one = Scalar(1)
    p1 = mul(k, p0)
    skipped = prove_pet_step(ctx, q0, p0, q0, p1, y, one, k, t.src)
    with pytest.raises(ProofRejected, match="blinding"):
        verify_pet_step(ctx, q0, p0, q0, p1, y, skipped)
    # Blinding only one side: Q blinded by b, P by a different factor.
    b = random_scalar(t.src)
    q_b, p_k = mul(b, q0), mul(k, p0)
    lopsided = prove_pet_step(ctx, q0, p0, q_b, p_k, y, b, k, t.src)
    with pytest.raises(ProofRejected):
        verify_pet_step(ctx, q0, p0, q_b, p_k, y, lopsided)
    # Zero blinding would force a false "match": both sides the identity.
    zero = Scalar(0)
    ident = G - G
    forced = prove_pet_step(ctx, q0, p0, ident, ident, y, zero, zero, t.src)
    with pytest.raises(ProofRejected, match="identity"):
        verify_pet_step(ctx, q0, p0, ident, ident, y, forced)
