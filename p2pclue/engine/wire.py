"""Signed frames: the only bytes that cross the network or enter a transcript.

A frame is the msgpack array ``[sender, payload, signature]``. The signature is
Ed25519 over ``SIGNING_PREFIX + payload``: the exact payload bytes, never a
re-encoding, so every peer stores and chains the very bytes the author signed.
The payload is decoded only after the signature verifies, with a fresh
``Unpacker`` per call, tight size limits, ``strict_map_key`` and no extension
types (timestamps included).

Every msgpack value the protocol signs, chains or stores has exactly one valid
encoding (``pack``: shortest forms, map keys sorted by their UTF-8 bytes, see
docs/protocol.md "Canonical encodings"), and readers refuse any other
(``unpack_canonical``). Only the payload is signed; the outer array is not, so
if it had several encodings a stranger could turn one honest frame into two
"different" ones. With one encoding, a frame's bytes are a function of what
its author signed, and two different frames from one key are two signatures.
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
"""The largest message a link carries (``net.framing``); not a limit of the engine's."""
MAX_ENTRY_BYTES = 32 * 1024
"""The largest frame the engine reads (the largest honest one is under 4 KiB): a longer one
is unreadable, dropped before it is hashed, decoded or its signature checked."""
MAX_DEPTH = 8
HASH_BYTES = 32


@dataclass(frozen=True)
class Limits:
    """What msgpack refuses while it decodes, before it builds the value: the longest
    bin, str, array and map. With the byte limit they bound the work and memory any
    untrusted bytes can cost; each kind of message gets the tightest that its honest
    form allows (docs/protocol.md, "Canonical encodings")."""

    bin: int
    str: int
    array: int
    map: int


FRAME_LIMITS = Limits(bin=MAX_ENTRY_BYTES, str=0, array=3, map=0)
"""The outer frame: ``[sender, payload, signature]``, no string, no map."""
MAX_OPENINGS = 48
"""The longest list in a signed payload: the public openings one ``open`` or ``openings``
entry carries. A seat with more shows to open sends them in consecutive entries of at most
this many; 48 public openings of a hand of 6 (465 bytes each) keep the entry under 24 KiB,
inside the 32 768-byte entry limit (docs/protocol.md, "Canonical encodings")."""
PAYLOAD_LIMITS = Limits(bin=64, str=64, array=MAX_OPENINGS, map=32)
"""A signed payload: 32-byte values, short names, at most 21 cards or 13 squares a list but
for the end-of-game openings (at most 48 an entry)."""


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def pack(obj: Any) -> bytes:
    """The canonical encoding of plain data (None, bool, int, str, bytes, lists, str-keyed
    dicts): msgpack's shortest forms, and every map's keys in ascending UTF-8 byte order."""
    data: bytes = msgpack.packb(_sorted_maps(obj), use_bin_type=True)
    return data


def _sorted_maps(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _sorted_maps(obj[k]) for k in sorted(obj, key=_key_bytes)}
    if isinstance(obj, (list, tuple)):
        return [_sorted_maps(v) for v in obj]
    return obj


def _key_bytes(key: Any) -> bytes:
    if not isinstance(key, str):
        raise WireError("map keys must be strings")
    return key.encode("utf-8")


def _pairs(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    """A map without duplicate keys (msgpack would silently keep the last one)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        raise WireError("duplicate map key")
    return out


def _reject_ext(code: int, data: bytes) -> Any:
    raise WireError(f"extension type {code} is not allowed")


def _check_plain(obj: Any, depth: int = 0) -> None:
    """``depth``: how many arrays and maps enclose ``obj`` (the top-level value: 0; map keys
    do not count). A value enclosed by more than ``MAX_DEPTH`` of them is refused."""
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


def unpack_strict(data: bytes, max_bytes: int = MAX_FRAME_BYTES,
                  limits: Limits | None = None) -> Any:
    """Decode exactly one plain msgpack object from untrusted bytes: ``max_bytes`` is
    checked first, ``limits`` (default: only the byte limit) while decoding."""
    if not isinstance(data, (bytes, bytearray)):
        raise WireError("expected bytes")
    if len(data) > max_bytes:
        raise WireError(f"{len(data)} bytes is over the limit of {max_bytes}")
    size = max(max_bytes, 1)
    lim = limits or Limits(bin=size, str=size, array=size, map=size)
    unpacker = msgpack.Unpacker(
        max_buffer_size=size,
        max_bin_len=lim.bin,
        max_str_len=lim.str,
        max_array_len=lim.array,
        max_map_len=lim.map,
        strict_map_key=True,
        raw=False,
        use_list=True,
        ext_hook=_reject_ext,
        object_pairs_hook=_pairs,
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


def unpack_canonical(data: bytes, max_bytes: int = MAX_FRAME_BYTES,
                     limits: Limits | None = None) -> Any:
    """``unpack_strict``, and the bytes must be the canonical encoding of what they decode
    to: no second spelling of a value (longer integer, string or container forms, map keys
    out of order or repeated) is accepted anywhere in the protocol."""
    obj = unpack_strict(data, max_bytes, limits)
    if pack(obj) != bytes(data):
        raise WireError("not the canonical encoding (shortest forms, map keys sorted)")
    return obj


def is_int(value: Any) -> bool:
    """An integer proper: msgpack's true and false are not 1 and 0."""
    return isinstance(value, int) and not isinstance(value, bool)


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
    """The outer array only: who claims to have sent it, the payload, the signature.

    Only the canonical encoding is a frame; ``sender`` is not signed, so it is a claim.
    """
    obj = unpack_canonical(raw, MAX_ENTRY_BYTES, FRAME_LIMITS)
    if not (isinstance(obj, list) and len(obj) == 3):
        raise WireError("a frame is [sender, payload, signature]")
    sender, payload, signature = obj
    if not is_int(sender) or not 0 <= sender < 64:
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


def read_payload(payload: bytes) -> tuple[Header, dict[str, Any]]:
    """Decode a signed payload on its own terms: ``Header.sender`` is its signed ``from``.

    Strict: the canonical encoding, exactly the seven keys, each of its type. The body's
    fields are checked later, against the message table.
    """
    obj = unpack_canonical(payload, MAX_ENTRY_BYTES, PAYLOAD_LIMITS)
    if not isinstance(obj, dict):
        raise WireError("payload must be a map")
    expected = {"v", "game", "from", "seq", "prev", "type", "body"}
    if set(obj) != expected:
        raise WireError(f"payload keys must be exactly {sorted(expected)}")
    if not is_int(obj["v"]) or obj["v"] != PROTOCOL_VERSION:
        raise WireError(f"protocol version {obj['v']!r} is not {PROTOCOL_VERSION}", "v")
    for name in ("game", "prev"):
        if not isinstance(obj[name], bytes) or len(obj[name]) != HASH_BYTES:
            raise WireError(f"must be {HASH_BYTES} bytes", name)
    if not is_int(obj["from"]) or not 0 <= obj["from"] < 64:
        raise WireError("must be a seat number", "from")
    seq = obj["seq"]
    if not is_int(seq) or not 0 <= seq < 2**32:
        raise WireError("must be an integer in [0, 2^32)", "seq")
    if not isinstance(obj["type"], str):
        raise WireError("must be a string", "type")
    if not isinstance(obj["body"], dict):
        raise WireError("must be a map", "body")
    header = Header(obj["game"], obj["from"], seq, obj["prev"], obj["type"])
    return header, obj["body"]


def decode_payload(sender: int, payload: bytes) -> tuple[Header, dict[str, Any]]:
    """``read_payload``, for a payload that must come from ``sender``."""
    header, body = read_payload(payload)
    if header.sender != sender:
        raise WireError("differs from the frame's sender", "from")
    return header, body


def names_game(payload: bytes, game: bytes) -> bool:
    """Whether bytes that are not a valid payload still name ``game`` at their top level.

    A signed payload that fails ``read_payload`` is blamed on its signer only if it is
    provably about this game (its signer knew this game's config digest, which covers the
    fresh session id); otherwise it may be a replay of something signed elsewhere. Lenient
    on purpose: any single map whose top-level ``game`` entry (any of them, if repeated) is
    ``game``, whatever the encoding, and whatever follows it; only the depth limit of strict
    decoding is kept (docs/protocol.md, "One speaker at a time", rule 3).
    """
    if len(payload) > MAX_ENTRY_BYTES:
        return False
    unpacker = msgpack.Unpacker(max_buffer_size=MAX_ENTRY_BYTES, raw=False,
                                strict_map_key=False, ext_hook=_reject_ext,
                                object_pairs_hook=list, use_list=True)
    try:
        unpacker.feed(payload)
        obj = unpacker.unpack()
    except Exception:  # any failure to decode means "not provably this game's": drop
        return False
    if not _lenient_ok(obj, 0):
        return False
    return isinstance(obj, list) and any(
        isinstance(pair, tuple) and len(pair) == 2 and pair[0] == "game" and pair[1] == game
        for pair in obj)


def _lenient_ok(obj: Any, depth: int) -> bool:
    """The two limits strict decoding keeps in lenient reading: the depth limit (maps are
    lists of key-value pairs there, and their keys count like their values: a key may be a
    container) and no extension type (msgpack turns a timestamp into an object without
    calling ``ext_hook``, so it is refused here)."""
    if depth > MAX_DEPTH:
        return False
    if isinstance(obj, list):
        return all(_lenient_ok(item, depth + 1) for item in obj)
    if isinstance(obj, tuple):  # one key-value pair of the enclosing map (depth already counted)
        return all(_lenient_ok(item, depth) for item in obj)
    return obj is None or isinstance(obj, (bool, int, float, str, bytes))


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
