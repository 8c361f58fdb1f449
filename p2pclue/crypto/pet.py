"""Accusation check: a blinded plaintext-equivalence test on the envelope.

Envelope ``E_t = K*C_t`` (K the product of all phase-1 keys), accused cards ``M_t``.
Weights ``w_t`` are hashed from the context after the accusation is fixed;
``Q_0 = sum w_t E_t`` and ``P_0 = sum w_t M_t``. Player j (seat order) picks a fresh
secret ``b`` and publishes ``Q_j = b*Q_{j-1}``, ``P_j = (b*k_j)*P_{j-1}`` with a proof of
knowledge of ``(b, c)`` such that ``Q_j = b*Q_{j-1}``, ``P_j = c*P_{j-1}`` and
``0 = c*G - b*Y_j``. The accusation is right iff ``Q_n == P_n``. Without the blinding, a
mismatch would leak which categories matched; with one honest player, a mismatch is a
uniformly random difference. The verifier also refuses a skipped blinding
(``Q_j == Q_{j-1}``) and the identity (``b = 0`` would force a false "match").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from p2pclue.crypto.cards import card_point
from p2pclue.crypto.context import ProofContext, Transcript
from p2pclue.crypto.errors import CryptoUsageError, ProofRejected
from p2pclue.crypto.group import Point, Scalar, base_mul, lincomb, mul
from p2pclue.crypto.rand import ScalarSource, random_scalar
from p2pclue.crypto.wire import expect_dict, scalar_field

TAG = "pet-step"
_NAME = "pet_step_proof"


@dataclass(frozen=True, slots=True)
class PetStepProof:
    challenge: Scalar
    sb: Scalar
    sc: Scalar

    def to_wire(self) -> dict[str, Any]:
        return {"c": bytes(self.challenge), "sb": bytes(self.sb), "sc": bytes(self.sc)}

    @classmethod
    def from_wire(cls, obj: object) -> Self:
        d = expect_dict(obj, _NAME, ("c", "sb", "sc"))
        return cls(
            scalar_field(d, "c", _NAME), scalar_field(d, "sb", _NAME), scalar_field(d, "sc", _NAME)
        )


def pet_weights(
    ctx_or_hash: ProofContext | bytes, accused: Sequence[int], envelope: Sequence[Point]
) -> tuple[Scalar, Scalar, Scalar]:
    """Three weights fixed by the context (or an agreed hash), the accusation and envelope."""
    if len(accused) != 3 or len(envelope) != 3:
        raise CryptoUsageError("an accusation names three cards against three envelope points")
    if isinstance(ctx_or_hash, ProofContext):
        t = Transcript("pet-weights", ctx_or_hash)
    else:
        t = Transcript("pet-weights").data("context-hash", ctx_or_hash)
    t.integers("accused", accused).points("envelope", envelope)
    w = t.challenges("w", 3)
    return w[0], w[1], w[2]


def pet_start(
    envelope: Sequence[Point], accused: Sequence[int], weights: Sequence[Scalar]
) -> tuple[Point, Point]:
    """``(Q_0, P_0)``: the weighted envelope and the weighted accused card points."""
    if len(accused) != 3 or len(envelope) != 3 or len(weights) != 3:
        raise CryptoUsageError("pet_start needs three envelope points, cards and weights")
    q0 = lincomb(list(weights), list(envelope))
    p0 = lincomb(list(weights), [card_point(i) for i in accused])
    if q0.is_identity or p0.is_identity:
        raise CryptoUsageError("degenerate PET start (probability 2^-250)")  # pragma: no cover
    return q0, p0


def _transcript(
    ctx: ProofContext, q_prev: Point, p_prev: Point, q: Point, p: Point, pub: Point
) -> Transcript:
    return Transcript(TAG, ctx).points("statement", (q_prev, p_prev, q, p, pub))


def pet_step(
    ctx: ProofContext, q_prev: Point, p_prev: Point, secret: Scalar, public_key: Point,
    src: ScalarSource,
) -> tuple[Point, Point, PetStepProof]:
    """Blind both sides by a fresh b and apply this player's key to the accused side."""
    b = random_scalar(src)
    c = b * secret
    q, p = mul(b, q_prev), mul(c, p_prev)
    return q, p, prove_pet_step(ctx, q_prev, p_prev, q, p, public_key, b, c, src)


def prove_pet_step(
    ctx: ProofContext, q_prev: Point, p_prev: Point, q: Point, p: Point, public_key: Point,
    b: Scalar, c: Scalar, src: ScalarSource,
) -> PetStepProof:
    """The proof for witnesses ``(b, c)``; does not check that they fit."""
    beta, gamma = random_scalar(src), random_scalar(src)
    t = _transcript(ctx, q_prev, p_prev, q, p, public_key)
    t.points("T", (mul(beta, q_prev), mul(gamma, p_prev), base_mul(gamma) - mul(beta, public_key)))
    ch = t.challenge("c")
    return PetStepProof(ch, beta + ch * b, gamma + ch * c)


def verify_pet_step(
    ctx: ProofContext, q_prev: Point, p_prev: Point, q: Point, p: Point, public_key: Point,
    proof: PetStepProof,
) -> None:
    if q.is_identity or p.is_identity:
        raise ProofRejected(TAG, "a blinded value is the identity")
    if q == q_prev:
        raise ProofRejected(TAG, "the blinding was skipped (Q unchanged)")
    if public_key.is_identity:
        raise ProofRejected(TAG, "public key is the identity")
    ch = proof.challenge
    t = _transcript(ctx, q_prev, p_prev, q, p, public_key)
    t.points("T", (
        mul(proof.sb, q_prev) - mul(ch, q),
        mul(proof.sc, p_prev) - mul(ch, p),
        base_mul(proof.sc) - mul(proof.sb, public_key),
    ))
    if t.challenge("c") != ch:
        raise ProofRejected(TAG, "challenge mismatch")


def pet_result(q_n: Point, p_n: Point) -> bool:
    """True exactly when the accusation matches the envelope (error 2^-250)."""
    return q_n == p_n
