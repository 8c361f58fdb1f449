"""Whole random games of bots keep every invariant (hypothesis over seeds)."""

from __future__ import annotations

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pclue.bots.table import play_game
from p2pclue.rules.actions import Accuse, Action, Roll, Suggest, TakePassage
from p2pclue.rules.board import classic_board
from p2pclue.rules.game import replay
from p2pclue.rules.state import GameState, Phase, state_from_wire
from p2pclue.rules.variants import preset
from tests.profiles import examples


def check_step(before: GameState, action: Action, after: GameState) -> None:
    board = classic_board()
    # Plain data: the state survives msgpack and decodes back to itself.
    assert state_from_wire(msgpack.unpackb(msgpack.packb(after.to_wire()))) == after
    # Tokens: each in exactly one place, never two on one corridor square.
    squares = [p for p in after.tokens if p is not None and not isinstance(p, int)]
    assert len(squares) == len(set(squares))
    assert all(board.is_corridor(p) for p in squares)
    assert all(p in board.rooms() for p in after.tokens if isinstance(p, int))
    # Weapons: always in rooms; never two in a room under WEAPON-SWAP.
    assert all(r in board.rooms() for r in after.weapons)
    if after.rules.weapon_swap:
        assert len(set(after.weapons)) == 6
    # Eliminated players never take turns, suggest or accuse.
    if isinstance(action, Roll | TakePassage | Suggest | Accuse):
        assert action.seat not in before.eliminated
    if after.phase is not Phase.GAME_OVER:
        assert after.current_seat not in after.eliminated
    # Turn order: a new turn goes to the next active seat clockwise.
    if after.turn_number == before.turn_number + 1:
        n = before.n_players
        gap = (after.current_seat - before.current_seat) % n or n
        skipped = [(before.current_seat + k) % n for k in range(1, gap)]
        assert all(s in after.eliminated for s in skipped)
    else:
        assert after.turn_number == before.turn_number
        assert after.current_seat == before.current_seat or after.phase is Phase.GAME_OVER


@settings(max_examples=examples(12))
@given(
    preset_name=st.sampled_from(["classic", "cz"]),
    players=st.integers(3, 6),
    seed=st.integers(0, 2**32 - 1),
)
def test_R1_R30_random_games_keep_invariants_and_end(
    preset_name: str, players: int, seed: int
) -> None:
    rules = preset(preset_name)
    record = play_game(rules, players, seed, patience=60, on_action=check_step)
    final = record.final
    assert final.phase is Phase.GAME_OVER and final.result in ("won", "nobody")
    # Each card in exactly one place: the hands, the leftovers or the envelope.
    assert final.hands is not None
    places = [c for h in final.hands for c in h] + list(final.leftovers) + list(record.envelope)
    assert sorted(places) == list(range(21))
    if final.result == "won":
        assert final.winner is not None and final.winner not in final.eliminated
    else:
        assert len(final.eliminated) == players
    assert replay(record.initial, record.actions) == final
    assert play_game(rules, players, seed, patience=60).actions == record.actions
