"""A show's opening sealed to the suggester: a complaint settled without publishing the card.

The show's commitment ``C = (t+1)*G + rho*P`` is half an ElGamal ciphertext under the
suggester's key ``P = x*G``: with ``R = rho*G`` published, ``C - x*R = (t+1)*G``, which
only the suggester can compute. The refuter publishes R with a Cramer-Damgard-Schoenmakers
OR over the three named cards i of

    R = w*G  and  C - (t_i+1)*G = w*P,

so the table checks that the pair decrypts to a named card that C opens to, and learns
nothing else (telling the card is deciding Diffie-Hellman for P). No fresh randomness is
needed: C already carries rho, and R fixes it, so the end-of-game public opening of the
same show must be this one (``heldopening.verify_public_opening`` with ``sealed_r``).

What this costs the refuter, and why no design does better, is in docs/protocol.md,
section 4d: the suggester can prove the card it decrypts to anyone (a DLEQ with x), for
this one show; no other seat learns anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from p2pclue.crypto.commitshow import Opening, card_scalar, commit_card
from p2pclue.crypto.context import ProofContext, Transcript
from p2pclue.crypto.errors import CryptoUsageError, ProofRejected
from p2pclue.crypto.group import Point, Scalar, base_mul, mul, scalar_sum
from p2pclue.crypto.rand import ScalarSource, random_scalar
from p2pclue.crypto.show import check_named
from p2pclue.crypto.wire import (
    expect_dict,
    point_field,
    scalars_from_wire,
    scalars_to_wire,
)

TAG = "sealed-opening"
_NAME = "sealed_opening"


@dataclass(frozen=True, slots=True)
class SealedOpening:
    """``R = rho*G``, then per named card a challenge and a response (they sum to the hash
    challenge)."""

    r: Point
    c: tuple[Scalar, ...]
    s: tuple[Scalar, ...]

    def to_wire(self) -> dict[str, Any]:
        return {"r": bytes(self.r), "c": scalars_to_wire(self.c), "s": scalars_to_wire(self.s)}

    @classmethod
    def from_wire(cls, obj: object) -> Self:
        d = expect_dict(obj, _NAME, ("r", "c", "s"))
        return cls(point_field(d, "r", _NAME),
                   tuple(scalars_from_wire(d["c"], f"{_NAME}.c", 3)),
                   tuple(scalars_from_wire(d["s"], f"{_NAME}.s", 3)))


def _transcript(
    ctx: ProofContext, named: Sequence[int], suggester_pub: Point, commitment: Point,
    r: Point, commitments: Sequence[Point],
) -> Transcript:
    t = Transcript(TAG, ctx).integers("named", named)
    t.point("P", suggester_pub).point("C", commitment).point("R", r)
    return t.points("T", commitments)


def seal_opening(
    ctx: ProofContext, named: Sequence[int], suggester_pub: Point, commitment: Point,
    opening: Opening, src: ScalarSource,
) -> SealedOpening:
    """The refuter's answer to a complaint: its opening sealed to the suggester, with
    proof. Refuses (``CryptoUsageError``) an opening that does not open ``commitment`` to a
    named card."""
    check_named(named)
    if opening.card not in named or commit_card(opening.card, opening.rho,
                                                suggester_pub) != commitment:
        raise CryptoUsageError("the opening does not open this commitment to a named card")
    return seal_unchecked(ctx, named, suggester_pub, commitment, opening.rho,
                          list(named).index(opening.card), src)


def seal_unchecked(
    ctx: ProofContext, named: Sequence[int], suggester_pub: Point, commitment: Point,
    rho: Scalar, index: int, src: ScalarSource,
) -> SealedOpening:
    """The sealed opening ``R = rho*G`` with named card ``index`` answered honestly; no
    check that C opens to it with rho (a false claim yields a proof every verifier refuses).

    Draws from ``src``: the mask v, then (c_i, s_i) for each other named card in increasing
    i. Simulated branches reach ``s*G - c*R`` as ``(s - c*rho)*G`` (R is rho*G here); their
    second commitment is the verifier's own formula, so that a false claim yields the very
    proof the spec's prover description gives (the vectors' false case)."""
    check_named(named)
    r = base_mul(rho)
    v = random_scalar(src)
    cs = [Scalar(0)] * 3
    ss = [Scalar(0)] * 3
    commitments: list[Point] = []
    for i in range(3):
        if i == index:
            commitments += [base_mul(v), mul(v, suggester_pub)]
        else:
            cs[i], ss[i] = random_scalar(src), random_scalar(src)
            residue = commitment - base_mul(card_scalar(named[i]))
            commitments += [base_mul(ss[i] - cs[i] * rho),
                            mul(ss[i], suggester_pub) - mul(cs[i], residue)]
    c = _transcript(ctx, named, suggester_pub, commitment, r, commitments).challenge("c")
    cs[index] = c - scalar_sum(cs)  # CDS: its own slot still holds zero
    ss[index] = v + cs[index] * rho
    return SealedOpening(r, tuple(cs), tuple(ss))


def verify_sealed_opening(
    ctx: ProofContext, named: Sequence[int], suggester_pub: Point, commitment: Point,
    sealed: SealedOpening,
) -> None:
    """Everyone's check: the pair (R, C) decrypts, under the suggester's key, to a named
    card that C opens to. It says nothing about which."""
    try:
        check_named(named)
    except CryptoUsageError as exc:
        raise ProofRejected(TAG, str(exc)) from None
    if suggester_pub.is_identity:
        raise ProofRejected(TAG, "the suggester's key is the identity")
    if len(sealed.c) != 3 or len(sealed.s) != 3:
        raise ProofRejected(TAG, "expected 3 card branches")
    if sealed.r.is_identity:
        raise ProofRejected(TAG, "R is the identity")
    residues = [commitment - base_mul(card_scalar(t)) for t in named]
    if any(x.is_identity for x in residues):  # rho = 0: the card in the clear
        raise ProofRejected(TAG, "the commitment is a named card with no randomness")
    commitments: list[Point] = []
    for residue, c, s in zip(residues, sealed.c, sealed.s, strict=True):
        commitments += [base_mul(s) - mul(c, sealed.r),
                        mul(s, suggester_pub) - mul(c, residue)]
    c = _transcript(ctx, named, suggester_pub, commitment, sealed.r, commitments).challenge("c")
    if scalar_sum(sealed.c) != c:
        raise ProofRejected(TAG, "challenge mismatch")


def open_sealed(
    named: Sequence[int], commitment: Point, sealed: SealedOpening, suggester_secret: Scalar,
) -> int:
    """The suggester's decryption: ``C - x*R`` is ``(t+1)*G`` for the committed named card t
    (always, once ``verify_sealed_opening`` has accepted the proof)."""
    plain = commitment - mul(suggester_secret, sealed.r)
    # every named card is compared, whichever matches: the work says nothing of the card
    found = [card for card in named if base_mul(card_scalar(card)) == plain]
    if len(found) != 1:
        raise ProofRejected(TAG, "the sealed opening decrypts to no named card")
    return found[0]
