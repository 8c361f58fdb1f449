"""Attacks on proofs 4c and 4d from an independent review, each played against the project's
verifiers and the spec-only clean room (cleanroom_openings_spec.py) at once.

What is checked here and not in test_openings.py: the sealed R read the way the engine
reads points (test deferred to the multiplication, ``crypto.group.Owed``) gets the verdict
it gets tested as read; openings swapped between two shows of one refuter inside one
``open``; a hand of one card; the limit the spec states (a refuter given the suggester's
key opens one show as either held card) reached from the spec's prover alone; and a sealed
opening moved to another show or refuter.
"""

from __future__ import annotations

import os
from typing import Any

from p2pclue.crypto.errors import PeerDataError, ProofRejected
from p2pclue.crypto.group import Owed, owing
from p2pclue.crypto.sealedopening import SealedOpening, verify_sealed_opening
from tests.crypto import cleanroom_openings_spec as cr
from tests.crypto.test_cleanroom_openings_spec import (
    IDENTITY_NEG_ZERO,
    IDENTITY_Y_PLUS_P,
    HeldCase,
    SealedCase,
    pctx,
    pt,
    vectors,
)
from tests.torsion import ORDER_8, torsion


class Table:
    """A refuter (key s, hand of the given cards) and a suggester (key x), fresh keys."""

    def __init__(self, hand_cards: list[int]) -> None:
        self.rng = cr.Seeded(os.urandom(16))
        self.s, self.x = self.rng.scalar(), self.rng.scalar()
        self.hand_cards = hand_cards
        self.hand = [cr.mul(self.s, cr.card_point(t)) for t in hand_cards]
        self.S, self.P = cr.base(self.s), cr.base(self.x)
        self.game = os.urandom(32)

    def commit(self, t: int) -> tuple[bytes, int]:
        rho = self.rng.scalar()
        return cr.add(cr.base(t + 1), cr.mul(rho, self.P)), rho

    def held(self, named: list[int], C: bytes, step: str = "90:open") -> HeldCase:
        case = HeldCase.__new__(HeldCase)
        case.ctx = cr.Context(self.game, step, 1)
        case.named, case.hand, case.S, case.P, case.C = named, self.hand, self.S, self.P, C
        return case

    def open(self, case: HeldCase, t: int, rho: int) -> dict[str, Any]:
        return cr.prove_public_opening(self.rng, case.ctx, case.named, self.s, self.hand,
                                       self.P, case.C, t, rho, self.hand_cards.index(t))


def verdicts(case: HeldCase, wire: Any, **change: Any) -> tuple[str, str]:
    return case.ours(wire, **change), case.project(wire, **change)


def test_a_sealed_r_off_the_group_is_refused_when_its_test_is_deferred() -> None:
    """The engine reads peer points untested and lets the multiplication that takes them test
    them; a point no multiplication took is tested before the message is accepted. Read that
    way, every bad R of a sealed opening still ends refused as a bad point, as it does when
    tested as read and in the clean room: nothing is accepted, nothing is blamed as a mere
    proof failure that the spec calls a point failure."""
    sealed = SealedCase(vectors()["sealed_opening"])
    r = sealed.wire["r"]
    bad_rs = {"order 8": ORDER_8, "torsion": torsion(r), "identity y = p + 1": IDENTITY_Y_PLUS_P,
              "identity x = -0": IDENTITY_NEG_ZERO,
              "torsion of G": torsion(cr.base(1)), "not on the curve": bytes(31) + b"\x01"}
    for name, bad in bad_rs.items():
        wire = {**sealed.wire, "r": bad}
        owed = Owed()
        try:
            with owing(owed):
                read = SealedOpening.from_wire(wire)
            verify_sealed_opening(pctx(sealed.ctx), sealed.named, pt(sealed.P), pt(sealed.C),
                                  read)
        except ProofRejected as e:
            deferred = "malformed" if owed.first_bad() is not None else e.proof
        except PeerDataError:
            deferred = "malformed"
        else:
            deferred = "malformed" if owed.first_bad() is not None else "accepted"
        assert deferred == sealed.project(wire) == sealed.ours(wire) == "malformed", name


def test_openings_swapped_between_two_shows_in_one_open_are_refused() -> None:
    """One refuter answered the same suggester twice with the same named cards, showing the
    Peacock then the Ballroom; its `open` carries both openings under one context. Each
    opening with its proof, put on the other show, is refused (the opening fails on C
    first), and each proof moved under the other opening fails as `held-opening`."""
    t = Table([4, 8, 13])
    named = [4, 7, 13]
    c1, rho1 = t.commit(4)
    c2, rho2 = t.commit(13)
    show1, show2 = t.held(named, c1), t.held(named, c2)
    w1, w2 = t.open(show1, 4, rho1), t.open(show2, 13, rho2)
    assert verdicts(show1, w1) == verdicts(show2, w2) == ("accepted", "accepted")
    assert verdicts(show1, w2) == verdicts(show2, w1) == ("opening", "opening")
    moved = {**w1, "held": w2["held"]}
    assert verdicts(show1, moved) == ("held-opening", "held-opening")


def test_a_hand_of_one_card() -> None:
    """h = 1: the OR has one branch, whose challenge is the hash itself. The held card is
    accepted; a named card not held, opened by a refuter given the suggester's key, is not,
    whether the proof answers position 0 or is the spec's prover's output for that
    position; a proof with two branches is refused."""
    t = Table([13])
    named = [4, 7, 13]
    c, rho = t.commit(13)
    case = t.held(named, c)
    good = t.open(case, 13, rho)
    assert len(good["held"]["c"]) == 1
    assert verdicts(case, good) == ("accepted", "accepted")
    forged_rho = cr.equivocate(t.x, 13, rho, 7)
    forged = cr.prove_public_opening(t.rng, case.ctx, named, t.s, t.hand, t.P, c, 7,
                                     forged_rho, 0)
    assert verdicts(case, forged) == ("held-opening", "held-opening")
    two = {**good, "held": {"c": good["held"]["c"] * 2, "u": good["held"]["u"] * 2}}
    assert verdicts(case, two) == ("held-opening", "held-opening")


def test_with_the_suggesters_key_one_show_opens_as_either_held_card_until_sealed() -> None:
    """The limit 4c states, reached from the spec's prover alone: a refuter given x and
    holding two named cards publishes either opening of one C, each with a valid proof 4c,
    and both verifiers accept both; once a sealed opening fixed R, only the sealed card
    passes (check 2), and a sealed card not held cannot be opened at all."""
    t = Table([4, 8, 13])
    named = [4, 7, 13]
    c, rho = t.commit(13)
    case = t.held(named, c)
    as_ballroom = t.open(case, 13, rho)
    rho_peacock = cr.equivocate(t.x, 13, rho, 4)
    as_peacock = t.open(case, 4, rho_peacock)
    assert as_ballroom["card"] != as_peacock["card"]
    assert verdicts(case, as_ballroom) == verdicts(case, as_peacock) == ("accepted",) * 2
    sealed_ctx = cr.Context(t.game, "50:sealed", 1)
    seal = cr.prove_sealed_opening(t.rng, sealed_ctx, named, t.P, c, 13, rho)
    r = seal["r"]
    assert verdicts(case, as_ballroom, sealed_r=r) == ("accepted", "accepted")
    assert verdicts(case, as_peacock, sealed_r=r) == ("opening", "opening")
    # sealing the Dagger (not held) with x: accepted as a seal, but no opening passes later
    rho_dagger = cr.equivocate(t.x, 13, rho, 7)
    seal7 = cr.prove_sealed_opening(t.rng, sealed_ctx, named, t.P, c, 7, rho_dagger)
    sealed = SealedCase.__new__(SealedCase)
    sealed.ctx, sealed.named, sealed.P, sealed.C = sealed_ctx, named, t.P, c
    assert sealed.ours(seal7) == sealed.project(seal7) == "accepted"
    assert cr.open_sealed(t.x, named, c, seal7["r"]) == 7
    as_dagger = cr.prove_public_opening(t.rng, case.ctx, named, t.s, t.hand, t.P, c, 7,
                                        rho_dagger, 1)
    assert verdicts(case, as_dagger, sealed_r=seal7["r"]) == ("held-opening",) * 2
    for wire in (as_ballroom, as_peacock):
        assert verdicts(case, wire, sealed_r=seal7["r"]) == ("opening", "opening")


def test_a_sealed_opening_moved_to_another_show_or_refuter_is_refused() -> None:
    """A seal is bound to its show through C and to its refuter and message through the
    context: moved to another show of the same refuter and suggester with the same named
    cards and the same card (another C), or presented as another seat's, it is refused."""
    t = Table([4, 8, 13])
    named = [4, 7, 13]
    c1, rho1 = t.commit(13)
    c2, _ = t.commit(13)
    ctx = cr.Context(t.game, "50:sealed", 1)
    seal = cr.prove_sealed_opening(t.rng, ctx, named, t.P, c1, 13, rho1)
    case = SealedCase.__new__(SealedCase)
    case.ctx, case.named, case.P, case.C = ctx, named, t.P, c1
    assert case.ours(seal) == case.project(seal) == "accepted"
    for change in ({"C": c2}, {"ctx": cr.Context(t.game, "50:sealed", 2)},
                   {"ctx": cr.Context(t.game, "51:sealed", 1)}):
        assert case.ours(seal, **change) == case.project(seal, **change) == "sealed-opening"
