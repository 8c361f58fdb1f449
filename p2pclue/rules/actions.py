"""The actions of a turn, as small frozen values with a strict wire form.

Every action carries ``seat``: who acts (for ``AccusationResult``, the accuser
whose accusation it settles). Values that need hidden information or chance
(dice, the shown card, whether an accusation is right) are fields of the
actions, supplied from outside the rules engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p2pclue.rules.board import Square
from p2pclue.rules.errors import WireError


@dataclass(frozen=True, slots=True)
class Roll:
    """Start the turn with a roll (R11, R12): one die or two, each 1-6."""

    seat: int
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Move:
    """Move along ``path`` (see ``movement``: last element a door square = room entry)."""

    seat: int
    path: tuple[Square, ...]


@dataclass(frozen=True, slots=True)
class TakePassage:
    """Start the turn by taking the secret passage of the current corner room (R18)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Suggest:
    """Suggest ``suspect`` and ``weapon`` in the room the token is in (R19)."""

    seat: int
    suspect: int
    weapon: int


@dataclass(frozen=True, slots=True)
class Refute:
    """Show a card to the suggester (R21); ``None`` when the engine may not see it."""

    seat: int
    card: int | None


@dataclass(frozen=True, slots=True)
class CannotRefute:
    """Pass on a suggestion: none of the three named cards is held (R21)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Accuse:
    """Accuse: any suspect, weapon and room, wherever the token is (R25)."""

    seat: int
    suspect: int
    weapon: int
    room: int


@dataclass(frozen=True, slots=True)
class AccusationResult:
    """The outside verdict on the pending accusation of ``seat`` (R26, R27)."""

    seat: int
    correct: bool


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn (never before it has started with a roll, passage or R22 suggestion)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Leave:
    """The player leaves the table for good, its hand laid face up (out like an eliminated
    player; refutation skips it). Legal when it is the seat the game awaits: on its own
    turn outside a suggestion, or when it is asked to refute."""

    seat: int


Action = (
    Roll | Move | TakePassage | Suggest | Refute | CannotRefute | Accuse | AccusationResult
    | EndTurn | Leave
)

_TYPES: dict[str, type[Any]] = {
    "roll": Roll,
    "move": Move,
    "passage": TakePassage,
    "suggest": Suggest,
    "refute": Refute,
    "cannot_refute": CannotRefute,
    "accuse": Accuse,
    "accusation_result": AccusationResult,
    "end_turn": EndTurn,
    "leave": Leave,
}
_NAMES: dict[type[Any], str] = {cls: name for name, cls in _TYPES.items()}
_INT_FIELDS: dict[str, tuple[str, ...]] = {
    "roll": ("seat",),
    "move": ("seat",),
    "passage": ("seat",),
    "suggest": ("seat", "suspect", "weapon"),
    "refute": ("seat",),
    "cannot_refute": ("seat",),
    "accuse": ("seat", "suspect", "weapon", "room"),
    "accusation_result": ("seat",),
    "end_turn": ("seat",),
    "leave": ("seat",),
}
_EXTRA: dict[str, tuple[str, ...]] = {
    "roll": ("dice",),
    "move": ("path",),
    "refute": ("card",),
    "accusation_result": ("correct",),
}


def action_to_wire(action: Action) -> dict[str, Any]:
    """Plain msgpack-friendly form: ``{"type": ..., "seat": ..., ...}``."""
    out: dict[str, Any] = {"type": _NAMES[type(action)]}
    if isinstance(action, Move):
        out["seat"] = action.seat
        out["path"] = [[r, c] for r, c in action.path]
        return out
    for name in action.__slots__:
        value = getattr(action, name)
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


def _int(obj: object, what: str) -> int:
    if not isinstance(obj, int) or isinstance(obj, bool):
        raise WireError(f"{what} must be an integer, not {obj!r}")
    return obj


def action_from_wire(obj: object) -> Action:
    """Strict decoding: exact keys, exact types; anything else is a ``WireError``."""
    if not isinstance(obj, dict):
        raise WireError(f"an action must be a map, not {type(obj).__name__}")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _TYPES:
        raise WireError(f"unknown action type {kind!r}")
    expected = {"type", *_INT_FIELDS[kind], *_EXTRA.get(kind, ())}
    if set(obj) != expected:
        raise WireError(f"{kind} keys must be {sorted(expected)}, not {sorted(map(str, obj))}")
    values: dict[str, Any] = {n: _int(obj[n], f"{kind}.{n}") for n in _INT_FIELDS[kind]}
    if kind == "roll":
        dice = obj["dice"]
        if not isinstance(dice, list):
            raise WireError("roll.dice must be a list")
        values["dice"] = tuple(_int(d, "roll.dice[]") for d in dice)
    elif kind == "move":
        path = obj["path"]
        if not isinstance(path, list) or len(path) > 64:
            raise WireError("move.path must be a list of at most 64 squares")
        squares: list[Square] = []
        for sq in path:
            if not isinstance(sq, list) or len(sq) != 2:
                raise WireError("move.path squares must be [row, col]")
            squares.append((_int(sq[0], "row"), _int(sq[1], "col")))
        values["path"] = tuple(squares)
    elif kind == "refute":
        values["card"] = None if obj["card"] is None else _int(obj["card"], "refute.card")
    elif kind == "accusation_result":
        if not isinstance(obj["correct"], bool):
            raise WireError("accusation_result.correct must be a bool")
        values["correct"] = obj["correct"]
    action: Action = _TYPES[kind](**values)
    return action
