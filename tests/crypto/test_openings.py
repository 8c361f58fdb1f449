"""Proofs 4c (a public opening names a card the refuter holds) and 4d (a complaint settled by
an opening sealed to the suggester): soundness, strict wire, and the two attacks they close.

The attacks are played at proof level by the seats that would play them: a refuter holding
the suggester's key (the suggester gave it away) against the table, and a verifier reading
bytes a peer could send.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import msgpack
import pytest

from p2pclue.crypto.cards import card_point
from p2pclue.crypto.commitshow import (
    Opening,
    check_opening,
    commit_card,
    equivocate,
    prove_commit_show,
    prove_commit_show_unchecked,
    verify_commit_show,
)
from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.dleq import prove_dleq, verify_dleq
from p2pclue.crypto.errors import (
    CryptoUsageError,
    InvalidPointError,
    InvalidScalarError,
    MalformedProofError,
    PeerDataError,
    ProofRejected,
)
from p2pclue.crypto.group import (
    IDENTITY,
    MULT_COUNTER,
    G,
    L,
    Point,
    Scalar,
    base_mul,
    inverse,
    mul,
)
from p2pclue.crypto.heldopening import (
    HeldProof,
    PublicOpening,
    prove_held_unchecked,
    prove_public_opening,
    verify_held,
    verify_public_opening,
)
from p2pclue.crypto.rand import SeededRandom, random_scalar
from p2pclue.crypto.sealedopening import (
    SealedOpening,
    open_sealed,
    seal_opening,
    seal_unchecked,
    verify_sealed_opening,
)
from tests.torsion import ORDER_8, torsion

Tamper = Callable[..., Iterator[tuple[str, Any]]]
HAND = (4, 8, 13, 20)  # Peacock, Lead Pipe, Ballroom, Study
NAMED = (4, 7, 13)  # Peacock, Dagger, Ballroom: Peacock and Ballroom held, Dagger not
NON_CANONICAL_POINT = (2**255 - 19 + 1).to_bytes(32, "little")  # y = p + 1: 1 misspelt


class Seat:
    def __init__(self, seed: bytes, hand: tuple[int, ...] = HAND) -> None:
        self.src = SeededRandom(seed)
        self.s = random_scalar(self.src)
        self.pub = base_mul(self.s)
        self.hand = hand
        self.hand_points = [mul(self.s, card_point(c)) for c in hand]


class Show:
    """Refuter r shows ``card`` to suggester q, honestly (proof 4b and its opening)."""

    def __init__(self, ctx: ProofContext, r: Seat, q: Seat, card: int = 13) -> None:
        self.ctx, self.r, self.q = ctx, r, q
        self.c, self.proof, self.opening = prove_commit_show(
            ctx, NAMED, r.hand_points, r.s, r.pub, r.hand.index(card), card, q.pub, r.src)

    def public(self, opening: Opening | None = None) -> PublicOpening:
        opening = self.opening if opening is None else opening
        return prove_public_opening(self.ctx, NAMED, self.r.hand_points, self.r.s, self.r.pub,
                                    self.q.pub, self.c, opening,
                                    self.r.hand.index(opening.card), self.r.src)

    def verify(self, public: PublicOpening, sealed_r: Point | None = None,
               ctx: ProofContext | None = None) -> int:
        return verify_public_opening(ctx or self.ctx, NAMED, self.r.hand_points, self.r.pub,
                                     self.q.pub, self.c, public, sealed_r)

    def seal(self) -> SealedOpening:
        return seal_opening(self.ctx, NAMED, self.q.pub, self.c, self.opening, self.r.src)


@contextmanager
def rejected(tag: str, reason: str = "") -> Iterator[None]:
    """The block must raise ``ProofRejected`` for proof ``tag`` (the engine's check name is
    ``proof:<tag>``), for a reason that contains ``reason``."""
    with pytest.raises(ProofRejected) as e:
        yield
    assert e.value.proof == tag and reason in e.value.reason, e.value


# ---- 4c: the public opening -------------------------------------------------------------


def test_public_opening_verifies_and_names_the_card(ctx: ProofContext) -> None:
    r, q = Seat(b"r1"), Seat(b"q1")
    for card in (4, 13):
        show = Show(ctx, r, q, card)
        public = show.public()
        again = PublicOpening.from_wire(msgpack.unpackb(msgpack.packb(public.to_wire())))
        assert again == public
        assert show.verify(again) == card
        assert str(card) not in repr(public) and "rho" not in repr(public)


def test_public_opening_every_single_field_tamper_is_refused(
    ctx: ProofContext, tampered: Tamper,
) -> None:
    """Each scalar of the proof changed or two swapped: proof 4c fails (`held-opening`); the
    card or rho changed: the opening fails first (`opening`)."""
    r, q = Seat(b"r2"), Seat(b"q2")
    show = Show(ctx, r, q)
    wire = show.public().to_wire()
    variants = list(tampered(wire["held"]))
    assert len(variants) == 2 * (len(HAND) + 1)
    for name, held in variants:
        with rejected("held-opening"):
            show.verify(PublicOpening.from_wire({**wire, "held": held}))
        assert name
    rho = int.from_bytes(wire["rho"], "little")
    for change in ({"card": 4}, {"card": 7}, {"rho": ((rho + 1) % L).to_bytes(32, "little")}):
        with rejected("opening"):
            show.verify(PublicOpening.from_wire({**wire, **change}))


def test_public_opening_is_bound_to_its_statement_and_context(
    ctx: ProofContext, contexts: Callable[[ProofContext], list[ProofContext]],
) -> None:
    r, q = Seat(b"r3"), Seat(b"q3")
    show = Show(ctx, r, q)
    public = show.public()
    for other in contexts(ctx):
        with rejected("held-opening"):
            show.verify(public, ctx=other)
    hand, pub, sug, c = r.hand_points, r.pub, q.pub, show.c
    other_seat = Seat(b"r3-other")
    mismatch = "challenge mismatch"
    cases: dict[str, tuple[Any, ...]] = {  # the statement, and the reason it is refused
        "hand reordered": (NAMED, hand[::-1], pub, sug, c, mismatch),
        "hand short": (NAMED, hand[:3], pub, sug, c, "hand branches"),
        "hand of another seat": (NAMED, other_seat.hand_points, other_seat.pub, sug, c,
                                 mismatch),
        "another key S": (NAMED, hand, pub + G, sug, c, mismatch),
        "named reordered": ((7, 4, 13), hand, pub, sug, c, mismatch),
        "named repeated": ((13, 13, 4), hand, pub, sug, c, "three distinct"),
        "empty hand": (NAMED, [], pub, sug, c, "holds no cards"),
        "identity S": (NAMED, hand, IDENTITY, sug, c, "identity"),
    }
    for name, (named, h, s, p, commitment, reason) in cases.items():
        with rejected("held-opening", reason):
            verify_public_opening(ctx, named, h, s, p, commitment, public)
        assert name
    # the opening is checked first: another commitment or suggester key fails as `opening`
    for p, commitment in ((sug, c + G), (sug + G, c)):
        with rejected("opening"):
            verify_public_opening(ctx, NAMED, hand, pub, p, commitment, public)
    # the proof hashes the opening: moved to another valid opening of the same C, it fails
    moved = PublicOpening(equivocate(show.opening, q.s, 4), public.held)
    with rejected("held-opening"):
        show.verify(moved)
    # a direct caller's proof with one branch too many or too few
    longer = replace(public.held, c=(*public.held.c, public.held.c[0]),
                     u=(*public.held.u, public.held.u[0]))
    with rejected("held-opening"):
        show.verify(replace(public, held=longer))
    with rejected("held-opening"):
        verify_held(ctx, NAMED, hand, pub, sug, c, Opening(20, show.opening.rho), public.held)


def test_public_opening_malformed_wire_is_a_typed_error(ctx: ProofContext) -> None:
    r, q = Seat(b"r4"), Seat(b"q4")
    wire = Show(ctx, r, q).public().to_wire()
    held = wire["held"]
    zero, big = bytes(32), L.to_bytes(32, "little")
    cases: list[tuple[Any, type[PeerDataError], str]] = [
        ({k: v for k, v in wire.items() if k != "held"}, MalformedProofError, "public_opening"),
        ({**wire, "extra": 1}, MalformedProofError, "public_opening"),
        ({**wire, "card": True}, MalformedProofError, "opening.card"),
        ({**wire, "card": 21}, MalformedProofError, "opening.card"),
        ({**wire, "rho": zero}, InvalidScalarError, "opening.rho"),
        ({**wire, "rho": big}, InvalidScalarError, "opening.rho"),
        ({**wire, "held": {**held, "c": []}}, MalformedProofError, "held_opening_proof.c"),
        ({**wire, "held": {**held, "u": held["u"][:-1]}}, MalformedProofError,
         "held_opening_proof.u"),
        ({**wire, "held": {**held, "c": [zero, *held["c"][1:]]}}, InvalidScalarError,
         "held_opening_proof.c[0]"),
        ({**wire, "held": {**held, "u": [*held["u"][:-1], big]}}, InvalidScalarError,
         f"held_opening_proof.u[{len(HAND) - 1}]"),
        ({**wire, "held": {**held, "u": held["u"][0]}}, MalformedProofError,
         "held_opening_proof.u"),
        ({**wire, "held": [held["c"], held["u"]]}, MalformedProofError, "held_opening_proof"),
        ({**wire, "held": {**held, "c": [held["c"][0][:31], *held["c"][1:]]}},
         InvalidScalarError, "held_opening_proof.c[0]"),
        ([wire["card"], wire["rho"]], MalformedProofError, "public_opening"),
    ]
    for bad, error, field in cases:
        with pytest.raises(error) as e:
            PublicOpening.from_wire(bad)
        assert getattr(e.value, "field", None) == field, (field, e.value)


def test_a_refuter_with_the_suggesters_key_cannot_publish_a_card_it_does_not_hold(
    ctx: ProofContext,
) -> None:
    """Attack 1 of the hostile review. The suggester q gives its key x to the refuter r. r
    commits to the Dagger, which it does not hold (an honest third seat does), passes proof
    4b with the Ballroom's opening of the same C (the trapdoor), and publishes the Dagger's
    opening: `check_opening` accepts it (the hole). Proof 4c cannot be made for it: every
    position answered is refused, and the checked prover refuses to make one."""
    r, q = Seat(b"r5"), Seat(b"q5")
    x = q.s  # given away
    rho = random_scalar(r.src)
    c = commit_card(7, rho, q.pub)
    as_ballroom = equivocate(Opening(7, rho), x, 13)
    proof = prove_commit_show_unchecked(ctx, NAMED, r.hand_points, r.s, r.pub,
                                        HAND.index(13), NAMED.index(13), as_ballroom.rho,
                                        q.pub, c, r.src)
    verify_commit_show(ctx, NAMED, r.hand_points, r.pub, q.pub, c, proof)  # the table accepts
    false = Opening(7, rho)
    assert check_opening(NAMED, q.pub, c, false) == 7  # what used to be enough
    for position in range(len(HAND)):
        held = prove_held_unchecked(ctx, NAMED, r.hand_points, r.s, r.pub, q.pub, c, false,
                                    position, r.src)
        with rejected("held-opening"):
            verify_public_opening(ctx, NAMED, r.hand_points, r.pub, q.pub, c,
                                  PublicOpening(false, held))
        with pytest.raises(CryptoUsageError):
            prove_public_opening(ctx, NAMED, r.hand_points, r.s, r.pub, q.pub, c, false,
                                 position, r.src)
    # The honest third seat that holds the Dagger can prove it; r's hand and key cannot
    # take that proof over.
    third = Seat(b"t5", (7, 0, 14, 15))
    third_held = prove_held_unchecked(ctx, NAMED, third.hand_points, third.s, third.pub,
                                      q.pub, c, false, 0, third.src)
    verify_held(ctx, NAMED, third.hand_points, third.pub, q.pub, c, false, third_held)
    with rejected("held-opening"):
        verify_held(ctx, NAMED, r.hand_points, r.pub, q.pub, c, false, third_held)
    # The opening of a card it does hold passes: the attack gains nothing public.
    honest = prove_public_opening(ctx, NAMED, r.hand_points, r.s, r.pub, q.pub, c, as_ballroom,
                                  HAND.index(13), r.src)
    assert verify_public_opening(ctx, NAMED, r.hand_points, r.pub, q.pub, c, honest) == 13


def test_one_show_cannot_be_opened_as_two_cards_once_sealed(ctx: ProofContext) -> None:
    """With x, a refuter holding two named cards could open one C as either, each with a
    valid proof 4c. After a sealed opening, R fixes rho: the `open` at the end must repeat
    the sealed card, and a refuter with x that sealed a card it does not hold is blamed
    whichever opening it publishes then."""
    r, q = Seat(b"r6"), Seat(b"q6")
    show = Show(ctx, r, q, 13)
    as_peacock = equivocate(show.opening, q.s, 4)
    both = [show.public(), show.public(as_peacock)]
    assert [show.verify(p) for p in both] == [13, 4]  # without a seal, both are held cards
    sealed = show.seal()
    assert show.verify(both[0], sealed.r) == 13
    with rejected("opening"):
        show.verify(both[1], sealed.r)
    # with x, seal the Dagger (not held) to the colluding suggester: the table accepts it ...
    as_dagger = equivocate(show.opening, q.s, 7)
    sealed7 = seal_opening(ctx, NAMED, q.pub, show.c, as_dagger, r.src)
    verify_sealed_opening(ctx, NAMED, q.pub, show.c, sealed7)
    assert open_sealed(NAMED, show.c, sealed7, q.s) == 7
    # ... and at the end no opening passes: the held ones differ from the seal, the sealed
    # one names a card not held
    for public in both:
        with rejected("opening"):
            show.verify(public, sealed7.r)
    forged_held = prove_held_unchecked(ctx, NAMED, r.hand_points, r.s, r.pub, q.pub, show.c,
                                       as_dagger, 0, r.src)
    with rejected("held-opening"):
        show.verify(PublicOpening(as_dagger, forged_held), sealed7.r)


def test_public_opening_prover_refuses_false_claims(ctx: ProofContext) -> None:
    r, q = Seat(b"r7"), Seat(b"q7")
    show = Show(ctx, r, q)
    for opening, position in ((show.opening, 0), (Opening(13, show.opening.rho + Scalar(1)), 2),
                              (equivocate(show.opening, q.s, 20), 3),
                              (show.opening, len(HAND))):
        with pytest.raises(CryptoUsageError):
            prove_public_opening(ctx, NAMED, r.hand_points, r.s, r.pub, q.pub, show.c,
                                 opening, position, r.src)


# ---- 4d: the sealed opening -------------------------------------------------------------


def test_sealed_opening_verifies_and_only_the_suggester_decrypts(ctx: ProofContext) -> None:
    r, q = Seat(b"r8"), Seat(b"q8")
    for card in (4, 13):
        show = Show(ctx, r, q, card)
        sealed = show.seal()
        again = SealedOpening.from_wire(msgpack.unpackb(msgpack.packb(sealed.to_wire())))
        assert again == sealed
        verify_sealed_opening(ctx, NAMED, q.pub, show.c, again)
        assert open_sealed(NAMED, show.c, again, q.s) == card
        assert sealed.r == base_mul(show.opening.rho)
        # another key decrypts to no named card
        with rejected("sealed-opening"):
            open_sealed(NAMED, show.c, sealed, r.s)


def test_sealed_opening_every_single_field_tamper_is_refused(
    ctx: ProofContext, tampered: Tamper, contexts: Callable[[ProofContext], list[ProofContext]],
) -> None:
    r, q = Seat(b"r9"), Seat(b"q9")
    show = Show(ctx, r, q)
    sealed = show.seal()
    variants = list(tampered(sealed.to_wire(), frozenset({"r"})))
    assert len(variants) == 1 + 2 * (3 + 1)
    for _, wire in variants:
        with rejected("sealed-opening"):
            verify_sealed_opening(ctx, NAMED, q.pub, show.c, SealedOpening.from_wire(wire))
    for other in contexts(ctx):
        with rejected("sealed-opening"):
            verify_sealed_opening(other, NAMED, q.pub, show.c, sealed)
    mismatch = "challenge mismatch"
    for named, p, c, reason in (((4, 7, 14), q.pub, show.c, mismatch),
                                ((7, 4, 13), q.pub, show.c, mismatch),
                                ((4, 4, 13), q.pub, show.c, "three distinct"),
                                (NAMED, q.pub + G, show.c, mismatch),
                                (NAMED, IDENTITY, show.c, "identity"),
                                (NAMED, q.pub, show.c + G, mismatch)):
        with rejected("sealed-opening", reason):
            verify_sealed_opening(ctx, named, p, c, sealed)
    for bad, reason in ((replace(sealed, r=IDENTITY), "R is the identity"),
                        (replace(sealed, c=sealed.c[:2]), "3 card branches"),
                        (replace(sealed, s=(*sealed.s, sealed.s[0])), "3 card branches")):
        with rejected("sealed-opening", reason):
            verify_sealed_opening(ctx, NAMED, q.pub, show.c, bad)


def test_sealed_opening_malformed_and_small_order_points_are_typed_errors(
    ctx: ProofContext,
) -> None:
    r, q = Seat(b"r10"), Seat(b"q10")
    show = Show(ctx, r, q)
    sealed = show.seal()
    wire = sealed.to_wire()
    zero, big = bytes(32), L.to_bytes(32, "little")
    cases: list[tuple[Any, type[PeerDataError], str]] = [
        ({**wire, "r": IDENTITY.data}, InvalidPointError, "sealed_opening.r"),
        ({**wire, "r": ORDER_8}, InvalidPointError, "sealed_opening.r"),
        ({**wire, "r": torsion(wire["r"])}, InvalidPointError, "sealed_opening.r"),
        ({**wire, "r": NON_CANONICAL_POINT}, InvalidPointError, "sealed_opening.r"),
        ({**wire, "r": wire["r"][:31]}, InvalidPointError, "sealed_opening.r"),
        ({**wire, "r": [wire["r"]]}, InvalidPointError, "sealed_opening.r"),
        ({**wire, "c": wire["c"][:2]}, MalformedProofError, "sealed_opening.c"),
        ({**wire, "s": [*wire["s"], wire["s"][0]]}, MalformedProofError, "sealed_opening.s"),
        ({**wire, "c": [zero, *wire["c"][1:]]}, InvalidScalarError, "sealed_opening.c[0]"),
        ({**wire, "s": [*wire["s"][:2], big]}, InvalidScalarError, "sealed_opening.s[2]"),
        ({k: v for k, v in wire.items() if k != "s"}, MalformedProofError, "sealed_opening"),
        ({**wire, "card": 13}, MalformedProofError, "sealed_opening"),
        ([wire["r"], wire["c"], wire["s"]], MalformedProofError, "sealed_opening"),
    ]
    for bad, error, field in cases:
        with pytest.raises(error) as e:
            SealedOpening.from_wire(bad)
        assert getattr(e.value, "field", None) == field, (field, e.value)
    # A verifier handed a point off the subgroup without the reader (a direct caller) still
    # refuses it: the multiplication that takes R tests it.
    with pytest.raises(InvalidPointError):
        verify_sealed_opening(ctx, NAMED, q.pub, show.c,
                              replace(sealed, r=Point(torsion(wire["r"]))))


def test_a_sealed_opening_of_another_card_cannot_verify(ctx: ProofContext) -> None:
    """The refuter, without the suggester's key, seals its show to a card other than the one
    committed: whatever branch it answers and whatever R it picks, every verifier refuses."""
    r, q = Seat(b"r11"), Seat(b"q11")
    show = Show(ctx, r, q, 13)
    rho = show.opening.rho
    other_rho = random_scalar(r.src)
    for index in (0, 1):  # Peacock (held, not committed), Dagger (not held)
        for w in (rho, other_rho):
            bad = seal_unchecked(ctx, NAMED, q.pub, show.c, w, index, r.src)
            with rejected("sealed-opening"):
                verify_sealed_opening(ctx, NAMED, q.pub, show.c, bad)
    # the right card with another R: refused too (it would decrypt to no card)
    bad = seal_unchecked(ctx, NAMED, q.pub, show.c, other_rho, 2, r.src)
    with rejected("sealed-opening"):
        verify_sealed_opening(ctx, NAMED, q.pub, show.c, bad)
    with rejected("sealed-opening"):
        open_sealed(NAMED, show.c, bad, q.s)
    with pytest.raises(CryptoUsageError):
        seal_opening(ctx, NAMED, q.pub, show.c, Opening(4, rho), r.src)


def test_forgeries_that_only_one_refusal_of_4d_stops(ctx: ProofContext) -> None:
    """The Ballroom in the clear (C = 14*G, rho = 0), which 4b refuses too: answered with w =
    0, every equation holds and only "R is the identity" stops it; answered for Peacock by a
    refuter holding the suggester's key (w = 9/x, so C - 5*G = w*P), only the refusal of an
    identity residue stops it."""
    r, q = Seat(b"r14"), Seat(b"q14")
    clear = base_mul(Scalar(14))
    zero = seal_unchecked(ctx, NAMED, q.pub, clear, Scalar(0), 2, r.src)
    assert zero.r == IDENTITY
    with rejected("sealed-opening", "R is the identity"):
        verify_sealed_opening(ctx, NAMED, q.pub, clear, zero)
    w = Scalar(9) * inverse(q.s)
    keyed = seal_unchecked(ctx, NAMED, q.pub, clear, w, 0, r.src)
    assert clear - base_mul(Scalar(5)) == mul(w, q.pub)
    with rejected("sealed-opening", "no randomness"):
        verify_sealed_opening(ctx, NAMED, q.pub, clear, keyed)


def test_what_a_sealed_opening_gives_the_suggester(ctx: ProofContext) -> None:
    """The spec's statement of the leak, as a test: with its key, the suggester makes a
    transferable proof of the decrypted card (DLEQ(G, P, R, C - (t+1)*G)) that fails for
    every other card, and its equivocated openings of C no longer match R."""
    r, q = Seat(b"r12"), Seat(b"q12")
    show = Show(ctx, r, q, 13)
    sealed = show.seal()
    market = ProofContext(b"outsider", "sell", 0)
    claim = prove_dleq(market, q.s, G, q.pub, sealed.r, show.c - base_mul(Scalar(14)), q.src)
    verify_dleq(market, G, q.pub, sealed.r, show.c - base_mul(Scalar(14)), claim)
    for other in (4, 7):
        residue = show.c - base_mul(Scalar(other + 1))
        with pytest.raises(ProofRejected):
            verify_dleq(market, G, q.pub, sealed.r, residue, claim)
        assert base_mul(equivocate(show.opening, q.s, other).rho) != sealed.r


# ---- cost -------------------------------------------------------------------------------


@pytest.mark.parametrize("hand", [(4, 8, 13), (4, 8, 13, 0, 6, 20)])
def test_the_openings_cost_what_the_spec_says(ctx: ProofContext, hand: tuple[int, ...]) -> None:
    """docs/protocol.md 4c: verify 3h + 1 variable and h + 1 fixed (one fixed more against a
    seal), prove 2h + 1 and h + 1; 4d: verify 9 and 6, prove 6 and 7, decrypt 1 and 3; the
    msgpack sizes stated there."""
    h = len(hand)
    r, q = Seat(b"r13", hand), Seat(b"q13")
    show = Show(ctx, r, q, 13)

    def count(call: Callable[[], object]) -> tuple[int, int]:
        MULT_COUNTER.reset()
        call()
        return MULT_COUNTER.var, MULT_COUNTER.base

    public = show.public()
    sealed = show.seal()
    assert count(show.public) == (2 * h + 1, h + 1)
    assert count(lambda: show.verify(public)) == (3 * h + 1, h + 1)
    assert count(lambda: show.verify(public, sealed.r)) == (3 * h + 1, h + 2)
    assert count(show.seal) == (6, 7)
    assert count(lambda: verify_sealed_opening(ctx, NAMED, q.pub, show.c, sealed)) == (9, 6)
    assert count(lambda: open_sealed(NAMED, show.c, sealed, q.s)) == (1, 3)
    sizes = {3: 261, 6: 465}
    assert len(msgpack.packb(public.to_wire())) == sizes[h]
    assert len(msgpack.packb(public.held.to_wire())) == 68 * h + 7
    assert len(msgpack.packb(sealed.to_wire())) == 247
    assert isinstance(HeldProof.from_wire(public.held.to_wire()), HeldProof)
