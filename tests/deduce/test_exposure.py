"""What others can know of my hand, and which card to show (R21 refuter's choice)."""

from __future__ import annotations

import pytest

from p2pclue.deduce import (
    Notepad,
    NotepadUsageError,
    OwnHand,
    Passed,
    ShownByMe,
    exposure,
    least_revealing,
    view_of,
)

SCARLETT, MUSTARD, WHITE, PLUM = 0, 1, 2, 5
CANDLE, DAGGER, ROPE = 6, 7, 10
KITCHEN, BALLROOM, HALL, STUDY = 12, 13, 19, 20
HAND = (SCARLETT, MUSTARD, CANDLE, DAGGER, KITCHEN, BALLROOM)


def mine() -> Notepad:
    return Notepad(0, 3, (6, 6, 6), 0).add(OwnHand(HAND))


def test_R21_a_shown_card_is_known_to_that_player_only() -> None:
    pad = mine().add(ShownByMe(1, KITCHEN, turn=1))
    exposed = exposure(pad)
    assert exposed[1] == {KITCHEN}
    assert exposed[2] == frozenset()


def test_R21_public_answers_expose_a_card_to_everyone() -> None:
    # Everyone saw me pass on (White, Rope, Hall); when I later refute
    # (White, Rope, Ballroom), every observer knows the card I showed.
    pad = mine().add(Passed(0, (WHITE, ROPE, HALL), turn=1, suggester=2))
    pad = pad.add(ShownByMe(1, BALLROOM, turn=2, triple=(WHITE, ROPE, BALLROOM)))
    exposed = exposure(pad)
    assert exposed[1] == {BALLROOM}
    assert exposed[2] == {BALLROOM}
    assert view_of(pad, 2).cell(BALLROOM, 0).name == "YES"


def test_R21_refuter_shows_a_card_the_suggester_already_knows() -> None:
    pad = mine().add(ShownByMe(1, KITCHEN, turn=1, triple=(SCARLETT, ROPE, KITCHEN)))
    assert least_revealing(pad, [SCARLETT, KITCHEN], 1) == KITCHEN
    assert least_revealing(pad, [KITCHEN, SCARLETT], 1) == KITCHEN


def test_R21_refuter_prefers_a_card_already_shown_to_someone_else() -> None:
    pad = mine().add(ShownByMe(2, DAGGER, turn=1))
    assert least_revealing(pad, [MUSTARD, DAGGER], 1) == DAGGER


def test_least_revealing_needs_my_own_matching_cards() -> None:
    with pytest.raises(NotepadUsageError):
        least_revealing(mine(), [], 1)
    with pytest.raises(NotepadUsageError):
        least_revealing(mine(), [PLUM], 1)
