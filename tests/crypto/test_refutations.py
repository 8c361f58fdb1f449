"""'I show you a card' (OR-proof) and 'I hold none' (the cards under one fresh key)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from p2pclue.crypto import sodium
from p2pclue.crypto.cards import card_point
from p2pclue.crypto.context import ProofContext, Transcript
from p2pclue.crypto.errors import (
    CryptoUsageError,
    InvalidPointError,
    MalformedProofError,
    NotACardError,
    ProofRejected,
)
from p2pclue.crypto.group import (
    G,
    Owed,
    Point,
    Scalar,
    base_mul,
    is_valid_point_bytes,
    mul,
    owing,
)
from p2pclue.crypto.holdnone import prove_none_unchecked
from p2pclue.crypto.proofs import (
    Ciphertext,
    NoneProof,
    ShowProof,
    decrypt_shown,
    prove_none,
    prove_show,
    verify_none,
    verify_show,
)
from p2pclue.crypto.rand import SeededRandom, random_scalar
from p2pclue.crypto.show import prove_show_unchecked
from tests.torsion import ORDER_8, torsion

Tamper = Callable[..., Iterator[tuple[str, Any]]]
HAND = (4, 8, 13, 20)  # Peacock, Lead Pipe, Ballroom, Study
NAMED = (4, 7, 13)  # Peacock, Dagger, Ballroom: two of them held
NAMED_NONE = (0, 9, 17)  # Scarlett, Revolver, Library: none held


class Refuter:
    def __init__(self, seed: bytes) -> None:
        self.src = SeededRandom(seed)
        self.s = random_scalar(self.src)
        self.pub = base_mul(self.s)
        self.hand_points = [mul(self.s, card_point(c)) for c in HAND]


class Suggester:
    def __init__(self, seed: bytes) -> None:
        src = SeededRandom(seed)
        self.x = random_scalar(src)
        self.pub = base_mul(self.x)


def _show(ctx: ProofContext, r: Refuter, s: Suggester, card: int = 13) -> tuple[
        Ciphertext, ShowProof]:
    return prove_show(ctx, NAMED, r.hand_points, r.s, r.pub, HAND.index(card), card, s.pub,
                      r.src)


def test_R21_show_proof_verifies_and_only_the_suggester_learns_the_card(
    ctx: ProofContext,
) -> None:
    r, s = Refuter(b"r1"), Suggester(b"s1")
    for card in (4, 13):
        ct, proof = _show(ctx, r, s, card)
        ct2, proof2 = Ciphertext.from_wire(ct.to_wire()), ShowProof.from_wire(proof.to_wire())
        verify_show(ctx, NAMED, r.hand_points, r.pub, s.pub, ct2, proof2)
        assert decrypt_shown(ct2, s.x) == card
        with pytest.raises(NotACardError):  # somebody else's key decrypts to garbage
            decrypt_shown(ct2, Suggester(b"other").x)


def test_show_tampered_swapped_and_replayed_fail(
    ctx: ProofContext, tampered: Tamper, contexts: Callable[[ProofContext], list[ProofContext]]
) -> None:
    r, s = Refuter(b"r2"), Suggester(b"s2")
    ct, proof = _show(ctx, r, s)
    for _, wire in tampered(proof.to_wire()):
        with pytest.raises(ProofRejected):
            verify_show(ctx, NAMED, r.hand_points, r.pub, s.pub, ct, ShowProof.from_wire(wire))
    for _, wire in tampered(ct.to_wire(), frozenset({"a", "b"})):
        with pytest.raises(ProofRejected):
            verify_show(ctx, NAMED, r.hand_points, r.pub, s.pub, Ciphertext.from_wire(wire),
                        proof)
    for other in contexts(ctx):
        with pytest.raises(ProofRejected):
            verify_show(other, NAMED, r.hand_points, r.pub, s.pub, ct, proof)
    with pytest.raises(ProofRejected):  # another suggester's key
        verify_show(ctx, NAMED, r.hand_points, r.pub, Suggester(b"x").pub, ct, proof)
    with pytest.raises(ProofRejected):  # another set of named cards
        verify_show(ctx, (4, 7, 14), r.hand_points, r.pub, s.pub, ct, proof)
    with pytest.raises(ProofRejected):  # another refuter's hand
        third = Refuter(b"r3")
        verify_show(ctx, NAMED, third.hand_points, third.pub, s.pub, ct, proof)


def test_R21_showing_a_card_not_named_or_not_held_cannot_be_proven(ctx: ProofContext) -> None:
    r, s = Refuter(b"r4"), Suggester(b"s4")
    with pytest.raises(CryptoUsageError):
        _show(ctx, r, s, 20)  # held but not named
    with pytest.raises(CryptoUsageError):
        prove_show(ctx, NAMED, r.hand_points, r.s, r.pub, 0, 7, s.pub, r.src)  # named, not held

    def forged(card: int, real_branch: int) -> tuple[Ciphertext, ShowProof]:
        rho = random_scalar(r.src)
        ct = Ciphertext(base_mul(rho), mul(rho, s.pub) + card_point(card))
        return ct, prove_show_unchecked(ctx, NAMED, r.hand_points, r.s, r.pub, real_branch,
                                        rho, s.pub, ct, r.src)

    # Study (held, not named) claimed through the branch "position 3, Ballroom".
    # Dagger (named, not held) claimed through "position 0, Dagger".
    for card, branch in ((20, 3 * 3 + 2), (7, 0 * 3 + 1)):
        ct, proof = forged(card, branch)
        with pytest.raises(ProofRejected):
            verify_show(ctx, NAMED, r.hand_points, r.pub, s.pub, ct, proof)


def test_R21_none_proof_verifies_when_no_named_card_is_held(
    ctx: ProofContext, tampered: Tamper, contexts: Callable[[ProofContext], list[ProofContext]]
) -> None:
    r = Refuter(b"r5")
    proof = prove_none(ctx, NAMED_NONE, r.hand_points, r.s, r.pub, r.src)
    verify_none(ctx, NAMED_NONE, r.hand_points, r.pub, NoneProof.from_wire(proof.to_wire()))
    for _, wire in tampered(proof.to_wire(), frozenset({"y", "q"})):
        with pytest.raises(ProofRejected):
            verify_none(ctx, NAMED_NONE, r.hand_points, r.pub, NoneProof.from_wire(wire))
    for other in contexts(ctx):
        with pytest.raises(ProofRejected):
            verify_none(other, NAMED_NONE, r.hand_points, r.pub, proof)
    with pytest.raises(ProofRejected):
        verify_none(ctx, (0, 9, 18), r.hand_points, r.pub, proof)
    with pytest.raises(ProofRejected):
        verify_none(ctx, NAMED_NONE, r.hand_points[:-1], r.pub, proof)


def test_R21_false_cannot_refute_cannot_be_proven(ctx: ProofContext) -> None:
    r = Refuter(b"r6")
    with pytest.raises(CryptoUsageError):
        prove_none(ctx, NAMED, r.hand_points, r.s, r.pub, r.src)
    # The honest algorithm run on the false claim shows a named card under the fresh key
    # as a hand card, which is refused.
    cheat = prove_none_unchecked(ctx, NAMED, r.hand_points, r.s, r.pub, r.src)
    assert cheat.y[0] == cheat.q[0] and cheat.y[2] == cheat.q[2]  # Peacock, Ballroom
    with pytest.raises(ProofRejected, match="held"):
        verify_none(ctx, NAMED, r.hand_points, r.pub, cheat)
    # Replacing the telltale points by random ones breaks the proof instead.
    for field in ("y", "q"):
        telltale = [base_mul(random_scalar(r.src)) if x in cheat.q and x in cheat.y else x
                    for x in getattr(cheat, field)]
        assert telltale != list(getattr(cheat, field))
        forged = replace(cheat, y=tuple(telltale)) if field == "y" else replace(
            cheat, q=tuple(telltale))
        assert not set(forged.y) & set(forged.q)
        with pytest.raises(ProofRejected, match="challenge"):
            verify_none(ctx, NAMED, r.hand_points, r.pub, forged)
    # Claiming another key: the proof made with a different secret does not verify.
    other = random_scalar(r.src)
    fake = prove_none_unchecked(ctx, NAMED, r.hand_points, other, r.pub, r.src)
    with pytest.raises(ProofRejected):
        verify_none(ctx, NAMED, r.hand_points, r.pub, fake)


def test_refutation_statements_reject_degenerate_keys(ctx: ProofContext) -> None:
    r, s = Refuter(b"r7"), Suggester(b"s7")
    ct, proof = _show(ctx, r, s)
    identity = G - G
    with pytest.raises(ProofRejected):
        verify_show(ctx, NAMED, r.hand_points, r.pub, identity, ct, proof)
    with pytest.raises(ProofRejected):
        verify_show(ctx, (4, 4, 13), r.hand_points, r.pub, s.pub, ct, proof)
    hand: list[Point] = []
    with pytest.raises(ProofRejected):
        verify_show(ctx, NAMED, hand, r.pub, s.pub, ct, proof)
    assert Scalar(1) * G == G


def _none_challenge(ctx: ProofContext, r: Refuter, y: list[Point] | tuple[Point, ...],
                    q: list[Point] | tuple[Point, ...], us: list[Point], ws: list[Point],
                    v: Point) -> Scalar:
    """Section 5's challenge, from the spec's item order (not from the module's own code)."""
    return Transcript("none", ctx).integers("named", NAMED).points("hand", r.hand_points).point(
        "S", r.pub).points("Y", y).points("Q", q).points("U", us).points("W", ws).point(
        "V", v).challenge("c")


def _torsion_forgery(ctx: ProofContext, r: Refuter) -> NoneProof:
    """A false "cannot refute" that passes every equation but the subgroup test.

    The refuter holds Peacock and Ballroom. It computes Y and Q honestly (so Y_0 = Q_0 and
    Y_2 = Q_2), adds a point of order 8 to those two Y (now different bytes from Q), and
    draws its commitments again until the challenge is a multiple of 8, so c*(Y + T8) = c*Y:
    a verifier whose multiplication does not refuse torsion recomputes the honest U."""
    s, named = r.s, NAMED
    rr = random_scalar(r.src)
    a = rr * s
    honest_y = [mul(a, card_point(t)) for t in named]
    q = [mul(rr, x) for x in r.hand_points]
    y = [Point(torsion(p.data)) if p in q else p for p in honest_y]
    assert set(honest_y) & set(q) and not set(y) & set(q)
    for _ in range(200):
        alpha, beta = random_scalar(r.src), random_scalar(r.src)
        c = _none_challenge(ctx, r, y, q, [mul(alpha, card_point(t)) for t in named],
                            [mul(beta, x) for x in r.hand_points], base_mul(alpha - beta * s))
        if c.value % 8 == 0:
            return NoneProof(tuple(y), tuple(q), c, alpha + c * a, beta + c * rr)
    raise AssertionError("no challenge divisible by 8 in 200 draws")


def test_a_torsion_shifted_named_card_does_not_hide_a_held_one(ctx: ProofContext) -> None:
    """Why section 5 tests Y and Q for the prime-order subgroup before comparing them: the
    forgery satisfies every verification equation computed without that test, and only the
    test refuses it, whether points are tested as read or by the multiplication that takes
    them (the engine's path, ``owing``)."""
    r = Refuter(b"r8")
    forged = _torsion_forgery(ctx, r)
    # Without the subgroup test, c*(Y + T8) = c*Y: the recomputed commitments are the
    # prover's, and the challenge matches.
    honest_cy = [mul(forged.challenge, Point(sodium.sub(p.data, ORDER_8) or b""))
                 if not is_valid_point_bytes(p.data) else mul(forged.challenge, p)
                 for p in forged.y]
    us = [mul(forged.sa, card_point(t)) - cy for t, cy in zip(NAMED, honest_cy, strict=True)]
    ws = [mul(forged.sb, x) - mul(forged.challenge, qp)
          for x, qp in zip(r.hand_points, forged.q, strict=True)]
    v = base_mul(forged.sa) - mul(forged.sb, r.pub)
    c = _none_challenge(ctx, r, forged.y, forged.q, us, ws, v)
    assert c == forged.challenge and not set(forged.y) & set(forged.q)
    # The reader refuses the shifted points...
    with pytest.raises(InvalidPointError):
        NoneProof.from_wire(forged.to_wire())
    # ...and so does the check when they are read untested, as the engine reads them.
    owed = Owed()
    with owing(owed):
        read = NoneProof.from_wire(forged.to_wire())
        with pytest.raises(InvalidPointError):
            verify_none(ctx, NAMED, r.hand_points, r.pub, read)


def test_none_refuses_degenerate_statements_and_shapes(ctx: ProofContext) -> None:
    r = Refuter(b"r9")
    proof = prove_none(ctx, NAMED_NONE, r.hand_points, r.s, r.pub, r.src)
    verify_none(ctx, NAMED_NONE, r.hand_points, r.pub, proof)
    with pytest.raises(ProofRejected, match="identity"):
        verify_none(ctx, NAMED_NONE, r.hand_points, G - G, proof)
    with pytest.raises(ProofRejected, match="three distinct"):
        verify_none(ctx, (0, 0, 17), r.hand_points, r.pub, proof)
    with pytest.raises(ProofRejected, match="hand points"):
        verify_none(ctx, NAMED_NONE, r.hand_points[:-1], r.pub, proof)
    extra = replace(proof, q=(*proof.q, proof.q[0]))
    with pytest.raises(ProofRejected, match="hand points"):
        verify_none(ctx, NAMED_NONE, r.hand_points, r.pub, extra)
    wire = proof.to_wire()
    for field, bad in (("y", wire["y"][:2]), ("y", [*wire["y"], wire["y"][0]]), ("q", [])):
        with pytest.raises(MalformedProofError):
            NoneProof.from_wire({**wire, field: bad})
    # the hand is part of the statement: the same proof over the hand reordered fails
    with pytest.raises(ProofRejected, match="challenge"):
        verify_none(ctx, NAMED_NONE, r.hand_points[::-1], r.pub,
                    replace(proof, q=proof.q[::-1]))
