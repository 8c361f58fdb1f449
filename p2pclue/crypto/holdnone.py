""""I hold none of these cards": Camenisch-Shoup inequality of discrete logs.

For every hand position p and named card t the refuter publishes
``T = r*(s_j*M_t - X_p)`` for a fresh secret r, and proves knowledge of
``(a, b) = (r*s_j, r)`` with

    T = a*M_t - b*X_p   and   0 = a*G - b*S_j.

The second equation forces ``a = b*s_j``, so ``T = b*(s_j*M_t - X_p)``; if the refuter
held M_t at p, T would be the identity, which the verifier refuses. A false "cannot
refute" therefore cannot be proven. T reveals nothing else (it is a random multiple of a
non-zero point). All pairs share one Fiat-Shamir challenge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from p2pclue.crypto.cards import card_point
from p2pclue.crypto.context import ProofContext, Transcript
from p2pclue.crypto.errors import CryptoUsageError, MalformedProofError, ProofRejected
from p2pclue.crypto.group import Point, Scalar, base_mul, mul
from p2pclue.crypto.rand import ScalarSource, random_scalar
from p2pclue.crypto.wire import (
    expect_dict,
    points_from_wire,
    points_to_wire,
    scalar_field,
    scalars_from_wire,
    scalars_to_wire,
)

TAG = "none"
_NAME = "none_proof"


@dataclass(frozen=True, slots=True)
class NoneProof:
    t: tuple[Point, ...]  # one per (position, named card), position-major
    challenge: Scalar
    sa: tuple[Scalar, ...]
    sb: tuple[Scalar, ...]

    def to_wire(self) -> dict[str, Any]:
        return {
            "t": points_to_wire(self.t),
            "c": bytes(self.challenge),
            "sa": scalars_to_wire(self.sa),
            "sb": scalars_to_wire(self.sb),
        }

    @classmethod
    def from_wire(cls, obj: object) -> Self:
        d = expect_dict(obj, _NAME, ("t", "c", "sa", "sb"))
        ts = points_from_wire(d["t"], f"{_NAME}.t")
        if not ts:
            raise MalformedProofError(f"{_NAME}.t", "empty")
        n = len(ts)
        return cls(
            tuple(ts),
            scalar_field(d, "c", _NAME),
            tuple(scalars_from_wire(d["sa"], f"{_NAME}.sa", n)),
            tuple(scalars_from_wire(d["sb"], f"{_NAME}.sb", n)),
        )


def _named_points(named: Sequence[int]) -> list[Point]:
    if len(named) != 3 or len(set(named)) != 3:
        raise CryptoUsageError("a suggestion names three distinct cards")
    return [card_point(i) for i in named]


def _transcript(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], pub: Point,
    ts: Sequence[Point],
) -> Transcript:
    t = Transcript(TAG, ctx).integers("named", named).points("hand", hand_points)
    return t.point("S", pub).points("T", ts)


def prove_none(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], secret: Scalar,
    public_key: Point, src: ScalarSource,
) -> NoneProof:
    """Prove that no hand point is ``secret`` times a named card (refuses if one is)."""
    points = _named_points(named)
    scaled = [mul(secret, m) for m in points]  # the named cards as held: three products
    if any(x in scaled for x in hand_points):
        raise CryptoUsageError("cannot prove 'none': a named card is in the hand")
    return _prove(ctx, named, points, scaled, hand_points, secret, public_key, src)


def prove_none_unchecked(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], secret: Scalar,
    public_key: Point, src: ScalarSource,
) -> NoneProof:
    """The proof computed honestly from the witness, without checking the claim."""
    points = _named_points(named)
    return _prove(ctx, named, points, [mul(secret, m) for m in points], hand_points, secret,
                  public_key, src)


def _prove(
    ctx: ProofContext, named: Sequence[int], points: Sequence[Point], scaled: Sequence[Point],
    hand_points: Sequence[Point], secret: Scalar, public_key: Point, src: ScalarSource,
) -> NoneProof:
    """The proof from ``scaled`` = ``secret`` times each named card point.

    The prover knows its secret: T = a*M - r*X = r*(secret*M - X) and
    alpha*G - beta*S = (alpha - beta*secret)*G, one multiplication each instead of two
    (the same points whenever S = secret*G; if not, the proof fails either way)."""
    ts: list[Point] = []
    us: list[Point] = []
    witnesses: list[tuple[Scalar, Scalar, Scalar, Scalar]] = []
    for x in hand_points:
        for m, sm in zip(points, scaled, strict=True):
            r = random_scalar(src)
            a = r * secret
            alpha, beta = random_scalar(src), random_scalar(src)
            ts.append(mul(r, sm - x))
            us += [mul(alpha, m) - mul(beta, x), base_mul(alpha - beta * secret)]
            witnesses.append((a, r, alpha, beta))
    c = _transcript(ctx, named, hand_points, public_key, ts).points("U", us).challenge("c")
    return NoneProof(
        tuple(ts), c,
        tuple(alpha + c * a for a, _, alpha, _ in witnesses),
        tuple(beta + c * b for _, b, _, beta in witnesses),
    )


def verify_none(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], public_key: Point,
    proof: NoneProof,
) -> None:
    try:
        points = _named_points(named)
    except CryptoUsageError as exc:
        raise ProofRejected(TAG, str(exc)) from None
    n = 3 * len(hand_points)
    if not (len(proof.t) == len(proof.sa) == len(proof.sb) == n):
        raise ProofRejected(TAG, f"expected {n} inequality proofs")
    if public_key.is_identity:
        raise ProofRejected(TAG, "public key is the identity")
    c = proof.challenge
    us: list[Point] = []
    for i in range(n):
        t = proof.t[i]
        if t.is_identity:
            raise ProofRejected(TAG, f"T[{i}] is the identity: the named card is held")
        m, x = points[i % 3], hand_points[i // 3]
        sa, sb = proof.sa[i], proof.sb[i]
        us += [mul(sa, m) - mul(sb, x) - mul(c, t), base_mul(sa) - mul(sb, public_key)]
    if _transcript(ctx, named, hand_points, public_key, proof.t).points("U", us).challenge(
            "c") != c:
        raise ProofRejected(TAG, "challenge mismatch")
