"""Deniable 'I show you a card': chameleon commitment, public OR-proof, private opening.

Besides soundness (tampering, replay, false claims), these tests check the point of the
construction: the suggester can open the commitment to any named card, so an opening it
shows a third party proves nothing, while with the ElGamal show a decryption proof pins
the card for anyone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from p2pclue.crypto.cards import card_point
from p2pclue.crypto.commitshow import (
    CommitShowProof,
    Opening,
    _residues,
    _transcript,
    check_opening,
    commit_card,
    equivocate,
    prove_commit_show,
    prove_commit_show_unchecked,
    verify_commit_show,
)
from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.dleq import prove_dleq, verify_dleq
from p2pclue.crypto.errors import CryptoUsageError, PeerDataError, ProofRejected
from p2pclue.crypto.group import MULT_COUNTER, G, Point, Scalar, base_mul, mul
from p2pclue.crypto.proofs import prove_show, verify_show
from p2pclue.crypto.rand import SeededRandom, random_scalar

Tamper = Callable[..., Iterator[tuple[str, Any]]]
HAND = (4, 8, 13, 20)  # Peacock, Lead Pipe, Ballroom, Study
NAMED = (4, 7, 13)  # Peacock, Dagger, Ballroom: two of them held


class Seat:
    def __init__(self, seed: bytes) -> None:
        self.src = SeededRandom(seed)
        self.s = random_scalar(self.src)
        self.pub = base_mul(self.s)
        self.hand_points = [mul(self.s, card_point(c)) for c in HAND]


def _show(ctx: ProofContext, r: Seat, s: Seat, card: int = 13) -> tuple[
        Point, CommitShowProof, Opening]:
    return prove_commit_show(ctx, NAMED, r.hand_points, r.s, r.pub, HAND.index(card), card,
                             s.pub, r.src)


def test_R21_commit_show_verifies_and_the_opening_names_the_card(ctx: ProofContext) -> None:
    r, s = Seat(b"r1"), Seat(b"s1")
    for card in (4, 13):
        c, proof, opening = _show(ctx, r, s, card)
        proof2 = CommitShowProof.from_wire(proof.to_wire())
        verify_commit_show(ctx, NAMED, r.hand_points, r.pub, s.pub, c, proof2)
        assert check_opening(NAMED, s.pub, c, Opening.from_wire(opening.to_wire())) == card
        assert c == base_mul(Scalar(card + 1)) + mul(opening.rho, s.pub)
        assert "rho" not in repr(opening) and str(opening.card) not in repr(opening)


def test_commit_show_tampered_swapped_and_replayed_fail(
    ctx: ProofContext, tampered: Tamper, contexts: Callable[[ProofContext], list[ProofContext]]
) -> None:
    r, s = Seat(b"r2"), Seat(b"s2")
    c, proof, _ = _show(ctx, r, s)
    for _, wire in tampered(proof.to_wire(), frozenset({"a", "z"})):
        with pytest.raises(ProofRejected):
            verify_commit_show(ctx, NAMED, r.hand_points, r.pub, s.pub, c,
                               CommitShowProof.from_wire(wire))
    with pytest.raises(ProofRejected):
        verify_commit_show(ctx, NAMED, r.hand_points, r.pub, s.pub, c + G, proof)
    for other in contexts(ctx):
        with pytest.raises(ProofRejected):
            verify_commit_show(other, NAMED, r.hand_points, r.pub, s.pub, c, proof)
    with pytest.raises(ProofRejected):  # another suggester's key
        verify_commit_show(ctx, NAMED, r.hand_points, r.pub, Seat(b"x").pub, c, proof)
    with pytest.raises(ProofRejected):  # another set of named cards
        verify_commit_show(ctx, (4, 7, 14), r.hand_points, r.pub, s.pub, c, proof)
    with pytest.raises(ProofRejected):  # another refuter's hand
        third = Seat(b"r3")
        verify_commit_show(ctx, NAMED, third.hand_points, third.pub, s.pub, c, proof)
    with pytest.raises(ProofRejected):  # degenerate statements
        verify_commit_show(ctx, NAMED, r.hand_points, r.pub, G - G, c, proof)
    with pytest.raises(ProofRejected):
        verify_commit_show(ctx, NAMED, [], r.pub, s.pub, c, proof)
    with pytest.raises(ProofRejected):
        verify_commit_show(ctx, (4, 4, 13), r.hand_points, r.pub, s.pub, c, proof)


def test_R21_committing_a_card_not_named_or_not_held_cannot_be_proven(
    ctx: ProofContext,
) -> None:
    r, s = Seat(b"r4"), Seat(b"s4")
    with pytest.raises(CryptoUsageError):
        _show(ctx, r, s, 20)  # held but not named
    with pytest.raises(CryptoUsageError):
        prove_commit_show(ctx, NAMED, r.hand_points, r.s, r.pub, 0, 7, s.pub, r.src)

    # Study (held, not named) committed, with the Ballroom (index 2) as Z's card; Study
    # under Z (held at position 3) with the Ballroom committed; Dagger (named, not held) at
    # position 0; a held card answered at the wrong position.
    for card, position, index in ((20, 2, 2), (7, 0, 1), (13, 0, 2)):
        rho = random_scalar(r.src)
        c = commit_card(card, rho, s.pub)
        proof = prove_commit_show_unchecked(ctx, NAMED, r.hand_points, r.s, r.pub, position,
                                            index, rho, s.pub, c, r.src)
        with pytest.raises(ProofRejected):
            verify_commit_show(ctx, NAMED, r.hand_points, r.pub, s.pub, c, proof)


def test_every_part_of_the_statement_is_needed(ctx: ProofContext) -> None:
    """A and Z at the identity (b = 0 would make every equation hold), lists of the wrong
    length, a hand given in another order: each is refused, never a crash."""
    r, s = Seat(b"r7"), Seat(b"s7")
    c, proof, _ = _show(ctx, r, s)
    zero = G - G
    for bad in (replace(proof, a=zero), replace(proof, z=zero),
                replace(proof, cp=proof.cp[:-1], up=proof.up[:-1])):
        with pytest.raises(ProofRejected):
            verify_commit_show(ctx, NAMED, r.hand_points, r.pub, s.pub, c, bad)
    with pytest.raises(ProofRejected):
        verify_commit_show(ctx, NAMED, r.hand_points[::-1], r.pub, s.pub, c, proof)
    wire = proof.to_wire()
    for key, value in (("ci", wire["ci"][:2]), ("ui", wire["ui"] * 2), ("up", wire["up"][:1]),
                       ("cp", []), ("a", wire["up"][0][:31])):
        with pytest.raises(PeerDataError):
            CommitShowProof.from_wire({**wire, key: value})


def _forge(ctx: ProofContext, r: Seat, suggester: Point, c_point: Point, a_point: Point,
           z: Point, real_p: tuple[int, Scalar] | None, real_i: tuple[int, Scalar, Scalar] | None,
           extra_ci: bool = False) -> CommitShowProof:
    """A proof built from the spec's equations by someone who picks A, Z and which branch of
    each OR to answer (position p with beta; card i with alpha and rho): the others are
    simulated. An OR with no real branch gets random challenges (they will not sum to c),
    unless ``extra_ci`` adds a fourth card challenge that takes up the difference."""
    src = r.src
    points = [card_point(t) for t in NAMED]
    h = len(r.hand_points)
    cp = [random_scalar(src) for _ in range(h)]
    up = [random_scalar(src) for _ in range(h)]
    ci = [random_scalar(src) for _ in range(3)]
    ui = [random_scalar(src) for _ in range(3)]
    vi = [random_scalar(src) for _ in range(3)]
    k, w, v = random_scalar(src), random_scalar(src), random_scalar(src)
    tp: list[Point] = []
    for p in range(h):
        if real_p is not None and p == real_p[0]:
            tp += [mul(k, r.pub), mul(k, r.hand_points[p])]
        else:
            tp += [mul(up[p], r.pub) - mul(cp[p], a_point),
                   mul(up[p], r.hand_points[p]) - mul(cp[p], z)]
    ti: list[Point] = []
    for i, residue in enumerate(_residues(NAMED, c_point)):
        if real_i is not None and i == real_i[0]:
            ti += [base_mul(w), mul(w, points[i]), mul(v, suggester)]
        else:
            ti += [base_mul(ui[i]) - mul(ci[i], a_point), mul(ui[i], points[i]) - mul(ci[i], z),
                   mul(vi[i], suggester) - mul(ci[i], residue)]
    c = _transcript(ctx, NAMED, r.hand_points, r.pub, suggester, c_point, a_point, z).points(
        "TP", tp).points("TI", ti).challenge("c")
    if real_p is not None:
        p, beta = real_p
        cp[p] = c - sum((x for q, x in enumerate(cp) if q != p), Scalar(0))
        up[p] = k + cp[p] * beta
    if real_i is not None:
        i, alpha, rho = real_i
        ci[i] = c - sum((x for j, x in enumerate(ci) if j != i), Scalar(0))
        ui[i], vi[i] = w + ci[i] * alpha, v + ci[i] * rho
    if extra_ci:
        ci.append(c - sum(ci, Scalar(0)))
        ui.append(ui[0])
        vi.append(vi[0])
    return CommitShowProof(a_point, z, tuple(cp), tuple(up), tuple(ci), tuple(ui), tuple(vi))


def test_forgeries_that_only_a_missing_check_would_let_through(ctx: ProofContext) -> None:
    """Each forgery satisfies every equation the verifier computes, and fails only on one
    refusal of the spec: it is the test that this refusal is there (the hostile review of
    the new form found that removing the identity check broke no earlier test)."""
    r, s = Seat(b"r9"), Seat(b"s9")
    rho = random_scalar(r.src)
    b = random_scalar(r.src)
    a = b * r.s
    # the forger itself is right: honest values (Ballroom at position 2) are accepted
    c = commit_card(13, rho, s.pub)
    honest = _forge(ctx, r, s.pub, c, base_mul(a), mul(a, card_point(13)), (2, b), (2, a, rho))
    verify_commit_show(ctx, NAMED, r.hand_points, r.pub, s.pub, c, honest)
    # Dagger (named, not held) with A = Z = identity: beta = alpha = 0 answers both ORs
    c = commit_card(7, rho, s.pub)
    zero = G - G
    forged = _forge(ctx, r, s.pub, c, zero, zero, (0, Scalar(0)), (1, Scalar(0), rho))
    with pytest.raises(ProofRejected, match="identity"):
        verify_commit_show(ctx, NAMED, r.hand_points, r.pub, s.pub, c, forged)
    # only one OR answered: Study (held, not named) under Z and committed; or Dagger (named,
    # not held), whose Z is no hand card
    c = commit_card(20, rho, s.pub)
    only_positions = _forge(ctx, r, s.pub, c, base_mul(a), mul(b, r.hand_points[3]), (3, b),
                            None)
    c7 = commit_card(7, rho, s.pub)
    only_cards = _forge(ctx, r, s.pub, c7, base_mul(a), mul(a, card_point(7)), None,
                        (1, a, rho))
    for commitment, proof in ((c, only_positions), (c7, only_cards)):
        with pytest.raises(ProofRejected, match="challenge"):
            verify_commit_show(ctx, NAMED, r.hand_points, r.pub, s.pub, commitment, proof)
    # a fourth card challenge that absorbs the difference (only a direct caller can pass one:
    # the wire reader refuses it first)
    four = _forge(ctx, r, s.pub, c, base_mul(a), mul(b, r.hand_points[3]), (3, b), None,
                  extra_ci=True)
    with pytest.raises(ProofRejected, match="3 card branches"):
        verify_commit_show(ctx, NAMED, r.hand_points, r.pub, s.pub, c, four)
    with pytest.raises(PeerDataError):
        CommitShowProof.from_wire(four.to_wire())
    # rho = 0: the commitment is the card in the clear
    clear = base_mul(Scalar(14))
    proof0 = prove_commit_show_unchecked(ctx, NAMED, r.hand_points, r.s, r.pub, 2, 2,
                                         Scalar(0), s.pub, clear, r.src)
    with pytest.raises(ProofRejected, match="no randomness"):
        verify_commit_show(ctx, NAMED, r.hand_points, r.pub, s.pub, clear, proof0)
    with pytest.raises(CryptoUsageError):
        prove_commit_show(ctx, NAMED, r.hand_points, r.s, r.pub, 2, 13, s.pub, r.src, Scalar(0))


def test_the_proof_costs_what_the_spec_says(ctx: ProofContext) -> None:
    """docs/protocol.md, 4b: verify 4h + 15 variable-base and 6 fixed-base multiplications;
    prove 2h + 10 variable (its own check included) and h + 7 fixed."""
    r, s = Seat(b"r8"), Seat(b"s8")
    h = len(HAND)
    MULT_COUNTER.reset()
    c, proof, _ = _show(ctx, r, s)
    assert (MULT_COUNTER.var, MULT_COUNTER.base) == (2 * h + 10, h + 7)
    MULT_COUNTER.reset()
    verify_commit_show(ctx, NAMED, r.hand_points, r.pub, s.pub, c, proof)
    assert (MULT_COUNTER.var, MULT_COUNTER.base) == (4 * h + 15, 6)


def test_a_wrong_opening_is_refused(ctx: ProofContext) -> None:
    r, s = Seat(b"r5"), Seat(b"s5")
    c, _, opening = _show(ctx, r, s)
    with pytest.raises(ProofRejected, match="does not match"):
        check_opening(NAMED, s.pub, c, Opening(4, opening.rho))  # the refuter's other card
    with pytest.raises(ProofRejected, match="does not match"):
        check_opening(NAMED, s.pub, c, Opening(13, opening.rho + Scalar(1)))
    with pytest.raises(ProofRejected, match="named"):
        check_opening(NAMED, s.pub, c, equivocate(opening, s.s, 20))  # valid, not named
    for wire in ({"card": 21, "rho": bytes(opening.rho)}, {"card": True, "rho": b"\x01" * 32},
                 {"card": 4}, {"card": 4, "rho": bytes(32)}, [4, bytes(opening.rho)]):
        with pytest.raises(PeerDataError):  # typed, naming the field
            Opening.from_wire(wire)


def test_deniability_the_suggester_forges_an_opening_nobody_can_tell_from_the_real(
    ctx: ProofContext,
) -> None:
    """The refuter shows the Ballroom; the suggester, with its key, opens the same public
    commitment to Peacock and Dagger too. A third party holds only public data and an
    opening: every check it can run passes for each, and the 'real' opening is exactly what
    the suggester itself computes for the Ballroom, so nothing marks it as the refuter's."""
    r, s = Seat(b"r6"), Seat(b"s6")
    c, proof, real = _show(ctx, r, s, 13)

    def third_party_accepts(opening: Opening) -> bool:
        verify_commit_show(ctx, NAMED, r.hand_points, r.pub, s.pub, c, proof)
        return check_opening(NAMED, s.pub, c, opening) == opening.card

    forged = {card: equivocate(real, s.s, card) for card in NAMED}
    assert all(third_party_accepts(o) for o in forged.values())
    assert forged[13] == real  # one opening per card: the real one is the suggester's too
    assert {o.card for o in forged.values()} == set(NAMED)
    # Dagger is not even in the refuter's hand, yet its forged opening passes all the same.
    assert third_party_accepts(forged[7])
    # Forging from a forgery works too: the suggester needs only one opening ever.
    assert equivocate(forged[7], s.s, 4) == forged[4]


def test_old_attack_decryption_proof_pins_the_card_new_scheme_pins_nothing(
    ctx: ProofContext,
) -> None:
    """With the ElGamal show the suggester publishes DLEQ(G, Y, A, B - M): a proof of
    decryption that verifies for the shown card only. With the commitment, whatever the
    suggester can make for the shown card it can make for every other named card."""
    r, s = Seat(b"r7"), Seat(b"s7")
    ct, old_proof = prove_show(ctx, NAMED, r.hand_points, r.s, r.pub, HAND.index(13), 13, s.pub,
                               r.src)
    verify_show(ctx, NAMED, r.hand_points, r.pub, s.pub, ct, old_proof)
    sell = ProofContext(b"market", "sell", 0)
    residue = ct.b - card_point(13)
    sold = prove_dleq(sell, s.s, G, s.pub, ct.a, residue, s.src)
    verify_dleq(sell, G, s.pub, ct.a, residue, sold)  # the buyer is convinced: Ballroom
    for other in (4, 7):  # and the same proof cannot be made for any other card
        with pytest.raises(ProofRejected):
            verify_dleq(sell, G, s.pub, ct.a, ct.b - card_point(other), sold)

    c, proof, real = _show(ctx, r, s, 13)
    verify_commit_show(ctx, NAMED, r.hand_points, r.pub, s.pub, c, proof)
    for claimed in NAMED:  # every claim the suggester could sell is equally backed
        assert check_opening(NAMED, s.pub, c, equivocate(real, s.s, claimed)) == claimed


def test_hiding_the_commitment_is_the_same_for_every_card() -> None:
    """For any two cards there is a rho that gives the very same point: C carries no card."""
    s = Seat(b"s8")
    rho = random_scalar(s.src)
    c = commit_card(13, rho, s.pub)
    for card in range(21):
        assert commit_card(card, equivocate(Opening(13, rho), s.s, card).rho, s.pub) == c


def test_commit_show_costs_fewer_multiplications_than_the_elgamal_show(
    ctx: ProofContext,
) -> None:
    r, s = Seat(b"r9"), Seat(b"s9")
    hand = [mul(r.s, card_point(i)) for i in (0, 6, 12, 13, 14, 15)]
    counts: dict[str, tuple[int, int]] = {}
    MULT_COUNTER.reset()
    ct, old = prove_show(ctx, (0, 7, 16), hand, r.s, r.pub, 0, 0, s.pub, r.src)
    prove_old = MULT_COUNTER.total
    MULT_COUNTER.reset()
    verify_show(ctx, (0, 7, 16), hand, r.pub, s.pub, ct, old)
    counts["elgamal"] = (prove_old, MULT_COUNTER.total)
    MULT_COUNTER.reset()
    c, new, _ = prove_commit_show(ctx, (0, 7, 16), hand, r.s, r.pub, 0, 0, s.pub, r.src)
    prove_new = MULT_COUNTER.total
    MULT_COUNTER.reset()
    verify_commit_show(ctx, (0, 7, 16), hand, r.pub, s.pub, c, new)
    counts["commit"] = (prove_new, MULT_COUNTER.total)
    assert counts["commit"][0] < counts["elgamal"][0]
    assert counts["commit"][1] < counts["elgamal"][1]
