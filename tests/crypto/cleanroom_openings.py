"""Clean-room verifier for proofs 4c ("held-opening") and 4d ("sealed-opening").

Written from docs/protocol.md, sections 4c and 4d (and the sections they cite: "Fiat-Shamir
transcript", "Group, encodings, validation", 4b's opening), without p2pclue's code; the
primitives (hash-to-group, the typed transcript, libsodium arithmetic) are those of
``cleanroom_commitshow``, which was written the same way and imports nothing from p2pclue
either. What the spec text left to guess is listed in GUESSES.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tests.crypto.cleanroom_commitshow import (
    IDENTITY,
    Context,
    L,
    Rejected,
    Transcript,
    base,
    card_point,
    check_opening,
    enc,
    mul,
    point,
    scalar,
    sub,
    u64,
)

GUESSES: tuple[tuple[str, str], ...] = (
    ("4c item 'card' is u64(t) as a data item, 'rho' the 32-byte little-endian scalar",
     "stated: 'data items S, P, C, card (u64(t)), rho (its 32-byte encoding)'"),
    ("4c checks run in the order 1, 2, 3 and the first failure decides", "stated"),
    ("4c with no sealed opening skips check 2", "stated: 'only for a show already settled'"),
    ("4d: the 'named' list is u64 card indices as in 4b", "stated: 'list named (u64)'"),
    ("4d: R is compared with rho*G as encodings (canonical, so equal points, equal bytes)",
     "implied by 'Group, encodings, validation' (canonical 32-byte encodings)"),
    ("4d decryption: compare M with (t+1)*G for the three named cards only",
     "stated: 'the card is the named t with M = (t+1)*G'"),
)

HELD_KEYS = ("card", "rho", "held")
SEALED_KEYS = ("r", "c", "s")


def _scalar_list(values: Any, name: str, count: int | None) -> list[int]:
    if not isinstance(values, list) or (count is not None and len(values) != count):
        raise Rejected(f"{name}: wrong length")
    if not values or len(values) > 4096:
        raise Rejected(f"{name}: empty or too long")
    return [scalar(v, name) for v in values]


def read_public_opening(wire: Any) -> tuple[int, int, list[int], list[int]]:
    """`{card, rho, held: {c, u}}` -> (card, rho, c list, u list); Rejected if malformed."""
    if not isinstance(wire, dict) or set(wire) != set(HELD_KEYS):
        raise Rejected("public opening: wrong keys")
    card = wire["card"]
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card <= 20:
        raise Rejected("public opening: card")
    rho = scalar(wire["rho"], "rho")
    held = wire["held"]
    if not isinstance(held, dict) or set(held) != {"c", "u"}:
        raise Rejected("held: wrong keys")
    cs = _scalar_list(held["c"], "held.c", None)
    us = _scalar_list(held["u"], "held.u", len(cs))
    return card, rho, cs, us


def verify_public_opening(
    ctx: Context, named: Sequence[int], hand: Sequence[bytes], s_key: bytes, p_key: bytes,
    c_point: bytes, wire: Any, sealed_r: bytes | None = None,
) -> str:
    """Return the check that fails ('opening' or 'held-opening'), or '' if it is accepted.
    Malformed wire raises Rejected (the caller's 'malformed')."""
    card, rho, cs, us = read_public_opening(wire)
    try:
        check_opening(named, p_key, c_point, card, enc(rho))
    except Rejected:
        return "opening"
    if sealed_r is not None and base(rho) != sealed_r:
        return "opening"
    if len(named) != 3 or len(set(named)) != 3 or not hand:
        return "held-opening"
    if s_key == IDENTITY or p_key == IDENTITY:
        return "held-opening"
    if len(cs) != len(hand) or len(us) != len(hand):
        return "held-opening"
    m = card_point(card)
    tr = Transcript("held-opening", ctx)
    tr.list("named", [u64(t) for t in named])
    tr.list("hand", list(hand))
    tr.data("S", s_key)
    tr.data("P", p_key)
    tr.data("C", c_point)
    tr.data("card", u64(card))
    tr.data("rho", enc(rho))
    commitments: list[bytes] = []
    for x_p, c, u in zip(hand, cs, us, strict=True):
        commitments += [sub(base(u), mul(c, s_key)), sub(mul(u, m), mul(c, x_p))]
    tr.list("T", commitments)
    if tr.challenge("c", 0) != sum(cs) % L:
        return "held-opening"
    return ""


def read_sealed(wire: Any) -> tuple[bytes, list[int], list[int]]:
    """`{r, c, s}` -> (R, c list, s list); Rejected if malformed (R tested as a point)."""
    if not isinstance(wire, dict) or set(wire) != set(SEALED_KEYS):
        raise Rejected("sealed: wrong keys")
    r_point = point(wire["r"], "r")
    return r_point, _scalar_list(wire["c"], "c", 3), _scalar_list(wire["s"], "s", 3)


def verify_sealed(
    ctx: Context, named: Sequence[int], p_key: bytes, c_point: bytes, wire: Any,
) -> bool:
    """True iff the sealed opening is accepted; malformed wire raises Rejected."""
    r_point, cs, ss = read_sealed(wire)
    if len(named) != 3 or len(set(named)) != 3 or p_key == IDENTITY:
        return False
    residues = [sub(c_point, base(t + 1)) for t in named]
    if IDENTITY in residues:
        return False
    tr = Transcript("sealed-opening", ctx)
    tr.list("named", [u64(t) for t in named])
    tr.data("P", p_key)
    tr.data("C", c_point)
    tr.data("R", r_point)
    commitments: list[bytes] = []
    for residue, c, s in zip(residues, cs, ss, strict=True):
        commitments += [sub(base(s), mul(c, r_point)), sub(mul(s, p_key), mul(c, residue))]
    tr.list("T", commitments)
    return tr.challenge("c", 0) == sum(cs) % L


def decrypt_sealed(named: Sequence[int], c_point: bytes, r_point: bytes, x: int) -> int | None:
    """The suggester's decryption: the named t with C - x*R = (t+1)*G, or None."""
    plain = sub(c_point, mul(x, r_point))
    found = [t for t in named if base(t + 1) == plain]
    return found[0] if len(found) == 1 else None


def decryption_proof_holds(p_key: bytes, r_point: bytes, c_point: bytes, t: int, x: int) -> bool:
    """What 4d says the suggester can show anyone: DLEQ(G, P, R, C - (t+1)*G) holds with x
    for the decrypted card only (checked here directly, as the equation it proves)."""
    return base(x) == p_key and mul(x, r_point) == sub(c_point, base(t + 1))


def seal_from_spec(
    ctx: Context, named: Sequence[int], p_key: bytes, c_point: bytes, rho: int, index: int,
    draw: Callable[[], int],
) -> dict[str, Any]:
    """4d's prover as the spec describes it (draws: v, then (c_i, s_i) for the other i in
    increasing order); ``index`` is the branch answered with rho."""
    r_point = base(rho)
    v = draw()
    cs, ss = [0, 0, 0], [0, 0, 0]
    for i in range(3):
        if i != index:
            cs[i], ss[i] = draw(), draw()
    commitments: list[bytes] = []
    for i, t in enumerate(named):
        if i == index:
            commitments += [base(v), mul(v, p_key)]
        else:
            commitments += [sub(base(ss[i]), mul(cs[i], r_point)),
                            sub(mul(ss[i], p_key), mul(cs[i], sub(c_point, base(t + 1))))]
    tr = Transcript("sealed-opening", ctx)
    tr.list("named", [u64(t) for t in named])
    tr.data("P", p_key)
    tr.data("C", c_point)
    tr.data("R", r_point)
    tr.list("T", commitments)
    c = tr.challenge("c", 0)
    cs[index] = (c - sum(cs)) % L
    ss[index] = (v + cs[index] * rho) % L
    return {"r": r_point, "c": [enc(x) for x in cs], "s": [enc(x) for x in ss]}


def held_from_spec(
    ctx: Context, named: Sequence[int], hand: Sequence[bytes], s: int, s_key: bytes,
    p_key: bytes, c_point: bytes, card: int, rho: int, position: int, draw: Callable[[], int],
) -> dict[str, Any]:
    """4c's prover as the spec describes it (draws: k, then (c_p, u_p) for the other p in
    increasing order)."""
    m = card_point(card)
    k = draw()
    cs, us = [0] * len(hand), [0] * len(hand)
    for p in range(len(hand)):
        if p != position:
            cs[p], us[p] = draw(), draw()
    commitments: list[bytes] = []
    for p, x_p in enumerate(hand):
        if p == position:
            commitments += [base(k), mul(k, m)]
        else:
            commitments += [sub(base(us[p]), mul(cs[p], s_key)),
                            sub(mul(us[p], m), mul(cs[p], x_p))]
    tr = Transcript("held-opening", ctx)
    tr.list("named", [u64(t) for t in named])
    tr.list("hand", list(hand))
    for label, value in (("S", s_key), ("P", p_key), ("C", c_point), ("card", u64(card)),
                         ("rho", enc(rho))):
        tr.data(label, value)
    tr.list("T", commitments)
    c = tr.challenge("c", 0)
    cs[position] = (c - sum(cs)) % L
    us[position] = (k + cs[position] * s) % L
    return {"card": card, "rho": enc(rho),
            "held": {"c": [enc(x) for x in cs], "u": [enc(x) for x in us]}}

