"""Delivery order does not matter: reordered, duplicated, delayed frames give the same game."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.conftest import finished_game, run
from tests.profiles import examples


@settings(max_examples=examples(6))
@given(delivery_seed=st.integers(min_value=0, max_value=2**32))
def test_random_delivery_orders_give_one_transcript(delivery_seed: int) -> None:
    baseline = finished_game(3, "classic", 1).peers[0].transcript().to_bytes()
    game = run(3, "classic", 1, delivery_seed=delivery_seed)
    assert game.net.deliveries > 0
    for peer in game.peers:
        assert peer.transcript().to_bytes() == baseline
