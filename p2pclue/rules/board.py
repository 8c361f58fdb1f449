"""The board (R4): corridor squares, rooms, doors, start squares, secret passages.

The layout lives in ``data/classic.board`` (our own text format, described in
the file's header) so that it can be read and checked against the reference
facts; this module parses it once and precomputes the adjacency the movement
rules need. Squares are ``(row, col)`` tuples, row 0 at the top. Rooms are
identified by their room card index (12-20).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from p2pclue.rules.cards import BY_SLUG, Category

Square = tuple[int, int]

_SIDES: dict[str, Square] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}


class BoardFileError(ValueError):
    """A board file does not follow the format or is inconsistent."""


@dataclass(frozen=True, slots=True)
class Door:
    """A door: the room square carrying it and the corridor square it opens onto."""

    room: int
    square: Square
    outside: Square
    side: str


@dataclass(frozen=True, eq=False)
class Board:
    rows: int
    cols: int
    corridor: frozenset[Square]
    room_squares: dict[Square, int]
    doors: tuple[Door, ...]
    start_squares: dict[int, Square]
    passages: dict[int, int]
    _adjacent: dict[Square, tuple[Square, ...]] = field(repr=False)
    _door_at: dict[Square, Door] = field(repr=False)
    _doors_outside: dict[Square, tuple[Door, ...]] = field(repr=False)
    _room_steps: dict[Square, dict[int, int]] = field(repr=False)

    def neighbours(self, square: Square) -> tuple[Square, ...]:
        """Corridor squares one orthogonal step from a corridor square (R13)."""
        return self._adjacent.get(square, ())

    def is_corridor(self, square: Square) -> bool:
        return square in self.corridor

    def room_at(self, square: Square) -> int | None:
        """The room a square belongs to, or None for corridor / off-board squares."""
        return self.room_squares.get(square)

    def door_at(self, square: Square) -> Door | None:
        """The door carried by this room square, if any."""
        return self._door_at.get(square)

    def doors_from(self, outside: Square) -> tuple[Door, ...]:
        """Doors that can be entered from this corridor square."""
        return self._doors_outside.get(outside, ())

    def doors_of(self, room: int) -> tuple[Door, ...]:
        return tuple(d for d in self.doors if d.room == room)

    def rooms(self) -> tuple[int, ...]:
        return tuple(sorted(set(self.room_squares.values())))

    def steps_to_room(self, square: Square, room: int) -> int | None:
        """Fewest steps from a corridor square into ``room`` on an empty board.

        Entering through the door counts as one step; None if unreachable.
        """
        return self._room_steps.get(square, {}).get(room)

    def nearest_room(self, square: Square) -> tuple[int, int] | None:
        """(steps, room) of the room fewest steps away on an empty board, ties to the lowest
        room index (R28, and how a square is described to people); None if none is reachable."""
        steps = self._room_steps.get(square, {})
        return min(((s, r) for r, s in steps.items()), default=None)


def parse_board(text: str) -> Board:
    """Parse the board file format (see ``data/classic.board``)."""
    rooms: dict[str, int] = {}
    starts: dict[str, int] = {}
    door_lines: list[tuple[str, int, int, str]] = []
    passages: dict[int, int] = {}
    grid: list[str] = []
    in_grid = False
    for number, raw in enumerate(text.splitlines(), 1):
        if in_grid:
            if raw.strip():
                grid.append(raw.rstrip())
            continue
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        try:
            if words[0] == "room" and len(words) == 3:
                rooms[words[1]] = _card_index(words[2], Category.ROOM)
            elif words[0] == "start" and len(words) == 3:
                starts[words[1]] = _card_index(words[2], Category.SUSPECT)
            elif words[0] == "door" and len(words) == 5 and words[4] in _SIDES:
                door_lines.append((words[1], int(words[2]), int(words[3]), words[4]))
            elif words[0] == "passage" and len(words) == 3:
                a = _card_index(words[1], Category.ROOM)
                b = _card_index(words[2], Category.ROOM)
                passages[a], passages[b] = b, a
            elif words == ["grid"]:
                in_grid = True
            else:
                raise BoardFileError("unknown line")
        except (BoardFileError, ValueError) as exc:
            raise BoardFileError(f"board line {number}: {line!r}: {exc}") from None
    return _build(rooms, starts, door_lines, passages, grid)


def _card_index(slug: str, category: Category) -> int:
    c = BY_SLUG.get(slug)
    if c is None or c.category is not category:
        raise BoardFileError(f"{slug!r} is not a {category.value} card")
    return c.index


def _build(
    rooms: dict[str, int],
    starts: dict[str, int],
    door_lines: list[tuple[str, int, int, str]],
    passages: dict[int, int],
    grid: list[str],
) -> Board:
    if not grid or len({len(r) for r in grid}) != 1:
        raise BoardFileError("the grid must be a non-empty rectangle")
    corridor: set[Square] = set()
    room_squares: dict[Square, int] = {}
    start_squares: dict[int, Square] = {}
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch == ".":
                corridor.add((r, c))
            elif ch in starts:
                corridor.add((r, c))
                start_squares[starts[ch]] = (r, c)
            elif ch in rooms:
                room_squares[(r, c)] = rooms[ch]
            elif ch != "#":
                raise BoardFileError(f"unknown cell {ch!r} at {(r, c)}")
    doors: list[Door] = []
    for letter, r, c, side in door_lines:
        dr, dc = _SIDES[side]
        outside = (r + dr, c + dc)
        if room_squares.get((r, c)) != rooms.get(letter) or outside not in corridor:
            raise BoardFileError(f"door {letter} {r} {c} {side} is not between room and corridor")
        doors.append(Door(rooms[letter], (r, c), outside, side))
    adjacent = {
        sq: tuple(
            (sq[0] + dr, sq[1] + dc) for dr, dc in _SIDES.values()
            if (sq[0] + dr, sq[1] + dc) in corridor
        )
        for sq in sorted(corridor)
    }
    outside_map: dict[Square, list[Door]] = {}
    for d in doors:
        outside_map.setdefault(d.outside, []).append(d)
    return Board(
        rows=len(grid),
        cols=len(grid[0]),
        corridor=frozenset(corridor),
        room_squares=room_squares,
        doors=tuple(sorted(doors, key=lambda d: (d.room, d.square))),
        start_squares=start_squares,
        passages=passages,
        _adjacent=adjacent,
        _door_at={d.square: d for d in doors},
        _doors_outside={k: tuple(v) for k, v in outside_map.items()},
        _room_steps=_room_steps(adjacent, doors),
    )


def _room_steps(
    adjacent: dict[Square, tuple[Square, ...]], doors: list[Door]
) -> dict[Square, dict[int, int]]:
    """Breadth-first distances from every room's doors outward (empty board)."""
    result: dict[Square, dict[int, int]] = {sq: {} for sq in adjacent}
    for room in sorted({d.room for d in doors}):
        queue: deque[Square] = deque()
        for d in doors:
            if d.room == room and room not in result[d.outside]:
                result[d.outside][room] = 1
                queue.append(d.outside)
        while queue:
            sq = queue.popleft()
            for nb in adjacent[sq]:
                if room not in result[nb]:
                    result[nb][room] = result[sq][room] + 1
                    queue.append(nb)
    return result


@cache
def classic_board() -> Board:
    """The classic board, parsed once from the package data."""
    text = resources.files("p2pclue.rules").joinpath("data/classic.board").read_text("utf-8")
    return parse_board(text)
