"""The model of naive rivals guides questions only: it never reaches what is certain."""

from __future__ import annotations

import random

from p2pclue.bots import HandDealt, SuggestionAnswered
from p2pclue.bots.detective import DetectiveBot
from p2pclue.bots.model import SuggestionModel
from p2pclue.bots.showing import widest_open
from p2pclue.deduce import ENVELOPE, Lacks, Mark, Notepad, OwnHand, ShownByMe, ShownToMe
from p2pclue.rules.game import new_game
from p2pclue.rules.state import GameState
from p2pclue.rules.variants import preset

HAND = (0, 1, 6, 7, 12, 13)


def public_state() -> GameState:
    return new_game(preset("classic"), (0, 1, 2), hand_sizes=(6, 6, 6),
                    weapon_rooms=dict(zip(range(6, 12), range(12, 18), strict=True)))


def test_assumptions_stay_out_of_the_notepad_that_decides_accusations() -> None:
    bot = DetectiveBot(0, random.Random(3))
    bot.observe(HandDealt(0, HAND))
    bot.decide(public_state())
    bot.observe(SuggestionAnswered(1, 2, 8, 14, (2,), 0))  # I showed; seat 1 named 2 and 8
    bot.observe(SuggestionAnswered(2, 3, 9, 15, (), 1))
    assert bot.notepad is not None
    assert not any(isinstance(f, Lacks) for f in bot.notepad.facts)
    assert bot.notepad.cell(2, 1) is Mark.UNKNOWN  # observed: nothing about seat 1 and card 2
    advice = bot.advice()
    assert advice is not None and advice.what_if is not None
    what_if = advice.what_if.notepad
    assert what_if.cell(2, 1) is Mark.NO and what_if.cell(8, 1) is Mark.NO  # assumed
    assert what_if.cell(3, 2) is Mark.NO and what_if.cell(9, 2) is Mark.NO


def test_a_seat_that_names_its_own_card_is_dropped_from_the_model() -> None:
    model = SuggestionModel(0)
    known = Notepad(0, 3, (6, 6, 6), 0, facts=[OwnHand(HAND), ShownToMe(1, 2)])
    model.saw_suggestion(1, 2, 8, turn=3)  # seat 1 named Mrs White, which it showed me
    model.saw_suggestion(2, 3, 9, turn=4)
    what_if = model.notepad(known)
    assert 1 in model.distrusted and 2 not in model.distrusted
    assert what_if.cell(3, 2) is Mark.NO and what_if.cell(8, 1) is Mark.UNKNOWN


def test_clashing_assumptions_fall_back_to_what_was_observed() -> None:
    model = SuggestionModel(0)
    # I hold Scarlett and Mustard; if seats 1 and 2 both lacked the other four suspects,
    # all four would be in the envelope: the model drops one seat (the first that helps)
    known = Notepad(0, 3, (6, 6, 6), 0, facts=[OwnHand(HAND)])
    for suspect in (2, 3, 4, 5):
        model.saw_suggestion(1, suspect, 8, turn=suspect)
        model.saw_suggestion(2, suspect, 9, turn=suspect)
    what_if = model.notepad(known)
    assert what_if.contradiction is None
    assert model.distrusted == {1}
    assert what_if.cell(3, 2) is Mark.NO and what_if.cell(3, 1) is Mark.UNKNOWN
    assert what_if.cell(3, ENVELOPE) is Mark.UNKNOWN


def test_refutes_with_a_card_the_suggester_already_saw() -> None:
    notepad = Notepad(0, 3, (6, 6, 6), 0, facts=[OwnHand(HAND), ShownByMe(1, 12, 1, (2, 8, 12))])
    assert widest_open(notepad, [0, 6, 12], 1) == 12


def test_refutes_from_the_category_the_suggester_has_most_left_open() -> None:
    shown = [ShownToMe(1, room, turn, (2, 8, room)) for turn, room in enumerate(range(14, 20))]
    notepad = Notepad(0, 3, (6, 6, 6), 0, facts=[OwnHand(HAND), *shown])
    # seat 1 holds six rooms: 3 rooms left open to it, against 6 suspects and 6 weapons
    assert widest_open(notepad, [0, 12], 1) == 0
    assert widest_open(notepad, [6, 12], 1) == 6
    fresh = Notepad(0, 3, (6, 6, 6), 0, facts=[OwnHand(HAND)])
    assert widest_open(fresh, [0, 12], 1) == 12  # 9 rooms open against 6 suspects
