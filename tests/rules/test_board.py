"""R4: the board file against every fact of the board reference (tests/data/board-reference.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pclue.rules.board import BoardFileError, classic_board, parse_board
from p2pclue.rules.cards import BY_SLUG

K, B, C, D, BIL, L, LOU, H, Y = (
    BY_SLUG[s].index for s in (
        "kitchen", "ballroom", "conservatory", "dining_room", "billiard_room", "library",
        "lounge", "hall", "study",
    )
)

# (room, door square, side the corridor is on), from the reference's "Facts to test against".
DOORS = {
    (K, (6, 4), "S"),
    (B, (5, 8), "W"), (B, (5, 15), "E"), (B, (7, 9), "S"), (B, (7, 14), "S"),
    (C, (4, 18), "S"),
    (BIL, (9, 18), "W"), (BIL, (12, 22), "S"),
    (L, (14, 20), "N"), (L, (16, 17), "W"),
    (Y, (21, 17), "N"),
    (H, (18, 11), "N"), (H, (18, 12), "N"), (H, (20, 14), "E"),
    (LOU, (19, 6), "N"),
    (D, (12, 7), "E"), (D, (15, 6), "S"),
}
STARTS = {0: (24, 7), 1: (17, 0), 2: (0, 9), 3: (0, 14), 4: (6, 23), 5: (19, 23)}
REFERENCE = Path(__file__).resolve().parents[1] / "data" / "board-reference.md"


def test_R4_size_and_seventeen_doors_with_their_sides() -> None:
    board = classic_board()
    assert (board.rows, board.cols) == (25, 24)
    assert {(d.room, d.square, d.side) for d in board.doors} == DOORS
    for door in board.doors:
        assert board.room_at(door.square) == door.room
        assert board.is_corridor(door.outside)
        assert door.outside in {(door.square[0] + dr, door.square[1] + dc)
                                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))}


def test_R4_each_outside_square_serves_one_door() -> None:
    board = classic_board()
    assert len({d.outside for d in board.doors}) == 17


def test_R4_six_start_squares() -> None:
    board = classic_board()
    assert board.start_squares == STARTS
    assert all(board.is_corridor(sq) for sq in STARTS.values())


def test_R4_two_secret_passages_join_opposite_corners() -> None:
    assert classic_board().passages == {K: Y, Y: K, C: LOU, LOU: C}


def test_R4_room_squares_and_extents() -> None:
    board = classic_board()
    counts = {r: sum(1 for v in board.room_squares.values() if v == r) for r in board.rooms()}
    assert counts == {K: 35, B: 52, C: 28, D: 53, BIL: 30, L: 31, LOU: 41, H: 42, Y: 27}
    assert board.room_at((1, 0)) == K and board.room_at((24, 23)) == Y
    assert board.room_at((24, 0)) == LOU and board.room_at((1, 23)) == C
    assert board.room_at((12, 12)) is None and not board.is_corridor((12, 12))  # the cellar
    assert len(board.corridor) == 188


def test_R4_grid_matches_the_reference_cell_for_cell() -> None:
    grid = REFERENCE.read_text(encoding="utf-8").split("```")[1].strip("\n").splitlines()
    assert len(grid) == 25 and all(len(line.split()) == 24 for line in grid)
    letters = {"K": K, "B": B, "C": C, "I": BIL, "D": D, "L": L, "O": LOU, "H": H, "Y": Y}
    board = classic_board()
    for r, line in enumerate(grid):
        for c, cell in enumerate(line.split()):
            core = cell.lstrip("^>v<?!$%@&")
            if core == "x":
                assert board.room_at((r, c)) is None and not board.is_corridor((r, c))
            elif core == "_" or core.isdigit():
                assert board.is_corridor((r, c)), (r, c)
            else:
                assert board.room_at((r, c)) == letters[core.upper()], (r, c)


def test_R4_steps_to_room_counts_the_entry_step() -> None:
    board = classic_board()
    assert board.steps_to_room((7, 4), K) == 1
    assert board.steps_to_room((8, 4), K) == 2


@pytest.mark.parametrize(
    "text",
    ["room K nowhere\ngrid\nK\n", "door K 0 0 S\nroom K kitchen\ngrid\nK\n", "bogus\n",
     "room K kitchen\ngrid\nKZ\n", "grid\n"],
)
def test_R4_bad_board_files_are_typed_errors(text: str) -> None:
    with pytest.raises(BoardFileError):
        parse_board(text)
