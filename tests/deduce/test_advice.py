"""Suggestion scoring: informative triples score higher, certain outcomes score zero."""

from __future__ import annotations

from p2pclue.deduce import Notepad, OwnHand, ShownToMe
from p2pclue.deduce.advice import Advisor, refuter_order

HAND = (0, 1, 6, 7, 12, 13)


def test_R21_refuters_are_asked_clockwise_from_the_left() -> None:
    assert refuter_order(1, 4) == (2, 3, 0)
    assert refuter_order(3, 4) == (0, 1, 2)


def test_a_triple_of_my_own_cards_teaches_nothing() -> None:
    advisor = Advisor(Notepad(0, 3, (6, 6, 6), 0).add(OwnHand(HAND)))
    assert advisor.gain((0, 6, 12)) == 0.0
    assert advisor.gain((0, 6, 15)) > 0.0


def test_known_cards_add_nothing_and_unknown_ones_add_information() -> None:
    pad = Notepad(0, 3, (6, 6, 6), 0).add(OwnHand(HAND)).add(ShownToMe(1, 2))
    advisor = Advisor(pad)
    # Mrs White (2) is known to be with seat 1: naming her is a blocker only
    # for seat 1, so probing with an unknown suspect is worth more.
    assert advisor.gain((3, 6, 12)) > advisor.gain((2, 6, 12))
    gain, (_, _, r) = advisor.best_in_room(15)
    assert r == 15 and gain >= advisor.gain((0, 6, 15))


def test_solved_envelope_leaves_nothing_to_learn() -> None:
    pad = Notepad(0, 3, (6, 6, 6), 0).add(OwnHand(HAND))
    shown = [2, 3, 4, 8, 9, 10, 14, 15, 16, 17, 18, 19]
    for turn, card in enumerate(shown):
        pad = pad.add(ShownToMe(1 + turn % 2, card))
    advisor = Advisor(pad)
    assert pad.solution() == (5, 11, 20)
    assert advisor.best_in_room(15)[0] == 0.0
