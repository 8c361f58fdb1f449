"""The pairing state machine without sockets: every input, every tampered record."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pclue.engine.wire import MAX_FRAME_BYTES
from p2pclue.net.framing import FramingError
from p2pclue.net.pairing import (
    CHUNK_BYTES,
    Handshake,
    Kind,
    PairingError,
    Role,
    new_frame_decoder,
    new_table_code,
    normalize_code,
)

TABLE = b"pairing-table-01"
FULL_WIDTH = "".join(chr(0xFF10 + int(d)) for d in "123456")
"""The code as typed on a keyboard in full-width mode."""
DIALER_KEY = Ed25519PrivateKey.generate()
LISTENER_KEY = Ed25519PrivateKey.generate()


def pair(dialer_code: str | None, listener_code: str | None,
         tamper: tuple[int, int] | None = None) -> tuple[Handshake, Handshake, list[str]]:
    """Run both sides in memory; ``tamper`` = (record index, byte index) flips one bit."""
    dialer = Handshake(Role.DIALER, DIALER_KEY, TABLE, dialer_code, MAX_FRAME_BYTES)
    listener = Handshake(Role.LISTENER, LISTENER_KEY, TABLE, listener_code, MAX_FRAME_BYTES)
    queue = [(listener, rec) for rec in dialer.start()]
    errors: list[str] = []
    sent = 0
    while queue:
        who, rec = queue.pop(0)
        if tamper is not None and sent == tamper[0]:
            flipped = bytearray(rec)
            flipped[tamper[1] % len(rec)] ^= 0x01
            rec = bytes(flipped)
        sent += 1
        try:
            out = who.receive(rec)
        except PairingError as exc:
            errors.append(exc.reason)
            break  # the connection ends
        other = dialer if who is listener else listener
        queue += [(other, o) for o in out]
    return dialer, listener, errors


def test_both_sides_prove_their_identity_keys() -> None:
    for code in ("314159", None):
        dialer, listener, errors = pair(code, code)
        assert errors == []
        assert dialer.result is not None and listener.result is not None
        assert dialer.result.remote_identity == LISTENER_KEY.public_key().public_bytes_raw()
        assert listener.result.remote_identity == DIALER_KEY.public_key().public_bytes_raw()
        assert dialer.result.handshake_hash == listener.result.handshake_hash


def test_the_code_forgives_spacing_and_width() -> None:
    assert normalize_code("123 456") == normalize_code("123-456") == normalize_code(FULL_WIDTH)
    with pytest.raises(ValueError):
        normalize_code(" - ")
    _, _, errors = pair("123 456", FULL_WIDTH[:3] + "-" + FULL_WIDTH[3:])
    assert errors == []
    code = new_table_code()
    assert len(code) == 6 and code.isdigit()


def test_a_wrong_code_is_named_and_answered() -> None:
    dialer, listener, errors = pair("000001", "000002")
    assert errors == ["wrong-code"]
    assert listener.outgoing_refusal == bytes([Kind.REFUSE]) + b"wrong-code"
    assert dialer.result is None and listener.result is None
    with pytest.raises(PairingError) as told:
        dialer.receive(listener.outgoing_refusal)
    assert told.value.reason == "wrong-code" and told.value.by_remote
    assert "000001" not in str(told.value) and "000002" not in str(told.value)


@pytest.mark.parametrize(("dialer_code", "listener_code", "reason"), [
    (None, "1", "needs-code"), ("1", None, "no-code"),
])
def test_a_mode_mismatch_is_refused_before_any_cryptography(
        dialer_code: str | None, listener_code: str | None, reason: str) -> None:
    _, listener, errors = pair(dialer_code, listener_code)
    assert errors == [reason]
    assert listener._spake is None and listener._noise is None


@settings(max_examples=60, deadline=None)
@given(record_index=st.integers(0, 9), byte_index=st.integers(0, 400),
       code=st.sampled_from(["271828", None]))
def test_any_flipped_bit_fails_the_pairing(record_index: int, byte_index: int,
                                           code: str | None) -> None:
    dialer, listener, errors = pair(code, code, tamper=(record_index, byte_index))
    total = 9 if code else 7  # records an honest run sends
    if record_index >= total:
        assert errors == []
        return
    assert len(errors) == 1
    assert listener.result is None or dialer.result is None


@settings(max_examples=150, deadline=None)
@given(records=st.lists(st.binary(max_size=120), min_size=1, max_size=5),
       role=st.sampled_from([Role.LISTENER, Role.DIALER]), code=st.sampled_from(["1", None]))
def test_arbitrary_records_fail_typed(records: list[bytes], role: Role, code: str | None) -> None:
    hs = Handshake(role, LISTENER_KEY, TABLE, code, MAX_FRAME_BYTES)
    hs.start()
    for rec in records:
        try:
            hs.receive(rec)
        except PairingError:
            return
    assert hs.result is None


def test_a_record_over_the_handshake_limit_is_garbage() -> None:
    hs = Handshake(Role.LISTENER, LISTENER_KEY, TABLE, "1", MAX_FRAME_BYTES)
    with pytest.raises(PairingError) as err:
        hs.receive(bytes([Kind.HELLO]) + b"p" * 600)
    assert err.value.reason == "garbage"


@settings(max_examples=25, deadline=None)
@given(sizes=st.lists(st.sampled_from([0, 1, CHUNK_BYTES - 4, CHUNK_BYTES, CHUNK_BYTES + 1,
                                       150_000, MAX_FRAME_BYTES]), min_size=1, max_size=4),
       cut=st.integers(1, 70_000))
def test_the_channel_carries_frames_of_every_size(sizes: list[int], cut: int) -> None:
    dialer, listener, _ = pair(None, None)
    assert dialer.result is not None and listener.result is not None
    frames = [bytes([n % 251]) * n for n in sizes]
    stream = b"".join(dialer.result.channel.seal(f) for f in frames)
    decoder = new_frame_decoder()
    got: list[bytes] = []
    for start in range(0, len(stream), cut):
        for rec in decoder.feed(stream[start : start + cut]):
            got += listener.result.channel.open(rec)
    assert got == frames


def test_the_channel_refuses_to_seal_an_oversize_frame() -> None:
    dialer, _, _ = pair(None, None)
    assert dialer.result is not None
    with pytest.raises(FramingError):
        dialer.result.channel.seal(b"x" * (MAX_FRAME_BYTES + 1))


def test_a_replayed_record_fails_authentication() -> None:
    dialer, listener, _ = pair(None, None)
    assert dialer.result is not None and listener.result is not None
    sealed = dialer.result.channel.seal(b"once")
    rec = new_frame_decoder().feed(sealed)[0]
    assert listener.result.channel.open(rec) == [b"once"]
    with pytest.raises(PairingError):
        listener.result.channel.open(rec)
