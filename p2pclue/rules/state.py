"""The immutable game state and its plain wire form.

A ``GameState`` is a value: ``game.apply`` returns a new one and never changes
the old, and every field is plain data, so ``to_wire`` is msgpack-friendly and
any position can also be rebuilt by replaying the action log from the start.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from p2pclue.rules.board import Square
from p2pclue.rules.errors import WireError
from p2pclue.rules.movement import Position
from p2pclue.rules.variants import Rules


class Phase(enum.Enum):
    AWAIT_TURN_START = "await_turn_start"
    """The current player must roll, take a passage (R18), suggest (R22) or accuse."""
    AWAIT_MOVE = "await_move"
    """The current player rolled and must move (or may stay / is blocked in)."""
    AWAIT_SUGGESTION_OR_END = "await_suggestion_or_end"
    """Movement is over: suggest if allowed, accuse, or end the turn."""
    AWAIT_REFUTATION = "await_refutation"
    """``awaiting_seat`` must show a card or pass (R21)."""
    AWAIT_ACCUSATION_RESULT = "await_accusation_result"
    """An outside verdict on ``pending_accusation`` is needed (R26)."""
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A suggestion and, as it is answered, who passed and who showed (R21)."""

    suggester: int
    suspect: int
    weapon: int
    room: int
    passed: tuple[int, ...] = ()
    shower: int | None = None
    card: int | None = None
    """The shown card when the engine may see it (trusted simulator), else None."""

    def to_wire(self) -> dict[str, Any]:
        return {
            "suggester": self.suggester, "suspect": self.suspect, "weapon": self.weapon,
            "room": self.room, "passed": list(self.passed), "shower": self.shower,
            "card": self.card,
        }


@dataclass(frozen=True, slots=True)
class Accusation:
    seat: int
    suspect: int
    weapon: int
    room: int

    def to_wire(self) -> dict[str, Any]:
        return {"seat": self.seat, "suspect": self.suspect, "weapon": self.weapon,
                "room": self.room}


@dataclass(frozen=True, slots=True)
class GameState:
    rules: Rules
    seats: tuple[int, ...]
    """The suspect card each seat plays, clockwise."""
    hand_sizes: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...] | None
    """Known only to a trusted simulator; None in the protocol (R21 then taken on trust)."""
    leftovers: tuple[int, ...]
    tokens: tuple[Position | None, ...]
    """Per suspect 0-5: a corridor square, a room, or None (not on the board, R8)."""
    weapons: tuple[int, ...]
    """Per weapon (card 6 + i): the room it lies in."""
    phase: Phase
    current_seat: int
    turn_number: int
    roll: int | None = None
    turn_start: Position | None = None
    """Where the current player's token stood when the turn began."""
    entered_room: int | None = None
    """The room this turn's movement ended in (by door or passage), if any."""
    entry_allows_suggestion: bool = False
    suggested: bool = False
    pending_suggestion: Suggestion | None = None
    last_suggestion: Suggestion | None = None
    pending_accusation: Accusation | None = None
    eliminated: tuple[int, ...] = ()
    left: tuple[int, ...] = ()
    """Seats that left the table (their hands are public); also in ``eliminated``."""
    summoned: tuple[int | None, ...] = ()
    """Per seat: the room its token was moved into by another's suggestion (R22)."""
    left_by: tuple[tuple[int, Square] | None, ...] = ()
    """Per seat: (room, door square) it last left a room by, until it is in another (R23)."""
    suggested_in: tuple[tuple[int, ...], ...] = ()
    """Per seat: the rooms it has made suggestions in (R22 text C)."""
    winner: int | None = None
    result: str | None = None
    """"won", "nobody", or None while the game goes on."""

    @property
    def n_players(self) -> int:
        return len(self.seats)

    @property
    def awaiting_seat(self) -> int | None:
        """Whose input is needed next; None for an accusation verdict or a finished game."""
        if self.phase is Phase.GAME_OVER or self.phase is Phase.AWAIT_ACCUSATION_RESULT:
            return None
        if self.phase is Phase.AWAIT_REFUTATION:
            assert self.pending_suggestion is not None
            return self.next_refuter(self.pending_suggestion)
        return self.current_seat

    def next_refuter(self, s: Suggestion) -> int | None:
        """The seat after the suggester (clockwise) past those who already passed and
        those who left the table; None when nobody is left to ask."""
        n = self.n_players
        for k in range(1, n):
            seat = (s.suggester + k) % n
            if seat not in s.passed and seat not in self.left:
                return seat
        return None

    def token_of(self, seat: int) -> Position | None:
        return self.tokens[self.seats[seat]]

    def weapon_room(self, weapon: int) -> int:
        return self.weapons[weapon - 6]

    def seat_of_suspect(self, suspect: int) -> int | None:
        return self.seats.index(suspect) if suspect in self.seats else None

    def active_seats(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.n_players) if s not in self.eliminated)

    def to_wire(self) -> dict[str, Any]:
        """Plain data only: str keys, lists, ints, str, bool, None."""
        return {
            "rules": self.rules.to_wire(),
            "seats": list(self.seats),
            "hand_sizes": list(self.hand_sizes),
            "hands": None if self.hands is None else [list(h) for h in self.hands],
            "leftovers": list(self.leftovers),
            "tokens": [_position_wire(p) for p in self.tokens],
            "weapons": list(self.weapons),
            "phase": self.phase.value,
            "current_seat": self.current_seat,
            "turn_number": self.turn_number,
            "roll": self.roll,
            "turn_start": _position_wire(self.turn_start),
            "entered_room": self.entered_room,
            "entry_allows_suggestion": self.entry_allows_suggestion,
            "suggested": self.suggested,
            "pending_suggestion": _opt(self.pending_suggestion),
            "last_suggestion": _opt(self.last_suggestion),
            "pending_accusation": _opt(self.pending_accusation),
            "eliminated": list(self.eliminated),
            "left": list(self.left),
            "summoned": list(self.summoned),
            "left_by": [None if x is None else [x[0], list(x[1])] for x in self.left_by],
            "suggested_in": [list(x) for x in self.suggested_in],
            "winner": self.winner,
            "result": self.result,
        }


def _opt(value: Suggestion | Accusation | None) -> dict[str, Any] | None:
    return None if value is None else value.to_wire()


def _position_wire(position: Position | None) -> int | list[int] | None:
    if position is None or isinstance(position, int):
        return position
    return [position[0], position[1]]


def state_from_wire(obj: object) -> GameState:
    """Rebuild a state from ``GameState.to_wire()`` output.

    Strict about shape and types (``WireError`` otherwise) but not a consistency
    check of the position: to trust a position, replay its actions from the start.
    """
    d = _map(obj, "state", _STATE_KEYS)
    hands = d["hands"]
    return GameState(
        rules=Rules.from_wire(d["rules"]),
        seats=_ints(d["seats"], "seats"),
        hand_sizes=_ints(d["hand_sizes"], "hand_sizes"),
        hands=None if hands is None else tuple(
            _ints(h, "hands[]") for h in _list(hands, "hands")),
        leftovers=_ints(d["leftovers"], "leftovers"),
        tokens=tuple(_position(p) for p in _list(d["tokens"], "tokens")),
        weapons=_ints(d["weapons"], "weapons"),
        phase=_phase(d["phase"]),
        current_seat=_int(d["current_seat"], "current_seat"),
        turn_number=_int(d["turn_number"], "turn_number"),
        roll=_opt_int(d["roll"], "roll"),
        turn_start=_position(d["turn_start"]),
        entered_room=_opt_int(d["entered_room"], "entered_room"),
        entry_allows_suggestion=_bool(d["entry_allows_suggestion"], "entry_allows_suggestion"),
        suggested=_bool(d["suggested"], "suggested"),
        pending_suggestion=_suggestion(d["pending_suggestion"]),
        last_suggestion=_suggestion(d["last_suggestion"]),
        pending_accusation=_accusation(d["pending_accusation"]),
        eliminated=_ints(d["eliminated"], "eliminated"),
        left=_ints(d["left"], "left"),
        summoned=tuple(_opt_int(x, "summoned[]") for x in _list(d["summoned"], "summoned")),
        left_by=tuple(_left_by(x) for x in _list(d["left_by"], "left_by")),
        suggested_in=tuple(_ints(x, "suggested_in[]")
                           for x in _list(d["suggested_in"], "suggested_in")),
        winner=_opt_int(d["winner"], "winner"),
        result=_result(d["result"]),
    )


_STATE_KEYS = (
    "rules", "seats", "hand_sizes", "hands", "leftovers", "tokens", "weapons", "phase",
    "current_seat", "turn_number", "roll", "turn_start", "entered_room",
    "entry_allows_suggestion", "suggested", "pending_suggestion", "last_suggestion",
    "pending_accusation", "eliminated", "left", "summoned", "left_by", "suggested_in", "winner",
    "result",
)


def _map(obj: object, what: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(obj, dict) or set(obj) != set(keys):
        raise WireError(f"{what} must be a map with keys {sorted(keys)}")
    return obj


def _list(obj: object, what: str) -> list[Any]:
    if not isinstance(obj, list):
        raise WireError(f"{what} must be a list")
    return obj


def _int(obj: object, what: str) -> int:
    if not isinstance(obj, int) or isinstance(obj, bool):
        raise WireError(f"{what} must be an integer, not {obj!r}")
    return obj


def _opt_int(obj: object, what: str) -> int | None:
    return None if obj is None else _int(obj, what)


def _bool(obj: object, what: str) -> bool:
    if not isinstance(obj, bool):
        raise WireError(f"{what} must be a bool")
    return obj


def _ints(obj: object, what: str) -> tuple[int, ...]:
    return tuple(_int(x, what) for x in _list(obj, what))


def _square(obj: object, what: str) -> Square:
    pair = _ints(obj, what)
    if len(pair) != 2:
        raise WireError(f"{what} must be [row, col]")
    return pair[0], pair[1]


def _position(obj: object) -> Position | None:
    if obj is None or (isinstance(obj, int) and not isinstance(obj, bool)):
        return obj
    return _square(obj, "position")


def _phase(obj: object) -> Phase:
    try:
        return Phase(obj)
    except ValueError:
        raise WireError(f"unknown phase {obj!r}") from None


def _result(obj: object) -> str | None:
    if obj not in (None, "won", "nobody"):
        raise WireError(f"result must be won, nobody or null, not {obj!r}")
    return None if obj is None else str(obj)


def _left_by(obj: object) -> tuple[int, Square] | None:
    if obj is None:
        return None
    pair = _list(obj, "left_by[]")
    if len(pair) != 2:
        raise WireError("left_by[] must be [room, [row, col]]")
    return _int(pair[0], "left_by room"), _square(pair[1], "left_by door")


def _suggestion(obj: object) -> Suggestion | None:
    if obj is None:
        return None
    keys = ("suggester", "suspect", "weapon", "room", "passed", "shower", "card")
    d = _map(obj, "suggestion", keys)
    return Suggestion(
        _int(d["suggester"], "suggester"), _int(d["suspect"], "suspect"),
        _int(d["weapon"], "weapon"), _int(d["room"], "room"), _ints(d["passed"], "passed"),
        _opt_int(d["shower"], "shower"), _opt_int(d["card"], "card"),
    )


def _accusation(obj: object) -> Accusation | None:
    if obj is None:
        return None
    d = _map(obj, "accusation", ("seat", "suspect", "weapon", "room"))
    return Accusation(_int(d["seat"], "seat"), _int(d["suspect"], "suspect"),
                      _int(d["weapon"], "weapon"), _int(d["room"], "room"))
