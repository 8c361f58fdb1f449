"""Where a roll can take this seat's token, as the move keys and the mouse see it.

Pure functions of the destinations a roll allows (square -> path) and the cursor: the
first square offered, the rooms in reach, a room by its initial (cycling among rooms that
share it), and the nearest destination in an arrow's direction.
"""

from __future__ import annotations

from collections.abc import Mapping

from p2pclue.i18n import card_name, fold
from p2pclue.rules.board import Square, classic_board
from p2pclue.rules.cards import card

Destinations = Mapping[Square, tuple[Square, ...]]


def first_destination(destinations: Destinations) -> Square | None:
    """Where the cursor starts: the first room in reach, else nowhere. A square in the
    corridor is never chosen for the player: Enter right after a roll must not walk the
    token to some square the player never looked at."""
    board = classic_board()
    rooms = sorted(sq for sq in destinations if board.room_at(sq) is not None)
    return rooms[0] if rooms else None


def rooms_in_reach(destinations: Destinations) -> dict[int, Square]:
    """Room -> the destination square that enters it, for the rooms this roll reaches."""
    board = classic_board()
    out: dict[int, Square] = {}
    for sq in sorted(destinations):
        room = board.room_at(sq)
        if room is not None:
            out.setdefault(room, sq)
    return out


def room_by_initial(destinations: Destinations, cursor: Square | None,
                    key: str) -> Square | None:
    """A room in reach whose name (in the reader's language or in English) starts with
    ``key``; pressed again, the next such room."""
    board = classic_board()
    rooms: list[Square] = []
    for sq in sorted(destinations):
        room = board.room_at(sq)
        if room is not None and (fold(card_name(room)).startswith(fold(key)) or
                                 card(room).name.lower().startswith(key.lower())) \
                and all(board.room_at(r) != room for r in rooms):
            rooms.append(sq)
    if not rooms:
        return None
    here = board.room_at(cursor) if cursor is not None else None
    same = [i for i, sq in enumerate(rooms) if board.room_at(sq) == here]
    if here is not None and same:  # the cursor in one of them (any of its squares)
        return rooms[(same[0] + 1) % len(rooms)]
    return rooms[0]


def step_cursor(destinations: Destinations, cursor: Square | None, key: str,
                origin: Square | None = None) -> Square | None:
    """The destination nearest the cursor in an arrow's direction (it stays if none).
    With no cursor yet, the arrow counts from ``origin`` (the token's square), else from
    the first destination."""
    if not destinations:
        return None
    start = cursor if cursor is not None else origin
    if start is None:
        return sorted(destinations)[0]
    dr, dc = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}[key]
    r0, c0 = start
    best: tuple[float, Square] | None = None
    for sq in destinations:
        r, c = sq[0] - r0, sq[1] - c0
        along = r * dr + c * dc
        if along <= 0:
            continue
        across = abs(r * dc) + abs(c * dr)
        score = along + 2 * across
        if best is None or (score, sq) < best:
            best = (score, sq)
    if best is not None:
        return best[1]
    return cursor if cursor is not None else sorted(destinations)[0]
