"""R13-R17: destinations and path checks, against a brute-force path enumeration."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pclue.rules.board import Square, classic_board
from p2pclue.rules.errors import RuleError
from p2pclue.rules.movement import Position, check_path, legal_destinations
from tests.profiles import examples

BOARD = classic_board()
CORRIDOR = sorted(BOARD.corridor)
HALL, STUDY, LOUNGE = 19, 20, 18


def brute_force(
    start: Position, roll: int, taken: set[Square], revisit_ok: bool, enter_exact: bool
) -> set[Square]:
    """Every path enumerated step by step: the slow definition of the rules."""
    start_room = start if isinstance(start, int) else None
    out: set[Square] = set()

    def walk(at: Square | None, used: int, seen: frozenset[Square]) -> None:
        if at is not None:
            for door in BOARD.doors_from(at):
                if door.room != start_room and (
                    used + 1 == roll or (not enter_exact and used + 1 <= roll)
                ):
                    out.add(door.square)
        if used == roll:
            if at != start:
                assert at is not None
                out.add(at)
            return
        if at is None:
            assert start_room is not None
            nexts = [d.outside for d in BOARD.doors_of(start_room)]
        else:
            nexts = list(BOARD.neighbours(at))
        for nb in nexts:
            if nb not in taken and (revisit_ok or nb not in seen):
                walk(nb, used + 1, seen | {nb})

    first = None if start_room is not None else start
    assert not isinstance(first, int)
    walk(first, 0, frozenset() if first is None else frozenset({first}))
    return out


positions = st.one_of(st.sampled_from(CORRIDOR), st.sampled_from(BOARD.rooms()))


@settings(max_examples=examples(60))
@given(
    start=positions,
    roll=st.integers(1, 7),
    taken=st.sets(st.sampled_from(CORRIDOR), max_size=6),
    revisit_ok=st.booleans(),
    enter_exact=st.booleans(),
)
def test_R13_R14_R15_R16_R17_destinations_match_brute_force(
    start: Position, roll: int, taken: set[Square], revisit_ok: bool, enter_exact: bool
) -> None:
    if revisit_ok and roll > 5:
        roll = 5  # walk enumeration grows as 4^roll
    taken.discard(start)
    found = legal_destinations(
        BOARD, start, roll, taken, revisit_ok=revisit_ok, enter_exact=enter_exact
    )
    assert set(found) == brute_force(start, roll, taken, revisit_ok, enter_exact)
    for end, path in found.items():
        assert path[-1] == end
        check_path(BOARD, start, roll, path, taken, revisit_ok=revisit_ok,
                   enter_exact=enter_exact)


@pytest.mark.parametrize("revisit_ok", [False, True])
@pytest.mark.parametrize("enter_exact", [False, True])
def test_R16_all_destinations_for_a_roll_of_12(revisit_ok: bool, enter_exact: bool) -> None:
    taken = {(7, 7), (8, 8), (13, 16)}
    starts: list[Position] = [*BOARD.start_squares.values(), *BOARD.rooms(), (8, 12), (17, 11)]
    for start in starts:
        found = legal_destinations(
            BOARD, start, 12, taken, revisit_ok=revisit_ok, enter_exact=enter_exact
        )
        assert found, start
        for end, path in found.items():
            where = check_path(BOARD, start, 12, path, taken, revisit_ok=revisit_ok,
                               enter_exact=enter_exact)
            assert where == (BOARD.room_at(end) if BOARD.room_at(end) is not None else end)
    # From the Ballroom a 12 reaches every room but the Ballroom itself under ENTER-ANY.
    rooms = {BOARD.room_at(sq) for sq in legal_destinations(
        BOARD, 13, 12, set(), revisit_ok=revisit_ok, enter_exact=False)} - {None}
    assert 13 not in rooms and {12, 14, 15, 16, 17} <= rooms


def test_R12_R16_corridor_moves_use_the_whole_roll() -> None:
    with pytest.raises(RuleError, match=r"^R16"):
        check_path(BOARD, (24, 7), 3, ((23, 7), (22, 7)), set(), revisit_ok=False,
                   enter_exact=False)
    with pytest.raises(RuleError, match=r"^R12"):
        check_path(BOARD, (24, 7), 1, ((23, 7), (22, 7)), set(), revisit_ok=False,
                   enter_exact=False)


def test_R13_no_diagonal_steps() -> None:
    with pytest.raises(RuleError, match=r"^R13"):
        check_path(BOARD, (24, 7), 2, ((23, 7), (22, 8)), set(), revisit_ok=False,
                   enter_exact=False)
    assert check_path(BOARD, (24, 7), 2, ((23, 7), (22, 7)), set(), revisit_ok=False,
                      enter_exact=False) == (22, 7)


def test_R14_no_revisit_versus_revisit_ok() -> None:
    # Scarlett's start is a dead end: back to (23, 7) in 3 steps needs a revisit.
    path = ((23, 7), (24, 7), (23, 7))
    with pytest.raises(RuleError, match=r"^R14"):
        check_path(BOARD, (24, 7), 3, path, set(), revisit_ok=False, enter_exact=False)
    assert check_path(BOARD, (24, 7), 3, path, set(), revisit_ok=True,
                      enter_exact=False) == (23, 7)
    assert (23, 7) not in legal_destinations(BOARD, (24, 7), 3, set(), revisit_ok=False,
                                             enter_exact=False)
    assert (23, 7) in legal_destinations(BOARD, (24, 7), 3, set(), revisit_ok=True,
                                         enter_exact=False)


def test_R14_parity_is_not_enough_without_revisits() -> None:
    # (23, 7) is 1 step from (24, 7), so 3 steps has the right parity, but every
    # path enters it first: the dead end forbids it under NO-REVISIT.
    assert BOARD.neighbours((24, 7)) == ((23, 7),)
    for roll in (3, 5, 7):
        found = legal_destinations(BOARD, (24, 7), roll, set(), revisit_ok=False,
                                   enter_exact=False)
        assert (23, 7) not in found and (23, 8) not in found
        assert (22, 7) not in found and (21, 7) in found


def test_R15_occupied_squares_cannot_be_entered_or_passed() -> None:
    blocker = {(22, 7)}
    with pytest.raises(RuleError, match=r"^R15"):
        check_path(BOARD, (24, 7), 3, ((23, 7), (22, 7), (21, 7)), blocker,
                   revisit_ok=False, enter_exact=False)
    free = legal_destinations(BOARD, (24, 7), 3, set(), revisit_ok=False, enter_exact=False)
    blocked = legal_destinations(BOARD, (24, 7), 3, blocker, revisit_ok=False,
                                 enter_exact=False)
    assert (21, 7) in free and (21, 7) not in blocked
    # Blocked in: the only exit of the start square is taken.
    assert legal_destinations(BOARD, (24, 7), 4, {(23, 7)}, revisit_ok=True,
                              enter_exact=False) == {}


def test_R16_doors_only_from_their_side() -> None:
    # The Study door (21,17) opens north onto (20,17); (21,16) is beside it, west.
    with pytest.raises(RuleError, match=r"^R16"):
        check_path(BOARD, (22, 16), 2, ((21, 16), (21, 17)), set(), revisit_ok=False,
                   enter_exact=False)
    assert check_path(BOARD, (20, 16), 2, ((20, 17), (21, 17)), set(), revisit_ok=False,
                      enter_exact=False) == STUDY
    with pytest.raises(RuleError, match=r"^R13"):  # a room square without a door
        check_path(BOARD, (17, 10), 1, ((18, 10),), set(), revisit_ok=False,
                   enter_exact=False)


def test_R16_entering_ends_the_movement() -> None:
    with pytest.raises(RuleError, match=r"^R16"):
        check_path(BOARD, (17, 10), 3, ((17, 11), (18, 11), (17, 11)), set(),
                   revisit_ok=True, enter_exact=False)


def test_R16_enter_any_versus_enter_exact() -> None:
    path = ((17, 11), (18, 11))
    assert check_path(BOARD, (17, 10), 5, path, set(), revisit_ok=False,
                      enter_exact=False) == HALL
    with pytest.raises(RuleError, match=r"^R16.*EXACT"):
        check_path(BOARD, (17, 10), 5, path, set(), revisit_ok=False, enter_exact=True)
    exact = legal_destinations(BOARD, (17, 10), 5, set(), revisit_ok=False, enter_exact=True)
    anyway = legal_destinations(BOARD, (17, 10), 5, set(), revisit_ok=False,
                                enter_exact=False)
    assert (18, 11) in anyway and all(len(p) == 5 for p in exact.values())
    assert len(anyway[(18, 11)]) == 2


def test_R17_no_leaving_and_re_entering_a_room_in_one_turn() -> None:
    path = ((17, 11), (17, 12), (18, 12))
    with pytest.raises(RuleError, match=r"^R17"):
        check_path(BOARD, HALL, 3, path, set(), revisit_ok=True, enter_exact=False)
    found = legal_destinations(BOARD, HALL, 6, set(), revisit_ok=True, enter_exact=False)
    assert not any(BOARD.room_at(sq) == HALL for sq in found)


def test_R16_leaving_a_room_starts_outside_one_of_its_doors() -> None:
    with pytest.raises(RuleError, match=r"^R16"):
        check_path(BOARD, HALL, 1, ((20, 17),), set(), revisit_ok=False, enter_exact=False)
    assert check_path(BOARD, HALL, 1, ((20, 15),), set(), revisit_ok=False,
                      enter_exact=False) == (20, 15)
