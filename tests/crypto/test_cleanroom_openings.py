"""The clean-room verifier of proofs 4c and 4d (cleanroom_openings.py, written from
docs/protocol.md) against the vectors and the project's own verifiers: both accept the
vectors, reproduce them from the spec's prover description, and give the same verdict for
every single-field tamper and every spoiled statement."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.errors import PeerDataError, ProofRejected
from p2pclue.crypto.group import Point, Scalar, point_from_bytes
from p2pclue.crypto.heldopening import PublicOpening, prove_public_opening, verify_public_opening
from p2pclue.crypto.rand import OsRandom
from p2pclue.crypto.sealedopening import (
    SealedOpening,
    open_sealed,
    seal_opening,
    verify_sealed_opening,
)
from tests.crypto import cleanroom_commitshow as cr
from tests.crypto import cleanroom_openings as co
from tests.torsion import ORDER_8, torsion

ROOT = Path(__file__).resolve().parents[2]
Wire = dict[str, Any]


@cache
def _vectors() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "protocol/vectors/crypto-v1.json").read_text())
    return data


def _h(x: str) -> bytes:
    return bytes.fromhex(x)


def _unhex(obj: Any) -> Any:
    if isinstance(obj, str):
        return _h(obj)
    if isinstance(obj, dict):
        return {k: _unhex(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_unhex(v) for v in obj]
    return obj


def _int(raw: bytes) -> int:
    return int.from_bytes(raw, "little")


class Held:
    """One 4c statement as both verifiers take it, and their verdicts: '' (accepted),
    'opening', 'held-opening' (the check that fails) or 'malformed'."""

    def __init__(self, v: dict[str, Any]) -> None:
        c = v["context"]
        self.cr_ctx = cr.Context(_h(c["game_id"]), c["step"], c["prover"])
        self.ctx = ProofContext(_h(c["game_id"]), c["step"], c["prover"])
        self.named: list[int] = list(v["named"])
        self.hand = [_h(x) for x in v["hand_points"]]
        self.s_key, self.p_key, self.c_point = _h(v["S"]), _h(v["suggester_pub"]), _h(v["C"])
        self.wire: Wire = _unhex(v["public_opening"])

    def project(self, wire: Any, sealed_r: bytes | None = None, **change: Any) -> str:
        args = self._args(change)
        try:
            public = PublicOpening.from_wire(wire)
        except PeerDataError:
            return "malformed"
        try:
            verify_public_opening(
                args["ctx"], args["named"], [_pt(x) for x in args["hand"]], _pt(args["s_key"]),
                _pt(args["p_key"]), _pt(args["c_point"]), public,
                None if sealed_r is None else _pt(sealed_r))
        except ProofRejected as exc:
            return exc.proof
        return ""

    def cleanroom(self, wire: Any, sealed_r: bytes | None = None, **change: Any) -> str:
        args = self._args(change)
        try:
            return co.verify_public_opening(args["cr_ctx"], args["named"], args["hand"],
                                            args["s_key"], args["p_key"], args["c_point"], wire,
                                            sealed_r)
        except cr.Rejected:
            return "malformed"

    def _args(self, change: dict[str, Any]) -> dict[str, Any]:
        args = {k: getattr(self, k) for k in ("ctx", "cr_ctx", "named", "hand", "s_key",
                                                "p_key", "c_point")}
        if "step" in change:
            step = change.pop("step")
            args["ctx"] = self.ctx.at(step)
            args["cr_ctx"] = cr.Context(self.cr_ctx.game_id, step, self.cr_ctx.prover)
        return {**args, **change}


class Sealed:
    """One 4d statement; verdicts '' (accepted), 'sealed-opening' or 'malformed'."""

    def __init__(self, v: dict[str, Any]) -> None:
        c = v["context"]
        self.cr_ctx = cr.Context(_h(c["game_id"]), c["step"], c["prover"])
        self.ctx = ProofContext(_h(c["game_id"]), c["step"], c["prover"])
        self.named: list[int] = list(v["named"])
        self.p_key, self.c_point = _h(v["suggester_pub"]), _h(v["C"])
        self.wire: Wire = _unhex(v["sealed"])

    def project(self, wire: Any, named: list[int] | None = None, p_key: bytes | None = None,
                c_point: bytes | None = None) -> str:
        try:
            sealed = SealedOpening.from_wire(wire)
        except PeerDataError:
            return "malformed"
        try:
            verify_sealed_opening(self.ctx, named or self.named, _pt(p_key or self.p_key),
                                  _pt(c_point or self.c_point), sealed)
        except ProofRejected as exc:
            return exc.proof
        return ""

    def cleanroom(self, wire: Any, named: list[int] | None = None, p_key: bytes | None = None,
                  c_point: bytes | None = None) -> str:
        try:
            ok = co.verify_sealed(self.cr_ctx, named or self.named, p_key or self.p_key,
                                  c_point or self.c_point, wire)
        except cr.Rejected:
            return "malformed"
        return "" if ok else "sealed-opening"


def _pt(raw: bytes) -> Point:
    return point_from_bytes(raw, "statement")


def _seeded(seed: bytes) -> Callable[[], int]:
    """SeededRandom as "Group, encodings, validation" describes it: one 64-byte SHAKE-256
    block per request, reduced mod L."""
    blocks = itertools.count()

    def draw() -> int:
        block = hashlib.shake_256(b"p2pclue/seeded-random/v1" + cr.u32(len(seed)) + seed
                                  + cr.u64(next(blocks))).digest(64)
        return _int(block) % cr.L
    return draw


def _fresh() -> int:
    return _int(os.urandom(64)) % cr.L


def _bump(raw: bytes) -> bytes:
    return cr.enc(_int(raw) + 1)


def _scalar_tampers(values: list[bytes]) -> list[tuple[str, list[bytes]]]:
    """One scalar list spoiled in every single way a sender could: an entry bumped, zero or
    non-canonical; one entry too few or too many; the first two moved against each other
    (the sum kept)."""
    out: list[tuple[str, list[bytes]]] = []
    for i, raw in enumerate(values):
        for how, new in (("bump", _bump(raw)), ("zero", bytes(32)),
                         ("non-canonical", (_int(raw) + cr.L).to_bytes(32, "little")),
                         ("short", raw[:31])):
            out.append((f"[{i}]:{how}", [*values[:i], new, *values[i + 1:]]))
    out.append(("short", values[:-1]))
    out.append(("long", [*values, values[0]]))
    out.append(("shifted", [cr.enc(_int(values[0]) + 1), cr.enc(_int(values[1]) - 1),
                            *values[2:]]))
    return out


def _held_tampers(wire: Wire) -> list[tuple[str, Any]]:
    held = wire["held"]
    out: list[tuple[str, Any]] = []
    for key in ("c", "u"):
        out += [(f"held.{key}{name}", {**wire, "held": {**held, key: new}})
                for name, new in _scalar_tampers(held[key])]
        out.append((f"held.{key}:missing", {**wire, "held": {k: v for k, v in held.items()
                                                             if k != key}}))
    out.append(("held:c-u-swapped", {**wire, "held": {"c": held["u"], "u": held["c"]}}))
    out.append(("held:extra", {**wire, "held": {**held, "x": held["c"]}}))
    for card in (4, 7, 8, 21, True, -1, "13"):
        out.append((f"card={card!r}", {**wire, "card": card}))
    for how, new in (("bump", _bump(wire["rho"])), ("zero", bytes(32)),
                     ("non-canonical", (_int(wire["rho"]) + cr.L).to_bytes(32, "little"))):
        out.append((f"rho:{how}", {**wire, "rho": new}))
    out.append(("missing-held", {k: v for k, v in wire.items() if k != "held"}))
    out.append(("extra", {**wire, "proof": wire["held"]}))
    out.append(("not-a-map", [wire["card"], wire["rho"], wire["held"]]))
    return out


def _sealed_tampers(wire: Wire) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    r = wire["r"]
    for how, value in (("other", cr.base(5)), ("identity", cr.IDENTITY), ("order-8", ORDER_8),
                       ("torsion", torsion(r)), ("non-canonical", (2**255 - 18).to_bytes(
                           32, "little")), ("short", r[:31]), ("list", [r])):
        out.append((f"r:{how}", {**wire, "r": value}))
    for key in ("c", "s"):
        out += [(f"{key}{name}", {**wire, key: new}) for name, new in _scalar_tampers(wire[key])]
        out.append((f"{key}:missing", {k: v for k, v in wire.items() if k != key}))
    out.append(("c-s-swapped", {**wire, "c": wire["s"], "s": wire["c"]}))
    out.append(("extra", {**wire, "card": 13}))
    return out


def test_vectors_are_accepted_and_the_false_ones_refused_by_both() -> None:
    vectors = _vectors()
    held = Held(vectors["held_opening"])
    assert (held.project(held.wire), held.cleanroom(held.wire)) == ("", "")
    false = Held(vectors["held_opening_false"])
    assert vectors["held_opening_false"]["valid"] is False
    # the false opening opens C (the hole 4c closes) and names a card the refuter lacks
    cr.check_opening(false.named, false.p_key, false.c_point, false.wire["card"],
                     false.wire["rho"])
    assert (false.project(false.wire), false.cleanroom(false.wire)) == ("held-opening",) * 2
    sealed = Sealed(vectors["sealed_opening"])
    assert (sealed.project(sealed.wire), sealed.cleanroom(sealed.wire)) == ("", "")
    x = _int(_h(vectors["secrets"][0]))
    card = vectors["sealed_opening"]["card"]
    assert co.decrypt_sealed(sealed.named, sealed.c_point, sealed.wire["r"], x) == card
    assert open_sealed(sealed.named, _pt(sealed.c_point), SealedOpening.from_wire(sealed.wire),
                       Scalar(x)) == card
    false_sealed = Sealed(vectors["sealed_opening_false"])
    assert vectors["sealed_opening_false"]["valid"] is False
    assert (false_sealed.project(false_sealed.wire),
            false_sealed.cleanroom(false_sealed.wire)) == ("sealed-opening",) * 2
    # the sealed R is the opening's rho*G: the held opening passes check 2 against it, and an
    # equivocated one (the false vector's) fails it in both
    r = sealed.wire["r"]
    assert (held.project(held.wire, r), held.cleanroom(held.wire, r)) == ("", "")
    assert (false.project(false.wire, r), false.cleanroom(false.wire, r)) == ("opening",) * 2


def test_vectors_are_reproduced_from_the_spec() -> None:
    """The four vectors, byte for byte, from the provers as 4c and 4d describe them and the
    draw orders the vectors' descriptions give."""
    vectors = _vectors()
    seed = _h(vectors["seed"])
    show = vectors["commit_show"]
    s = _int(_h(vectors["secrets"][1]))
    x = _int(_h(vectors["secrets"][0]))
    rho = _int(_h(show["opening"]["rho"]))
    held = Held(vectors["held_opening"])
    made = co.held_from_spec(held.cr_ctx, held.named, held.hand, s, held.s_key, held.p_key,
                             held.c_point, 13, rho, 2, _seeded(seed + b"/held-opening"))
    assert made == held.wire
    false = Held(vectors["held_opening_false"])
    forged = _int(cr.equivocate(x, 13, cr.enc(rho), 7))
    made = co.held_from_spec(false.cr_ctx, false.named, false.hand, s, false.s_key,
                             false.p_key, false.c_point, 7, forged, 1,
                             _seeded(seed + b"/held-opening-false"))
    assert made == false.wire
    for key, index, suffix in (("sealed_opening", 2, b"/sealed-opening"),
                               ("sealed_opening_false", 0, b"/sealed-opening-false")):
        sealed = Sealed(vectors[key])
        made = co.seal_from_spec(sealed.cr_ctx, sealed.named, sealed.p_key, sealed.c_point,
                                 rho, index, _seeded(seed + suffix))
        assert made == sealed.wire, key


def test_every_wire_tamper_gets_the_same_verdict_from_both() -> None:
    vectors = _vectors()
    held = Held(vectors["held_opening"])
    tampers = _held_tampers(held.wire)
    assert len(tampers) == 2 * (3 * 4 + 3 + 1) + 2 + 7 + 3 + 3
    verdicts: set[str] = set()
    for name, wire in tampers:
        project = held.project(wire)
        assert project == held.cleanroom(wire) and project != "", name
        verdicts.add(project)
    assert verdicts == {"malformed", "opening", "held-opening"}
    sealed = Sealed(vectors["sealed_opening"])
    tampers = _sealed_tampers(sealed.wire)
    assert len(tampers) == 7 + 2 * (3 * 4 + 3 + 1) + 2
    verdicts = set()
    for name, wire in tampers:
        project = sealed.project(wire)
        assert project == sealed.cleanroom(wire) and project != "", name
        verdicts.add(project)
    assert verdicts == {"malformed", "sealed-opening"}


def test_every_statement_tamper_gets_the_same_verdict_from_both() -> None:
    vectors = _vectors()
    held = Held(vectors["held_opening"])
    other = cr.base(3)
    cases: dict[str, dict[str, Any]] = {
        "step": {"step": "71:open"},
        "hand reordered": {"hand": held.hand[::-1]},
        "hand short": {"hand": held.hand[:2]},
        "S": {"s_key": other},
        "P": {"p_key": other},
        "C": {"c_point": other},
        "named reordered": {"named": [7, 4, 13]},
        "named repeated": {"named": [13, 13, 4]},
    }
    for name, change in cases.items():
        verdict = held.project(held.wire, **change)
        assert verdict == held.cleanroom(held.wire, **change) and verdict != "", name
    sealed = Sealed(vectors["sealed_opening"])
    for named, p_key, c_point in (([4, 7, 14], None, None), ([7, 4, 13], None, None),
                                  (None, other, None), (None, None, other)):
        verdict = sealed.project(sealed.wire, named, p_key, c_point)
        assert verdict == sealed.cleanroom(sealed.wire, named, p_key, c_point) \
            == "sealed-opening"
    step = Sealed({**vectors["sealed_opening"],
                   "context": {**vectors["sealed_opening"]["context"], "step": "43:sealed"}})
    assert (step.project(step.wire), step.cleanroom(step.wire)) == ("sealed-opening",) * 2


def test_fresh_proofs_cross_verify() -> None:
    """Fresh randomness: the clean room's proofs are accepted by the project, the project's by
    the clean room, for every card the refuter may open."""
    vectors = _vectors()
    s = _int(_h(vectors["secrets"][1]))
    rho = _int(_h(vectors["commit_show"]["opening"]["rho"]))
    held = Held(vectors["held_opening"])
    made = co.held_from_spec(held.cr_ctx, held.named, held.hand, s, held.s_key, held.p_key,
                             held.c_point, 13, rho, 2, _fresh)
    assert (held.project(made), held.cleanroom(made)) == ("", "")
    public = prove_public_opening(
        held.ctx, held.named, [_pt(x) for x in held.hand], Scalar(s), _pt(held.s_key),
        _pt(held.p_key), _pt(held.c_point), PublicOpening.from_wire(held.wire).opening, 2,
        OsRandom())
    assert held.cleanroom(public.to_wire()) == ""
    sealed = Sealed(vectors["sealed_opening"])
    made = co.seal_from_spec(sealed.cr_ctx, sealed.named, sealed.p_key, sealed.c_point, rho, 2,
                             _fresh)
    assert (sealed.project(made), sealed.cleanroom(made)) == ("", "")
    ours = seal_opening(sealed.ctx, sealed.named, _pt(sealed.p_key), _pt(sealed.c_point),
                        PublicOpening.from_wire(held.wire).opening, OsRandom())
    assert sealed.cleanroom(ours.to_wire()) == ""
    for index in (0, 1):  # another card's branch answered with rho: refused by both
        bad = co.seal_from_spec(sealed.cr_ctx, sealed.named, sealed.p_key, sealed.c_point, rho,
                                index, _fresh)
        assert (sealed.project(bad), sealed.cleanroom(bad)) == ("sealed-opening",) * 2


@pytest.mark.parametrize("card", [13, 4, 7])
def test_the_suggesters_decryption_proof_names_one_card(card: int) -> None:
    """4d's statement of what the suggester gains, checked from the spec alone: the equation
    its DLEQ proves holds for the decrypted card only."""
    vectors = _vectors()
    sealed = Sealed(vectors["sealed_opening"])
    x = _int(_h(vectors["secrets"][0]))
    holds = co.decryption_proof_holds(sealed.p_key, sealed.wire["r"], sealed.c_point, card, x)
    assert holds is (card == vectors["sealed_opening"]["card"])
