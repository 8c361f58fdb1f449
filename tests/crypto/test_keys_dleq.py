"""Schnorr key proofs, DLEQ (single and batched) and layer removal."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from p2pclue.crypto.cards import card_point
from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.errors import MalformedProofError, NotACardError, ProofRejected
from p2pclue.crypto.group import IDENTITY, G, Scalar, base_mul, inverse, mul
from p2pclue.crypto.proofs import (
    DleqBatchProof,
    DleqProof,
    KeyProof,
    keypair,
    open_public,
    prove_dleq,
    prove_dleq_batch,
    prove_key,
    reveal_to_owner,
    unlayer,
    verify_dleq,
    verify_dleq_batch,
    verify_key,
    verify_unlayer,
)
from p2pclue.crypto.rand import SeededRandom, random_scalar

Tamper = Callable[..., Iterator[tuple[str, Any]]]


def test_key_proof_valid_tampered_and_replayed(
    ctx: ProofContext, tampered: Tamper, contexts: Callable[[ProofContext], list[ProofContext]]
) -> None:
    src = SeededRandom(b"key")
    k, y = keypair(src)
    proof = prove_key(ctx, k, src)
    verify_key(ctx, y, KeyProof.from_wire(proof.to_wire()))
    for desc, wire in tampered(proof.to_wire()):
        with pytest.raises(ProofRejected):
            verify_key(ctx, y, KeyProof.from_wire(wire))
        assert desc
    for other in contexts(ctx):
        with pytest.raises(ProofRejected):
            verify_key(other, y, proof)
    with pytest.raises(ProofRejected):
        verify_key(ctx, y + G, proof)  # a rogue key without its secret
    with pytest.raises(ProofRejected):
        verify_key(ctx, IDENTITY, proof)


def test_key_proof_wire_shape_is_strict(ctx: ProofContext) -> None:
    src = SeededRandom(b"k2")
    k, _ = keypair(src)
    wire = prove_key(ctx, k, src).to_wire()
    with pytest.raises(MalformedProofError) as e:
        KeyProof.from_wire({**wire, "x": b""})
    assert e.value.field == "key_proof"
    with pytest.raises(MalformedProofError):
        KeyProof.from_wire([wire["c"], wire["s"]])
    with pytest.raises(MalformedProofError):
        KeyProof.from_wire({"c": wire["c"]})


def test_dleq_valid_tampered_and_wrong_statement(
    ctx: ProofContext, tampered: Tamper, contexts: Callable[[ProofContext], list[ProofContext]]
) -> None:
    src = SeededRandom(b"dleq")
    x = random_scalar(src)
    g2 = card_point(3)
    h1, h2 = base_mul(x), mul(x, g2)
    proof = prove_dleq(ctx, x, G, h1, g2, h2, src)
    verify_dleq(ctx, G, h1, g2, h2, DleqProof.from_wire(proof.to_wire()))
    for _, wire in tampered(proof.to_wire()):
        with pytest.raises(ProofRejected):
            verify_dleq(ctx, G, h1, g2, h2, DleqProof.from_wire(wire))
    for other in contexts(ctx):
        with pytest.raises(ProofRejected):
            verify_dleq(other, G, h1, g2, h2, proof)
    # Swapped statement points and a wrong layer.
    with pytest.raises(ProofRejected):
        verify_dleq(ctx, g2, h2, G, h1, proof)
    wrong = mul(x + Scalar(1), g2)
    cheat = prove_dleq(ctx, x, G, h1, g2, wrong, src)
    with pytest.raises(ProofRejected):
        verify_dleq(ctx, G, h1, g2, wrong, cheat)


def _layered(n: int, secret: Scalar) -> tuple[list[Any], list[Any]]:
    plain = [card_point(i) for i in range(n)]
    return plain, [mul(secret, p) for p in plain]


def test_dleq_batch_valid_and_every_pair_matters(
    ctx: ProofContext, tampered: Tamper, contexts: Callable[[ProofContext], list[ProofContext]]
) -> None:
    src = SeededRandom(b"batch")
    x, y = keypair(src)
    ins, outs = _layered(6, x)
    proof = prove_dleq_batch(ctx, x, y, ins, outs, src)
    verify_dleq_batch(ctx, y, ins, outs, DleqBatchProof.from_wire(proof.to_wire()))
    for _, wire in tampered(proof.to_wire()):
        with pytest.raises(ProofRejected):
            verify_dleq_batch(ctx, y, ins, outs, DleqBatchProof.from_wire(wire))
    for other in contexts(ctx):
        with pytest.raises(ProofRejected):
            verify_dleq_batch(other, y, ins, outs, proof)
    for i in range(6):
        bad = list(outs)
        bad[i] = bad[i] + G
        cheat = prove_dleq_batch(ctx, x, y, ins, bad, src)
        with pytest.raises(ProofRejected):
            verify_dleq_batch(ctx, y, ins, bad, cheat)
    swapped = [outs[1], outs[0], *outs[2:]]
    with pytest.raises(ProofRejected):
        verify_dleq_batch(ctx, y, ins, swapped, prove_dleq_batch(ctx, x, y, ins, swapped, src))
    with pytest.raises(ProofRejected):
        verify_dleq_batch(ctx, y, ins, outs[:-1], proof)


def test_unlayer_removes_exactly_one_layer_with_proof(ctx: ProofContext) -> None:
    src = SeededRandom(b"unlayer")
    a, ya = keypair(src)
    b, _ = keypair(src)
    plain = [card_point(i) for i in (2, 9, 17)]
    both = [mul(a, mul(b, p)) for p in plain]
    stripped, proof = unlayer(ctx, both, a, ya, src)
    verify_unlayer(ctx, both, stripped, ya, proof)
    assert [reveal_to_owner(p, b) for p in stripped] == [2, 9, 17]
    final, proof2 = unlayer(ctx, stripped, b, base_mul(b), src)
    verify_unlayer(ctx, stripped, final, base_mul(b), proof2)
    assert open_public(final) == [2, 9, 17]
    # Wrong layer: a player strips with a key other than its published one.
    fake, fake_proof = unlayer(ctx, both, b, base_mul(b), src)
    with pytest.raises(ProofRejected):
        verify_unlayer(ctx, both, fake, ya, fake_proof)
    # A substituted output under an honest-looking proof.
    altered = [stripped[1], stripped[0], stripped[2]]
    with pytest.raises(ProofRejected):
        verify_unlayer(ctx, both, altered, ya, proof)


def test_reveal_to_owner_rejects_non_cards() -> None:
    src = SeededRandom(b"nc")
    k = random_scalar(src)
    with pytest.raises(NotACardError):
        reveal_to_owner(mul(k, G), k * k)
    assert reveal_to_owner(mul(k, card_point(20)), k) == 20
    assert inverse(k) * k == Scalar(1)
