"""docs/protocol.md read by a stranger: a sample transcript checked from the spec alone.

Everything here is written from the text of docs/protocol.md with hashlib, msgpack and
PyNaCl's public bindings, not with p2pclue's code (the engine is used only to compare the
derived dice and weapon placement). It pins the statements another implementation must
not have to guess: byte order of u32 in Fiat-Shamir, challenges not absorbed, step strings,
the PET-weights context, the sequential unlayer/open, the randomness event counter and
`random/<e>`, and which reveal carries `renew`.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
import nacl.bindings as nb
import pytest

from p2pclue.engine.peer import Peer
from p2pclue.engine.transcript import parse

SAMPLES = Path(__file__).resolve().parents[2] / "protocol" / "samples"
L = 2**252 + 27742317777372353535851937790883648493
SLUGS = ("scarlett", "mustard", "white", "green", "peacock", "plum",
         "candlestick", "dagger", "lead_pipe", "revolver", "rope", "wrench",
         "kitchen", "ballroom", "conservatory", "dining_room", "billiard_room", "library",
         "lounge", "hall", "study")


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def lp(x: bytes) -> bytes:
    return u32(len(x)) + x


class FS:
    """The Fiat-Shamir transcript exactly as the spec words it."""

    def __init__(self, tag: str, game_id: bytes, step: str, prover: int) -> None:
        self.h = hashlib.sha512()
        for label, data in (("domain", b"p2pclue/fiat-shamir"), ("tag", tag.encode()),
                            ("version", u64(1)), ("game_id", game_id), ("step", step.encode()),
                            ("prover", u64(prover))):
            self.data(label, data)

    def data(self, label: str, data: bytes) -> FS:
        self.h.update(b"\x01" + lp(label.encode()) + lp(data))
        return self

    def items(self, label: str, items: list[bytes]) -> FS:
        self.h.update(b"\x02" + lp(label.encode()) + u32(len(items)) + b"".join(map(lp, items)))
        return self

    def challenge(self, label: str, i: int = 0) -> int:
        h = self.h.copy()  # not absorbed
        h.update(b"\x03" + lp(label.encode()) + u32(i))
        return int.from_bytes(h.digest(), "little") % L


def sc(n: int) -> bytes:
    return (n % L).to_bytes(32, "little")


def mul(n: int, p: bytes) -> bytes:
    return bytes(nb.crypto_scalarmult_ed25519_noclamp(sc(n), p))


def base(n: int) -> bytes:
    return bytes(nb.crypto_scalarmult_ed25519_base_noclamp(sc(n)))


def add(p: bytes, q: bytes) -> bytes:
    return bytes(nb.crypto_core_ed25519_add(p, q))


def sub(p: bytes, q: bytes) -> bytes:
    return bytes(nb.crypto_core_ed25519_sub(p, q))


def lincomb(ws: list[int], ps: list[bytes]) -> bytes:
    acc = mul(ws[0], ps[0])
    for w, p in zip(ws[1:], ps[1:], strict=True):
        acc = add(acc, mul(w, p))
    return acc


def card_point(index: int) -> bytes:
    for counter in range(256):
        r = hashlib.sha512(lp(b"p2pclue/hash-to-group") + lp(u64(1)) + lp(b"card")
                           + lp(SLUGS[index].encode()) + u32(counter)).digest()[:32]
        p = bytes(nb.crypto_core_ed25519_from_uniform(r))
        if nb.crypto_core_ed25519_is_valid_point(p):
            return p
    raise AssertionError("no point")


def chain_step(x: bytes) -> bytes:
    return hashlib.sha512(lp(b"p2pclue/hash-chain") + lp(u64(1)) + lp(x)).digest()[:32]


def event_bytes(game_id: bytes, event_id: str, reveals: list[bytes]) -> Any:
    prefix = (lp(b"p2pclue/random-event") + lp(u64(1)) + lp(game_id) + lp(event_id.encode())
              + u32(len(reveals)) + b"".join(map(lp, reveals)))
    k = 0
    while True:
        yield from hashlib.sha512(prefix + u32(k)).digest()
        k += 1


def uniform(stream: Any, n: int) -> int:
    while True:
        b = next(stream)
        if b < 256 - 256 % n:
            return int(b % n)


def verify_batch(game_id: bytes, step: str, prover: int, y: bytes, inputs: list[bytes],
                 outputs: list[bytes], proof: dict[str, bytes]) -> bool:
    t = FS("dleq-batch", game_id, step, prover).data("Y", y)
    t.items("inputs", inputs).items("outputs", outputs)
    z = [t.challenge("z", i) for i in range(len(inputs))]
    m, n = lincomb(z, inputs), lincomb(z, outputs)
    t.data("M", m).data("N", n)
    c, s = int.from_bytes(proof["c"], "little"), int.from_bytes(proof["s"], "little")
    t.data("T1", sub(base(s), mul(c, y))).data("T2", sub(mul(s, m), mul(c, n)))
    return t.challenge("c") == c


@dataclass
class Reading:
    """What the stranger derives from the file."""

    n: int
    rules: dict[str, bool]
    game_id: bytes = b""
    keys_ok: int = 0
    y: list[bytes] = field(default_factory=list)
    s: list[bytes] = field(default_factory=list)
    positions: list[bytes] = field(default_factory=list)
    unlayers_ok: int = 0
    opens_ok: int = 0
    weights_ok: int = 0
    dice: list[tuple[int, ...]] = field(default_factory=list)
    weapons: dict[int, int] | None = None


def read(path: Path) -> Reading:
    raw = path.read_bytes()
    assert raw[:8] == b"P2PCLUE\x00" and struct.unpack(">H", raw[8:10]) == (1,)
    pos = 10

    def chunk() -> bytes:
        nonlocal pos
        (size,) = struct.unpack(">I", raw[pos:pos + 4])
        pos += 4
        out = raw[pos:pos + size]
        pos += size
        return out

    header = msgpack.unpackb(chunk(), raw=False)
    config = header["config"]
    digest = hashlib.sha256(b"p2pclue/v1/config\x00" + msgpack.packb(config)).digest()
    entries = []
    while (e := chunk()) != b"":
        entries.append(e)
    n = len(config["players"])
    r = Reading(n, config["rules"])
    prev = hashlib.sha256(b"p2pclue/v1/chain-start\x00" + digest).digest()
    nonces: list[bytes] = []
    envelope: list[bytes] = []
    decks = [[card_point(i) for i in range(a, b)] for a, b in ((0, 6), (6, 12), (12, 21))]
    deal: list[bytes] = []
    tips: list[bytes] = []
    used = [0] * n
    chain_length = config["chain_length"]
    event, reveals = 0, []
    qp: tuple[bytes, bytes] | None = None
    owners: list[int | None] = []
    for index, frame in enumerate(entries):
        sender, payload, _sig = msgpack.unpackb(frame, raw=False)
        p = msgpack.unpackb(payload, raw=False)
        assert p["game"] == digest  # payload.game is the config digest, always
        assert p["prev"] == prev
        prev = hashlib.sha256(frame).digest()
        kind, body = p["type"], p["body"]
        if kind == "join":
            nonces.append(body["nonce"])
            if len(nonces) == n:
                r.game_id = hashlib.sha256(b"p2pclue/v1/game-id\x00" + digest
                                           + b"".join(nonces)).digest()
        elif kind == "keys":
            c = int.from_bytes(body["proof"]["c"], "little")
            s = int.from_bytes(body["proof"]["s"], "little")
            commit = sub(base(s), mul(c, body["Y"]))
            t = FS("key", r.game_id, f"{index}:keys", sender).data("Y", body["Y"])
            r.keys_ok += t.data("R", commit).challenge("c") == c
            r.y.append(body["Y"])
            tips.append(body["chain"])
        elif kind == "envelope":
            decks = body["decks"]
            if sender == n - 1:
                envelope = [d[0] for d in decks]
                deal = [pt for d in decks for pt in d[1:]]
        elif kind == "deal":
            deal = body["deck"]
            r.s.append(body["S"])
            if sender == n - 1:
                r.positions = list(deal)
                dealt = 18 - 18 % n if r.rules["deal_equal"] else 18
                owners = [q % n if q < dealt else None for q in range(18)]
        elif kind == "unlayer":
            targets = [q for q, o in enumerate(owners) if o != sender]
            current = [r.positions[q] for q in targets]  # as the seats before left them
            r.unlayers_ok += verify_batch(r.game_id, f"{index}:unlayer", sender, r.s[sender],
                                          body["points"], current, body["proof"])
            for q, point in zip(targets, body["points"], strict=True):
                r.positions[q] = point
        elif kind == "reveal":
            assert body["event"] == event
            assert chain_step(body["value"]) == tips[sender]
            used[sender] += 1
            assert (body["renew"] is not None) == (used[sender] == chain_length)
            tips[sender] = body["renew"] or body["value"]
            reveals.append(body["value"])
            if sender == n - 1:
                stream = event_bytes(r.game_id, f"random/{event}", reveals)
                if event == 0 and r.rules["weapons_random"]:
                    rooms = list(range(12, 21))
                    r.weapons = {w: rooms.pop(uniform(stream, len(rooms)))
                                 for w in range(6, 12)}
                else:
                    n_dice = 2 if r.rules["two_dice"] else 1
                    r.dice.append(tuple(uniform(stream, 6) + 1 for _ in range(n_dice)))
                event, reveals = event + 1, []
        elif kind == "accuse":
            named = [body["suspect"], body["weapon"], body["room"]]
            t = FS("pet-weights", r.game_id, f"{index}:accuse", sender)
            t.items("accused", [u64(c) for c in named]).items("envelope", envelope)
            w = [t.challenge("w", i) for i in range(3)]
            qp = (lincomb(w, envelope), lincomb(w, [card_point(c) for c in named]))
        elif kind == "pet":
            assert qp is not None
            t = FS("pet-step", r.game_id, f"{index}:pet", sender)
            t.items("statement", [qp[0], qp[1], body["Q"], body["P"], r.y[sender]])
            ch = int.from_bytes(body["proof"]["c"], "little")
            sb = int.from_bytes(body["proof"]["sb"], "little")
            sc_ = int.from_bytes(body["proof"]["sc"], "little")
            t.items("T", [sub(mul(sb, qp[0]), mul(ch, body["Q"])),
                          sub(mul(sc_, qp[1]), mul(ch, body["P"])),
                          sub(base(sc_), mul(sb, r.y[sender]))])
            r.weights_ok += t.challenge("c") == ch
            qp = (body["Q"], body["P"])
        elif kind == "open":
            r.opens_ok += verify_batch(r.game_id, f"{index}:open", sender, r.y[sender],
                                       body["points"], envelope, body["proof"])
            envelope = body["points"]  # the next seat strips the current points
    return r


@pytest.mark.parametrize("name", ["classic-3p.p2pclue", "cz-4p.p2pclue"])
def test_a_sample_checks_out_from_the_spec_alone(name: str) -> None:
    path = SAMPLES / name
    mine = read(path)
    transcript = parse(path.read_bytes())
    observer = Peer(transcript.config, None, relay=False)
    for i, raw in enumerate(transcript.entries):
        observer.receive(raw, float(i))
    assert observer.game_id == mine.game_id
    assert mine.keys_ok == mine.n
    assert mine.unlayers_ok == mine.n
    assert mine.weights_ok > 0 and mine.weights_ok % mine.n == 0
    assert mine.opens_ok == mine.n
    assert mine.dice == [dice for _, dice in observer.dice_log]
    assert mine.weapons == (observer.weapon_rooms if mine.rules["weapons_random"] else None)
