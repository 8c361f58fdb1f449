"""Where to go: a two-turn lookahead over rooms worth suggesting in.

Suggestions are the only way to learn, and each one needs a room, so a good
move is one that makes suggestions soon *and keeps making them*: a corner room
whose secret passage gives a suggestion next turn for free is worth more than
a dead end. Distances are measured on the empty board (other tokens block
rarely and briefly), rolls are weighted by their odds.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from p2pclue.rules.board import Square, classic_board
from p2pclue.rules.movement import Position
from p2pclue.rules.variants import Rules

DISCOUNT = 0.4
"""Value kept per turn of delay before a suggestion can be made."""
DEPTH = 1
"""Value-iteration rounds for the next turn's worth (1: the next turn only)."""


@cache
def roll_odds(two_dice: bool) -> tuple[tuple[int, float], ...]:
    faces = range(1, 7)
    totals = [a + b for a in faces for b in faces] if two_dice else list(faces)
    return tuple((t, totals.count(t) / len(totals)) for t in sorted(set(totals)))


@cache
def room_steps(room: int) -> dict[int, int]:
    """Fewest steps from inside ``room`` into every other room (leaving the door is a step)."""
    board = classic_board()
    best: dict[int, int] = {}
    for door in board.doors_of(room):
        for other in board.rooms():
            steps = board.steps_to_room(door.outside, other)
            if other != room and steps is not None:
                best[other] = min(best.get(other, 99), steps + 1)
    return best


def steps_from(position: Position) -> dict[int, int]:
    """Fewest steps from a position (room or corridor square) into each other room."""
    if isinstance(position, int):
        return room_steps(position)
    board = classic_board()
    out: dict[int, int] = {}
    for room in board.rooms():
        steps = board.steps_to_room(position, room)
        if steps is not None:
            out[room] = steps
    return out


def _reaches(steps: int, roll: int, rules: Rules) -> bool:
    if not rules.enter_exact:
        return steps <= roll
    if rules.revisit_ok:  # back and forth burns steps two at a time
        return steps <= roll and (roll - steps) % 2 == 0
    return steps == roll


@dataclass(frozen=True, slots=True)
class Planner:
    """Scores positions from ``values``: what the best suggestion in each room is worth now."""

    values: Mapping[int, float]
    rules: Rules

    def _mean_roll(self) -> float:
        return sum(t * p for t, p in roll_odds(self.rules.two_dice))

    def _later(self, steps: Mapping[int, int], used: int, worth: Mapping[int, float]) -> float:
        """Worth of rooms still out of reach after ``used`` steps, discounted per turn."""
        mean = self._mean_roll()
        return max((w * DISCOUNT ** max(1, math.ceil((steps[r] - used) / mean))
                    for r, w in worth.items() if r in steps), default=0.0)

    def _roll_value(self, position: Position, worth: Mapping[int, float]) -> float:
        """Expected worth of the best room a roll from ``position`` reaches this turn."""
        steps = steps_from(position)
        total = 0.0
        for roll, p in roll_odds(self.rules.two_dice):
            now = max((w for r, w in worth.items()
                       if r in steps and _reaches(steps[r], roll, self.rules)), default=0.0)
            total += p * max(now, DISCOUNT * self._later(steps, roll, worth))
        return total

    @property
    def next_turn(self) -> dict[int, float]:
        """Worth of starting next turn in each room (passage or roll), by value iteration
        ``DEPTH`` turns deep: a room that leads to rooms is worth the stream it opens."""
        passages = classic_board().passages
        ahead = {r: 0.0 for r in self.values}
        for _ in range(DEPTH):
            worth = {r: v + DISCOUNT * ahead[r] for r, v in self.values.items()}
            ahead = {room: max(self._roll_value(room, worth),
                               worth[passages[room]] if room in passages else 0.0)
                     for room in self.values}
        return ahead

    def room_worth(self) -> dict[int, float]:
        """Worth of ending this turn's move in each room: suggest now, then what follows."""
        ahead = self.next_turn
        return {r: v + DISCOUNT * ahead[r] for r, v in self.values.items()}

    def square_worth(self, square: Square, rooms: Mapping[int, float]) -> float:
        """Worth of ending this turn on a corridor square: the rooms a roll reaches next turn."""
        return DISCOUNT * self._roll_value(square, rooms)

    def staying_worth(self, room: int) -> float:
        """Worth of staying in ``room`` without suggesting: next turn from here."""
        return DISCOUNT * self.next_turn[room]

    def start_options(self, room: int, rooms: Mapping[int, float]) -> dict[str, float]:
        """At turn start in ``room``: the worth of taking the passage and of rolling."""
        passages = classic_board().passages
        out = {"roll": self._roll_value(room, rooms)}
        if room in passages:
            out["passage"] = rooms[passages[room]]
        return out
