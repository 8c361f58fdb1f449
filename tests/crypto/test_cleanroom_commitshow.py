"""The clean-room proof-4b verifier (written from docs/protocol.md alone) against the vectors,
the sample transcripts and the project's own verifier (issue 22: the spec reading agrees)."""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from p2pclue.crypto.commitshow import CommitShowProof
from p2pclue.crypto.commitshow import verify_commit_show as project_verify
from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.errors import PeerDataError
from p2pclue.crypto.group import point_from_bytes
from tests.commands import audit_in_process
from tests.crypto import cleanroom_commitshow as cr
from tests.engine.conftest import run
from tests.torsion import torsion

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "protocol/samples"


@cache
def vector() -> dict[str, Any]:
    """protocol/vectors/crypto-v1.json, read when a test first needs it."""
    data: dict[str, Any] = json.loads(
        (ROOT / "protocol/vectors/crypto-v1.json").read_text(encoding="utf-8"))
    return data


def _h(x: str) -> bytes:
    return bytes.fromhex(x)


Proof = dict[str, Any]
"""A proof 4b as on the wire: a, z points; cp, up, ci, ui, vi lists of scalars."""


def _vector_args() -> tuple[cr.Context, list[int], list[bytes], bytes, bytes, bytes, Proof]:
    v = vector()["commit_show"]
    c = v["context"]
    ctx = cr.Context(_h(c["game_id"]), c["step"], c["prover"])
    proof: Proof = {k: _h(x) if isinstance(x, str) else [_h(y) for y in x]
                    for k, x in v["proof"].items()}
    return (ctx, v["named"], [_h(x) for x in v["hand_points"]], _h(v["S"]),
            _h(v["suggester_pub"]), _h(v["C"]), proof)


def _bump(raw: bytes) -> bytes:
    return cr.enc(int.from_bytes(raw, "little") + 1)


def _tampered(proof: Proof) -> Proof:
    return {**proof, "up": [_bump(proof["up"][0]), *proof["up"][1:]]}


def _project_verifies(args: tuple[Any, ...]) -> bool:
    ctx, named, hand, s_key, p_key, c_point, proof = args
    try:
        project_verify(
            ProofContext(ctx.game_id, ctx.step, ctx.prover), named,
            [point_from_bytes(x, "hand") for x in hand], point_from_bytes(s_key, "S"),
            point_from_bytes(p_key, "P"), point_from_bytes(c_point, "C"),
            CommitShowProof.from_wire(proof),
        )
    except PeerDataError:
        return False
    return True


def _cleanroom_verifies(args: tuple[Any, ...]) -> bool:
    try:
        cr.verify_commit_show(*args)
    except cr.Rejected:
        return False
    return True


def _wire_tampers(proof: Proof) -> list[tuple[str, Proof]]:
    """Every way of spoiling one wire field of a valid proof: each point replaced (another
    point, the identity, the same point plus one of order 8), each scalar entry bumped,
    zeroed or made non-canonical, each list one too short or too long, a field missing or
    extra, a list given where a point goes."""
    out: list[tuple[str, Proof]] = []
    for key in ("a", "z"):
        for how, value in (("other", cr.base(5)), ("identity", cr.IDENTITY),
                           ("order-8", torsion(proof[key])), ("short", proof[key][:31]),
                           ("list", [proof[key]])):
            out.append((f"{key}:{how}", {**proof, key: value}))
    for key in ("cp", "up", "ci", "ui", "vi"):
        values: list[bytes] = proof[key]
        for i, raw in enumerate(values):
            n = int.from_bytes(raw, "little")
            for how, new in (("bump", _bump(raw)), ("zero", bytes(32)),
                             ("non-canonical", (n + cr.L).to_bytes(32, "little"))):
                out.append((f"{key}[{i}]:{how}", {**proof, key: [*values[:i], new,
                                                                 *values[i + 1:]]}))
        out.append((f"{key}:short", {**proof, key: values[:-1]}))
        out.append((f"{key}:long", {**proof, key: [*values, values[0]]}))
        out.append((f"{key}:missing", {k: v for k, v in proof.items() if k != key}))
    out.append(("extra-field", {**proof, "c": proof["cp"]}))
    # The two ORs' challenges moved within each list: both sums still hold, the hash does not.
    cp = [int.from_bytes(x, "little") for x in proof["cp"]]
    out.append(("cp-shifted", {**proof, "cp": [cr.enc(cp[0] + 1), cr.enc(cp[1] - 1),
                                               *proof["cp"][2:]]}))
    out.append(("cp-ci-swapped", {**proof, "cp": proof["ci"], "ci": proof["cp"]}))
    return out


def test_card_points_match_the_vectors() -> None:
    for entry in vector()["card_points"]:
        assert cr.card_point(entry["index"]).hex() == entry["point"]


def test_vector_proof_verifies_in_both_and_tampering_fails_in_both() -> None:
    args = _vector_args()
    cr.verify_commit_show(*args)
    assert _project_verifies(args)
    bad = (*args[:6], _tampered(args[6]))
    with pytest.raises(cr.Rejected, match="challenge mismatch"):
        cr.verify_commit_show(*bad)
    assert not _project_verifies(bad)


def test_vector_every_wire_tamper_is_refused_by_both() -> None:
    """Each wire field altered in turn: the clean-room verifier and the project's agree, and
    both refuse (a spoiled A or Z, an identity or one off the subgroup included)."""
    args = _vector_args()
    tampers = _wire_tampers(args[6])
    assert len(tampers) == 10 + 5 * 3 * 3 + 5 * 3 + 3
    for name, proof in tampers:
        bad = (*args[:6], proof)
        assert (_cleanroom_verifies(bad), _project_verifies(bad)) == (False, False), name


def test_vector_statement_tampers_agree() -> None:
    """The statement spoiled instead of the proof: both verifiers refuse the same ones (an
    empty or shorter hand, an identity or order-8 S, P or C, named cards not three distinct)."""
    ctx, named, hand, s_key, p_key, c_point, proof = _vector_args()
    cases = {
        "hand-empty": (ctx, named, [], s_key, p_key, c_point, proof),
        "hand-short": (ctx, named, hand[:2], s_key, p_key, c_point, proof),
        "hand-reordered": (ctx, named, hand[::-1], s_key, p_key, c_point, proof),
        "named-repeated": (ctx, [4, 4, 13], hand, s_key, p_key, c_point, proof),
        "named-reordered": (ctx, [7, 4, 13], hand, s_key, p_key, c_point, proof),
        "S-other": (ctx, named, hand, cr.base(3), p_key, c_point, proof),
        "P-other": (ctx, named, hand, s_key, cr.base(3), c_point, proof),
    }
    for name, args in cases.items():
        assert not _cleanroom_verifies(args), name
        assert not _project_verifies(args), name
    for name, bad in (("S", torsion(s_key)), ("P", torsion(p_key)), ("C", torsion(c_point))):
        s_x, p_x, c_x = (bad if label == name else value for label, value in
                         (("S", s_key), ("P", p_key), ("C", c_point)))
        with pytest.raises(cr.Rejected, match="invalid point"):
            cr.verify_commit_show(ctx, named, hand, s_x, p_x, c_x, proof)
        with pytest.raises(PeerDataError):
            point_from_bytes(bad, name)


def test_vector_proof_is_bound_to_its_statement() -> None:
    ctx, named, hand, s_key, p_key, c_point, proof = _vector_args()
    for other in (
        (cr.Context(ctx.game_id, "41:show", ctx.prover), named, c_point),
        (ctx, [4, 7, 14], c_point),
        (ctx, named, cr.base(5)),
    ):
        with pytest.raises(cr.Rejected):
            cr.verify_commit_show(other[0], other[1], hand, s_key, p_key, other[2], proof)


def test_vector_openings_and_equivocation() -> None:
    v = vector()["commit_show"]
    named, p_key, c_point = v["named"], _h(v["suggester_pub"]), _h(v["C"])
    for key in ("opening", "equivocated"):
        cr.check_opening(named, p_key, c_point, v[key]["card"], _h(v[key]["rho"]))
    # The equivocation computed from the spec alone is the vector's, bit for bit.
    x = int.from_bytes(_h(vector()["secrets"][0]), "little")
    forged = cr.equivocate(x, 13, _h(v["opening"]["rho"]), 4)
    assert forged.hex() == v["equivocated"]["rho"]
    # ... and every other named card opens too; an unnamed card or a wrong rho does not.
    cr.check_opening(named, p_key, c_point, 7, cr.equivocate(x, 13, _h(v["opening"]["rho"]), 7))
    with pytest.raises(cr.Rejected, match="not named"):
        cr.check_opening(named, p_key, c_point, 8, cr.equivocate(x, 13, _h(v["opening"]["rho"]), 8))
    with pytest.raises(cr.Rejected, match="does not open"):
        cr.check_opening(named, p_key, c_point, 4, _h(v["opening"]["rho"]))


def test_vector_show_rho_uses_the_refuters_key() -> None:
    v = vector()["commit_show"]
    ctx = _vector_args()[0]
    assert cr.show_rho(_h(vector()["secrets"][1]), ctx).hex() == v["show_rho"]


def test_own_keys_deniability() -> None:
    """Fresh keys: a refuter commits to its card, the suggester forges an opening to another
    named card that passes the same check and is what the refuter would have sent for it."""
    draw = _fresh("own keys")
    x = draw()
    p_key = cr.base(x)
    named = [2, 9, 17]
    rho = draw()
    c_point = cr.add(cr.base(9 + 1), cr.mul(rho, p_key))
    cr.check_opening(named, p_key, c_point, 9, cr.enc(rho))
    for other in (2, 17):
        forged = cr.equivocate(x, 9, cr.enc(rho), other)
        cr.check_opening(named, p_key, c_point, other, forged)
        # The unique opening to that card: a refuter who had committed `other` with this
        # forged rho would have produced the very same C.
        rho_forged = int.from_bytes(forged, "little")
        assert cr.add(cr.base(other + 1), cr.mul(rho_forged, p_key)) == c_point


@pytest.mark.parametrize(("name", "shows", "opened"), [
    ("classic-3p", 2, 2), ("cz-4p", 2, 2), ("false-blame-nothing", 2, 2),
    ("abandoned-forfeit-votes", 2, 0), ("votes-signed-early", 2, 0),
    ("halted-bias-dice", 0, 0),
])
def test_samples_shows_and_openings(name: str, shows: int, opened: int) -> None:
    result = cr.check_sample((SAMPLES / f"{name}.p2pclue").read_bytes())
    assert len(result.shows) == shows
    assert result.openings_checked == opened
    assert result.hands_checked == opened  # every published opening names a card of the hand


def _audit(*args: str) -> tuple[int, list[dict[str, Any]]]:
    """``p2pclue audit --json ARGS`` (in this process): exit status and its JSON lines."""
    code, lines = audit_in_process("--json", *args)
    return code, [json.loads(line) for line in lines if line.startswith("{")]


@pytest.mark.parametrize("name", ["classic-3p", "cz-4p"])
def test_samples_agree_with_the_audit(name: str) -> None:
    """The statement this verifier reconstructed (named triple, refuter, suggester) and the
    hands it decrypted are the audit's."""
    path = SAMPLES / f"{name}.p2pclue"
    result = cr.check_sample(path.read_bytes())
    _, lines = _audit("--replay", str(path))
    refuted = [(e["refuter"], e["suggester"], tuple(e["triple"]))
               for e in lines if e.get("event") == "Refuted"]
    assert refuted == [(s.refuter, s.suggester, s.named) for s in result.shows]
    verdict = lines[-1]
    assert verdict["valid"] is True
    assert {int(k): sorted(v) for k, v in verdict["hands"].items()} == result.hands


def test_sample_tampered_proof_fails_here_and_in_the_audit(tmp_path: Path) -> None:
    """Flip one response of the first show in classic-3p: the clean-room verifier refuses it,
    and so does the project's verifier on the same statement (the audit would fail first on
    the frame's signature, so the proof itself is checked through the project verifier too;
    the untampered file must pass `p2pclue audit`)."""
    data = (SAMPLES / "classic-3p.p2pclue").read_bytes()
    with pytest.raises(cr.Rejected):
        cr.check_sample(data, tamper=0)
    code, lines = _audit(str(SAMPLES / "classic-3p.p2pclue"))
    assert code == 0, lines[-1]
    # A re-signed tamper needs the identity keys, which the sample does not publish; the
    # bare byte edit must still be refused by the audit (no valid transcript results).
    show = cr.check_sample(data).shows[0]
    i = data.index(show.commitment)
    bad = data[:i] + bytes([data[i] ^ 1]) + data[i + 1:]
    path = tmp_path / "tampered.p2pclue"
    path.write_bytes(bad)
    code, lines = _audit(str(path))
    assert code != 0
    assert lines[-1]["valid"] is False
    with pytest.raises(cr.Rejected):
        cr.check_sample(bad)


@pytest.mark.parametrize(("kind", "check", "refusal"), [
    ("show-unheld-card", "proof:commit-show", r"verifies for rooms \[\]"),
    ("show-unnamed-card", "proof:commit-show", r"verifies for rooms \[\]"),
    ("wrong-opening", "proof:sealed-opening", r"^sealed at \d+: sealed-opening$"),
    ("no-opening", "proof:sealed-opening", r"^sealed at \d+: sealed-opening$"),
    ("bad-sealed", "proof:sealed-opening", r"^sealed at \d+: malformed$"),  # R is no point
])
def test_cheat_fails_here_and_in_the_audit(
    kind: str, check: str, refusal: str, tmp_path: Path,
) -> None:
    """The project's real cheating peer over the real engine: a refuter that commits to a
    card it may not show, or whose sealed opening after the suggester's complaint does not
    check (4d). The audit CLI blames it and this verifier, reading the halted file (the
    refused frame is the blame's evidence), refuses the same message while every earlier
    show verifies."""
    cheater = 1
    game = run(3, "classic", seed=7, patience=60, cheat=kind, cheater=cheater)
    raw = next(p for p in game.peers if p.seat != cheater).transcript().to_bytes()
    path = tmp_path / "cheat.p2pclue"
    path.write_bytes(raw)
    verdict = _audit(str(path))[1][-1]
    assert verdict["valid"] is False
    assert verdict["blamed"] == cheater
    assert verdict["violation"]["check"] == check
    with pytest.raises(cr.Rejected, match=refusal):
        cr.check_sample(raw)


def _seeded(seed: bytes) -> Callable[[], int]:
    """SeededRandom as "Group, encodings, validation" describes it: one 64-byte SHAKE-256
    block per request, reduced mod L."""
    blocks = itertools.count()

    def draw() -> int:
        i = next(blocks)
        block = hashlib.shake_256(b"p2pclue/seeded-random/v1" + cr.u32(len(seed)) + seed
                                  + cr.u64(i)).digest(64)
        return int.from_bytes(block, "little") % cr.L
    return draw


def _fresh(label: str) -> Callable[[], int]:
    """Draws other than the vector's, the same on every run (a failure can be replayed)."""
    return _seeded(b"tests/cleanroom-commitshow/" + label.encode())


def _cleanroom_prove(draw: Callable[[], int], close: tuple[bool, bool] = (True, True),
                     named: Sequence[int] = (4, 7, 13)) -> tuple[Any, ...]:
    """A proof 4b made from the spec's prover description ("Proof." and "Vectors", draws in
    the vectors' order) with the vector's keys: seat 1 (hand 4, 8, 13) shows card 13 at
    position 2 to seat 0. `close` says which OR's real branch takes c minus the simulated
    challenges (positions, cards); an OR left open keeps a random challenge there, so its
    list no longer sums to c."""
    ctx, _, hand, s_key, p_key, _, _ = _vector_args()
    s = int.from_bytes(_h(vector()["secrets"][1]), "little")
    card, real_p = 13, 2
    real_i = list(named).index(card)
    rho = draw()
    c_point = cr.add(cr.base(card + 1), cr.mul(rho, p_key))
    b, k, w, v = draw(), draw(), draw(), draw()
    a = b * s % cr.L
    a_point, z_point = cr.base(a), cr.mul(a, cr.card_point(card))
    cp, up, ci, ui, vi = ([0] * n for n in (3, 3, 3, 3, 3))
    for p in range(len(hand)):
        if p != real_p:
            cp[p], up[p] = draw(), draw()
    for i in range(3):
        if i != real_i:
            ci[i], ui[i], vi[i] = draw(), draw(), draw()
    if not close[0]:
        cp[real_p] = draw()
    if not close[1]:
        ci[real_i] = draw()
    tp = cr._position_commitments(s_key, hand, a_point, z_point, cp, up)
    tp[2 * real_p:2 * real_p + 2] = [cr.mul(k, s_key), cr.mul(k, hand[real_p])]
    ti = cr._card_commitments(named, p_key, c_point, a_point, z_point, ci, ui, vi)
    ti[3 * real_i:3 * real_i + 3] = [cr.base(w), cr.mul(w, cr.card_point(card)),
                                     cr.mul(v, p_key)]
    tr = cr.Transcript("commit-show", ctx)
    tr.list("named", [cr.u64(t) for t in named])
    tr.list("hand", hand)
    for label, value in (("S", s_key), ("P", p_key), ("C", c_point), ("A", a_point),
                         ("Z", z_point)):
        tr.data(label, value)
    tr.list("TP", tp)
    tr.list("TI", ti)
    c = tr.challenge("c", 0)
    if close[0]:
        cp[real_p] = (c - sum(cp) + cp[real_p]) % cr.L
    if close[1]:
        ci[real_i] = (c - sum(ci) + ci[real_i]) % cr.L
    up[real_p] = (k + cp[real_p] * b) % cr.L
    ui[real_i] = (w + ci[real_i] * a) % cr.L
    vi[real_i] = (v + ci[real_i] * rho) % cr.L
    proof = {"a": a_point, "z": z_point, **{name: [cr.enc(x) for x in values] for name, values
                                             in (("cp", cp), ("up", up), ("ci", ci),
                                                 ("ui", ui), ("vi", vi))}}
    return (ctx, list(named), hand, s_key, p_key, c_point, proof)


def test_vector_is_reproduced_from_the_spec() -> None:
    """The vector's commitment and proof, byte for byte, from the spec's prover description
    and its draw order (SeededRandom(seed | "/commit-show"): rho, b, k, w, v, then the
    simulated positions' (c_p, u_p), then the simulated cards' (d_i, u_i, v_i))."""
    args = _cleanroom_prove(_seeded(_h(vector()["seed"]) + b"/commit-show"))
    assert args == _vector_args()


def test_proof_made_from_the_spec_is_accepted_by_the_project() -> None:
    """The spec's prover description, followed literally with other draws than the
    vector's, yields proofs the project's verifier accepts; a proof whose challenge matches
    one OR's sum but not the other's is refused by both."""
    args = _cleanroom_prove(_fresh("prover"))
    assert _cleanroom_verifies(args)
    assert _project_verifies(args)
    for close in ((True, False), (False, True)):
        bad = _cleanroom_prove(_fresh(f"prover, one OR open {close}"), close)
        with pytest.raises(cr.Rejected, match="challenge mismatch"):
            cr.verify_commit_show(*bad)
        assert not _project_verifies(bad)


def test_edge_statements_agree() -> None:
    """Corners the spec text does not settle in words, accepted by both verifiers: the real
    branches' masks zero (identity commitments in TP or TI, hashed as the identity's
    encoding), and the named cards not in the order suspect, weapon, room (the engine, not
    the proof, fixes that order)."""
    def zero_at(index: int) -> Callable[[], int]:
        draws, draw = itertools.count(), _fresh(f"zero at {index}")
        return lambda: 0 if next(draws) == index else draw()
    for name, args in (("k = 0", _cleanroom_prove(zero_at(2))),
                       ("w = 0", _cleanroom_prove(zero_at(3))),
                       ("v = 0", _cleanroom_prove(zero_at(4))),
                       ("named 13, 4, 7", _cleanroom_prove(_fresh("named"), named=(13, 4, 7)))):
        assert (_cleanroom_verifies(args), _project_verifies(args)) == (True, True), name
