"""Deniable "I show you one of these cards": a chameleon commitment plus a public OR-proof.

The ElGamal show (``show.py``) lets the suggester prove to anyone which card it saw (a
proof of decryption is transferable). Here the refuter j instead publishes a Pedersen
commitment to the shown card's index ``t`` under the suggester's key ``P = x*G``:

    C = (t+1)*G + rho*P,

and a Cramer-Damgard-Schoenmakers OR over every (hand position p, named card t) of

    S_j = s*G  and  X_p = s*M_t  and  C - (t+1)*G = rho*P.

The opening ``(t, rho)`` travels only to the suggester. Whoever knows ``x`` (the suggester)
can open ``C`` to any card (``equivocate``), so an opening convinces nobody but the one who
received it from the refuter's own link; the refuter, who does not know ``x``, cannot open
``C`` two ways without computing ``x`` (binding under discrete log). Cards are committed as
scalars ``t+1`` on ``G`` (never 0), not as card points: a card point would tie the opening to
the hash-to-group points, which the equivocation needs to avoid. Branch order: ``p*3 + i``
with ``i`` the index of the card in ``named``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from p2pclue.crypto.context import ProofContext, Transcript
from p2pclue.crypto.errors import CryptoUsageError, MalformedProofError, ProofRejected
from p2pclue.crypto.group import Point, Scalar, base_mul, inverse, mul, scalar
from p2pclue.crypto.rand import ScalarSource, random_scalar
from p2pclue.crypto.show import (
    ShowProof,
    check_named,
    check_show_statement,
    close_real_branch,
)
from p2pclue.crypto.wire import expect_dict, scalar_field

TAG = "commit-show"
OPENING_TAG = "opening"
N_CARDS = 21


@dataclass(frozen=True, slots=True)
class CommitShowProof(ShowProof):
    """Same compact form as the ElGamal show: per branch a challenge and two responses."""

    WIRE_NAME: ClassVar[str] = "commit_show_proof"


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
    suggester_pub: Point, commitment: Point,
) -> Transcript:
    t = Transcript(TAG, ctx).integers("named", named).points("hand", hand_points)
    return t.point("S", pub).point("P", suggester_pub).point("C", commitment)


def _residues(named: Sequence[int], commitment: Point) -> list[Point]:
    """``C - (t+1)*G`` for each named card: ``rho*P`` for the committed one."""
    return [commitment - base_mul(card_scalar(t)) for t in named]


def _branch_commitments(
    c: Scalar, u: Scalar, v: Scalar, m: Point, x: Point, pub: Point, suggester_pub: Point,
    residue: Point,
) -> list[Point]:
    """The three commitments a branch must have had for challenge c and responses (u, v)."""
    return [
        base_mul(u) - mul(c, pub),
        mul(u, m) - mul(c, x),
        mul(v, suggester_pub) - mul(c, residue),
    ]


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
    if mul(secret, points[list(named).index(shown_card)]) != hand_points[shown_position]:
        raise CryptoUsageError("the shown card is not at that hand position")
    opening = Opening(shown_card, random_scalar(src) if rho is None else rho)
    commitment = commit_card(shown_card, opening.rho, suggester_pub)
    real = shown_position * 3 + list(named).index(shown_card)
    proof = prove_commit_show_unchecked(ctx, named, hand_points, secret, public_key, real,
                                        opening.rho, suggester_pub, commitment, src)
    return commitment, proof, opening


def prove_commit_show_unchecked(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], secret: Scalar,
    public_key: Point, real_branch: int, rho: Scalar, suggester_pub: Point, commitment: Point,
    src: ScalarSource,
) -> CommitShowProof:
    """The OR-proof with ``real_branch`` answered honestly; no check that it is true."""
    points = check_named(named)
    real_value = card_scalar(named[real_branch % 3])
    cs: list[Scalar] = []
    us: list[Scalar] = []
    vs: list[Scalar] = []
    commitments: list[Point] = []
    sigma, pi = random_scalar(src), random_scalar(src)
    for b in range(3 * len(hand_points)):
        m, x = points[b % 3], hand_points[b // 3]
        if b == real_branch:
            cs.append(Scalar(0))
            us.append(sigma)
            vs.append(pi)
            commitments += [base_mul(sigma), mul(sigma, m), mul(pi, suggester_pub)]
        else:
            c, u, v = random_scalar(src), random_scalar(src), random_scalar(src)
            cs.append(c)
            us.append(u)
            vs.append(v)
            # What _branch_commitments gives, through what the prover knows (S = secret*G,
            # C - (t+1)*G = rho*P + (t_real - t)*G): no residues, one multiplication fewer.
            shift = c * (real_value - card_scalar(named[b % 3]))
            commitments += [base_mul(u - c * secret), mul(u, m) - mul(c, x),
                            mul(v - c * rho, suggester_pub) - base_mul(shift)]
    t = _transcript(ctx, named, hand_points, public_key, suggester_pub, commitment)
    close_real_branch(t.points("T", commitments).challenge("c"), real_branch, cs, us, vs,
                      (sigma, secret), (pi, rho))
    return CommitShowProof(tuple(cs), tuple(us), tuple(vs))


def verify_commit_show(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], public_key: Point,
    suggester_pub: Point, commitment: Point, proof: CommitShowProof,
) -> None:
    """Everyone's check: ``commitment`` opens to a named card at one of the refuter's
    positions. It says nothing about which."""
    points = check_show_statement(TAG, named, hand_points, proof, public_key, suggester_pub)
    n = 3 * len(hand_points)
    residues = _residues(named, commitment)
    commitments: list[Point] = []
    total = Scalar(0)
    for b in range(n):
        c = proof.challenges[b]
        total = total + c
        commitments += _branch_commitments(c, proof.u[b], proof.v[b], points[b % 3],
                                           hand_points[b // 3], public_key, suggester_pub,
                                           residues[b % 3])
    t = _transcript(ctx, named, hand_points, public_key, suggester_pub, commitment)
    if t.points("T", commitments).challenge("c") != total:
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
