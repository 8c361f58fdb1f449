"""The rule ids docs/protocol.md ("Board and movement") promises for movement faults."""

from __future__ import annotations

import pytest

from p2pclue.rules.actions import EndTurn, Roll
from p2pclue.rules.board import classic_board
from p2pclue.rules.errors import RuleError
from p2pclue.rules.game import apply
from p2pclue.rules.movement import check_path, legal_destinations
from tests.rules.helpers import start

BOARD = classic_board()
KITCHEN = 12
KITCHEN_DOOR, KITCHEN_OUTSIDE = (6, 4), (7, 4)


def _rule(start: object, roll: int, path: list[tuple[int, int]], *, exact: bool = False,
          blocked: tuple[tuple[int, int], ...] = ()) -> str:
    with pytest.raises(RuleError) as e:
        check_path(BOARD, start, roll, tuple(path), blocked,  # type: ignore[arg-type]
                   revisit_ok=False, enter_exact=exact)
    return e.value.rule


def test_path_length_faults_have_the_documented_ids() -> None:
    assert _rule((7, 4), 2, []) == "R12"  # empty
    assert _rule((7, 5), 1, [(7, 6), (7, 7)]) == "R12"  # longer than the roll
    assert _rule((7, 5), 3, [(7, 6)]) == "R16"  # a corridor move shorter than the roll
    assert _rule((7, 5), 3, [(7, 4), KITCHEN_DOOR], exact=True) == "R16"  # ENTER-EXACT short
    assert _rule((7, 5), 2, [(7, 6), (7, 5)]) == "R14"  # back to the start, NO-REVISIT


def test_the_first_step_out_of_a_room_counts_as_a_step() -> None:
    end = check_path(BOARD, KITCHEN, 1, (KITCHEN_OUTSIDE,), (), revisit_ok=False,
                     enter_exact=False)
    assert end == KITCHEN_OUTSIDE
    assert _rule(KITCHEN, 1, [KITCHEN_OUTSIDE, (7, 5)]) == "R12"


def test_start_squares_are_walkable_corridor_squares() -> None:
    mustard_start = BOARD.start_squares[1]  # (17, 0), next to (17, 1)
    assert BOARD.is_corridor(mustard_start)
    # Any token may step onto another suspect's start square, or pass it.
    assert check_path(BOARD, (17, 2), 2, ((17, 1), mustard_start), (), revisit_ok=False,
                      enter_exact=False) == mustard_start
    assert _rule((17, 2), 2, [(17, 1), mustard_start], blocked=(mustard_start,)) == "R15"


def test_blocked_in_means_no_legal_destination() -> None:
    # Mrs White on her start square (0, 9), the one square out of it taken: nowhere to go.
    white_start = BOARD.start_squares[2]
    assert sorted(BOARD.neighbours(white_start)) == [(1, 9)]
    assert not legal_destinations(BOARD, white_start, 3, {(1, 9)}, revisit_ok=False,
                                  enter_exact=False)
    assert legal_destinations(BOARD, white_start, 3, set(), revisit_ok=False,
                              enter_exact=False)


def test_staying_after_a_roll_in_the_corridor_is_R12() -> None:
    state = apply(start(), Roll(0, (3,)))  # Miss Scarlett on her start square, free to move
    with pytest.raises(RuleError) as e:
        apply(state, EndTurn(0))
    assert e.value.rule == "R12"
