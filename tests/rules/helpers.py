"""Small seeded set-ups shared by the rules tests."""

from __future__ import annotations

import dataclasses

from p2pclue.rules.actions import Action, EndTurn, Move, Roll
from p2pclue.rules.board import classic_board
from p2pclue.rules.game import apply, legal_destinations, new_game
from p2pclue.rules.movement import Position
from p2pclue.rules.setup import deal, deal_sizes
from p2pclue.rules.state import GameState, Phase
from p2pclue.rules.variants import Rules

ENVELOPE = (5, 11, 20)  # Plum, Wrench, Study
WEAPON_ROOMS = {6: 12, 7: 13, 8: 14, 9: 15, 10: 19, 11: 17}  # Rope (10) in the Hall


def start(
    rules: Rules | None = None,
    seats: tuple[int, ...] = (0, 1, 2),
    *,
    known_hands: bool = True,
) -> GameState:
    rules = rules or Rules()
    rest = [c for c in range(21) if c not in ENVELOPE]
    hands, leftovers = deal(rules, len(seats), rest)
    return new_game(
        rules, seats, hand_sizes=deal_sizes(rules, len(seats))[0],
        weapon_rooms=WEAPON_ROOMS if rules.weapons_random else None,
        hands=hands if known_hands else None, leftovers=leftovers,
    )


def put(state: GameState, suspect: int, position: Position) -> GameState:
    """Place a token (test set-up only); keeps the turn-start record consistent."""
    tokens = list(state.tokens)
    tokens[suspect] = position
    out = dataclasses.replace(state, tokens=tuple(tokens))
    if state.seats[state.current_seat] == suspect and state.phase is Phase.AWAIT_TURN_START:
        out = dataclasses.replace(out, turn_start=position)
    return out


def play(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state = apply(state, action)
    return state


def roll(state: GameState, total: int) -> Roll:
    if state.rules.two_dice:
        assert 2 <= total <= 12
        return Roll(state.current_seat, (total - total // 2, total // 2))
    return Roll(state.current_seat, (total,))


def pass_turn(state: GameState) -> GameState:
    """The current player rolls the lowest total and moves to a corridor square."""
    seat = state.current_seat
    state = apply(state, roll(state, 2))
    board = classic_board()
    options = sorted(sq for sq in legal_destinations(state) if board.room_at(sq) is None)
    if options:
        state = apply(state, Move(seat, legal_destinations(state)[options[0]]))
    return apply(state, EndTurn(seat))
