"""Strict decoding of untrusted bytes, signed frames and the transcript file."""

from __future__ import annotations

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.engine.errors import TranscriptError, WireError
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import (
    Header,
    decode_payload,
    pack,
    sign_frame,
    split_frame,
    unpack_strict,
    verify_signature,
)
from tests.engine.conftest import finished_game


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (pack({"a": 1}) + b"\x00", "trailing"),
        (pack({"a": 1})[:-1], "truncated"),
        (msgpack.packb({1: 2}), "undecodable|keys"),
        (msgpack.packb(msgpack.ExtType(5, b"xx")), "extension"),
        (msgpack.packb(msgpack.Timestamp(1, 0)), "extension|not allowed"),
        (msgpack.packb(1.5), "not allowed"),
        (pack([[[[[[[[[[1]]]]]]]]]]), "deeply"),
        (b"\xc1", "undecodable"),
    ],
)
def test_unpack_strict_rejects(data: bytes, match: str) -> None:
    with pytest.raises(WireError, match=match):
        unpack_strict(data)


def test_unpack_strict_size_limit() -> None:
    with pytest.raises(WireError, match="over the limit"):
        unpack_strict(pack(b"x" * 100), max_bytes=50)


def test_signed_frame_roundtrip_and_tamper() -> None:
    key = Ed25519PrivateKey.from_private_bytes(bytes(32))
    header = Header(bytes(32), 2, 5, b"\x01" * 32, "roll")
    raw = sign_frame(key, header, {})
    sender, payload, sig = split_frame(raw)
    assert sender == 2 and verify_signature(key.public_key(), payload, sig)
    assert decode_payload(2, payload) == (header, {})
    assert not verify_signature(key.public_key(), payload[:-1] + bytes([payload[-1] ^ 1]), sig)
    with pytest.raises(WireError, match="from"):
        decode_payload(3, payload)


@pytest.mark.parametrize("bad", [pack([1, b"x"]), pack(["1", b"", bytes(64)]),
                                 pack([1, b"", bytes(63)]), pack({"a": 1})])
def test_split_frame_rejects_bad_shapes(bad: bytes) -> None:
    with pytest.raises(WireError):
        split_frame(bad)


def test_transcript_roundtrip() -> None:
    peer = finished_game().peers[0]
    raw = peer.transcript().to_bytes()
    t = parse(raw)
    assert t.entries == tuple(peer.entries)
    assert t.config == peer.config
    assert t.footer.status == "complete" and t.to_bytes() == raw


@pytest.mark.parametrize("cut", [0, 5, 9, 20, -1, -7])
def test_truncated_transcript_is_not_readable(cut: int) -> None:
    raw = finished_game().peers[0].transcript().to_bytes()
    with pytest.raises(TranscriptError):
        parse(raw[:cut])


def test_wrong_magic_and_stray_bytes() -> None:
    raw = finished_game().peers[0].transcript().to_bytes()
    with pytest.raises(TranscriptError, match="magic"):
        parse(b"X" + raw[1:])
    with pytest.raises(TranscriptError, match="stray"):
        parse(raw + b"\x00")
