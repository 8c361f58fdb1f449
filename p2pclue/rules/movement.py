"""Movement (R13-R17): legal destinations for a roll, and checking a proposed path.

A *path* is the tuple of squares a token steps into, one per step of the roll.
Every element but possibly the last is a corridor square. Entering a room is
one step onto the room square that carries the door (``Door.square``), which
must be the last element: it names both the room and the door. A token that
starts in a room leaves through a door by stepping onto that door's outside
square, so the first element then identifies the door left by (each outside
square serves exactly one door on the classic board).

Destinations are keyed by the path's last element: a corridor square (the
whole roll used, R16) or a door square (a room entry). A move must change the
token's position, and may not re-enter the room it started in (R17).

Two search strategies keep a roll of 12 fast:
- REVISIT-OK: walks, so reachability in exactly k steps is a layered
  breadth-first pass over (square, step) with one parent per cell.
- NO-REVISIT: a square is reachable in exactly k steps only if its grid
  distance has k's parity (the board is bipartite) and is <= k, but narrow
  corridors and other tokens can still forbid a simple path of that exact
  length; each candidate gets a depth-first search for one simple path,
  pruned by empty-board distances (a lower bound even with tokens about).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from p2pclue.rules.board import Board, Square
from p2pclue.rules.errors import N_, CardNo, RuleError

Position = Square | int
"""Where a token is: a corridor square, or a room (its card index)."""

Paths = dict[Square, tuple[Square, ...]]


def legal_destinations(
    board: Board,
    start: Position,
    roll: int,
    blocked: Iterable[Square],
    *,
    revisit_ok: bool,
    enter_exact: bool,
) -> Paths:
    """Every legal end of a move of ``roll`` steps, each with one example path.

    ``blocked`` holds the corridor squares other tokens stand on (R15).
    """
    if roll < 1:
        return {}
    taken = frozenset(blocked)
    if revisit_ok:
        return _walk_destinations(board, start, roll, taken, enter_exact)
    return _simple_destinations(board, start, roll, taken, enter_exact)


def check_path(
    board: Board,
    start: Position,
    roll: int,
    path: tuple[Square, ...],
    blocked: Iterable[Square],
    *,
    revisit_ok: bool,
    enter_exact: bool,
) -> Position:
    """Validate one proposed path and return where the token ends up."""
    taken = frozenset(blocked)
    if not path:
        raise RuleError("R12", N_("a move must take at least one step"))
    if len(path) > roll:
        raise RuleError("R12", N_("steps on the path: {count}, more than the roll ({roll})"),
                        count=len(path), roll=roll)
    start_room = start if isinstance(start, int) else None
    previous: Square | None = None if start_room is not None else _as_square(start)
    seen: set[Square] = set() if previous is None else {previous}
    for i, step in enumerate(path):
        last = i == len(path) - 1
        door = board.door_at(step)
        if door is not None:
            if not last:
                raise RuleError("R16", N_("entering a room ends the movement"))
            if previous is None or door.outside != previous:
                raise RuleError("R16", N_("door {step} of {room:the} is entered only from its "
                                   "outside square"), step=step, room=CardNo(door.room))
            if door.room == start_room:
                raise RuleError("R17", N_("a token may not leave and re-enter a room in one turn"))
            if enter_exact and len(path) != roll:
                raise RuleError("R16", N_("ENTER-EXACT: entering takes exactly the roll ({roll})"),
                                roll=roll)
            return door.room
        if not board.is_corridor(step):
            raise RuleError("R13", N_("{step} is not a corridor square or a door"), step=step)
        if previous is None:
            assert start_room is not None
            if all(d.outside != step for d in board.doors_of(start_room)):
                raise RuleError("R16", N_("{step} is not outside a door of the room"), step=step)
        elif step not in board.neighbours(previous):
            raise RuleError("R13", N_("{previous} -> {step} is not one orthogonal step"),
                            previous=previous, step=step)
        if step in taken:
            raise RuleError("R15", N_("{step} is occupied by another token"), step=step)
        if step in seen and not revisit_ok:
            raise RuleError("R14", N_("NO-REVISIT: {step} entered twice in one turn"), step=step)
        seen.add(step)
        previous = step
    if len(path) != roll:
        raise RuleError("R16", N_("a corridor move uses the whole roll ({roll}), not {count}"),
                        roll=roll, count=len(path))
    if previous == start:
        raise RuleError("R11", N_("a move must not end where it started"))
    assert previous is not None
    return previous


def _as_square(position: Position) -> Square:
    assert not isinstance(position, int)
    return position


def _exits(board: Board, start: Position, taken: frozenset[Square]) -> list[Square]:
    """First squares of a move from a room, or [] for a corridor start."""
    if not isinstance(start, int):
        return []
    return [d.outside for d in board.doors_of(start) if d.outside not in taken]


def _walk_destinations(
    board: Board, start: Position, roll: int, taken: frozenset[Square], enter_exact: bool
) -> Paths:
    start_room = start if isinstance(start, int) else None
    layers: list[dict[Square, Square | None]] = []
    if start_room is None:
        layers.append({_as_square(start): None})
    else:
        layers.append({})
        layers.append(dict.fromkeys(_exits(board, start, taken)))
    result: Paths = {}
    while True:
        k = len(layers) - 1
        for sq in layers[k]:
            for door in board.doors_from(sq):
                if door.room != start_room and door.square not in result and (
                    k + 1 == roll or (not enter_exact and k + 1 <= roll)
                ):
                    result[door.square] = (*_trace(layers, k, sq), door.square)
        if k == roll:
            break
        nxt: dict[Square, Square | None] = {}
        for sq in layers[k]:
            for nb in board.neighbours(sq):
                if nb not in taken and nb not in nxt:
                    nxt[nb] = sq
        layers.append(nxt)
    for sq in layers[roll]:
        if sq != start:
            result[sq] = _trace(layers, roll, sq)
    return result


def _trace(
    layers: list[dict[Square, Square | None]], depth: int, end: Square
) -> tuple[Square, ...]:
    """The path that reaches ``end`` at layer ``depth``, following one parent per layer."""
    path: list[Square] = []
    node: Square | None = end
    while depth >= 1 and node is not None:
        path.append(node)
        node = layers[depth][node]
        depth -= 1
    path.reverse()
    return tuple(path)


def _simple_destinations(
    board: Board, start: Position, roll: int, taken: frozenset[Square], enter_exact: bool
) -> Paths:
    start_room = start if isinstance(start, int) else None
    firsts = _exits(board, start, taken) if start_room is not None else [_as_square(start)]
    base = 1 if start_room is not None else 0  # steps already used on reaching ``firsts``
    shortest = _bfs(board, firsts, taken, roll)
    far = _distances(board)
    per_first = [_bfs(board, [f], taken, roll) for f in firsts]
    result: Paths = {}
    for door in board.doors:
        if door.room == start_room or door.outside not in shortest.dist:
            continue
        need = roll - 1 - base  # steps from a first square to the outside square
        if enter_exact:
            found = _exact_path(board, firsts, per_first, door.outside, need, taken, far)
        elif shortest.dist[door.outside] <= need:
            found = shortest.route(door.outside)
        else:
            found = None
        if found is not None:
            result[door.square] = (*found[1 - base:], door.square)
    need = roll - base
    for target, dist in shortest.dist.items():
        if target != start and dist <= need:
            found = _exact_path(board, firsts, per_first, target, need, taken, far)
            if found is not None:
                result[target] = found[1 - base:]
    return result


def _exact_path(
    board: Board,
    firsts: list[Square],
    per_first: list[_Routes],
    target: Square,
    length: int,
    taken: frozenset[Square],
    far: dict[Square, dict[Square, int]],
) -> tuple[Square, ...] | None:
    """A simple path of exactly ``length`` steps from some first square to ``target``."""
    for routes in per_first:
        if routes.dist.get(target, length + 1) <= length:
            found = _stretch(board, routes.route(target), length, taken)
            if found is not None:
                return found
    if all((length - far[f].get(target, length + 1)) % 2 for f in firsts):
        return None  # wrong parity from every first square: the grid is bipartite
    return _simple_path(board, firsts, target, length, taken, far)


@dataclass(frozen=True, slots=True)
class _Routes:
    """Breadth-first distances from some first squares, with one parent per square."""

    parent: dict[Square, Square | None]
    dist: dict[Square, int]

    def route(self, end: Square) -> tuple[Square, ...]:
        """One shortest path from a first square to ``end``, both included."""
        path = [end]
        step = self.parent[end]
        while step is not None:
            path.append(step)
            step = self.parent[step]
        path.reverse()
        return tuple(path)


def _bfs(board: Board, firsts: list[Square], taken: frozenset[Square], limit: int) -> _Routes:
    """Shortest distances (up to ``limit``) from the first squares, avoiding tokens."""
    parent: dict[Square, Square | None] = dict.fromkeys(firsts)
    dist = dict.fromkeys(firsts, 0)
    queue = deque(firsts)
    while queue:
        sq = queue.popleft()
        if dist[sq] >= limit:
            continue
        for nb in board.neighbours(sq):
            if nb not in taken and nb not in parent:
                parent[nb] = sq
                dist[nb] = dist[sq] + 1
                queue.append(nb)
    return _Routes(parent, dist)


def _stretch(
    board: Board, route: tuple[Square, ...], length: int, taken: frozenset[Square]
) -> tuple[Square, ...] | None:
    """Lengthen a shortest route to ``length`` steps by 2-step detours, or None.

    A detour replaces a step a->b by a->a'->b'->b, where a', b' are the squares
    beside a and b on one side: cheap, and on 2-wide corridors it nearly always
    succeeds, leaving the exhaustive search for the hard cases.
    """
    if len(route) - 1 > length or (length - len(route) + 1) % 2:
        return None
    path = list(route)
    used = set(path)
    while len(path) - 1 < length:
        for i in range(len(path) - 1):
            (r1, c1), (r2, c2) = path[i], path[i + 1]
            sides = ((1, 0), (-1, 0)) if r1 == r2 else ((0, 1), (0, -1))
            for dr, dc in sides:
                a, b = (r1 + dr, c1 + dc), (r2 + dr, c2 + dc)
                if (
                    board.is_corridor(a) and board.is_corridor(b)
                    and a not in used and b not in used and a not in taken and b not in taken
                ):
                    path[i + 1:i + 1] = [a, b]
                    used.update((a, b))
                    break
            else:
                continue
            break
        else:
            return None
    return tuple(path)


def _simple_path(
    board: Board,
    firsts: list[Square],
    target: Square,
    length: int,
    taken: frozenset[Square],
    far: dict[Square, dict[Square, int]],
) -> tuple[Square, ...] | None:
    """One path of exactly ``length`` steps from a first square to ``target``
    that never repeats a square (nor the start square), or None."""
    to_target = far[target]
    path: list[Square] = []
    on_path: set[Square] = set()

    def extend(sq: Square, left: int) -> bool:
        if left == 0:
            return sq == target
        for nb in board.neighbours(sq):
            if nb in taken or nb in on_path or to_target.get(nb, 999) > left - 1:
                continue
            if nb == target and left != 1:
                continue
            path.append(nb)
            on_path.add(nb)
            if extend(nb, left - 1):
                return True
            path.pop()
            on_path.discard(nb)
        return False

    for first in firsts:
        gap = length - to_target.get(first, length + 1)
        if gap < 0 or gap % 2:
            continue
        path[:] = [first]
        on_path.clear()
        on_path.add(first)
        if extend(first, length):
            return tuple(path)
    return None


@cache
def _distances(board: Board) -> dict[Square, dict[Square, int]]:
    """All-pairs corridor distances on the empty board (computed once per board)."""
    out: dict[Square, dict[Square, int]] = {}
    for source in board.corridor:
        dist = {source: 0}
        queue = deque([source])
        while queue:
            sq = queue.popleft()
            for nb in board.neighbours(sq):
                if nb not in dist:
                    dist[nb] = dist[sq] + 1
                    queue.append(nb)
        out[source] = dist
    return out

