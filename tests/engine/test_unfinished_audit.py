"""A transcript file with no footer: audited as far as it goes; a torn tail is not.

The three shapes of docs/protocol.md, "Transcript file": an end marker (finished: ``parse``),
a file that ends right after a whole entry (unfinished: ``parse_open``, valid so far), and
one that ends inside an entry or its length (torn: "truncated").
"""

from __future__ import annotations

import pytest

from p2pclue.engine.audit import audit_unfinished
from p2pclue.engine.errors import TranscriptError
from p2pclue.engine.transcript import entry_bytes, has_end_marker, opening_bytes, parse_open
from tests.engine.conftest import finished_game


def _open_file(k: int) -> tuple[bytes, list[bytes]]:
    peer = finished_game().peers[0]
    entries = list(peer.entries[:k])
    return opening_bytes(peer.config) + b"".join(entry_bytes(e) for e in entries), entries


@pytest.mark.parametrize("k", [0, 1, 18, 40])
def test_a_file_that_ends_after_a_whole_entry_is_valid_so_far(k: int) -> None:
    raw, entries = _open_file(k)
    assert not has_end_marker(raw)
    config, read = parse_open(raw)
    assert read == entries
    verdict = audit_unfinished(config, read, raw)
    assert verdict.valid and verdict.unfinished and verdict.entries == k
    assert audit_unfinished(config, read).transcript_sha256 == verdict.transcript_sha256
    assert verdict.result == "unfinished"
    assert any(n.startswith("unfinished: the file has no footer") and f"its {k} entr" in n
               for n in verdict.notes), verdict.notes


@pytest.mark.parametrize("cut", [1, 3, 4, 10])
def test_a_torn_tail_is_truncated(cut: int) -> None:
    raw, _entries = _open_file(18)
    with pytest.raises(TranscriptError, match=r"truncated: the file ends inside .*entry 17"):
        parse_open(raw[:-cut])
    raw, _entries = _open_file(17)
    with pytest.raises(TranscriptError, match="truncated: the file ends inside the length of "
                                              "entry 17"):
        parse_open(raw + b"\x00\x00\x01")


def test_a_finished_file_has_its_end_marker() -> None:
    raw = finished_game().peers[0].transcript().to_bytes()
    assert has_end_marker(raw)
    assert has_end_marker(raw[:-3])  # a damaged footer: still a file that says it ended
    with pytest.raises(TranscriptError, match="end marker"):
        parse_open(raw)
