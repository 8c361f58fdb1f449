"""Chaum-Pedersen equality of discrete logs, single and batched, and layer removal.

``DLEQ(g1, h1, g2, h2)``: the prover knows x with ``h1 = x*g1`` and ``h2 = x*g2``.
Used for "this layer was applied/removed with the key behind my public key".

The batched form proves ``Y = x*G`` and ``out_i = x*in_i`` for many pairs at once: the
pairs are folded by weights ``z_i`` hashed from the whole statement into
``M = sum z_i in_i`` and ``N = sum z_i out_i`` and one DLEQ(G, Y, M, N) is proven. If
any pair is off, ``N - x*M`` is a non-zero multiple of a hash-chosen weight, so it
vanishes with probability 1/L.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from p2pclue.crypto.cards import identify_strict
from p2pclue.crypto.context import ProofContext, Transcript
from p2pclue.crypto.errors import CryptoUsageError, ProofRejected
from p2pclue.crypto.group import G, Point, Scalar, inverse, lincomb, mul
from p2pclue.crypto.rand import ScalarSource, random_scalar
from p2pclue.crypto.wire import ChallengeResponse

TAG = "dleq"
BATCH_TAG = "dleq-batch"


@dataclass(frozen=True, slots=True)
class DleqProof(ChallengeResponse):
    WIRE_NAME: ClassVar[str] = "dleq_proof"


@dataclass(frozen=True, slots=True)
class DleqBatchProof(ChallengeResponse):
    WIRE_NAME: ClassVar[str] = "dleq_batch_proof"


def _dleq_transcript(
    tag: str, ctx: ProofContext, g1: Point, h1: Point, g2: Point, h2: Point
) -> Transcript:
    return Transcript(tag, ctx).points("statement", (g1, h1, g2, h2))


def _prove(t: Transcript, secret: Scalar, g1: Point, g2: Point, src: ScalarSource) -> DleqProof:
    nonce = random_scalar(src)
    t.point("T1", mul(nonce, g1)).point("T2", mul(nonce, g2))
    c = t.challenge("c")
    return DleqProof(c, nonce + c * secret)


def _check(
    t: Transcript, tag: str, g1: Point, h1: Point, g2: Point, h2: Point, c: Scalar, s: Scalar
) -> None:
    t.point("T1", mul(s, g1) - mul(c, h1)).point("T2", mul(s, g2) - mul(c, h2))
    if t.challenge("c") != c:
        raise ProofRejected(tag, "challenge mismatch")


def prove_dleq(
    ctx: ProofContext, secret: Scalar, g1: Point, h1: Point, g2: Point, h2: Point,
    src: ScalarSource,
) -> DleqProof:
    """Prove ``h1 = secret*g1`` and ``h2 = secret*g2`` (the caller supplies h1, h2)."""
    return _prove(_dleq_transcript(TAG, ctx, g1, h1, g2, h2), secret, g1, g2, src)


def verify_dleq(
    ctx: ProofContext, g1: Point, h1: Point, g2: Point, h2: Point, proof: DleqProof
) -> None:
    if g1.is_identity or g2.is_identity:
        raise ProofRejected(TAG, "a base is the identity")
    t = _dleq_transcript(TAG, ctx, g1, h1, g2, h2)
    _check(t, TAG, g1, h1, g2, h2, proof.challenge, proof.response)


def _batch_fold(
    ctx: ProofContext, public_key: Point, inputs: Sequence[Point], outputs: Sequence[Point]
) -> tuple[Transcript, list[Scalar]]:
    if len(inputs) != len(outputs):
        raise ProofRejected(BATCH_TAG, "inputs and outputs differ in length")
    t = Transcript(BATCH_TAG, ctx).point("Y", public_key)
    t.points("inputs", inputs).points("outputs", outputs)
    return t, t.challenges("z", len(inputs))


def prove_dleq_batch(
    ctx: ProofContext, secret: Scalar, public_key: Point, inputs: Sequence[Point],
    outputs: Sequence[Point], src: ScalarSource,
) -> DleqBatchProof:
    """Prove ``public_key = secret*G`` and ``outputs[i] = secret*inputs[i]`` for all i."""
    t, z = _batch_fold(ctx, public_key, inputs, outputs)
    m = lincomb(z, list(inputs))
    n = mul(secret, m)
    t.point("M", m).point("N", n)
    p = _prove(t, secret, G, m, src)
    return DleqBatchProof(p.challenge, p.response)


def verify_dleq_batch(
    ctx: ProofContext, public_key: Point, inputs: Sequence[Point], outputs: Sequence[Point],
    proof: DleqBatchProof,
) -> None:
    if public_key.is_identity:
        raise ProofRejected(BATCH_TAG, "public key is the identity")
    t, z = _batch_fold(ctx, public_key, inputs, outputs)
    m = lincomb(z, list(inputs))
    if m.is_identity:
        raise ProofRejected(BATCH_TAG, "the combined input is the identity")
    n = lincomb(z, list(outputs))
    t.point("M", m).point("N", n)
    _check(t, BATCH_TAG, G, public_key, m, n, proof.challenge, proof.response)


def unlayer(
    ctx: ProofContext, points: Sequence[Point], secret: Scalar, public_key: Point,
    src: ScalarSource,
) -> tuple[list[Point], DleqBatchProof]:
    """Remove this player's layer ``secret`` from every point, with a public proof.

    The proof is the batched DLEQ with the stripped points as inputs and the given
    points as outputs (``given = secret * stripped``).
    """
    if secret.value == 0:
        raise CryptoUsageError("a layer secret must be non-zero")
    inv = inverse(secret)
    stripped = [mul(inv, p) for p in points]
    return stripped, prove_dleq_batch(ctx, secret, public_key, stripped, list(points), src)


def verify_unlayer(
    ctx: ProofContext, points_in: Sequence[Point], points_out: Sequence[Point],
    public_key: Point, proof: DleqBatchProof,
) -> None:
    verify_dleq_batch(ctx, public_key, points_out, points_in, proof)


def reveal_to_owner(point: Point, secret: Scalar) -> int:
    """The owner strips its own last layer privately and recognises the card."""
    return identify_strict(mul(inverse(secret), point))


def open_public(points: Sequence[Point]) -> list[int]:
    """Card indices of fully unlayered points (leftovers, the envelope after a win)."""
    return [identify_strict(p) for p in points]
