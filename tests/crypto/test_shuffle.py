"""Verifiable shuffle of known exponent: completeness, tampering and false statements."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pclue.crypto.cards import card_point
from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.errors import CryptoUsageError, MalformedProofError, ProofRejected
from p2pclue.crypto.group import MULT_COUNTER, G, Point, Scalar, base_mul, mul
from p2pclue.crypto.proofs import ShuffleProof, prove_shuffle, shuffle, verify_shuffle
from p2pclue.crypto.rand import SeededRandom, random_scalar
from tests.profiles import examples

Tamper = Callable[..., Iterator[tuple[str, Any]]]
POINT_KEYS = frozenset({"c", "chat"})


def _deck(n: int) -> list[Point]:
    return [card_point(i) for i in range(n)]


def test_shuffle_output_is_a_permutation_times_the_secret(ctx: ProofContext) -> None:
    src = SeededRandom(b"s1")
    k = random_scalar(src)
    deck = _deck(9)
    out, perm, proof = shuffle(ctx, deck, k, src)
    assert sorted(perm) == list(range(9))
    assert out == [mul(k, deck[j]) for j in perm]
    verify_shuffle(ctx, deck, out, base_mul(k), ShuffleProof.from_wire(proof.to_wire()))


@settings(max_examples=examples(8))
@given(n=st.integers(min_value=1, max_value=7), seed=st.binary(min_size=1, max_size=8))
def test_shuffle_completeness_property(n: int, seed: bytes) -> None:
    src = SeededRandom(seed)
    ctx = ProofContext(b"g", "prop", 0)
    k = random_scalar(src)
    deck = [mul(random_scalar(src), card_point(i)) for i in range(n)]
    out, _, proof = shuffle(ctx, deck, k, src)
    verify_shuffle(ctx, deck, out, base_mul(k), proof)


def test_shuffle_tampered_fields_and_other_contexts_fail(
    ctx: ProofContext, tampered: Tamper, contexts: Callable[[ProofContext], list[ProofContext]]
) -> None:
    src = SeededRandom(b"s2")
    k = random_scalar(src)
    y = base_mul(k)
    deck = _deck(4)
    out, _, proof = shuffle(ctx, deck, k, src)
    wire = proof.to_wire()
    count = 0
    for desc, bad in tampered(wire, POINT_KEYS):
        with pytest.raises(ProofRejected):
            verify_shuffle(ctx, deck, out, y, ShuffleProof.from_wire(bad))
        count += 1 if desc else 0
    assert count > 4 * 4
    for other in contexts(ctx):
        with pytest.raises(ProofRejected):
            verify_shuffle(other, deck, out, y, proof)
    with pytest.raises(ProofRejected):  # the proof replayed for a reordered output
        verify_shuffle(ctx, deck, [out[1], out[0], *out[2:]], y, proof)
    with pytest.raises(ProofRejected):  # ... for another input deck
        verify_shuffle(ctx, _deck(5)[1:], out, y, proof)
    with pytest.raises(ProofRejected):  # ... under another key
        verify_shuffle(ctx, deck, out, y + G, proof)


def test_shuffle_wire_shape_is_strict(ctx: ProofContext) -> None:
    src = SeededRandom(b"s3")
    _, _, proof = shuffle(ctx, _deck(3), random_scalar(src), src)
    wire = proof.to_wire()
    with pytest.raises(MalformedProofError) as e:
        ShuffleProof.from_wire({**wire, "sprime": wire["sprime"][:2]})
    assert e.value.field == "shuffle_proof.sprime"
    with pytest.raises(MalformedProofError):
        ShuffleProof.from_wire({**wire, "c": []})
    with pytest.raises(MalformedProofError):
        ShuffleProof.from_wire({**wire, "sprime": b"not a list"})
    del wire["s1"]
    with pytest.raises(MalformedProofError):
        ShuffleProof.from_wire(wire)
    with pytest.raises(ProofRejected):  # right shape, wrong deck length
        verify_shuffle(ctx, _deck(4), _deck(4), base_mul(Scalar(5)), proof)


def _cheat(ctx: ProofContext, deck: list[Point], out: list[Point], k: Scalar) -> ShuffleProof:
    """A prover that runs the honest code on a false claim (identity permutation)."""
    return prove_shuffle(ctx, deck, out, list(range(len(deck))), k, SeededRandom(b"cheat"))


def test_shuffle_that_drops_duplicates_or_substitutes_a_card_is_rejected(
    ctx: ProofContext,
) -> None:
    src = SeededRandom(b"s4")
    k = random_scalar(src)
    y = base_mul(k)
    deck = _deck(6)
    honest = [mul(k, p) for p in deck]
    duplicated = [honest[0], honest[0], *honest[2:]]  # card 1 dropped, card 0 twice
    substituted = [*honest[:5], mul(k, card_point(15))]  # a card not in the deck
    relabelled = [*honest[:5], mul(k, deck[5]) + G]  # not a multiple of the input
    for out in (duplicated, substituted, relabelled):
        with pytest.raises(ProofRejected):
            verify_shuffle(ctx, deck, out, y, _cheat(ctx, deck, out, k))
    with pytest.raises(ProofRejected):  # a card dropped outright
        verify_shuffle(ctx, deck, honest[:5], y, _cheat(ctx, deck, honest, k))
    with pytest.raises(CryptoUsageError):  # the honest API refuses a non-permutation
        prove_shuffle(ctx, deck, honest, [0, 0, 2, 3, 4, 5], k, src)


def test_shuffle_with_a_wrong_key_is_rejected(ctx: ProofContext) -> None:
    src = SeededRandom(b"s5")
    k, wrong = random_scalar(src), random_scalar(src)
    deck = _deck(5)
    out, _, proof = shuffle(ctx, deck, wrong, src)
    with pytest.raises(ProofRejected):
        verify_shuffle(ctx, deck, out, base_mul(k), proof)
    # Mixed keys: the honest secret in the proof, another key on one card.
    mixed = [mul(k, p) for p in deck]
    mixed[2] = mul(wrong, deck[2])
    with pytest.raises(ProofRejected):
        verify_shuffle(ctx, deck, mixed, base_mul(k), _cheat(ctx, deck, mixed, k))


def test_shuffle_cost_is_linear_and_within_the_budget(ctx: ProofContext) -> None:
    src = SeededRandom(b"s6")
    k = random_scalar(src)
    deck = _deck(21)
    MULT_COUNTER.reset()
    out, _, proof = shuffle(ctx, deck, k, src)
    prove_cost = MULT_COUNTER.total / 21
    MULT_COUNTER.reset()
    verify_shuffle(ctx, deck, out, base_mul(k), proof)
    verify_var = MULT_COUNTER.var / 21
    assert prove_cost <= 25
    assert MULT_COUNTER.total / 21 <= 8
    assert verify_var <= 7
