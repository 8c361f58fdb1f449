"""Framing over every possible split of the stream, and the size caps."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pclue.engine.wire import MAX_FRAME_BYTES
from p2pclue.net.framing import FrameDecoder, FramingError, encode_frame


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    edges = [0, *points, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(edges)]


@given(frames=st.lists(st.binary(max_size=300), max_size=8),
       cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=20))
def test_any_split_gives_back_the_frames(frames: list[bytes], cuts: list[int]) -> None:
    stream = b"".join(encode_frame(f) for f in frames)
    decoder = FrameDecoder()
    out: list[bytes] = []
    for piece in split(stream, cuts):
        out += decoder.feed(piece)
    assert out == frames
    assert decoder.buffered == 0


@given(frame=st.binary(min_size=1, max_size=200), keep=st.integers(min_value=0, max_value=203))
def test_an_incomplete_frame_is_held_not_returned(frame: bytes, keep: int) -> None:
    wire = encode_frame(frame)
    keep = min(keep, len(wire) - 1)
    decoder = FrameDecoder()
    assert decoder.feed(wire[:keep]) == []
    assert decoder.buffered == keep
    assert decoder.feed(wire[keep:]) == [frame]


def test_oversize_length_is_refused_from_the_header_alone() -> None:
    decoder = FrameDecoder()
    header = (MAX_FRAME_BYTES + 1).to_bytes(4, "big")
    with pytest.raises(FramingError):
        decoder.feed(header[:2] + b"" + header[2:])
    assert decoder.buffered == 0
    with pytest.raises(FramingError):  # a broken stream stays broken
        decoder.feed(encode_frame(b"fine"))


@given(garbage=st.binary(min_size=4, max_size=64))
def test_garbage_either_waits_or_fails_typed(garbage: bytes) -> None:
    decoder = FrameDecoder(max_frame=1000)
    try:
        frames = decoder.feed(garbage)
    except FramingError:
        return
    assert decoder.buffered <= 4 + 1000
    assert all(len(f) <= 1000 for f in frames)


def test_exact_cap_passes_and_one_more_fails() -> None:
    assert FrameDecoder().feed(encode_frame(b"x" * MAX_FRAME_BYTES)) == [b"x" * MAX_FRAME_BYTES]
    with pytest.raises(FramingError):
        encode_frame(b"x" * (MAX_FRAME_BYTES + 1))


def test_minimum_length_rejects_empty_records() -> None:
    with pytest.raises(FramingError):
        FrameDecoder(max_frame=10, min_frame=1).feed(b"\0\0\0\0")
