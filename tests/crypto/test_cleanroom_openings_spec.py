"""The spec-only verifier of proofs 4b, 4c and 4d (cleanroom_openings_spec.py) against the
vectors and against the project's verifiers.

The clean room was written from docs/protocol.md before the project's code for these proofs
was read; here both are fed the same bytes: the vectors, every single-field change of each
wire field a sender controls (values, encodings, types, shapes), every change of the
statement and context a verifier could be handed, and fresh proofs of each side for every
hand size and position. Any difference in verdict is a place where the spec and the code
disagree.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from p2pclue.crypto.cards import card_point as project_card_point
from p2pclue.crypto.commitshow import CommitShowProof, Opening, verify_commit_show
from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.errors import PeerDataError, ProofRejected
from p2pclue.crypto.group import Point, Scalar, point_from_bytes
from p2pclue.crypto.heldopening import PublicOpening, prove_public_opening, verify_public_opening
from p2pclue.crypto.rand import SeededRandom
from p2pclue.crypto.sealedopening import (
    SealedOpening,
    open_sealed,
    seal_unchecked,
    verify_sealed_opening,
)
from tests.crypto import cleanroom_openings_spec as cr
from tests.torsion import ORDER_8, torsion

ROOT = Path(__file__).resolve().parents[2]
Wire = dict[str, Any]
# the identity spelt two other ways: y = p + 1, and x = 0 with the sign bit set
IDENTITY_Y_PLUS_P = (2**255 - 19 + 1).to_bytes(32, "little")
IDENTITY_NEG_ZERO = (1 + 2**255).to_bytes(32, "little")


@cache
def vectors() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "protocol/vectors/crypto-v1.json").read_text())
    return data


def secret(i: int) -> int:
    return int.from_bytes(bytes.fromhex(vectors()["secrets"][i]), "little")


def show_rho() -> int:
    return int.from_bytes(bytes.fromhex(vectors()["commit_show"]["opening"]["rho"]), "little")


def pt(raw: bytes) -> Point:
    return point_from_bytes(raw, "statement")


def pctx(ctx: cr.Context) -> ProofContext:
    return ProofContext(ctx.game_id, ctx.step, ctx.prover)


class HeldCase:
    """A 4c statement as both verifiers take it (bytes for the clean room)."""

    def __init__(self, v: dict[str, Any]) -> None:
        self.ctx = cr.context_of(v)
        self.named: list[int] = list(v["named"])
        self.hand = [bytes.fromhex(x) for x in v["hand_points"]]
        self.S = bytes.fromhex(v["S"])
        self.P = bytes.fromhex(v["suggester_pub"])
        self.C = bytes.fromhex(v["C"])
        self.wire: Wire = cr.from_hex(v["public_opening"])

    def args(self, change: dict[str, Any]) -> dict[str, Any]:
        base = {"ctx": self.ctx, "named": self.named, "hand": self.hand, "S": self.S,
                "P": self.P, "C": self.C, "sealed_r": None}
        return {**base, **change}

    def ours(self, wire: Any, **change: Any) -> str:
        a = self.args(change)
        return cr.verify_public_opening(a["ctx"], a["named"], a["hand"], a["S"], a["P"],
                                        a["C"], wire, a["sealed_r"])

    def project(self, wire: Any, **change: Any) -> str:
        a = self.args(change)
        try:
            public = PublicOpening.from_wire(wire)
        except PeerDataError:
            return "malformed"
        try:
            verify_public_opening(pctx(a["ctx"]), a["named"], [pt(x) for x in a["hand"]],
                                  pt(a["S"]), pt(a["P"]), pt(a["C"]), public,
                                  None if a["sealed_r"] is None else pt(a["sealed_r"]))
        except ProofRejected as e:
            return e.proof
        return "accepted"


class SealedCase:
    """A 4d statement as both verifiers take it."""

    def __init__(self, v: dict[str, Any]) -> None:
        self.ctx = cr.context_of(v)
        self.named: list[int] = list(v["named"])
        self.P = bytes.fromhex(v["suggester_pub"])
        self.C = bytes.fromhex(v["C"])
        self.wire: Wire = cr.from_hex(v["sealed"])

    def args(self, change: dict[str, Any]) -> dict[str, Any]:
        return {"ctx": self.ctx, "named": self.named, "P": self.P, "C": self.C, **change}

    def ours(self, wire: Any, **change: Any) -> str:
        a = self.args(change)
        return cr.verify_sealed_opening(a["ctx"], a["named"], a["P"], a["C"], wire)

    def project(self, wire: Any, **change: Any) -> str:
        a = self.args(change)
        try:
            sealed = SealedOpening.from_wire(wire)
            verify_sealed_opening(pctx(a["ctx"]), a["named"], pt(a["P"]), pt(a["C"]), sealed)
        except ProofRejected as e:
            return e.proof
        except PeerDataError:  # a point refused when the verifier multiplies it
            return "malformed"
        return "accepted"


# ---- tamper generators ----------------------------------------------------------------

def scalar_variants(raw: bytes) -> Iterator[tuple[str, Any]]:
    """Every way a sender can spoil one wire scalar: another value, or a bad encoding."""
    v = int.from_bytes(raw, "little")
    yield "+1", cr.enc_scalar(v + 1)
    yield "-1", cr.enc_scalar(v - 1)
    yield "negated", cr.enc_scalar(-v)
    yield "doubled", cr.enc_scalar(2 * v)
    yield "zero", bytes(32)
    yield "L (zero misspelt)", cr.L.to_bytes(32, "little")
    yield "+L (non-canonical)", (v + cr.L).to_bytes(32, "little")
    yield "31 bytes", raw[:31]
    yield "33 bytes", raw + b"\x00"
    yield "hex text", raw.hex()
    yield "integer", v
    yield "nil", None
    yield "list", [raw]


def list_variants(values: list[Any]) -> Iterator[tuple[str, Any]]:
    """Shape changes of a scalar list, and changes that keep its sum (the challenge lists)."""
    yield "last dropped", values[:-1]
    yield "first repeated at the end", [*values, values[0]]
    yield "empty", []
    yield "reversed", values[::-1]
    yield "first two swapped", [values[1], values[0], *values[2:]]
    a, b = (int.from_bytes(x, "little") for x in values[:2])
    yield "sum kept", [cr.enc_scalar(a + 1), cr.enc_scalar(b - 1), *values[2:]]
    yield "not a list", values[0]
    yield "4097 long", [values[0]] * 4097


def card_variants() -> Iterator[tuple[str, Any]]:
    for t in range(21):
        yield f"card {t}", t
    for bad in (-1, 21, 2**64, True, False, 13.0, "13", None, b"\x0d"):
        yield f"card {bad!r}", bad


def held_tampers(wire: Wire) -> Iterator[tuple[str, Any]]:
    held = wire["held"]
    for name, card in card_variants():
        if card != wire["card"] or type(card) is not int:
            yield name, {**wire, "card": card}
    for name, rho in scalar_variants(wire["rho"]):
        yield f"rho {name}", {**wire, "rho": rho}
    for key in ("c", "u"):
        for i, raw in enumerate(held[key]):
            for name, new in scalar_variants(raw):
                changed = list(held[key])
                changed[i] = new
                yield f"held.{key}[{i}] {name}", {**wire, "held": {**held, key: changed}}
        for name, new in list_variants(held[key]):
            yield f"held.{key} {name}", {**wire, "held": {**held, key: new}}
        yield f"held.{key} missing", {**wire, "held": {k: v for k, v in held.items() if k != key}}
    yield "held.c and held.u swapped", {**wire, "held": {"c": held["u"], "u": held["c"]}}
    yield "held extra key", {**wire, "held": {**held, "s": held["u"]}}
    yield "held not a map", {**wire, "held": [held["c"], held["u"]]}
    yield "held key as bytes", {**wire, "held": {b"c": held["c"], "u": held["u"]}}
    for key in wire:
        yield f"{key} missing", {k: v for k, v in wire.items() if k != key}
    yield "extra key", {**wire, "proof": held}
    yield "not a map", [wire["card"], wire["rho"], held]


def sealed_tampers(wire: Wire) -> Iterator[tuple[str, Any]]:
    r = wire["r"]
    for name, new_r in (
            ("R another point", cr.base(5)), ("R = G", cr.base(1)),
            ("R negated", cr.sub(cr.IDENTITY, r)), ("R + G", cr.add(r, cr.base(1))),
            ("R the identity", cr.IDENTITY), ("R the identity (y = p + 1)", IDENTITY_Y_PLUS_P),
            ("R the identity (x = -0)", IDENTITY_NEG_ZERO), ("R of order 8", ORDER_8),
            ("R plus a point of order 8", torsion(r)), ("R 31 bytes", r[:31]),
            ("R hex text", r.hex()), ("R nil", None), ("R in a list", [r]),
            ("R not on the curve", bytes(31) + b"\x01")):
        yield name, {**wire, "r": new_r}
    for key in ("c", "s"):
        for i, raw in enumerate(wire[key]):
            for name, new in scalar_variants(raw):
                changed = list(wire[key])
                changed[i] = new
                yield f"{key}[{i}] {name}", {**wire, key: changed}
        for name, new in list_variants(wire[key]):
            yield f"{key} {name}", {**wire, key: new}
    yield "c and s swapped", {**wire, "c": wire["s"], "s": wire["c"]}
    for key in wire:
        yield f"{key} missing", {k: v for k, v in wire.items() if k != key}
    yield "extra key", {**wire, "card": 13}
    yield "not a map", [wire["r"], wire["c"], wire["s"]]


# ---- the vectors ------------------------------------------------------------------------

def test_the_clean_room_accepts_the_vectors_and_refuses_the_false_ones() -> None:
    v = vectors()
    cs = v["commit_show"]
    held = HeldCase(v["held_opening"])
    assert held.ours(held.wire) == held.project(held.wire) == "accepted"
    proof = cr.from_hex(cs["proof"])
    assert cr.verify_commit_show(cr.context_of(cs), cs["named"], held.hand, held.S, held.P,
                                 held.C, proof) == "accepted"
    verify_commit_show(pctx(cr.context_of(cs)), cs["named"], [pt(x) for x in held.hand],
                       pt(held.S), pt(held.P), pt(held.C), CommitShowProof.from_wire(proof))
    false = HeldCase(v["held_opening_false"])
    assert v["held_opening_false"]["valid"] is False
    # the attack 4c closes: the forged opening opens C, and only proof 4c refuses it
    cr.check_opening(false.named, false.P, false.C, false.wire["card"],
                     int.from_bytes(false.wire["rho"], "little"))
    assert false.ours(false.wire) == false.project(false.wire) == "held-opening"
    sealed = SealedCase(v["sealed_opening"])
    assert sealed.ours(sealed.wire) == sealed.project(sealed.wire) == "accepted"
    assert cr.open_sealed(secret(0), sealed.named, sealed.C, sealed.wire["r"]) \
        == v["sealed_opening"]["card"]
    false_sealed = SealedCase(v["sealed_opening_false"])
    assert v["sealed_opening_false"]["valid"] is False
    assert false_sealed.ours(false_sealed.wire) == false_sealed.project(false_sealed.wire) \
        == "sealed-opening"
    # check 2 of 4c: the sealed R pins the opening; the honest one passes, the forged fails
    r = sealed.wire["r"]
    assert held.ours(held.wire, sealed_r=r) == held.project(held.wire, sealed_r=r) == "accepted"
    assert false.ours(false.wire, sealed_r=r) == false.project(false.wire, sealed_r=r) \
        == "opening"


def test_the_clean_room_provers_reproduce_the_vectors_byte_for_byte() -> None:
    v = vectors()
    seed = bytes.fromhex(v["seed"])
    cs = v["commit_show"]
    held = HeldCase(v["held_opening"])
    rng = cr.Seeded(seed + b"/commit-show")
    rho = rng.scalar()
    assert cr.enc_scalar(rho).hex() == cs["opening"]["rho"]
    c_point, proof = cr.prove_commit_show(rng, cr.context_of(cs), cs["named"], secret(1),
                                          held.hand, held.P, 13, rho, 2)
    assert (c_point, proof) == (held.C, cr.from_hex(cs["proof"]))
    assert cr.enc_scalar(cr.show_rho(secret(1), cr.context_of(cs))).hex() == cs["show_rho"]
    assert cr.enc_scalar(cr.equivocate(secret(0), 13, rho, 4)).hex() \
        == cs["equivocated"]["rho"]
    made = cr.prove_public_opening(cr.Seeded(seed + b"/held-opening"), held.ctx, held.named,
                                   secret(1), held.hand, held.P, held.C, 13, rho, 2)
    assert made == held.wire
    false = HeldCase(v["held_opening_false"])
    forged_rho = cr.equivocate(secret(0), 13, rho, 7)
    made = cr.prove_public_opening(cr.Seeded(seed + b"/held-opening-false"), false.ctx,
                                   false.named, secret(1), false.hand, false.P, false.C, 7,
                                   forged_rho, 1)
    assert made == false.wire
    for key, index in (("sealed_opening", None), ("sealed_opening_false", 0)):
        sealed = SealedCase(v[key])
        made = cr.prove_sealed_opening(cr.Seeded(seed + b"/" + key.replace("_", "-").encode()),
                                       sealed.ctx, sealed.named, sealed.P, sealed.C, 13, rho,
                                       index)
        assert made == sealed.wire, key


# ---- the same verdict on every tamper ------------------------------------------------------

def test_every_public_opening_wire_tamper_gets_the_same_verdict() -> None:
    held = HeldCase(vectors()["held_opening"])
    seen: dict[str, int] = {}
    for name, wire in held_tampers(held.wire):
        ours, project = held.ours(wire), held.project(wire)
        assert ours == project, (name, ours, project)
        assert ours != "accepted", name
        seen[ours] = seen.get(ours, 0) + 1
    # every refusal class is reached: a bad shape or encoding, a card that does not open C,
    # and a proof 4c that does not verify (changed branch values, the sum kept included)
    assert set(seen) == {"malformed", "opening", "held-opening"}, seen
    assert sum(seen.values()) == 29 + 13 + 2 * (3 * 13 + 8 + 1) + 4 + 3 + 2


def test_every_sealed_opening_wire_tamper_gets_the_same_verdict() -> None:
    sealed = SealedCase(vectors()["sealed_opening"])
    seen: dict[str, int] = {}
    for name, wire in sealed_tampers(sealed.wire):
        ours, project = sealed.ours(wire), sealed.project(wire)
        assert ours == project, (name, ours, project)
        assert ours != "accepted", name
        seen[ours] = seen.get(ours, 0) + 1
    assert set(seen) == {"malformed", "sealed-opening"}, seen
    assert sum(seen.values()) == 14 + 2 * (3 * 13 + 8) + 1 + 3 + 2


def held_statement_changes(held: HeldCase) -> Iterator[tuple[str, dict[str, Any]]]:
    ctx = held.ctx
    yield "game id", {"ctx": cr.Context(bytes(32), ctx.step, ctx.prover)}
    for step in ("71:open", "40:show", "42:sealed", "70:opem"):
        yield f"step {step}", {"ctx": cr.Context(ctx.game_id, step, ctx.prover)}
    for prover in (0, 2, 2**32 - 1):
        yield f"prover {prover}", {"ctx": cr.Context(ctx.game_id, ctx.step, prover)}
    for order in ([4, 13, 7], [7, 4, 13], [7, 13, 4], [13, 4, 7], [13, 7, 4]):
        yield f"named {order}", {"named": order}
    for i in range(3):
        for t in range(21):
            if t not in held.named:
                named = list(held.named)
                named[i] = t
                yield f"named[{i}] = {t}", {"named": named}
    yield "named repeated", {"named": [13, 13, 4]}
    yield "named four", {"named": [4, 7, 13, 0]}
    yield "named two", {"named": [7, 13]}
    s = secret(1)
    yield "hand reversed", {"hand": held.hand[::-1]}
    yield "hand rotated", {"hand": held.hand[1:] + held.hand[:1]}
    for p in range(len(held.hand)):
        yield f"hand without {p}", {"hand": held.hand[:p] + held.hand[p + 1:]}
        other = list(held.hand)
        other[p] = cr.mul(s, cr.card_point(20))
        yield f"hand[{p}] another card", {"hand": other}
    yield "hand longer", {"hand": [*held.hand, cr.mul(s, cr.card_point(20))]}
    yield "hand empty", {"hand": []}
    yield "hand of another key", {"hand": [cr.mul(s + 1, x) for x in
                                           (cr.card_point(4), cr.card_point(8),
                                            cr.card_point(13))]}
    yield "S another key", {"S": cr.base(s + 1)}
    yield "S of the suggester", {"S": held.P}
    yield "P another key", {"P": cr.base(3)}
    yield "C another point", {"C": cr.add(held.C, cr.base(1))}
    yield "sealed R of another rho", {"sealed_r": cr.base(7)}


def test_every_statement_change_gets_the_same_verdict_for_a_public_opening() -> None:
    held = HeldCase(vectors()["held_opening"])
    seen: dict[str, int] = {}
    for name, change in held_statement_changes(held):
        ours, project = held.ours(held.wire, **change), held.project(held.wire, **change)
        assert ours == project, (name, ours, project)
        # replacing a named card the opening does not use leaves the opening and the hand
        # branch intact, but the statement is hashed: refused all the same
        assert ours != "accepted", name
        seen[ours] = seen.get(ours, 0) + 1
    assert set(seen) == {"opening", "held-opening"}, seen


def test_every_statement_change_gets_the_same_verdict_for_a_sealed_opening() -> None:
    sealed = SealedCase(vectors()["sealed_opening"])
    ctx = sealed.ctx
    changes: list[tuple[str, dict[str, Any]]] = [
        ("game id", {"ctx": cr.Context(bytes(32), ctx.step, ctx.prover)}),
        ("step", {"ctx": cr.Context(ctx.game_id, "43:sealed", ctx.prover)}),
        ("step of the show", {"ctx": cr.Context(ctx.game_id, "40:show", ctx.prover)}),
        ("another refuter", {"ctx": cr.Context(ctx.game_id, ctx.step, 2)}),
        ("P another key", {"P": cr.base(3)}),
        ("P of the refuter", {"P": bytes.fromhex(vectors()["public_keys"][1])}),
        ("C another point", {"C": cr.add(sealed.C, cr.base(1))}),
        ("named repeated", {"named": [13, 13, 4]}),
        ("named two", {"named": [4, 13]}),
    ]
    for order in ([4, 13, 7], [7, 4, 13], [7, 13, 4], [13, 4, 7], [13, 7, 4]):
        changes.append((f"named {order}", {"named": order}))
    for i in range(3):
        for t in range(21):
            if t not in sealed.named:
                named = list(sealed.named)
                named[i] = t
                changes.append((f"named[{i}] = {t}", {"named": named}))
    for name, change in changes:
        ours, project = sealed.ours(sealed.wire, **change), sealed.project(sealed.wire, **change)
        assert ours == project == "sealed-opening", (name, ours, project)


# ---- fresh proofs, both ways, every hand size and position ------------------------------------

@pytest.mark.parametrize("h", [1, 2, 3, 6])
def test_fresh_proofs_of_each_side_are_accepted_by_the_other(h: int) -> None:
    """A refuter with h cards; for every position it opens the card there (4c) and seals it
    (4d): the clean room's proofs pass the project's verifiers and the other way round, and
    the suggester decrypts the same card with either decryption."""
    rng = cr.Seeded(os.urandom(16))
    project_rng = SeededRandom(os.urandom(16))
    s, x = rng.scalar(), rng.scalar()
    hand_cards = [0, 8, 13, 20, 6, 15][:h]
    hand = [cr.mul(s, cr.card_point(t)) for t in hand_cards]
    S, P = cr.base(s), cr.base(x)
    ctx = cr.Context(os.urandom(32), "9:open", 3)
    for p, t in enumerate(hand_cards):
        named = [t, 7, 12] if t not in (7, 12) else [t, 1, 17]
        rho = rng.scalar()
        C = cr.add(cr.base(t + 1), cr.mul(rho, P))
        case = HeldCase.__new__(HeldCase)
        case.ctx, case.named, case.hand, case.S, case.P, case.C = ctx, named, hand, S, P, C
        ours = cr.prove_public_opening(rng, ctx, named, s, hand, P, C, t, rho, p)
        assert case.project(ours) == case.ours(ours) == "accepted"
        theirs = prove_public_opening(pctx(ctx), named, [pt(y) for y in hand], Scalar(s),
                                      pt(S), pt(P), pt(C), Opening(t, Scalar(rho)), p,
                                      project_rng).to_wire()
        assert case.ours(theirs) == case.project(theirs) == "accepted"
        seal_ctx = cr.Context(ctx.game_id, "10:sealed", 3)
        sealed = SealedCase.__new__(SealedCase)
        sealed.ctx, sealed.named, sealed.P, sealed.C = seal_ctx, named, P, C
        ours_sealed = cr.prove_sealed_opening(rng, seal_ctx, named, P, C, t, rho)
        theirs_sealed = seal_unchecked(pctx(seal_ctx), named, pt(P), pt(C), Scalar(rho),
                                       named.index(t), project_rng).to_wire()
        for wire in (ours_sealed, theirs_sealed):
            assert sealed.ours(wire) == sealed.project(wire) == "accepted"
            assert cr.open_sealed(x, named, C, wire["r"]) == t
            assert open_sealed(named, pt(C), SealedOpening.from_wire(wire), Scalar(x)) == t
        # the sealed R pins this opening in both verifiers (check 2 of 4c)
        assert case.ours(ours, sealed_r=ours_sealed["r"]) == "accepted"
        assert case.project(theirs, sealed_r=theirs_sealed["r"]) == "accepted"


def test_the_card_points_are_the_projects() -> None:
    """The clean room's hash-to-group, from the spec alone, gives the project's card points."""
    assert [project_card_point(t).data for t in range(21)] == list(cr.CARD_POINTS)
