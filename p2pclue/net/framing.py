"""Length-prefixed frames over a byte stream (sans-IO).

Every record on a p2pclue TCP link, and every frame inside the encrypted stream, is a
4-byte big-endian length followed by that many bytes. The decoder rejects a length over
its cap as soon as the 4 header bytes arrive, so a peer can never make it buffer more
than ``4 + max_frame`` bytes. It holds no socket and no clock: ``links`` feeds it
whatever the stream delivered.

The transport decodes no msgpack: frames are handed up as bytes, and the engine and the
lobby decode each one with a fresh, size-limited ``Unpacker``
(``engine.wire.unpack_strict``).
"""

from __future__ import annotations

from p2pclue.engine.wire import MAX_FRAME_BYTES

HEADER_BYTES = 4
LENGTH_LIMIT = 2**32 - 1


class FramingError(Exception):
    """The stream broke the framing rules (a length over the cap): close the link."""


def encode_frame(frame: bytes, max_frame: int = MAX_FRAME_BYTES) -> bytes:
    """The frame with its length prefix; refuses a frame this side's peers would refuse."""
    if len(frame) > max_frame:
        raise FramingError(f"frame of {len(frame)} bytes is over the limit of {max_frame}")
    return len(frame).to_bytes(HEADER_BYTES, "big") + frame


class FrameDecoder:
    """Turns the bytes of one stream, fed in any split, back into its frames."""

    def __init__(self, max_frame: int = MAX_FRAME_BYTES, min_frame: int = 0) -> None:
        if not 0 <= min_frame <= max_frame <= LENGTH_LIMIT:
            raise ValueError("need 0 <= min_frame <= max_frame < 2**32")
        self.max_frame = max_frame
        self.min_frame = min_frame
        self._buffer = bytearray()
        self._need: int | None = None
        self._broken = False

    @property
    def buffered(self) -> int:
        """Bytes held for a frame not yet complete (bounded by ``4 + max_frame``)."""
        return len(self._buffer) + (0 if self._need is None else HEADER_BYTES)

    def feed(self, data: bytes) -> list[bytes]:
        """Every frame completed by ``data``, in order; raises ``FramingError`` for good."""
        self.push(data)
        frames: list[bytes] = []
        while (frame := self.pop()) is not None:
            frames.append(frame)
        return frames

    def push(self, data: bytes) -> None:
        """Buffer ``data``; ``pop`` then takes frames one at a time, checking each against
        the cap in force at that moment (a handshake raises the cap once it is done)."""
        if self._broken:
            raise FramingError("the stream already broke the framing rules")
        self._buffer += data

    def pop(self) -> bytes | None:
        """The next complete frame, or None until more bytes arrive."""
        if self._broken:
            raise FramingError("the stream already broke the framing rules")
        if self._need is None:
            if len(self._buffer) < HEADER_BYTES:
                return None
            length = int.from_bytes(self._buffer[:HEADER_BYTES], "big")
            if length > self.max_frame or length < self.min_frame:
                self._broken = True
                self._buffer.clear()
                raise FramingError(
                    f"frame length {length} is outside {self.min_frame}..{self.max_frame}")
            del self._buffer[:HEADER_BYTES]
            self._need = length
        if len(self._buffer) < self._need:
            return None
        frame = bytes(self._buffer[: self._need])
        del self._buffer[: self._need]
        self._need = None
        return frame
