"""Deterministic test vectors for every primitive and proof (``protocol/vectors/crypto-v1.json``).

Run ``python3 -m p2pclue.crypto.vectors --write protocol/vectors/crypto-v1.json`` to
regenerate, ``--check PATH`` to compare. Everything derives from ``SeededRandom`` with
fixed seeds, so another implementation that follows docs/protocol.md (same hash
encodings, same order of random draws) reproduces the file byte for byte; an
implementation with other randomness can still verify every proof in it.
Bytes are lower-case hex; proofs are their wire dicts with hex values.

Proof contexts use the engine's step strings (``"<index>:<step>"``, docs/protocol.md
"Stages and messages") at made-up transcript positions; the randomness vectors number
their events and name them ``random/<e>`` exactly as the engine does, with each seat's
reveals taken from its chain in order (event 0 reveals h_1) and a chain renewed on its
last value.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from p2pclue import PROTOCOL_VERSION
from p2pclue.crypto.cards import CARD_POINTS, card_point, generator, product_base
from p2pclue.crypto.commitshow import Opening
from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.group import G, Point, Scalar, base_mul, mul
from p2pclue.crypto.heldopening import prove_held_unchecked
from p2pclue.crypto.proofs import (
    equivocate,
    pet_start,
    pet_step,
    pet_weights,
    prove_commit_show,
    prove_dleq,
    prove_dleq_batch,
    prove_key,
    prove_none,
    prove_none_unchecked,
    prove_public_opening,
    prove_show,
    seal_opening,
    show_rho,
    shuffle,
    unlayer,
)
from p2pclue.crypto.rand import SeededRandom, random_scalar
from p2pclue.crypto.randomness import HashChain, random_dice, random_weapon_rooms
from p2pclue.crypto.sealedopening import seal_unchecked
from p2pclue.rules.cards import CARDS

GAME_ID = bytes.fromhex("00112233445566778899aabbccddeeff" * 2)
"""32 bytes, like a real game id."""
SEED = b"p2pclue test vectors v1"


def hexify(obj: Any) -> Any:
    """Wire form -> JSON: bytes become hex strings, recursively."""
    if isinstance(obj, bytes):
        return obj.hex()
    if isinstance(obj, dict):
        return {k: hexify(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [hexify(v) for v in obj]
    return obj


def unhexify(obj: Any) -> Any:
    """JSON -> wire form for proof dicts (every string is hex bytes)."""
    if isinstance(obj, str):
        return bytes.fromhex(obj)
    if isinstance(obj, dict):
        return {k: unhexify(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [unhexify(v) for v in obj]
    return obj


def _pts(points: Sequence[Point]) -> list[str]:
    return [p.data.hex() for p in points]


def _ctx(step: str, prover: int) -> tuple[ProofContext, dict[str, Any]]:
    ctx = ProofContext(GAME_ID, step, prover)
    return ctx, {"game_id": GAME_ID.hex(), "step": step, "prover": prover}


def generate() -> dict[str, Any]:
    src = SeededRandom(SEED)
    out: dict[str, Any] = {
        "protocol_version": PROTOCOL_VERSION,
        "seed": SEED.hex(),
        "seeded_random_first_64": SeededRandom(SEED).random_bytes(64).hex(),
        "card_points": [
            {"index": c.index, "slug": c.slug, "point": CARD_POINTS[c.index].data.hex()}
            for c in CARDS
        ],
        "shuffle_generators": _pts([generator(i) for i in range(21)]),
        "product_base": product_base().data.hex(),
    }
    keys = [random_scalar(src) for _ in range(3)]
    pubs = [base_mul(k) for k in keys]
    out["secrets"] = [bytes(k).hex() for k in keys]
    out["public_keys"] = _pts(pubs)

    ctx, c = _ctx("3:keys", 0)
    out["key"] = {"context": c, "Y": pubs[0].data.hex(),
                  "proof": hexify(prove_key(ctx, keys[0], src).to_wire())}

    ctx, c = _ctx("10:deal:link", 1)
    r = random_scalar(src)
    r_pub, s_pub = base_mul(r), mul(r, pubs[1])
    out["dleq"] = {"context": c, "g1": G.data.hex(), "h1": r_pub.data.hex(),
                   "g2": pubs[1].data.hex(), "h2": s_pub.data.hex(),
                   "proof": hexify(prove_dleq(ctx, r, G, r_pub, pubs[1], s_pub, src).to_wire())}

    ctx, c = _ctx("60:open", 2)
    ins = [card_point(i) for i in (0, 7, 14)]
    outs = [mul(keys[2], p) for p in ins]
    batch = prove_dleq_batch(ctx, keys[2], pubs[2], ins, outs, src)
    out["dleq_batch"] = {"context": c, "Y": pubs[2].data.hex(), "inputs": _pts(ins),
                         "outputs": _pts(outs), "proof": hexify(batch.to_wire())}

    ctx, c = _ctx("6:envelope:weapons", 0)
    deck = [card_point(i) for i in range(6, 12)]
    deck_out, perm, sproof = shuffle(ctx, deck, keys[0], src)
    out["shuffle"] = {"context": c, "Y": pubs[0].data.hex(), "deck_in": _pts(deck),
                      "deck_out": _pts(deck_out), "perm": perm, "proof": hexify(sproof.to_wire())}

    ctx, c = _ctx("13:unlayer", 1)
    given = [mul(keys[1], mul(keys[0], card_point(i))) for i in (3, 12)]
    stripped, uproof = unlayer(ctx, given, keys[1], pubs[1], src)
    # The batch statement: inputs = stripped (what the seat sends), outputs = given
    # (what it received, still carrying its layer): given_i = x * stripped_i.
    out["unlayer"] = {"context": c, "Y": pubs[1].data.hex(), "given": _pts(given),
                      "stripped": _pts(stripped), "proof": hexify(uproof.to_wire())}

    hand = (4, 8, 13)
    hand_points = [mul(keys[1], card_point(i)) for i in hand]
    named = (4, 7, 13)
    ctx, c = _ctx("40:show", 1)
    ct, shproof = prove_show(ctx, named, hand_points, keys[1], pubs[1], 2, 13, pubs[0], src)
    out["show"] = {"context": c, "named": list(named), "hand_points": _pts(hand_points),
                   "S": pubs[1].data.hex(), "suggester_pub": pubs[0].data.hex(),
                   "ciphertext": hexify(ct.to_wire()), "shown_card": 13,
                   "proof": hexify(shproof.to_wire())}
    named_none = (0, 9, 17)
    ctx, c = _ctx("41:pass", 1)
    nproof = prove_none(ctx, named_none, hand_points, keys[1], pubs[1],
                        SeededRandom(SEED + b"/none"))
    for _ in range(3 * 3 * len(hand_points)):
        # The draws of the earlier "I hold none" (r, alpha, beta for each of its 3h pairs):
        # the shared stream moves on as it did, so the vectors after this one keep their bytes.
        random_scalar(src)
    out["none"] = {"context": c, "named": list(named_none), "hand_points": _pts(hand_points),
                   "S": pubs[1].data.hex(), "proof": hexify(nproof.to_wire())}

    big_k = keys[0] * keys[1] * keys[2]
    envelope = [mul(big_k, card_point(i)) for i in (1, 9, 18)]
    accused = (1, 9, 18)
    ctx, c = _ctx("50:accuse", 0)
    w = pet_weights(ctx, accused, envelope)
    q, p = pet_start(envelope, accused, w)
    steps = []
    for j in range(3):
        sctx, sc = _ctx(f"{51 + j}:pet", j)
        q2, p2, pproof = pet_step(sctx, q, p, keys[j], pubs[j], src)
        steps.append({"context": sc, "Q_prev": q.data.hex(), "P_prev": p.data.hex(),
                      "Q": q2.data.hex(), "P": p2.data.hex(), "Y": pubs[j].data.hex(),
                      "proof": hexify(pproof.to_wire())})
        q, p = q2, p2
    out["pet"] = {"weights_context": c, "accused": list(accused), "envelope": _pts(envelope),
                  "weights": [bytes(x).hex() for x in w], "Q0": steps[0]["Q_prev"],
                  "P0": steps[0]["P_prev"], "steps": steps, "result": q == p}

    out["randomness"] = _randomness(src)
    out["commit_show"] = _commit_show(keys, pubs)
    out.update(_openings(keys, pubs, out["commit_show"]))
    # A false "cannot refute" made honestly from the witness: two of the named cards are in
    # the hand, so two Y equal two Q and every verifier must refuse it (its own source, so
    # that the vectors above keep their bytes).
    ctx, c = _ctx("42:pass", 1)
    held = prove_none_unchecked(ctx, named, hand_points, keys[1], pubs[1],
                                SeededRandom(SEED + b"/none-false"))
    out["none_false"] = {"context": c, "named": list(named), "hand_points": _pts(hand_points),
                         "S": pubs[1].data.hex(), "proof": hexify(held.to_wire()),
                         "valid": False}
    return out


def _commit_show(keys: Sequence[Scalar], pubs: Sequence[Point]) -> dict[str, Any]:
    """Seat 1 refutes seat 0 deniably, holding (4, 8, 13), shows 13 of (4, 7, 13) at
    position 2. Its own seeded source (``SEED + "/commit-show"``), so that the vectors
    before it keep their bytes. ``equivocated`` is the suggester's opening of the same
    commitment to card 4, made with its key: it passes the very same check. ``show_rho``:
    the engine's derived rho for this context and the refuter's key (the vector's own rho
    is drawn from the source, so that the proof's draws follow it as documented)."""
    src = SeededRandom(SEED + b"/commit-show")
    hand_points = [mul(keys[1], card_point(i)) for i in (4, 8, 13)]
    named = (4, 7, 13)
    ctx, c = _ctx("40:show", 1)
    commitment, proof, opening = prove_commit_show(ctx, named, hand_points, keys[1], pubs[1], 2,
                                                   13, pubs[0], src)
    return {"context": c, "named": list(named), "hand_points": _pts(hand_points),
            "S": pubs[1].data.hex(), "suggester_pub": pubs[0].data.hex(),
            "C": commitment.data.hex(), "proof": hexify(proof.to_wire()),
            "opening": hexify(opening.to_wire()),
            "equivocated": hexify(equivocate(opening, keys[0], 4).to_wire()),
            "show_rho": bytes(show_rho(keys[1], ctx)).hex()}


def _openings(
    keys: Sequence[Scalar], pubs: Sequence[Point], show: dict[str, Any],
) -> dict[str, Any]:
    """Proofs 4c and 4d for the ``commit_show`` vector's show (seat 1 showed the Ballroom to
    seat 0), each from its own seeded source so that every other vector keeps its bytes.

    ``held_opening``: the refuter's public opening at the end (step ``70:open``).
    ``held_opening_false``: the attack 4c closes: a refuter that knows the suggester's key
    opens the same C to the Dagger (named, not held), which passes ``check_opening``; its
    proof, answered at position 1, must be refused. ``sealed_opening``: the answer to a
    complaint (step ``42:sealed``), which seat 0 decrypts to the Ballroom.
    ``sealed_opening_false``: the same R answered for Peacock (index 0), which C does not
    open to with rho: must be refused."""
    named = tuple(show["named"])
    hand_points = [mul(keys[1], card_point(i)) for i in (4, 8, 13)]
    commitment = Point(bytes.fromhex(show["C"]))
    opening = Opening.from_wire(unhexify(show["opening"]))
    statement = {"named": list(named), "hand_points": _pts(hand_points),
                 "S": pubs[1].data.hex(), "suggester_pub": pubs[0].data.hex(),
                 "C": commitment.data.hex()}
    ctx, c = _ctx("70:open", 1)
    public = prove_public_opening(ctx, named, hand_points, keys[1], pubs[1], pubs[0],
                                  commitment, opening, 2, SeededRandom(SEED + b"/held-opening"))
    forged = equivocate(opening, keys[0], 7)
    false_held = prove_held_unchecked(ctx, named, hand_points, keys[1], pubs[1], pubs[0],
                                      commitment, forged, 1,
                                      SeededRandom(SEED + b"/held-opening-false"))
    false_public = {**forged.to_wire(), "held": false_held.to_wire()}
    sctx, sc = _ctx("42:sealed", 1)
    sealed = seal_opening(sctx, named, pubs[0], commitment, opening,
                          SeededRandom(SEED + b"/sealed-opening"))
    false_sealed = seal_unchecked(sctx, named, pubs[0], commitment, opening.rho, 0,
                                  SeededRandom(SEED + b"/sealed-opening-false"))
    sealed_statement = {k: statement[k] for k in ("named", "suggester_pub", "C")}
    return {
        "held_opening": {"context": c, **statement, "public_opening": hexify(public.to_wire()),
                         "position": 2},
        "held_opening_false": {"context": c, **statement,
                               "public_opening": hexify(false_public), "valid": False},
        "sealed_opening": {"context": sc, **sealed_statement,
                           "sealed": hexify(sealed.to_wire()), "card": 13},
        "sealed_opening_false": {"context": sc, **sealed_statement,
                                 "sealed": hexify(false_sealed.to_wire()), "valid": False},
    }


def _randomness(src: SeededRandom) -> dict[str, Any]:
    """Three seats, chains of 2 values: event 0 places the weapons (reveals h_1), event 1
    rolls two dice (reveals h_2, the last value, so every reveal carries ``renew``), event 2
    rolls one die from the renewed chains (reveals h'_1)."""
    chains = [HashChain.create(src, length=2) for _ in range(3)]
    heads = [ch.head.hex() for ch in chains]
    used = [0, 0, 0]
    events: list[dict[str, Any]] = []
    for event, (use, n_dice) in enumerate((("weapons", 0), ("dice", 2), ("dice", 1))):
        reveals: list[dict[str, Any]] = []
        values: list[bytes] = []
        for seat in range(3):
            used[seat] += 1
            value = chains[seat].reveal(used[seat])
            renew = None
            if used[seat] == chains[seat].length:
                chains[seat] = HashChain.create(src, length=2)
                used[seat] = 0
                renew = chains[seat].head.hex()
            values.append(value)
            reveals.append({"seat": seat, "value": value.hex(), "renew": renew})
        event_id = f"random/{event}"
        record: dict[str, Any] = {"event": event, "event_id": event_id, "use": use,
                                  "reveals": reveals}
        if use == "weapons":
            record["weapon_rooms"] = {str(k): v for k, v in
                                      random_weapon_rooms(GAME_ID, event_id, values).items()}
        else:
            record["n_dice"] = n_dice
            record["dice"] = list(random_dice(GAME_ID, event_id, values, n_dice))
        events.append(record)
    return {"game_id": GAME_ID.hex(), "chain_length": 2, "heads": heads, "events": events}


def dumps(vectors: dict[str, Any]) -> str:
    return json.dumps(vectors, indent=1, sort_keys=True) + "\n"


def scalar_hex(text: str) -> Scalar:
    return Scalar(int.from_bytes(bytes.fromhex(text), "little"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="PATH")
    group.add_argument("--check", metavar="PATH")
    args = parser.parse_args(argv)
    text = dumps(generate())
    if args.write:
        with open(args.write, "w", encoding="utf-8") as fh:
            fh.write(text)
        return 0
    with open(args.check, encoding="utf-8") as fh:
        same = fh.read() == text
    print("vectors match" if same else "vectors DIFFER", file=sys.stderr)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
