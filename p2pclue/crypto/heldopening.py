"""A public opening of a show, with a proof that the opened card is in the refuter's hand.

An opening ``(t, rho)`` of a show's commitment ``C = (t+1)*G + rho*P`` convinces a third
party of that equation only, and the equation is equivocal for whoever knows the
suggester's ``x = log P`` (``commitshow.equivocate``). A suggester that hands ``x`` to a
colluding refuter lets it commit to a card it does not hold (an honest third seat holds
it), pass the show proof with an opening to a card it does hold, then publish the first
opening: ``check_opening`` accepts both. So every opening made public carries a proof that
needs no secret of the suggester: a Cramer-Damgard-Schoenmakers OR over the refuter's hand
positions p of

    S_j = s*G  and  X_p = s*M_t,

that is, the opened card t sits at one of j's dealt positions (docs/protocol.md, section
4c). The proof hashes the opening itself, so it cannot be moved to another opening.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from p2pclue.crypto.cards import card_point
from p2pclue.crypto.commitshow import Opening, check_opening, commit_card
from p2pclue.crypto.context import ProofContext, Transcript
from p2pclue.crypto.errors import CryptoUsageError, MalformedProofError, ProofRejected
from p2pclue.crypto.group import Point, Scalar, base_mul, mul, scalar_sum
from p2pclue.crypto.rand import ScalarSource, random_scalar
from p2pclue.crypto.show import check_named, check_show_statement
from p2pclue.crypto.wire import expect_dict, scalars_from_wire, scalars_to_wire

TAG = "held-opening"
OPENING_TAG = "opening"
_NAME = "held_opening_proof"
_OPENING_NAME = "public_opening"


@dataclass(frozen=True, slots=True)
class HeldProof:
    """Per hand position a challenge and a response; the challenges sum to the hash."""

    c: tuple[Scalar, ...]
    u: tuple[Scalar, ...]

    def to_wire(self) -> dict[str, Any]:
        return {"c": scalars_to_wire(self.c), "u": scalars_to_wire(self.u)}

    @classmethod
    def from_wire(cls, obj: object) -> Self:
        d = expect_dict(obj, _NAME, ("c", "u"))
        c = scalars_from_wire(d["c"], f"{_NAME}.c")
        if not c:
            raise MalformedProofError(f"{_NAME}.c", "empty")
        return cls(tuple(c), tuple(scalars_from_wire(d["u"], f"{_NAME}.u", len(c))))


@dataclass(frozen=True, slots=True, repr=False)
class PublicOpening:
    """An opening meant for everyone, with its proof 4c: wire ``{card, rho, held}``."""

    opening: Opening
    held: HeldProof

    def __repr__(self) -> str:
        return "PublicOpening(<hidden until published>)"

    def to_wire(self) -> dict[str, Any]:
        return {**self.opening.to_wire(), "held": self.held.to_wire()}

    @classmethod
    def from_wire(cls, obj: object) -> Self:
        d = expect_dict(obj, _OPENING_NAME, ("card", "rho", "held"))
        opening = Opening.from_wire({"card": d["card"], "rho": d["rho"]})
        return cls(opening, HeldProof.from_wire(d["held"]))


def _transcript(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], pub: Point,
    suggester_pub: Point, commitment: Point, opening: Opening, commitments: Sequence[Point],
) -> Transcript:
    t = Transcript(TAG, ctx).integers("named", named).points("hand", hand_points)
    t.point("S", pub).point("P", suggester_pub).point("C", commitment)
    t.integer("card", opening.card).scalar("rho", opening.rho)
    return t.points("T", commitments)


def prove_public_opening(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], secret: Scalar,
    public_key: Point, suggester_pub: Point, commitment: Point, opening: Opening,
    position: int, src: ScalarSource,
) -> PublicOpening:
    """The opening of this seat's own show with proof 4c; ``position``: the hand position
    that holds ``opening.card`` (the seat knows its hand, so nothing is searched).

    Refuses (``CryptoUsageError``) an opening that does not open ``commitment`` or names a
    card that is not at ``position``: such a claim has no proof."""
    check_named(named)
    if opening.card not in named or commit_card(opening.card, opening.rho,
                                                suggester_pub) != commitment:
        raise CryptoUsageError("the opening does not open this commitment to a named card")
    if not 0 <= position < len(hand_points):
        raise CryptoUsageError("position is not a hand position")
    if mul(secret, card_point(opening.card)) != hand_points[position]:
        raise CryptoUsageError("the opened card is not at that hand position")
    held = prove_held_unchecked(ctx, named, hand_points, secret, public_key, suggester_pub,
                                commitment, opening, position, src)
    return PublicOpening(opening, held)


def prove_held_unchecked(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], secret: Scalar,
    public_key: Point, suggester_pub: Point, commitment: Point, opening: Opening,
    position: int, src: ScalarSource,
) -> HeldProof:
    """Proof 4c with ``position`` answered honestly; no check that the claim is true (a
    false claim yields a proof every verifier refuses).

    Draws from ``src``: the mask k, then (c_p, u_p) for each other position in increasing
    p. Simulated branches reach ``u*G - c*S`` as ``(u - c*secret)*G``: the same point when
    S = secret*G, one fixed-base multiplication instead of two."""
    m = card_point(opening.card)
    h = len(hand_points)
    k = random_scalar(src)
    cs = [Scalar(0)] * h
    us = [Scalar(0)] * h
    commitments: list[Point] = []
    for p in range(h):
        if p == position:
            commitments += [base_mul(k), mul(k, m)]
        else:
            cs[p], us[p] = random_scalar(src), random_scalar(src)
            commitments += [base_mul(us[p] - cs[p] * secret),
                            mul(us[p], m) - mul(cs[p], hand_points[p])]
    c = _transcript(ctx, named, hand_points, public_key, suggester_pub, commitment, opening,
                    commitments).challenge("c")
    cs[position] = c - scalar_sum(cs)  # CDS: its own slot still holds zero
    us[position] = k + cs[position] * secret
    return HeldProof(tuple(cs), tuple(us))


def verify_public_opening(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], public_key: Point,
    suggester_pub: Point, commitment: Point, public: PublicOpening,
    sealed_r: Point | None = None,
) -> int:
    """Everyone's check of a public opening; returns the card.

    In this order: the opening opens ``commitment`` to a named card (``ProofRejected``
    tag ``opening``); if the show was settled by a sealed opening (section 4d), its ``R``
    is ``rho*G``, so this is the very opening sealed then (tag ``opening``: a second,
    different opening); then proof 4c, that the card is at one of the refuter's positions
    (tag ``held-opening``)."""
    card = check_opening(named, suggester_pub, commitment, public.opening)
    if sealed_r is not None and base_mul(public.opening.rho) != sealed_r:
        raise ProofRejected(OPENING_TAG, "the opening differs from the sealed opening of "
                                         "the same show")
    verify_held(ctx, named, hand_points, public_key, suggester_pub, commitment,
                public.opening, public.held)
    return card


def verify_held(
    ctx: ProofContext, named: Sequence[int], hand_points: Sequence[Point], public_key: Point,
    suggester_pub: Point, commitment: Point, opening: Opening, proof: HeldProof,
) -> None:
    """Proof 4c alone: ``opening.card`` is at one of the refuter's hand positions."""
    check_show_statement(TAG, named, hand_points, public_key, suggester_pub)
    if opening.card not in named:
        raise ProofRejected(TAG, "the opened card is not one of the named cards")
    h = len(hand_points)
    if len(proof.c) != h or len(proof.u) != h:
        raise ProofRejected(TAG, f"expected {h} hand branches")
    m = card_point(opening.card)
    commitments: list[Point] = []
    for x, c, u in zip(hand_points, proof.c, proof.u, strict=True):
        commitments += [base_mul(u) - mul(c, public_key), mul(u, m) - mul(c, x)]
    c = _transcript(ctx, named, hand_points, public_key, suggester_pub, commitment, opening,
                    commitments).challenge("c")
    if scalar_sum(proof.c) != c:
        raise ProofRejected(TAG, "challenge mismatch")
