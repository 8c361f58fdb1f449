"""Fair shared randomness: hash chains, dice (R12) and random weapon placement (R9)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pclue.crypto.errors import CryptoUsageError, MalformedProofError, ProofRejected
from p2pclue.crypto.rand import SeededRandom
from p2pclue.crypto.randomness import (
    HashChain,
    chain_step,
    random_dice,
    random_weapon_rooms,
    verify_reveal,
)
from p2pclue.rules.cards import ROOMS, WEAPONS
from tests.profiles import examples


def test_hash_chain_reveals_verify_in_order_and_run_out() -> None:
    chain = HashChain.create(SeededRandom(b"c"), length=5)
    prev = chain.head
    for i in range(1, 6):
        value = chain.reveal(i)
        verify_reveal(prev, value)
        prev = value
    with pytest.raises(CryptoUsageError):
        chain.reveal(6)
    with pytest.raises(ProofRejected):  # skipping a value
        verify_reveal(chain.head, chain.reveal(2))
    with pytest.raises(ProofRejected):  # a forged value
        verify_reveal(chain.head, bytes(32))
    with pytest.raises(MalformedProofError):
        verify_reveal(chain.head, b"short")
    assert chain.head.hex()[:16] in repr(chain)
    assert chain.reveal(5).hex() not in repr(chain)
    renewed = HashChain.create(SeededRandom(b"c2"), length=5)
    assert renewed.head != chain.head
    assert chain_step(chain.reveal(1)) == chain.head


def test_R12_dice_are_in_range_deterministic_and_depend_on_every_reveal() -> None:
    reveals = [bytes([i]) * 32 for i in range(4)]
    roll = random_dice(b"g", "turn-1", reveals, 2)
    assert roll == random_dice(b"g", "turn-1", reveals, 2)
    assert all(1 <= d <= 6 for d in roll)
    rolls = {random_dice(b"g", f"turn-{i}", reveals, 2) for i in range(40)}
    assert len(rolls) > 10
    changed = random_dice(b"g", "turn-1", [*reveals[:3], bytes([9]) * 32], 6)
    assert changed != random_dice(b"g", "turn-1", reveals, 6)
    with pytest.raises(CryptoUsageError):
        random_dice(b"g", "t", [], 1)
    with pytest.raises(CryptoUsageError):
        random_dice(b"g", "t", reveals, 0)


def test_R12_die_distribution_is_roughly_uniform() -> None:
    counts = Counter(
        d for i in range(600) for d in random_dice(b"g", f"e{i}", [b"\x01" * 32], 1)
    )
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(60 <= c <= 140 for c in counts.values())  # expected 100 each


@settings(max_examples=examples(30))
@given(event=st.text(max_size=10), seed=st.binary(min_size=32, max_size=32))
def test_R9_weapon_placement_is_injective_into_rooms(event: str, seed: bytes) -> None:
    placement = random_weapon_rooms(b"game", event, [seed])
    assert set(placement) == {w.index for w in WEAPONS}
    assert len(set(placement.values())) == 6
    assert set(placement.values()) <= {r.index for r in ROOMS}


def test_R9_every_room_gets_weapons_in_placements() -> None:
    seen = Counter(
        room for i in range(60) for room in random_weapon_rooms(b"g", f"w{i}", [b"r" * 32]).values()
    )
    assert set(seen) == {r.index for r in ROOMS}
