"""What one link message is: a tag byte, then an engine frame or a small msgpack map.

Pure (no sockets, no clock): the session core, the lobby runner and every transport
share these definitions, so a message means the same whatever carried it. Nothing here
decides anything about the game; the lobby and the engine validate what they get.
"""

from __future__ import annotations

from typing import Any

from p2pclue.engine.errors import WireError
from p2pclue.engine.wire import Limits, pack, unpack_strict

TAG_FRAME = 0
"""An engine frame, exactly the signed bytes."""
TAG_LOBBY = 1
"""A lobby message (msgpack map)."""
TAG_SYNC = 2
"""Catch-up and presence (msgpack map): ``have``, ``done``, ``vote``, ``attempts``."""
TAGS = (TAG_FRAME, TAG_LOBBY, TAG_SYNC)
MAX_META_BYTES = 64 * 1024
META_LIMITS = Limits(bin=4096, str=4096, array=256, map=64)
"""Lobby and sync maps: keys, signatures, names and reasons; a few dozen members at most."""


def decode_meta(body: bytes, max_bytes: int = MAX_META_BYTES) -> dict[str, Any] | None:
    """A lobby or sync message, or None if it is not a plain map (or over ``max_bytes``,
    which is checked before any decoding)."""
    try:
        obj = unpack_strict(body, max_bytes, META_LIMITS)
    except WireError:
        return None
    return obj if isinstance(obj, dict) else None


def encode_body(body: bytes | dict[str, Any]) -> bytes:
    """A message body as it travels: frames as they are, maps packed canonically."""
    return body if isinstance(body, bytes) else pack(body)


def encode(tag: int, body: bytes | dict[str, Any]) -> bytes:
    """The whole link message: the tag byte, then the body."""
    return bytes([tag]) + encode_body(body)
