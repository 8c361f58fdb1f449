"""Signed frames: the only bytes that cross the network or enter a transcript.

A frame is the msgpack array ``[sender, payload, signature]``. The signature is
Ed25519 over ``SIGNING_PREFIX + payload``: the exact payload bytes, never a
re-encoding, so every peer stores and chains the very bytes the author signed.
The payload is decoded only after the signature verifies, with a fresh
``Unpacker`` per call, tight size limits, ``strict_map_key`` and no extension
types (timestamps included).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from p2pclue import PROTOCOL_VERSION
from p2pclue.engine.errors import WireError

SIGNING_PREFIX = b"p2pclue/v1/message\x00"
MAX_FRAME_BYTES = 256 * 1024
MAX_DEPTH = 8
HASH_BYTES = 32


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def pack(obj: Any) -> bytes:
    """Encode plain data (None, bool, int, str, bytes, lists, str-keyed dicts)."""
    data: bytes = msgpack.packb(obj, use_bin_type=True)
    return data


def _reject_ext(code: int, data: bytes) -> Any:
    raise WireError(f"extension type {code} is not allowed")


def _check_plain(obj: Any, depth: int = 0) -> None:
    if depth > MAX_DEPTH:
        raise WireError("nested too deeply")
    if obj is None or isinstance(obj, (bool, int, str, bytes)):
        return
    if isinstance(obj, list):
        for item in obj:
            _check_plain(item, depth + 1)
        return
    if isinstance(obj, dict):
        for key, value in obj.items():
            if not isinstance(key, str):
                raise WireError("map keys must be strings")
            _check_plain(value, depth + 1)
        return
    raise WireError(f"values of type {type(obj).__name__} are not allowed")


def unpack_strict(data: bytes, max_bytes: int = MAX_FRAME_BYTES) -> Any:
    """Decode exactly one plain msgpack object from untrusted bytes."""
    if not isinstance(data, (bytes, bytearray)):
        raise WireError("expected bytes")
    if len(data) > max_bytes:
        raise WireError(f"{len(data)} bytes is over the limit of {max_bytes}")
    unpacker = msgpack.Unpacker(
        max_buffer_size=max(max_bytes, 1),
        strict_map_key=True,
        raw=False,
        use_list=True,
        ext_hook=_reject_ext,
    )
    try:
        unpacker.feed(bytes(data))
        obj = unpacker.unpack()
    except WireError:
        raise
    except msgpack.OutOfData:
        raise WireError("truncated msgpack data") from None
    except (ValueError, TypeError, msgpack.UnpackException, UnicodeDecodeError) as exc:
        raise WireError(f"undecodable msgpack ({type(exc).__name__})") from None
    try:
        unpacker.unpack()
    except msgpack.OutOfData:
        pass
    except Exception:
        raise WireError("trailing bytes after the object") from None
    else:
        raise WireError("trailing bytes after the object")
    _check_plain(obj)
    return obj


@dataclass(frozen=True)
class Header:
    """The fields every payload carries besides its body."""

    game: bytes
    sender: int
    seq: int
    prev: bytes
    type: str


@dataclass(frozen=True)
class Frame:
    """A frame whose signature has been checked against ``sender``'s identity key."""

    raw: bytes
    header: Header
    body: dict[str, Any]

    @property
    def digest(self) -> bytes:
        return sha256(self.raw)


def split_frame(raw: bytes) -> tuple[int, bytes, bytes]:
    """The outer array only: who claims to have sent it, the payload, the signature."""
    obj = unpack_strict(raw)
    if not (isinstance(obj, list) and len(obj) == 3):
        raise WireError("a frame is [sender, payload, signature]")
    sender, payload, signature = obj
    if not isinstance(sender, int) or isinstance(sender, bool) or not 0 <= sender < 64:
        raise WireError("sender must be a seat number", "sender")
    if not isinstance(payload, bytes):
        raise WireError("payload must be bytes", "payload")
    if not isinstance(signature, bytes) or len(signature) != 64:
        raise WireError("signature must be 64 bytes", "signature")
    return sender, payload, signature


def verify_signature(key: Ed25519PublicKey, payload: bytes, signature: bytes) -> bool:
    try:
        key.verify(signature, SIGNING_PREFIX + payload)
    except InvalidSignature:
        return False
    return True


def decode_payload(sender: int, payload: bytes) -> tuple[Header, dict[str, Any]]:
    """Decode a payload whose signature already verified."""
    obj = unpack_strict(payload)
    if not isinstance(obj, dict):
        raise WireError("payload must be a map")
    expected = {"v", "game", "from", "seq", "prev", "type", "body"}
    if set(obj) != expected:
        raise WireError(f"payload keys must be exactly {sorted(expected)}")
    if obj["v"] != PROTOCOL_VERSION:
        raise WireError(f"protocol version {obj['v']!r} is not {PROTOCOL_VERSION}", "v")
    for name in ("game", "prev"):
        if not isinstance(obj[name], bytes) or len(obj[name]) != HASH_BYTES:
            raise WireError(f"must be {HASH_BYTES} bytes", name)
    if obj["from"] != sender or isinstance(obj["from"], bool):
        raise WireError("differs from the frame's sender", "from")
    seq = obj["seq"]
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq < 2**32:
        raise WireError("must be an integer in [0, 2^32)", "seq")
    if not isinstance(obj["type"], str):
        raise WireError("must be a string", "type")
    if not isinstance(obj["body"], dict):
        raise WireError("must be a map", "body")
    header = Header(obj["game"], sender, seq, obj["prev"], obj["type"])
    return header, obj["body"]


def sign_frame(
    key: Ed25519PrivateKey, header: Header, body: dict[str, Any]
) -> bytes:
    payload = pack({
        "v": PROTOCOL_VERSION,
        "game": header.game,
        "from": header.sender,
        "seq": header.seq,
        "prev": header.prev,
        "type": header.type,
        "body": body,
    })
    signature = key.sign(SIGNING_PREFIX + payload)
    return pack([header.sender, payload, signature])
