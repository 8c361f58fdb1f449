"""A verifier and provers for proofs 4b, 4c and 4d written from docs/protocol.md alone.

Nothing here comes from p2pclue: only the spec's Cryptography chapter (group, encodings,
hash-to-group, Fiat-Shamir transcript, sections 4b, 4c, 4d) and libsodium's low-level
group operations through PyNaCl. It exists so that a disagreement between the spec and the
reference code shows up as a disagreement between two programs.

Verdicts are strings, so that they can be compared with the reference code's exceptions:
``"accepted"``, ``"malformed"`` (wire shape, a scalar or point that does not decode),
``"opening"``, ``"held-opening"``, ``"sealed-opening"``, ``"commit-show"`` (the check tag of
a proof that decodes but does not verify).

Where the spec as first written left a choice, this file made one, and the vectors then
confirmed it: the Fiat-Shamir labels are the names the sections print in backticks (the
spec said "as in the code"); a SeededRandom block is 64 bytes of SHAKE-256 output, read
little-endian and reduced mod L, one block a scalar, the counter starting at 0 for every
source (the spec named neither the output length nor the conversion, nor what a zero draw
does); a point from a peer that fails the group test is a decoding failure ("malformed"),
not a rejected proof; a ``named`` list is three distinct integers 0..20. The spec now
states the first three.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from nacl import bindings as sodium

L = 2**252 + 27742317777372353535851937790883648493
IDENTITY = (1).to_bytes(32, "little")
MAX_LIST = 4096

SLUGS = (
    "scarlett", "mustard", "white", "green", "peacock", "plum",
    "candlestick", "dagger", "lead_pipe", "revolver", "rope", "wrench",
    "kitchen", "ballroom", "conservatory", "dining_room", "billiard_room", "library",
    "lounge", "hall", "study",
)


class Refused(Exception):
    """A verdict other than acceptance; ``verdict`` is the check that failed."""

    def __init__(self, verdict: str, why: str) -> None:
        super().__init__(f"{verdict}: {why}")
        self.verdict = verdict


def malformed(why: str) -> Refused:
    return Refused("malformed", why)


# --- group -------------------------------------------------------------------------------

def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def lp(x: bytes) -> bytes:
    return u32(len(x)) + x


def enc_scalar(s: int) -> bytes:
    return (s % L).to_bytes(32, "little")


def read_scalar(value: Any, field: str) -> int:
    """A wire scalar: 32 bytes, little-endian, canonical (< L) and non-zero."""
    if not isinstance(value, bytes) or len(value) != 32:
        raise malformed(f"{field}: not 32 bytes")
    s = int.from_bytes(value, "little")
    if s >= L or s == 0:
        raise malformed(f"{field}: not canonical or zero")
    return s


def read_point(value: Any, field: str) -> bytes:
    """A point from a peer: 32 bytes, canonical, in the prime-order subgroup, not identity."""
    if not isinstance(value, bytes) or len(value) != 32:
        raise malformed(f"{field}: not 32 bytes")
    if not sodium.crypto_core_ed25519_is_valid_point(value):
        raise malformed(f"{field}: not a valid point")
    return value


def mul(s: int, p: bytes) -> bytes:
    """s*P for a point already known to be in the group (identity allowed)."""
    s %= L
    if s == 0 or p == IDENTITY:
        return IDENTITY
    return sodium.crypto_scalarmult_ed25519_noclamp(enc_scalar(s), p)


def base(s: int) -> bytes:
    s %= L
    if s == 0:
        return IDENTITY
    return sodium.crypto_scalarmult_ed25519_base_noclamp(enc_scalar(s))


def add(p: bytes, q: bytes) -> bytes:
    return sodium.crypto_core_ed25519_add(p, q)


def sub(p: bytes, q: bytes) -> bytes:
    return sodium.crypto_core_ed25519_sub(p, q)


def inv(s: int) -> int:
    return pow(s, L - 2, L)


def hash_to_group(kind: bytes, label: bytes) -> bytes:
    counter = 0
    while True:
        r = hashlib.sha512(lp(b"p2pclue/hash-to-group") + lp(u64(1)) + lp(kind) + lp(label)
                           + u32(counter)).digest()[:32]
        p = sodium.crypto_core_ed25519_from_uniform(r)
        if p != IDENTITY and sodium.crypto_core_ed25519_is_valid_point(p):
            return p
        counter += 1


CARD_POINTS = tuple(hash_to_group(b"card", slug.encode()) for slug in SLUGS)


def card_point(t: int) -> bytes:
    return CARD_POINTS[t]


# --- Fiat-Shamir ------------------------------------------------------------------------

@dataclass(frozen=True)
class Context:
    game_id: bytes
    step: str
    prover: int


class Transcript:
    def __init__(self, tag: str, ctx: Context | None) -> None:
        self.data = b""
        self.item("domain", b"p2pclue/fiat-shamir")
        self.item("tag", tag.encode())
        self.item("version", u64(1))
        if ctx is not None:
            self.item("game_id", ctx.game_id)
            self.item("step", ctx.step.encode("utf-8"))
            self.item("prover", u64(ctx.prover))

    def item(self, label: str, data: bytes) -> None:
        self.data += b"\x01" + lp(label.encode()) + lp(data)

    def items(self, label: str, elems: Sequence[bytes]) -> None:
        self.data += b"\x02" + lp(label.encode()) + u32(len(elems))
        self.data += b"".join(lp(e) for e in elems)

    def challenge(self, label: str, index: int = 0) -> int:
        h = hashlib.sha512(self.data + b"\x03" + lp(label.encode()) + u32(index)).digest()
        return int.from_bytes(h, "little") % L


# --- seeded randomness (tests and vectors only) ------------------------------------------

class Seeded:
    """SeededRandom: block i = SHAKE-256(tag | u32(len seed) | seed | u64(i)), one a draw."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self.i = 0

    def block(self) -> bytes:
        out = hashlib.shake_256(b"p2pclue/seeded-random/v1" + u32(len(self.seed)) + self.seed
                                + u64(self.i)).digest(64)
        self.i += 1
        return out

    def scalar(self) -> int:
        while True:  # a zero scalar is drawn again (probability about 2^-252)
            s = int.from_bytes(self.block(), "little") % L
            if s:
                return s


# --- statements ---------------------------------------------------------------------------

def check_named(named: Sequence[int]) -> bool:
    return (len(named) == 3 and len(set(named)) == 3
            and all(isinstance(t, int) and not isinstance(t, bool) and 0 <= t <= 20
                    for t in named))


def read_card(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 20:
        raise malformed("card: not an integer 0..20")
    return value


def read_keys(wire: Any, keys: set[str], what: str) -> dict[str, Any]:
    if not isinstance(wire, dict) or set(wire) != keys:
        raise malformed(f"{what}: keys are not {sorted(keys)}")
    return wire


def read_scalars(value: Any, field: str) -> list[int]:
    if not isinstance(value, list) or len(value) > MAX_LIST:
        raise malformed(f"{field}: not a list of at most {MAX_LIST}")
    return [read_scalar(v, f"{field}[{i}]") for i, v in enumerate(value)]


def check_opening(named: Sequence[int], P: bytes, C: bytes, t: int, rho: int) -> None:
    if t not in named or add(base(t + 1), mul(rho, P)) != C:
        raise Refused("opening", "the opening does not open the commitment to a named card")


# --- 4b: commit-show ----------------------------------------------------------------------

def commit_show_transcript(ctx: Context, named: Sequence[int], hand: Sequence[bytes],
                           S: bytes, P: bytes, C: bytes, A: bytes, Z: bytes,
                           TP: Sequence[bytes], TI: Sequence[bytes]) -> int:
    tr = Transcript("commit-show", ctx)
    tr.items("named", [u64(t) for t in named])
    tr.items("hand", list(hand))
    for label, p in (("S", S), ("P", P), ("C", C), ("A", A), ("Z", Z)):
        tr.item(label, p)
    tr.items("TP", list(TP))
    tr.items("TI", list(TI))
    return tr.challenge("c")


def verify_commit_show(ctx: Context, named: Sequence[int], hand: Sequence[bytes], S: bytes,
                       P: bytes, C: bytes, proof: Any) -> str:
    try:
        w = read_keys(proof, {"a", "z", "cp", "up", "ci", "ui", "vi"}, "proof")
        cp, up = read_scalars(w["cp"], "cp"), read_scalars(w["up"], "up")
        ci, ui, vi = (read_scalars(w[k], k) for k in ("ci", "ui", "vi"))
        if not cp or len(up) != len(cp) or not len(ci) == len(ui) == len(vi) == 3:
            raise malformed("list lengths")
        A, Z = read_point(w["a"], "a"), read_point(w["z"], "z")
        h = len(hand)
        if (not check_named(named) or h == 0 or IDENTITY in (S, P, A, Z) or len(cp) != h
                or any(base(t + 1) == C for t in named)):
            raise Refused("commit-show", "statement")
        TP: list[bytes] = []
        for p in range(h):
            TP += [sub(mul(up[p], S), mul(cp[p], A)), sub(mul(up[p], hand[p]), mul(cp[p], Z))]
        TI: list[bytes] = []
        for i, t in enumerate(named):
            TI += [sub(base(ui[i]), mul(ci[i], A)), sub(mul(ui[i], card_point(t)), mul(ci[i], Z)),
                   sub(mul(vi[i], P), mul(ci[i], sub(C, base(t + 1))))]
        c = commit_show_transcript(ctx, named, hand, S, P, C, A, Z, TP, TI)
        if sum(cp) % L != c or sum(ci) % L != c:
            raise Refused("commit-show", "challenge")
    except Refused as e:
        return e.verdict
    return "accepted"


def prove_commit_show(rng: Seeded, ctx: Context, named: Sequence[int], s: int,
                      hand: Sequence[bytes], P: bytes, t: int, rho: int,
                      pstar: int) -> tuple[bytes, dict[str, Any]]:
    """C and proof 4b, draws after rho in the spec's order: b, k, w, v, positions, cards."""
    S, istar, h = base(s), list(named).index(t), len(hand)
    C = add(base(t + 1), mul(rho, P))
    b, k, w, v = rng.scalar(), rng.scalar(), rng.scalar(), rng.scalar()
    a = b * s % L
    A, Z = base(a), mul(a, card_point(t))
    cp, up = [0] * h, [0] * h
    TP: list[bytes] = []
    for p in range(h):
        if p == pstar:
            TP += [mul(k, S), mul(k, hand[p])]
            continue
        cp[p], up[p] = rng.scalar(), rng.scalar()
        TP += [sub(mul(up[p], S), mul(cp[p], A)), sub(mul(up[p], hand[p]), mul(cp[p], Z))]
    ci, ui, vi = [0] * 3, [0] * 3, [0] * 3
    TI: list[bytes] = []
    for i, ti in enumerate(named):
        if i == istar:
            TI += [base(w), mul(w, card_point(ti)), mul(v, P)]
            continue
        ci[i], ui[i], vi[i] = rng.scalar(), rng.scalar(), rng.scalar()
        TI += [sub(base(ui[i]), mul(ci[i], A)), sub(mul(ui[i], card_point(ti)), mul(ci[i], Z)),
               sub(mul(vi[i], P), mul(ci[i], sub(C, base(ti + 1))))]
    c = commit_show_transcript(ctx, named, hand, S, P, C, A, Z, TP, TI)
    cp[pstar] = (c - sum(cp)) % L
    up[pstar] = (k + cp[pstar] * b) % L
    ci[istar] = (c - sum(ci)) % L
    ui[istar] = (w + ci[istar] * a) % L
    vi[istar] = (v + ci[istar] * rho) % L
    return C, {"a": A, "z": Z, "cp": [enc_scalar(x) for x in cp],
               "up": [enc_scalar(x) for x in up], "ci": [enc_scalar(x) for x in ci],
               "ui": [enc_scalar(x) for x in ui], "vi": [enc_scalar(x) for x in vi]}


def show_rho(k: int, ctx: Context) -> int:
    tr = Transcript("commit-rho", ctx)
    tr.item("k", enc_scalar(k))
    return tr.challenge("rho")


def equivocate(x: int, t: int, rho: int, t2: int) -> int:
    return (rho + (t - t2) * inv(x)) % L


# --- 4c: held-opening ----------------------------------------------------------------------

def held_transcript(ctx: Context, named: Sequence[int], hand: Sequence[bytes], S: bytes,
                    P: bytes, C: bytes, t: int, rho: int, T: Sequence[bytes]) -> int:
    tr = Transcript("held-opening", ctx)
    tr.items("named", [u64(x) for x in named])
    tr.items("hand", list(hand))
    tr.item("S", S)
    tr.item("P", P)
    tr.item("C", C)
    tr.item("card", u64(t))
    tr.item("rho", enc_scalar(rho))
    tr.items("T", list(T))
    return tr.challenge("c")


@dataclass(frozen=True)
class PublicOpening:
    card: int
    rho: int
    c: list[int]
    u: list[int]


def read_public_opening(wire: Any) -> PublicOpening:
    w = read_keys(wire, {"card", "rho", "held"}, "public opening")
    held = read_keys(w["held"], {"c", "u"}, "held")
    card = read_card(w["card"])
    rho = read_scalar(w["rho"], "rho")
    c, u = read_scalars(held["c"], "held.c"), read_scalars(held["u"], "held.u")
    if not c or len(u) != len(c):
        raise malformed("held: c empty or u of another length")
    return PublicOpening(card, rho, c, u)


def verify_public_opening(ctx: Context, named: Sequence[int], hand: Sequence[bytes], S: bytes,
                          P: bytes, C: bytes, wire: Any, sealed_r: bytes | None = None) -> str:
    try:
        o = read_public_opening(wire)
        check_opening(named, P, C, o.card, o.rho)
        if sealed_r is not None and base(o.rho) != sealed_r:
            raise Refused("opening", "differs from the sealed opening")
        h = len(hand)
        if (not check_named(named) or h == 0 or IDENTITY in (S, P) or len(o.c) != h):
            raise Refused("held-opening", "statement")
        M = card_point(o.card)
        T: list[bytes] = []
        for p in range(h):
            T += [sub(base(o.u[p]), mul(o.c[p], S)), sub(mul(o.u[p], M), mul(o.c[p], hand[p]))]
        if sum(o.c) % L != held_transcript(ctx, named, hand, S, P, C, o.card, o.rho, T):
            raise Refused("held-opening", "challenge")
    except Refused as e:
        return e.verdict
    return "accepted"


def prove_public_opening(rng: Seeded, ctx: Context, named: Sequence[int], s: int,
                         hand: Sequence[bytes], P: bytes, C: bytes, t: int, rho: int,
                         pstar: int) -> dict[str, Any]:
    """Draws: k, then (c_p, u_p) for each other position in increasing p."""
    S, M, h = base(s), card_point(t), len(hand)
    k = rng.scalar()
    c, u = [0] * h, [0] * h
    T: list[bytes] = []
    for p in range(h):
        if p == pstar:
            T += [base(k), mul(k, M)]
            continue
        c[p], u[p] = rng.scalar(), rng.scalar()
        T += [sub(base(u[p]), mul(c[p], S)), sub(mul(u[p], M), mul(c[p], hand[p]))]
    ch = held_transcript(ctx, named, hand, S, P, C, t, rho, T)
    c[pstar] = (ch - sum(c)) % L
    u[pstar] = (k + c[pstar] * s) % L
    return {"card": t, "rho": enc_scalar(rho),
            "held": {"c": [enc_scalar(x) for x in c], "u": [enc_scalar(x) for x in u]}}


# --- 4d: sealed-opening --------------------------------------------------------------------

def sealed_transcript(ctx: Context, named: Sequence[int], P: bytes, C: bytes, R: bytes,
                      T: Sequence[bytes]) -> int:
    tr = Transcript("sealed-opening", ctx)
    tr.items("named", [u64(x) for x in named])
    tr.item("P", P)
    tr.item("C", C)
    tr.item("R", R)
    tr.items("T", list(T))
    return tr.challenge("c")


def verify_sealed_opening(ctx: Context, named: Sequence[int], P: bytes, C: bytes,
                          wire: Any) -> str:
    try:
        w = read_keys(wire, {"r", "c", "s"}, "sealed")
        c, s = read_scalars(w["c"], "c"), read_scalars(w["s"], "s")
        if len(c) != 3 or len(s) != 3:
            raise malformed("c and s are not 3 scalars")
        R = read_point(w["r"], "r")
        if not check_named(named) or IDENTITY in (P, R):
            raise Refused("sealed-opening", "statement")
        T: list[bytes] = []
        for i, t in enumerate(named):
            residue = sub(C, base(t + 1))
            if residue == IDENTITY:
                raise Refused("sealed-opening", "a named card in the clear")
            T += [sub(base(s[i]), mul(c[i], R)), sub(mul(s[i], P), mul(c[i], residue))]
        if sum(c) % L != sealed_transcript(ctx, named, P, C, R, T):
            raise Refused("sealed-opening", "challenge")
    except Refused as e:
        return e.verdict
    return "accepted"


def prove_sealed_opening(rng: Seeded, ctx: Context, named: Sequence[int], P: bytes, C: bytes,
                         t: int, rho: int, istar: int | None = None) -> dict[str, Any]:
    """Draws: v, then (c_i, s_i) for each other card in increasing i.

    ``istar`` defaults to t's index; another one makes a false proof (as in the vectors).
    """
    if istar is None:
        istar = list(named).index(t)
    R = base(rho)
    v = rng.scalar()
    c, s = [0] * 3, [0] * 3
    T: list[bytes] = []
    for i, ti in enumerate(named):
        if i == istar:
            T += [base(v), mul(v, P)]
            continue
        c[i], s[i] = rng.scalar(), rng.scalar()
        T += [sub(base(s[i]), mul(c[i], R)), sub(mul(s[i], P), mul(c[i], sub(C, base(ti + 1))))]
    ch = sealed_transcript(ctx, named, P, C, R, T)
    c[istar] = (ch - sum(c)) % L
    s[istar] = (v + c[istar] * rho) % L
    return {"r": R, "c": [enc_scalar(x) for x in c], "s": [enc_scalar(x) for x in s]}


def open_sealed(x: int, named: Sequence[int], C: bytes, R: bytes) -> int | None:
    """The suggester's decryption: the named t with C - x*R = (t+1)*G, or None."""
    M = sub(C, mul(x, R))
    hits = [t for t in named if base(t + 1) == M]
    return hits[0] if len(hits) == 1 else None


# --- vectors --------------------------------------------------------------------------------

def from_hex(value: Any) -> Any:
    """The vectors' hex strings as wire bytes, recursively (integers stay integers)."""
    if isinstance(value, str):
        return bytes.fromhex(value)
    if isinstance(value, list):
        return [from_hex(v) for v in value]
    if isinstance(value, dict):
        return {k: from_hex(v) for k, v in value.items()}
    return value


def context_of(v: dict[str, Any]) -> Context:
    c = v["context"]
    return Context(bytes.fromhex(c["game_id"]), c["step"], c["prover"])


def walk(wire: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every leaf of a wire value with its path."""
    if isinstance(wire, dict):
        for k, v in wire.items():
            yield from walk(v, (*path, k))
    elif isinstance(wire, list):
        for i, v in enumerate(wire):
            yield from walk(v, (*path, i))
    else:
        yield path, wire
