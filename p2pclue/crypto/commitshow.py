"""Deniable "I show you one of these cards": a chameleon commitment plus a public proof.

The ElGamal show (``show.py``) lets the suggester prove to anyone which card it saw (a
proof of decryption is transferable). Here the refuter j instead publishes a Pedersen
commitment to the shown card's index ``t`` under the suggester's key ``P = x*G``:

    C = (t+1)*G + rho*P,

and proves that it opens to a named card j holds. The card is put under a fresh one-use
key a = b*s_j (b fresh, s_j j's key): A = a*G and Z = a*M_t, which equals b*X_p for the
hand position p that holds it. Two Cramer-Damgard-Schoenmakers ORs under one challenge:

    over the hand positions p:  A = beta*S_j  and  Z = beta*X_p,
    over the named cards i:     A = alpha*G   and  Z = alpha*M_i  and  C - (t_i+1)*G = rho*P.

The first puts Z among j's hand cards under b, the second makes Z a named card and C its
commitment; A ties the two keys (alpha = beta*s_j). Together they cost h + 3 branches where
the single OR over every (position, card) pair cost 3h: verifying a hand of three takes 27
variable-base multiplications instead of 57 (docs/protocol.md, section 4b).

The opening ``(t, rho)`` travels only to the suggester. Whoever knows ``x`` (the suggester)
can open ``C`` to any card (``equivocate``), so an opening convinces nobody but the one who
received it from the refuter's own link; the refuter, who does not know ``x``, cannot open
``C`` two ways without computing ``x`` (binding under discrete log). Cards are committed as
scalars ``t+1`` on ``G`` (never 0), not as card points: a card point would tie the opening to
the hash-to-group points, which the equivocation needs to avoid. Z names the card too, but
only to whoever decides Diffie-Hellman for a key used once (b is never stored nor revealed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from p2pclue.crypto.context import ProofContext, Transcript
from p2pclue.crypto.errors import CryptoUsageError, MalformedProofError, ProofRejected
from p2pclue.crypto.group import Point, Scalar, base_mul, inverse, mul, scalar, scalar_sum
from p2pclue.crypto.rand import ScalarSource, random_scalar
from p2pclue.crypto.show import check_named, check_show_statement
from p2pclue.crypto.wire import (
    expect_dict,
    point_field,
    scalar_field,
    scalars_from_wire,
    scalars_to_wire,
)

TAG = "commit-show"
OPENING_TAG = "opening"
N_CARDS = 21
_NAME = "commit_show_proof"


@dataclass(frozen=True, slots=True)
class CommitShowProof:
    """The shown card under the one-use key (``a``: A, ``z``: Z), then per hand position a
    challenge and a response (``cp``, ``up``), then per named card a challenge and two
    responses (``ci``, ``ui``, ``vi``). Both challenge lists sum to the hash challenge."""

    a: Point
    z: Point
    cp: tuple[Scalar, ...]
    up: tuple[Scalar, ...]
    ci: tuple[Scalar, ...]
    ui: tuple[Scalar, ...]
    vi: tuple[Scalar, ...]

    def to_wire(self) -> dict[str, Any]:
        return {"a": bytes(self.a), "z": bytes(self.z),
                "cp": scalars_to_wire(self.cp), "up": scalars_to_wire(self.up),
                "ci": scalars_to_wire(self.ci), "ui": scalars_to_wire(self.ui),
                "vi": scalars_to_wire(self.vi)}

    @classmethod
    def from_wire(cls, obj: object) -> Self:
        d = expect_dict(obj, _NAME, ("a", "z", "cp", "up", "ci", "ui", "vi"))
        cp = scalars_from_wire(d["cp"], f"{_NAME}.cp")
        if not cp:
            raise MalformedProofError(f"{_NAME}.cp", "empty")
        return cls(point_field(d, "a", _NAME), point_field(d, "z", _NAME), tuple(cp),
                   tuple(scalars_from_wire(d["up"], f"{_NAME}.up", len(cp))),
                   *(tuple(scalars_from_wire(d[k], f"{_NAME}.{k}", 3))
                     for k in ("ci", "ui", "vi")))


@dataclass(frozen=True, slots=True, repr=False)
class Opening:
    """``(card, rho)`` with ``C = (card+1)*G + rho*P``: private to refuter and suggester."""

    card: int
    rho: Scalar

    def __repr__(self) -> str:
        return "Opening(<hidden>)"

    def to_wire(self) -> dict[str, Any]:
        return {"card": self.card, "rho": bytes(self.rho)}

    @classmethod
    def from_wire(cls, obj: object) -> Self:
        d = expect_dict(obj, "opening", ("card", "rho"))
        card = d["card"]
        if type(card) is not int or not 0 <= card < N_CARDS:
            raise MalformedProofError("opening.card", "not a card index")
        return cls(card, scalar_field(d, "rho", "opening"))


def show_rho(refuter_key: Scalar, ctx: ProofContext) -> Scalar:
    """The commitment randomness of the show at ``ctx``, derived from the refuter's own key
    (transcript tag ``commit-rho``, data item ``k``, challenge ``rho``): a resumed refuter
    opens its old shows again without storing anything, and nobody without the key can
    tell it from a fresh random scalar."""
    return Transcript("commit-rho", ctx).scalar("k", refuter_key).challenge("rho")


def card_scalar(card: int) -> Scalar:
    """The committed value of a card: its index plus one, so that no card commits to 0."""
    return scalar(card + 1)


def commit_card(card: int, rho: Scalar, suggester_pub: Point) -> Point:
    return base_mul(card_scalar(card)) + mul(rho, suggester_pub)


def _transcript(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], pub: Point,
    suggester_pub: Point, commitment: Point, a: Point, z: Point,
) -> Transcript:
    t = Transcript(TAG, ctx).integers("named", named).points("hand", hand_points)
    return t.point("S", pub).point("P", suggester_pub).point("C", commitment).point(
        "A", a).point("Z", z)


def _residues(named: Sequence[int], commitment: Point) -> list[Point]:
    """``C - (t+1)*G`` for each named card: ``rho*P`` for the committed one."""
    return [commitment - base_mul(card_scalar(t)) for t in named]


def prove_commit_show(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], secret: Scalar,
    public_key: Point, shown_position: int, shown_card: int, suggester_pub: Point,
    src: ScalarSource, rho: Scalar | None = None,
) -> tuple[Point, CommitShowProof, Opening]:
    """Commit to ``shown_card`` (held at ``shown_position``) for the suggester, with proof.

    Returns the public commitment and proof, and the opening for the private link.
    ``rho``: the commitment randomness (default: fresh from ``src``)."""
    points = check_named(named)
    if shown_card not in named:
        raise CryptoUsageError("the shown card must be one of the named cards")
    if not 0 <= shown_position < len(hand_points):
        raise CryptoUsageError("shown_position is not a hand position")
    index = list(named).index(shown_card)
    if mul(secret, points[index]) != hand_points[shown_position]:
        raise CryptoUsageError("the shown card is not at that hand position")
    opening = Opening(shown_card, random_scalar(src) if rho is None else rho)
    if opening.rho.value == 0:
        raise CryptoUsageError("the commitment randomness must not be zero")
    commitment = commit_card(shown_card, opening.rho, suggester_pub)
    proof = prove_commit_show_unchecked(ctx, named, hand_points, secret, public_key,
                                        shown_position, index, opening.rho, suggester_pub,
                                        commitment, src)
    return commitment, proof, opening


def prove_commit_show_unchecked(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], secret: Scalar,
    public_key: Point, position: int, index: int, rho: Scalar, suggester_pub: Point,
    commitment: Point, src: ScalarSource,
) -> CommitShowProof:
    """The proof with hand position ``position`` and named card ``index`` answered honestly
    (Z is the named card under the fresh key); no check that either claim is true.

    Draws from ``src``: b, then the masks k (positions), w and v (cards), then (c, u) for
    each other position in order, then (d, w, v) for each other named card in order. The
    prover reaches the verifier's points through the logs it knows (``u*S - c*A =
    (u - c*a)*G`` with a = b*secret, ``v*P - d*(C - (t+1)*G) = (v - d*rho)*P - d*(t_real -
    t)*G``): the same points with fewer multiplications."""
    points = check_named(named)
    h = len(hand_points)
    b = random_scalar(src)
    a = b * secret
    big_a, z = base_mul(a), mul(a, points[index])
    k, w_real, v_real = random_scalar(src), random_scalar(src), random_scalar(src)
    cp = [Scalar(0)] * h
    up = [Scalar(0)] * h
    tp: list[Point] = []
    for p in range(h):
        if p == position:
            tp += [base_mul(k * secret), mul(k, hand_points[p])]
        else:
            cp[p], up[p] = random_scalar(src), random_scalar(src)
            tp += [base_mul(up[p] * secret - cp[p] * a),
                   mul(up[p], hand_points[p]) - mul(cp[p], z)]
    ci = [Scalar(0)] * 3
    ui = [Scalar(0)] * 3
    vi = [Scalar(0)] * 3
    ti: list[Point] = []
    real_value = card_scalar(named[index])
    for i in range(3):
        if i == index:
            ti += [base_mul(w_real), mul(w_real, points[i]), mul(v_real, suggester_pub)]
        else:
            ci[i], ui[i], vi[i] = random_scalar(src), random_scalar(src), random_scalar(src)
            shift = ci[i] * (real_value - card_scalar(named[i]))
            ti += [base_mul(ui[i] - ci[i] * a), mul(ui[i], points[i]) - mul(ci[i], z),
                   mul(vi[i] - ci[i] * rho, suggester_pub) - base_mul(shift)]
    c = _transcript(ctx, named, hand_points, public_key, suggester_pub, commitment, big_a,
                    z).points("TP", tp).points("TI", ti).challenge("c")
    # CDS: each real branch takes the hash challenge minus its OR's simulated ones (its own
    # slot still holds zero)
    cp[position] = c - scalar_sum(cp)
    up[position] = k + cp[position] * b
    ci[index] = c - scalar_sum(ci)
    ui[index] = w_real + ci[index] * a
    vi[index] = v_real + ci[index] * rho
    return CommitShowProof(big_a, z, tuple(cp), tuple(up), tuple(ci), tuple(ui), tuple(vi))


def verify_commit_show(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], public_key: Point,
    suggester_pub: Point, commitment: Point, proof: CommitShowProof,
) -> None:
    """Everyone's check: ``commitment`` opens to a named card at one of the refuter's
    positions. It says nothing about which."""
    points = check_show_statement(TAG, named, hand_points, public_key, suggester_pub)
    h = len(hand_points)
    if len(proof.cp) != h or len(proof.up) != h:
        raise ProofRejected(TAG, f"expected {h} hand branches")
    if not len(proof.ci) == len(proof.ui) == len(proof.vi) == 3:
        raise ProofRejected(TAG, "expected 3 card branches")
    if proof.a.is_identity or proof.z.is_identity:
        raise ProofRejected(TAG, "A or Z is the identity")
    big_a, z = proof.a, proof.z
    residues = _residues(named, commitment)
    if any(r.is_identity for r in residues):  # rho = 0: the card in the clear, no opening
        raise ProofRejected(TAG, "the commitment is a named card with no randomness")
    tp: list[Point] = []
    for p in range(h):
        c, u = proof.cp[p], proof.up[p]
        tp += [mul(u, public_key) - mul(c, big_a), mul(u, hand_points[p]) - mul(c, z)]
    ti: list[Point] = []
    for i, residue in enumerate(residues):
        d, u, v = proof.ci[i], proof.ui[i], proof.vi[i]
        ti += [base_mul(u) - mul(d, big_a), mul(u, points[i]) - mul(d, z),
               mul(v, suggester_pub) - mul(d, residue)]
    c = _transcript(ctx, named, hand_points, public_key, suggester_pub, commitment, big_a,
                    z).points("TP", tp).points("TI", ti).challenge("c")
    if scalar_sum(proof.cp) != c or scalar_sum(proof.ci) != c:
        raise ProofRejected(TAG, "challenge mismatch")


def check_opening(
    named: Sequence[int], suggester_pub: Point, commitment: Point, opening: Opening,
) -> int:
    """The suggester's (and, after a complaint or at the end, everyone's) check of an
    opening; returns the card. ``ProofRejected("opening")`` if it does not open ``C``."""
    if opening.card not in named:
        raise ProofRejected(OPENING_TAG, "the opened card is not one of the named cards")
    if commit_card(opening.card, opening.rho, suggester_pub) != commitment:
        raise ProofRejected(OPENING_TAG, "the opening does not match the commitment")
    return opening.card


def find_opening(
    named: Sequence[int], suggester_pub: Point, commitment: Point, rho: Scalar,
) -> Opening | None:
    """The opening with this ``rho``, if ``commitment`` commits a named card with it."""
    for card in named:
        if commit_card(card, rho, suggester_pub) == commitment:
            return Opening(card, rho)
    return None


def equivocate(opening: Opening, suggester_secret: Scalar, card: int) -> Opening:
    """What the suggester (who knows ``x = log P``) can do with any opening: open the same
    commitment to another card, ``rho' = rho + (t - t')/x``. This is why an opening proves
    nothing to a third party."""
    if not 0 <= card < N_CARDS:
        raise CryptoUsageError("not a card index")
    shift = (card_scalar(opening.card) - card_scalar(card)) * inverse(suggester_secret)
    return Opening(card, opening.rho + shift)
