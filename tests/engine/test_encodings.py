"""Issue 9: one meaning, one encoding. Weak identity keys, ambiguous signed payloads and
non-canonical transcript files are refused, each with a typed error or a blame on the
seat whose key signed the bytes."""

from __future__ import annotations

import dataclasses
import struct

import msgpack
import nacl.bindings
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2pclue.bots.protocol import seeded_identity
from p2pclue.engine.audit import audit
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import TranscriptError, WeakKeyError, WireError
from p2pclue.engine.peer import Peer, Status
from p2pclue.engine.transcript import MAGIC, parse
from p2pclue.engine.wire import (
    MAX_DEPTH,
    SIGNING_PREFIX,
    pack,
    read_payload,
    split_frame,
    unpack_canonical,
)
from tests.engine.conftest import finished_game

# ---- identity keys ------------------------------------------------------------------

IDENTITY = bytes([1]) + bytes(31)
ORDER_8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")


def _order(point: bytes) -> int:
    acc, k = point, 1
    while acc != IDENTITY:
        acc = nacl.bindings.crypto_core_ed25519_add(acc, point)
        k += 1
        assert k <= 8
    return k


WEAK_KEYS = ["identity", "order 2", "order 4", "order 8",
             "mixed order (honest key + order-8 point)", "non-canonical identity (y = p + 1)"]
"""The names of ``weak_keys()``, listed here so that collecting the tests plays no game."""


def weak_keys() -> dict[str, bytes]:
    honest = finished_game(3, "classic", 1).config.players[0].identity
    return {
        "identity": IDENTITY,
        "order 2": b"\xec" + b"\xff" * 30 + b"\x7f",
        "order 4": bytes(32),
        "order 8": ORDER_8,
        "mixed order (honest key + order-8 point)":
            nacl.bindings.crypto_core_ed25519_add(honest, ORDER_8),
        "non-canonical identity (y = p + 1)": b"\xee" + b"\xff" * 30 + b"\x7f",
    }


def test_the_weak_keys_are_what_they_claim() -> None:
    keys = weak_keys()
    assert list(keys) == WEAK_KEYS
    assert _order(keys["identity"]) == 1 and _order(keys["order 2"]) == 2
    assert _order(keys["order 4"]) == 4 and _order(keys["order 8"]) == 8
    # Why it matters: under the identity key one fixed signature verifies for every message,
    # so its seat could deny its own frames and anyone could sign as it.
    universal = IDENTITY + bytes(32)
    key = Ed25519PublicKey.from_public_bytes(IDENTITY)
    for message in (b"join", b"accuse", b"anything at all"):
        key.verify(universal, SIGNING_PREFIX + message)


@pytest.mark.parametrize("name", WEAK_KEYS)
def test_a_weak_identity_key_is_refused(name: str) -> None:
    config = finished_game(3, "classic", 1).config
    players = list(config.players)
    players[1] = dataclasses.replace(players[1], identity=weak_keys()[name])
    with pytest.raises(WeakKeyError, match=r"players\[1\]\.identity"):
        GameConfig(tuple(players), config.rules, config.session, config.chain_length)
    # The same config in a transcript header is not a readable transcript.
    wire = config.to_wire()
    wire["players"][1]["identity"] = weak_keys()[name]
    header = pack({"config": wire})
    raw = MAGIC + struct.pack(">H", 1) + struct.pack(">I", len(header)) + header
    raw += struct.pack(">I", 0) + _chunk(pack({"status": "abandoned", "entries": 0,
                                                "blame": None}))
    with pytest.raises(TranscriptError, match="identity"):
        parse(raw)


def _chunk(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


# ---- signed payloads ----------------------------------------------------------------


def _map(items: list[tuple[str, bytes]]) -> bytes:
    """A msgpack map from already-encoded values, in the given order, duplicates allowed."""
    assert len(items) < 16
    return bytes([0x80 | len(items)]) + b"".join(pack(k) + v for k, v in items)


def _items(payload: bytes) -> list[tuple[str, bytes]]:
    header, body = read_payload(payload)
    obj = {"v": 1, "game": header.game, "from": header.sender, "seq": header.seq,
           "prev": header.prev, "type": header.type, "body": body}
    return [(k, pack(v)) for k, v in sorted(obj.items())]


def ambiguous_payloads(payload: bytes) -> dict[str, bytes]:
    items = _items(payload)
    where = {k: i for i, (k, _) in enumerate(items)}
    header, _ = read_payload(payload)

    def swap(key: str, value: bytes) -> list[tuple[str, bytes]]:
        out = list(items)
        out[where[key]] = (key, value)
        return out

    seq16 = b"\xcd" + struct.pack(">H", header.seq)
    return {
        "duplicate type": _map([*items, ("type", pack("end_turn"))]),
        "duplicate game, foreign first": _map([("game", pack(bytes(32))), *items]),
        "keys out of order": _map(list(reversed(items))),
        "non-minimal seq": _map(swap("seq", seq16)),
        "v is true": _map(swap("v", b"\xc3")),
        "from is a bool": _map(swap("from", b"\xc3" if header.sender == 1 else b"\xc2")),
        "str8 type": _map(swap("type", b"\xd9" + bytes([len(header.type)])
                               + header.type.encode())),
        "bin32 prev": _map(swap("prev", b"\xc6" + struct.pack(">I", 32) + header.prev)),
        "trailing byte": payload + b"\xc0",
    }


AMBIGUITIES = ["duplicate type", "duplicate game, foreign first", "keys out of order",
               "non-minimal seq", "v is true", "from is a bool", "str8 type", "bin32 prev",
               "trailing byte"]


@pytest.mark.parametrize("kind", AMBIGUITIES)
def test_an_ambiguous_signed_payload_blames_its_signer(kind: str) -> None:
    """Two implementations must never read two messages from one signed payload: a payload
    that is not the canonical encoding of a well-typed message is refused, and since its
    author signed it for this game, its author is blamed (the audit agrees)."""
    game = finished_game(3, "classic", 1)
    entries = game.peers[0].entries
    index = 40
    sender, payload, _ = split_frame(entries[index])
    bad_payload = ambiguous_payloads(payload)[kind]
    assert bad_payload != payload
    signature = seeded_identity(1, sender).sign(SIGNING_PREFIX + bad_payload)
    frame = pack([sender, bad_payload, signature])
    observer = Peer(game.config, None, relay=False)
    for i, raw in enumerate(entries[:index]):
        observer.receive(raw, float(i))
    observer.receive(frame, float(index))
    assert observer.status is Status.HALTED and observer.blame is not None
    assert observer.blame.culprit == sender and observer.blame.check == "message"
    raw_t = observer.transcript().to_bytes()
    verdict = audit(parse(raw_t), raw_t)
    assert verdict.violation is not None
    assert (verdict.blamed, verdict.violation.check, verdict.violation.reason) == (
        sender, "message", observer.blame.reason)


def test_a_signed_payload_of_no_provable_game_is_dropped() -> None:
    """Signed garbage that does not name this game may come from anywhere: dropped."""
    game = finished_game(3, "classic", 1)
    entries = game.peers[0].entries
    observer = Peer(game.config, None, relay=False)
    for i, raw in enumerate(entries[:5]):
        observer.receive(raw, float(i))
    for junk in (b"\xc1", pack([1, 2]), pack({"game": bytes(32), "x": 1}), b"\x81\xa4game"):
        signature = seeded_identity(1, 2).sign(SIGNING_PREFIX + junk)
        observer.receive(pack([2, junk, signature]), 5.0)
    assert observer.status is Status.RUNNING and observer.blame is None
    assert observer.dropped_count == 4


@pytest.mark.parametrize(
    "data",
    [b"\xcc\x05", b"\xd0\x05", b"\xcd\x00\x80", b"\xd9\x01a", b"\xc5\x00\x01x",
     b"\xdc\x00\x01\x01", b"\xde\x00\x01\xa1a\x01", b"\x82\xa1b\x01\xa1a\x01",
     b"\x82\xa1a\x01\xa1a\x01", b"\xd1\xff\xff"],
)
def test_non_canonical_msgpack_is_refused(data: bytes) -> None:
    with pytest.raises(WireError):
        unpack_canonical(data)


def test_how_the_nesting_limit_counts() -> None:
    """Depth = the number of arrays and maps around a value; map keys do not count."""
    deepest = 1
    for _ in range(MAX_DEPTH):
        deepest = [deepest]  # type: ignore[assignment]
    assert unpack_canonical(pack(deepest)) == deepest  # the 1 sits at depth MAX_DEPTH
    with pytest.raises(WireError, match="deeply"):
        unpack_canonical(pack([deepest]))
    as_maps: object = 1
    for _ in range(MAX_DEPTH):
        as_maps = {"k": as_maps}
    assert unpack_canonical(pack(as_maps)) == as_maps
    with pytest.raises(WireError, match="deeply"):
        unpack_canonical(pack({"k": as_maps}))


# ---- transcript files -----------------------------------------------------------------


def _respell_header(raw: bytes, header: bytes) -> bytes:
    (n,) = struct.unpack(">I", raw[10:14])
    return raw[:10] + _chunk(header) + raw[14 + n:]


def test_exactly_one_byte_sequence_is_a_transcript() -> None:
    t = finished_game(3, "classic", 1).peers[0].transcript()
    raw = t.to_bytes()
    assert parse(raw).to_bytes() == raw and audit(parse(raw), raw).valid
    wire = t.config.to_wire()
    reordered = msgpack.packb({"config": dict(reversed(list(wire.items())))},
                              use_bin_type=True)
    chain16 = pack({"config": wire}).replace(
        pack("chain_length") + pack(wire["chain_length"]),
        pack("chain_length") + b"\xce" + struct.pack(">I", wire["chain_length"]))
    protocol_true = pack({"config": wire}).replace(pack("protocol") + b"\x01",
                                                   pack("protocol") + b"\xc3")
    for header in (reordered, chain16, protocol_true):
        assert header != pack({"config": wire})
        with pytest.raises(TranscriptError):
            parse(_respell_header(raw, header))
    # Footers: only the canonical form, a blame only with "halted", integers not booleans.
    n = len(t.entries)
    canonical = pack(t.footer.to_wire())
    body = raw[: len(raw) - 4 - len(canonical)]
    assert parse(body + _chunk(canonical)).to_bytes() == raw
    blame = {"culprit": 1, "check": "chain", "reason": "x", "index": n, "evidence": [b"x"]}
    for footer in (
        msgpack.packb({"status": "complete", "entries": n, "blame": None}),  # unsorted keys
        pack({"status": "complete", "entries": n, "blame": None}).replace(
            pack("entries") + pack(n), pack("entries") + b"\xcd" + struct.pack(">H", n)),
        pack({"status": "abandoned", "entries": n, "blame": blame}),
        pack({"status": "halted", "entries": n, "blame": dict(blame, culprit=True)}),
        pack({"status": "halted", "entries": n, "blame": dict(blame, index=False)}),
    ):
        assert footer != canonical
        with pytest.raises(TranscriptError):
            parse(body + _chunk(footer))
