""""I show you one of these cards": ElGamal to the suggester plus a public OR-proof.

Refuter j (hand points ``X_p = s_j*C_p`` after everybody else removed their layers,
public ``S_j = s_j*G``) encrypts the shown card ``M`` to the suggester's key ``P``:
``(A, B) = (rho*G, rho*P + M)``. The proof is a Cramer-Damgard-Schoenmakers OR over every
(hand position p, named card t) of

    S_j = s*G  and  X_p = s*M_t  and  A = rho*G  and  B - M_t = rho*P,

so everyone learns that a named card from j's dealt hand was sent, and only the
suggester (``B - x*A``) learns which. Branch order: position-major, ``p*3 + t``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from p2pclue.crypto.cards import card_point, identify_strict
from p2pclue.crypto.context import ProofContext, Transcript
from p2pclue.crypto.errors import CryptoUsageError, MalformedProofError, ProofRejected
from p2pclue.crypto.group import Point, Scalar, base_mul, mul, scalar_sum
from p2pclue.crypto.rand import ScalarSource, random_scalar
from p2pclue.crypto.wire import (
    expect_dict,
    point_field,
    scalars_from_wire,
    scalars_to_wire,
)

TAG = "show"


@dataclass(frozen=True, slots=True)
class Ciphertext:
    a: Point
    b: Point

    def to_wire(self) -> dict[str, Any]:
        return {"a": self.a.data, "b": self.b.data}

    @classmethod
    def from_wire(cls, obj: object) -> Self:
        d = expect_dict(obj, "ciphertext", ("a", "b"))
        return cls(point_field(d, "a", "ciphertext"), point_field(d, "b", "ciphertext"))


@dataclass(frozen=True, slots=True)
class ShowProof:
    challenges: tuple[Scalar, ...]  # one per branch; they sum to the hash challenge
    u: tuple[Scalar, ...]  # responses for s_j
    v: tuple[Scalar, ...]  # responses for rho
    WIRE_NAME: ClassVar[str] = "show_proof"

    def to_wire(self) -> dict[str, Any]:
        return {
            "c": scalars_to_wire(self.challenges),
            "u": scalars_to_wire(self.u),
            "v": scalars_to_wire(self.v),
        }

    @classmethod
    def from_wire(cls, obj: object) -> Self:
        name = cls.WIRE_NAME
        d = expect_dict(obj, name, ("c", "u", "v"))
        cs = scalars_from_wire(d["c"], f"{name}.c")
        if not cs:
            raise MalformedProofError(f"{name}.c", "empty")
        n = len(cs)
        return cls(
            tuple(cs),
            tuple(scalars_from_wire(d["u"], f"{name}.u", n)),
            tuple(scalars_from_wire(d["v"], f"{name}.v", n)),
        )


def check_named(named: Sequence[int]) -> list[Point]:
    if len(named) != 3 or len(set(named)) != 3:
        raise CryptoUsageError("a suggestion names three distinct cards")
    return [card_point(i) for i in named]


def check_show_statement(
    tag: str, named: Sequence[int], hand_points: Sequence[Point], public_key: Point,
    suggester_pub: Point,
) -> list[Point]:
    """The verifier's refusals of the statement before any arithmetic (shared by both show
    proofs, whose proofs then check their own shapes): three distinct named cards (their
    points are returned), a non-empty hand, no identity key."""
    try:
        points = check_named(named)
    except CryptoUsageError as exc:
        raise ProofRejected(tag, str(exc)) from None
    if not hand_points:
        raise ProofRejected(tag, "the refuter holds no cards")
    if public_key.is_identity or suggester_pub.is_identity:
        raise ProofRejected(tag, "a public key is the identity")
    return points


def _transcript(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], pub: Point,
    suggester_pub: Point, ct: Ciphertext,
) -> Transcript:
    t = Transcript(TAG, ctx).integers("named", named).points("hand", hand_points)
    return t.point("S", pub).point("P", suggester_pub).point("A", ct.a).point("B", ct.b)


def _branch_commitments(
    c: Scalar, u: Scalar, v: Scalar, m: Point, x: Point, pub: Point, suggester_pub: Point,
    ct: Ciphertext,
) -> list[Point]:
    """The four commitments a branch must have had for challenge c and responses (u, v)."""
    return [
        base_mul(u) - mul(c, pub),
        mul(u, m) - mul(c, x),
        base_mul(v) - mul(c, ct.a),
        mul(v, suggester_pub) - mul(c, ct.b - m),
    ]


def prove_show(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], secret: Scalar,
    public_key: Point, shown_position: int, shown_card: int, suggester_pub: Point,
    src: ScalarSource,
) -> tuple[Ciphertext, ShowProof]:
    """Encrypt ``shown_card`` (held at ``shown_position``) to the suggester, with proof."""
    points = check_named(named)
    if shown_card not in named:
        raise CryptoUsageError("the shown card must be one of the named cards")
    if not 0 <= shown_position < len(hand_points):
        raise CryptoUsageError("shown_position is not a hand position")
    if mul(secret, card_point(shown_card)) != hand_points[shown_position]:
        raise CryptoUsageError("the shown card is not at that hand position")
    rho = random_scalar(src)
    ct = Ciphertext(base_mul(rho), mul(rho, suggester_pub) + points[named.index(shown_card)])
    real = shown_position * 3 + list(named).index(shown_card)
    proof = prove_show_unchecked(
        ctx, named, hand_points, secret, public_key, real, rho, suggester_pub, ct, src
    )
    return ct, proof


def prove_show_unchecked(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], secret: Scalar,
    public_key: Point, real_branch: int, rho: Scalar, suggester_pub: Point, ct: Ciphertext,
    src: ScalarSource,
) -> ShowProof:
    """The OR-proof with ``real_branch`` answered honestly; no check that it is true."""
    points = check_named(named)
    n = 3 * len(hand_points)
    cs: list[Scalar] = []
    us: list[Scalar] = []
    vs: list[Scalar] = []
    commitments: list[Point] = []
    sigma, pi = random_scalar(src), random_scalar(src)
    for b in range(n):
        m, x = points[b % 3], hand_points[b // 3]
        if b == real_branch:
            cs.append(Scalar(0))
            us.append(sigma)
            vs.append(pi)
            commitments += [base_mul(sigma), mul(sigma, m), base_mul(pi), mul(pi, suggester_pub)]
        else:
            c, u, v = random_scalar(src), random_scalar(src), random_scalar(src)
            cs.append(c)
            us.append(u)
            vs.append(v)
            # What _branch_commitments gives, through the logs the prover knows
            # (S = secret*G, A = rho*G): two multiplications fewer per branch.
            commitments += [base_mul(u - c * secret), mul(u, m) - mul(c, x),
                            base_mul(v - c * rho), mul(v, suggester_pub) - mul(c, ct.b - m)]
    t = _transcript(ctx, named, hand_points, public_key, suggester_pub, ct)
    close_real_branch(t.points("T", commitments).challenge("c"), real_branch, cs, us, vs,
                      (sigma, secret), (pi, rho))
    return ShowProof(tuple(cs), tuple(us), tuple(vs))


def close_real_branch(total: Scalar, real_branch: int, cs: list[Scalar], us: list[Scalar],
                      vs: list[Scalar], u_mask: tuple[Scalar, Scalar],
                      v_mask: tuple[Scalar, Scalar]) -> None:
    """CDS: the real branch takes the hash challenge minus the simulated ones (its slot in
    ``cs`` still holds zero), and answers with each (mask, witness) pair: mask + c * witness."""
    c_real = total - scalar_sum(cs)
    cs[real_branch] = c_real
    us[real_branch] = u_mask[0] + c_real * u_mask[1]
    vs[real_branch] = v_mask[0] + c_real * v_mask[1]


def verify_show(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], public_key: Point,
    suggester_pub: Point, ciphertext: Ciphertext, proof: ShowProof,
) -> None:
    points = check_show_statement(TAG, named, hand_points, public_key, suggester_pub)
    n = 3 * len(hand_points)
    if not (len(proof.challenges) == len(proof.u) == len(proof.v) == n):
        raise ProofRejected(TAG, f"expected {n} branches")
    commitments: list[Point] = []
    for b in range(n):
        c = proof.challenges[b]
        commitments += _branch_commitments(
            c, proof.u[b], proof.v[b], points[b % 3], hand_points[b // 3], public_key,
            suggester_pub, ciphertext,
        )
    t = _transcript(ctx, named, hand_points, public_key, suggester_pub, ciphertext)
    if t.points("T", commitments).challenge("c") != scalar_sum(proof.challenges):
        raise ProofRejected(TAG, "challenge mismatch")


def decrypt_shown(ciphertext: Ciphertext, suggester_secret: Scalar) -> int:
    """The suggester's private decryption: ``B - x*A`` must be a card point."""
    return identify_strict(ciphertext.b - mul(suggester_secret, ciphertext.a))
