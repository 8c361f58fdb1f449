"""The four-seat game where seat 0 accuses right, and the point where the accuser owes its
own last step: where abandon votes against a live accuser are tried (at an engine peer
and at a session core alike)."""

from __future__ import annotations

from functools import cache

from p2pclue.bots.protocol import ProtocolGame
from p2pclue.engine.wire import read_payload, split_frame
from tests.engine.conftest import oracle_game

N = 4


@cache
def accusing_game() -> ProtocolGame:
    """Four seats, classic, seed 2: seat 0's accusation is right."""
    game = oracle_game(N, "classic", seed=2)
    state = game.peers[0].rules_state
    assert state is not None and state.result == "won"
    return game


@cache
def owed_point() -> tuple[int, int]:
    """(entries when the accuser owes its own last step, the accuser)."""
    typed = [read_payload(split_frame(raw)[1])[0]
             for raw in accusing_game().peers[0].entries]
    index = max(i for i, h in enumerate(typed) if h.type == "accuse")
    accuser = typed[index].sender
    steps = [h.sender for h in typed[index + 1: index + 1 + N]]
    assert steps == [(accuser + 1 + k) % N for k in range(N)]  # the accuser steps last
    return index + N, accuser
