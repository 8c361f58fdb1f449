""""I hold none of these cards": the named cards and the hand under one fresh key.

The refuter j (secret s_j, S_j = s_j*G, hand points X_p = s_j*M_{h_p}) picks a fresh r and
publishes, under the one-game-step key u = r*s_j,

    Y_t = u*M_t  for each named card t,      Q_p = r*X_p = u*M_{h_p}  for each position p,

with a proof of knowledge of (a, b) = (r*s_j, r) such that

    Y_t = a*M_t (every t),   Q_p = b*X_p (every p),   0 = a*G - b*S_j.

The last equation forces a = b*s_j, so Y_t and Q_p are the named cards and the held cards
under one key; the verifier refuses if any Y_t equals any Q_p, which is exactly "a named card
is held" (and refuses b = 0, where every one is the identity). Nothing else can be compared:
every value is under a key used once, and telling Y_t from a random point is deciding
Diffie-Hellman for s_j (docs/protocol.md, section 5). One challenge covers the whole
statement. The earlier form (Camenisch-Shoup, one inequality proof per pair) proved the same
with 72 variable-base multiplications to verify a hand of six; this one takes 19.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from p2pclue.crypto.context import ProofContext, Transcript
from p2pclue.crypto.errors import CryptoUsageError, MalformedProofError, ProofRejected
from p2pclue.crypto.group import Point, Scalar, base_mul, mul
from p2pclue.crypto.rand import ScalarSource, random_scalar
from p2pclue.crypto.show import check_named
from p2pclue.crypto.wire import expect_dict, points_from_wire, points_to_wire, scalar_field

TAG = "none"
_NAME = "none_proof"


@dataclass(frozen=True, slots=True)
class NoneProof:
    y: tuple[Point, ...]  # the named cards under the fresh key, in ``named`` order
    q: tuple[Point, ...]  # the hand under the fresh key, in hand order
    challenge: Scalar
    sa: Scalar
    sb: Scalar

    def to_wire(self) -> dict[str, Any]:
        return {
            "y": points_to_wire(self.y),
            "q": points_to_wire(self.q),
            "c": bytes(self.challenge),
            "sa": bytes(self.sa),
            "sb": bytes(self.sb),
        }

    def shows_held(self) -> bool:
        """Whether a named card shows under the fresh key as a hand card: the claim is false.
        (Equal bytes are equal points once every Y and Q is tested: see ``verify_none``.)"""
        return not set(self.y).isdisjoint(self.q)

    @classmethod
    def from_wire(cls, obj: object) -> Self:
        d = expect_dict(obj, _NAME, ("y", "q", "c", "sa", "sb"))
        ys = points_from_wire(d["y"], f"{_NAME}.y", 3)
        qs = points_from_wire(d["q"], f"{_NAME}.q")
        if not qs:
            raise MalformedProofError(f"{_NAME}.q", "empty")
        return cls(tuple(ys), tuple(qs), scalar_field(d, "c", _NAME),
                   scalar_field(d, "sa", _NAME), scalar_field(d, "sb", _NAME))


def _transcript(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], pub: Point,
    ys: Sequence[Point], qs: Sequence[Point],
) -> Transcript:
    t = Transcript(TAG, ctx).integers("named", named).points("hand", hand_points)
    return t.point("S", pub).points("Y", ys).points("Q", qs)


def prove_none(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], secret: Scalar,
    public_key: Point, src: ScalarSource,
) -> NoneProof:
    """Prove that no hand point is ``secret`` times a named card (refuses if one is)."""
    proof = prove_none_unchecked(ctx, named, hand_points, secret, public_key, src)
    if proof.shows_held():  # the claim's own check, on the points the proof shows
        raise CryptoUsageError("cannot prove 'none': a named card is in the hand")
    return proof


def prove_none_unchecked(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], secret: Scalar,
    public_key: Point, src: ScalarSource,
) -> NoneProof:
    """The proof computed honestly from the witness, without checking the claim.

    The prover knows its secret: the commitment of ``0 = a*G - b*S`` is computed as
    ``(alpha - beta*secret)*G``, one fixed-base multiplication (the same point whenever
    S = secret*G; if not, the proof fails either way)."""
    points = check_named(named)
    r, alpha, beta = random_scalar(src), random_scalar(src), random_scalar(src)
    a = r * secret
    ys = [mul(a, m) for m in points]
    qs = [mul(r, x) for x in hand_points]
    t = _transcript(ctx, named, hand_points, public_key, ys, qs)
    c = t.points("U", [mul(alpha, m) for m in points]).points(
        "W", [mul(beta, x) for x in hand_points]).point(
        "V", base_mul(alpha - beta * secret)).challenge("c")
    return NoneProof(tuple(ys), tuple(qs), c, alpha + c * a, beta + c * r)


def verify_none(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], public_key: Point,
    proof: NoneProof,
) -> None:
    try:
        points = check_named(named)
    except CryptoUsageError as exc:
        raise ProofRejected(TAG, str(exc)) from None
    if len(proof.y) != 3 or len(proof.q) != len(hand_points):
        raise ProofRejected(TAG, f"expected 3 named and {len(hand_points)} hand points")
    if public_key.is_identity:
        raise ProofRejected(TAG, "public key is the identity")
    c, sa, sb = proof.challenge, proof.sa, proof.sb
    us = [mul(sa, m) - mul(c, y) for m, y in zip(points, proof.y, strict=True)]
    ws = [mul(sb, x) - mul(c, q) for x, q in zip(hand_points, proof.q, strict=True)]
    v = base_mul(sa) - mul(sb, public_key)
    # Every Y and Q has now been through a multiplication, which refuses a non-canonical
    # encoding: equal bytes here are equal points.
    if proof.shows_held():
        raise ProofRejected(TAG, "a named card is held: it shows under the fresh key "
                                 "as a hand card")
    t = _transcript(ctx, named, hand_points, public_key, proof.y, proof.q)
    if t.points("U", us).points("W", ws).point("V", v).challenge("c") != c:
        raise ProofRejected(TAG, "challenge mismatch")
