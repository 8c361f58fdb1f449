"""The turn state machine: ``new_game``, ``apply``, ``replay`` and the queries.

``apply`` checks one action against every rule and returns the next state, or
raises ``RuleError`` naming the broken rule; it never mutates and never guesses
hidden information: dice, the shown card and accusation verdicts are inputs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from p2pclue.rules.actions import (
    AccusationResult,
    Accuse,
    Action,
    CannotRefute,
    EndTurn,
    Leave,
    Move,
    Refute,
    Roll,
    Suggest,
    TakePassage,
)
from p2pclue.rules.board import Square, classic_board
from p2pclue.rules.cards import CARDS, Category
from p2pclue.rules.errors import N_, RuleError, SeatNo, SetupError
from p2pclue.rules.movement import Paths, Position, check_path
from p2pclue.rules.movement import legal_destinations as _destinations
from p2pclue.rules.setup import (
    DEALT,
    FIXED_WEAPON_ROOMS,
    check_players,
    deal,
    deal_sizes,
    first_seat,
)
from p2pclue.rules.state import Accusation, GameState, Phase, Suggestion
from p2pclue.rules.variants import Rules

__all__ = [
    "apply", "blocked_squares", "can_accuse", "can_suggest", "can_summoned_suggest",
    "can_take_passage", "deal", "deal_sizes", "legal_destinations", "may_stay", "new_game",
    "replay",
]

_T = TypeVar("_T")
_OWN_TURN = (Phase.AWAIT_TURN_START, Phase.AWAIT_MOVE, Phase.AWAIT_SUGGESTION_OR_END)


def new_game(
    rules: Rules,
    seats: Sequence[int],
    *,
    hand_sizes: Sequence[int],
    weapon_rooms: Mapping[int, int] | None,
    hands: Sequence[Sequence[int]] | None = None,
    leftovers: Sequence[int] = (),
) -> GameState:
    """The position before the first turn; ``SetupError`` if the set-up is invalid."""
    n = len(seats)
    check_players(n)
    if len(set(seats)) != n or not all(_is_card(s, Category.SUSPECT) for s in seats):
        raise SetupError("R8", f"each seat plays a different suspect, not {list(seats)!r}")
    sizes, n_left = deal_sizes(rules, n)
    if tuple(hand_sizes) != sizes:
        raise SetupError("R7", f"hand sizes must be {list(sizes)}, not {list(hand_sizes)}")
    if len(leftovers) != n_left or len(set(leftovers)) != n_left or not all(
        _is_card(c, None) for c in leftovers
    ):
        raise SetupError("R7", f"there must be {n_left} distinct leftover cards")
    if hands is not None:
        _check_hands(hands, sizes, leftovers)
    board = classic_board()
    tokens: list[Position | None] = [
        board.start_squares[s] if (s in seats or not rules.tokens_played_only) else None
        for s in range(6)
    ]
    first = first_seat(rules, seats)
    return GameState(
        rules=rules,
        seats=tuple(seats),
        hand_sizes=sizes,
        hands=None if hands is None else tuple(tuple(h) for h in hands),
        leftovers=tuple(leftovers),
        tokens=tuple(tokens),
        weapons=_weapon_placement(rules, weapon_rooms),
        phase=Phase.AWAIT_TURN_START,
        current_seat=first,
        turn_number=1,
        turn_start=tokens[seats[first]],
        summoned=(None,) * n,
        left_by=(None,) * n,
        suggested_in=((),) * n,
    )


def _is_card(value: object, category: Category | None) -> bool:
    return (
        isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(CARDS)
        and (category is None or CARDS[value].category is category)
    )


def _check_hands(
    hands: Sequence[Sequence[int]], sizes: tuple[int, ...], leftovers: Sequence[int]
) -> None:
    if tuple(len(h) for h in hands) != sizes:
        raise SetupError("R7", f"hands must have sizes {list(sizes)}")
    cards = [c for h in hands for c in h] + list(leftovers)
    if len(set(cards)) != DEALT or not all(_is_card(c, None) for c in cards):
        raise SetupError("R7", "hands and leftovers must be 18 distinct cards")
    envelope = [c for c in CARDS if c.index not in cards]
    if sorted(c.category.value for c in envelope) != ["room", "suspect", "weapon"]:
        raise SetupError("R6", "the 3 undealt cards must be one suspect, one weapon, one room")


def _weapon_placement(rules: Rules, weapon_rooms: Mapping[int, int] | None) -> tuple[int, ...]:
    if not rules.weapons_random:
        if weapon_rooms is not None and dict(weapon_rooms) != FIXED_WEAPON_ROOMS:
            raise SetupError("R9", "WEAPONS-FIXED: the placement is text C's, not an input")
        placement = FIXED_WEAPON_ROOMS
    else:
        if weapon_rooms is None:
            raise SetupError("R9", "WEAPONS-RANDOM: the random placement must be given")
        placement = dict(weapon_rooms)
    if sorted(placement) != list(range(6, 12)) or not all(
        _is_card(r, Category.ROOM) for r in placement.values()
    ):
        raise SetupError("R9", "every weapon must be placed in a room")
    if len(set(placement.values())) != 6:
        raise SetupError("R9", "never more than one weapon per room")
    return tuple(placement[w] for w in range(6, 12))


# --- queries ---------------------------------------------------------------


def blocked_squares(state: GameState, seat: int) -> frozenset[Square]:
    """Corridor squares other tokens stand on (R15)."""
    mine = state.seats[seat]
    return frozenset(
        p for s, p in enumerate(state.tokens) if s != mine and p is not None
        and not isinstance(p, int)
    )


def legal_destinations(state: GameState, roll_total: int | None = None) -> Paths:
    """Legal move ends for the current player (see ``movement``), each with a path."""
    roll = state.roll if roll_total is None else roll_total
    position = state.token_of(state.current_seat)
    if roll is None or position is None:
        return {}
    return _destinations(
        classic_board(), position, roll, blocked_squares(state, state.current_seat),
        revisit_ok=state.rules.revisit_ok, enter_exact=state.rules.enter_exact,
    )


def can_take_passage(state: GameState) -> bool:
    position = state.token_of(state.current_seat)
    return (
        state.phase is Phase.AWAIT_TURN_START and isinstance(position, int)
        and position in classic_board().passages
    )


def can_summoned_suggest(state: GameState) -> bool:
    """R22: at turn start, suggest in the room another's suggestion moved the token into."""
    seat = state.current_seat
    room = state.summoned[seat]
    return (
        state.phase is Phase.AWAIT_TURN_START and room is not None
        and state.token_of(seat) == room
        and not (state.rules.summon_restricted and room in state.suggested_in[seat])
    )


def can_suggest(state: GameState) -> bool:
    if can_summoned_suggest(state):
        return True
    return (
        state.phase is Phase.AWAIT_SUGGESTION_OR_END and not state.suggested
        and state.entered_room is not None and state.entry_allows_suggestion
    )


def can_accuse(state: GameState) -> bool:
    return state.phase in _OWN_TURN and state.current_seat not in state.eliminated


def may_stay(state: GameState) -> bool:
    """After a roll: the token need not move (blocked in, or in a room without R24)."""
    if state.phase is not Phase.AWAIT_MOVE:
        return False
    if not legal_destinations(state):
        return True
    return isinstance(state.turn_start, int) and not state.rules.must_leave


# --- apply -----------------------------------------------------------------


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; ``RuleError`` (rule id first) if it is illegal."""
    if state.phase is Phase.GAME_OVER:
        raise RuleError("R26", N_("the game is over"))
    if not isinstance(action.seat, int) or not 0 <= action.seat < state.n_players:
        raise RuleError("R1", N_("there is no seat {seat}"), seat=repr(action.seat))
    if isinstance(action, AccusationResult):
        return _accusation_result(state, action)
    if isinstance(action, Leave):
        return _leave(state, action)
    if state.phase is Phase.AWAIT_ACCUSATION_RESULT:
        raise RuleError("R26", N_("the pending accusation must be settled first"))
    if isinstance(action, Refute | CannotRefute):
        return _refutation(state, action)
    if state.phase is Phase.AWAIT_REFUTATION:
        raise RuleError("R21", N_("the suggestion must be answered first"))
    if action.seat != state.current_seat:
        rule = "R25" if isinstance(action, Accuse) else "R10"
        raise RuleError(rule, N_("it is {current}'s turn, not {seat}'s"),
                        current=SeatNo(state.current_seat), seat=SeatNo(action.seat))
    if isinstance(action, Roll):
        return _roll(state, action)
    if isinstance(action, Move):
        return _move(state, action)
    if isinstance(action, TakePassage):
        return _passage(state)
    if isinstance(action, Suggest):
        return _suggest(state, action)
    if isinstance(action, Accuse):
        return _accuse(state, action)
    if isinstance(action, EndTurn):
        return _end_turn(state)
    raise RuleError("R11", N_("unknown action {action}"), action=repr(action))


def replay(initial: GameState, actions: Iterable[Action]) -> GameState:
    state = initial
    for action in actions:
        state = apply(state, action)
    return state


def _roll(state: GameState, action: Roll) -> GameState:
    if state.phase is not Phase.AWAIT_TURN_START:
        raise RuleError("R11", N_("a turn starts with one roll, passage or suggestion"))
    n_dice = 2 if state.rules.two_dice else 1
    if len(action.dice) != n_dice:
        raise RuleError("R12", N_("dice per roll in this game: {number}, not {count}"),
                        number=n_dice, count=len(action.dice))
    if not all(isinstance(d, int) and 1 <= d <= 6 for d in action.dice):
        raise RuleError("R12", N_("dice show 1 to 6, not {dice}"), dice=list(action.dice))
    return dataclasses.replace(state, phase=Phase.AWAIT_MOVE, roll=sum(action.dice))


def _move(state: GameState, action: Move) -> GameState:
    if state.phase is not Phase.AWAIT_MOVE or state.roll is None:
        raise RuleError("R11", N_("a move follows a roll"))
    seat = state.current_seat
    start = state.token_of(seat)
    assert start is not None
    end = check_path(
        classic_board(), start, state.roll, action.path, blocked_squares(state, seat),
        revisit_ok=state.rules.revisit_ok, enter_exact=state.rules.enter_exact,
    )
    left_by = list(state.left_by)
    if isinstance(start, int):
        exit_door = next(d for d in classic_board().doors_of(start) if d.outside == action.path[0])
        left_by[seat] = (start, exit_door.square)
    allows = False
    entered: int | None = None
    if isinstance(end, int):
        entered = end
        door_square = action.path[-1]
        allows = not (
            state.rules.reenter_other_door and left_by[seat] == (end, door_square)
        )
        left_by[seat] = None if allows else left_by[seat]
    return dataclasses.replace(
        _with_token(state, state.seats[seat], end),
        phase=Phase.AWAIT_SUGGESTION_OR_END, entered_room=entered,
        entry_allows_suggestion=allows, left_by=tuple(left_by),
    )


def _passage(state: GameState) -> GameState:
    if not can_take_passage(state):
        raise RuleError("R18", N_("a secret passage is taken instead of rolling, from its room"))
    seat = state.current_seat
    here = state.token_of(seat)
    assert isinstance(here, int)
    there = classic_board().passages[here]
    return dataclasses.replace(
        _with_token(state, state.seats[seat], there),
        phase=Phase.AWAIT_SUGGESTION_OR_END, entered_room=there,
        entry_allows_suggestion=True, left_by=_set(state.left_by, seat, None),
    )


def _suggest(state: GameState, action: Suggest) -> GameState:
    seat = state.current_seat
    if not can_suggest(state):
        raise RuleError(*_why_no_suggestion(state))
    if not _is_card(action.suspect, Category.SUSPECT) or not _is_card(
        action.weapon, Category.WEAPON
    ):
        raise RuleError("R19", N_("a suggestion names one suspect and one weapon"))
    room = state.token_of(seat)
    assert isinstance(room, int)
    moved = state
    if state.tokens[action.suspect] not in (None, room):
        # R22: only a token that was elsewhere is moved (and so summoned); one already
        # here stays under R23 and must leave before suggesting here again.
        moved = _with_token(state, action.suspect, room)
        other = state.seat_of_suspect(action.suspect)
        if other is not None and other != seat:
            moved = dataclasses.replace(
                moved, summoned=_set(moved.summoned, other, room),
                left_by=_set(moved.left_by, other, None),
            )
    weapons = list(moved.weapons)
    old_room = weapons[action.weapon - 6]
    if state.rules.weapon_swap:
        weapons = [old_room if r == room else r for r in weapons]
    weapons[action.weapon - 6] = room
    suggestion = Suggestion(seat, action.suspect, action.weapon, room)
    out = dataclasses.replace(
        moved, weapons=tuple(weapons), suggested=True, phase=Phase.AWAIT_REFUTATION,
        pending_suggestion=suggestion,
        suggested_in=_set(moved.suggested_in, seat,
                          tuple(sorted({*moved.suggested_in[seat], room}))),
    )
    if out.next_refuter(suggestion) is None:  # everybody else has left the table
        return _suggestion_done(out, suggestion)
    return out


def _seat_no(seat: int | None) -> SeatNo | str:
    """A seat for a rule's explanation; "-" where none is (a refusal then says so)."""
    return "-" if seat is None else SeatNo(seat)


def _why_no_suggestion(state: GameState) -> tuple[str, str]:
    seat = state.current_seat
    if seat in state.eliminated:
        return "R27", N_("an eliminated player may not suggest")
    if state.phase is Phase.AWAIT_TURN_START:
        if state.summoned[seat] is not None and state.token_of(seat) == state.summoned[seat]:
            return "R22", N_("text C: no summoned suggestion where you already suggested")
        if isinstance(state.token_of(seat), int):
            return "R23", N_("you may not stay in a room and suggest again in it")
        return "R19", N_("suggest only after your movement ends in a room")
    if state.suggested:
        return "R19", N_("one suggestion per turn")
    if state.entered_room is not None:
        return "R23", N_("REENTER-OTHER-DOOR: re-enter by another door to suggest here again")
    return "R19", N_("suggest only after your movement ends in a room")


def _refutation(state: GameState, action: Refute | CannotRefute) -> GameState:
    if state.phase is not Phase.AWAIT_REFUTATION or state.pending_suggestion is None:
        raise RuleError("R21", N_("there is no suggestion to answer"))
    s = state.pending_suggestion
    expected = state.next_refuter(s)
    if action.seat != expected:
        raise RuleError("R21", N_("{expected} answers next, not {seat}"),
                        expected=_seat_no(expected), seat=SeatNo(action.seat))
    named = (s.suspect, s.weapon, s.room)
    hand = None if state.hands is None else state.hands[action.seat]
    if isinstance(action, CannotRefute):
        if hand is not None and any(c in hand for c in named):
            raise RuleError("R21", N_("a player holding a named card must show one"))
        s = dataclasses.replace(s, passed=(*s.passed, action.seat))
        if state.next_refuter(s) is not None:
            return dataclasses.replace(state, pending_suggestion=s)
        return _suggestion_done(state, s)
    if action.card is not None and action.card not in named:
        raise RuleError("R21", N_("the card shown must be one of the three named"))
    if hand is not None:
        if action.card is None:
            raise RuleError("R21", N_("name the card shown: the hands are known here"))
        if action.card not in hand:
            raise RuleError("R21", N_("the card shown must be in the shower's hand"))
    return _suggestion_done(state, dataclasses.replace(s, shower=action.seat, card=action.card))


def _suggestion_done(state: GameState, s: Suggestion) -> GameState:
    return dataclasses.replace(
        state, phase=Phase.AWAIT_SUGGESTION_OR_END, pending_suggestion=None, last_suggestion=s,
    )


def _accuse(state: GameState, action: Accuse) -> GameState:
    if not can_accuse(state):
        raise RuleError("R25", N_("accuse only on your own turn, outside a suggestion"))
    if not (
        _is_card(action.suspect, Category.SUSPECT) and _is_card(action.weapon, Category.WEAPON)
        and _is_card(action.room, Category.ROOM)
    ):
        raise RuleError("R25", N_("an accusation names a suspect, a weapon and a room"))
    accusation = Accusation(action.seat, action.suspect, action.weapon, action.room)
    return dataclasses.replace(
        state, phase=Phase.AWAIT_ACCUSATION_RESULT, pending_accusation=accusation,
    )


def _accusation_result(state: GameState, action: AccusationResult) -> GameState:
    pending = state.pending_accusation
    if state.phase is not Phase.AWAIT_ACCUSATION_RESULT or pending is None:
        raise RuleError("R26", N_("there is no accusation to settle"))
    if action.seat != pending.seat:
        raise RuleError("R26", N_("the pending accusation is {seat}'s"), seat=SeatNo(pending.seat))
    if not isinstance(action.correct, bool):
        raise RuleError("R26", N_("the verdict is true or false"))
    if action.correct:
        return dataclasses.replace(
            state, phase=Phase.GAME_OVER, pending_accusation=None, winner=pending.seat,
            result="won",
        )
    out = dataclasses.replace(
        state, pending_accusation=None,
        eliminated=tuple(sorted((*state.eliminated, pending.seat))),
    )
    out = _unblock_door(out, pending.seat)
    return _last_standing(out) or _next_turn(out)


def _last_standing(state: GameState) -> GameState | None:
    """R29/R30 after a seat drops out (wrong accusation or leaving): the game over, or None."""
    active = state.active_seats()
    if not active:
        return dataclasses.replace(state, phase=Phase.GAME_OVER, result="nobody",
                                   pending_suggestion=None)
    if len(active) == 1 and state.rules.last_standing_wins:
        return dataclasses.replace(state, phase=Phase.GAME_OVER, winner=active[0],
                                   result="won", pending_suggestion=None)
    return None


def _leave(state: GameState, action: Leave) -> GameState:
    """A seat leaves the table: out like an eliminated player (R27, R28), skipped by every
    refutation, R29/R30 applied. Legal only from the seat the game awaits (its own turn
    outside a suggestion, or its refutation answer), so it never cuts a step in two."""
    if state.phase is Phase.AWAIT_ACCUSATION_RESULT:
        raise RuleError("R26", N_("the pending accusation must be settled first"))
    if action.seat in state.left:
        raise RuleError("R27", N_("{seat} has already left"), seat=SeatNo(action.seat))
    if action.seat != state.awaiting_seat:
        raise RuleError("R10", N_("{expected} is awaited, not {seat}"),
                        expected=_seat_no(state.awaiting_seat), seat=SeatNo(action.seat))
    out = dataclasses.replace(
        state, left=tuple(sorted((*state.left, action.seat))),
        eliminated=tuple(sorted({*state.eliminated, action.seat})),
    )
    out = _unblock_door(out, action.seat)
    over = _last_standing(out)
    if over is not None:
        return over
    s = out.pending_suggestion
    if out.phase is Phase.AWAIT_REFUTATION and s is not None:
        return out if out.next_refuter(s) is not None else _suggestion_done(out, s)
    return _next_turn(out)


def _unblock_door(state: GameState, seat: int) -> GameState:
    """R28: an eliminated token in front of a door moves into the nearest room:
    fewest steps on the empty board (entering counts 1), ties to the lowest room index."""
    position = state.token_of(seat)
    board = classic_board()
    if position is None or isinstance(position, int) or not board.doors_from(position):
        return state
    nearest = board.nearest_room(position)
    if nearest is None:
        return state
    return _with_token(state, state.seats[seat], nearest[1])


def _end_turn(state: GameState) -> GameState:
    if state.phase is Phase.AWAIT_TURN_START:
        raise RuleError("R11", N_("a turn starts with a roll, a passage or a summoned suggestion"))
    if state.phase is Phase.AWAIT_MOVE and not may_stay(state):
        if isinstance(state.turn_start, int) and state.rules.must_leave:
            raise RuleError("R24", N_("a player in a room must leave it this turn"))
        raise RuleError("R12", N_("the roll must be moved"))
    return _next_turn(state)


def _next_turn(state: GameState) -> GameState:
    active = state.active_seats()
    seat = state.current_seat
    nxt = next(
        (seat + k) % state.n_players for k in range(1, state.n_players + 1)
        if (seat + k) % state.n_players in active
    )
    return dataclasses.replace(
        state, phase=Phase.AWAIT_TURN_START, current_seat=nxt,
        turn_number=state.turn_number + 1, roll=None, turn_start=state.token_of(nxt),
        entered_room=None, entry_allows_suggestion=False, suggested=False,
        summoned=_set(state.summoned, seat, None),
    )


def _with_token(state: GameState, suspect: int, position: Position) -> GameState:
    tokens = list(state.tokens)
    tokens[suspect] = position
    return dataclasses.replace(state, tokens=tuple(tokens))


def _set(values: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return (*values[:index], value, *values[index + 1:])
