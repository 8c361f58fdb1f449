"""Issue 9, property: whatever spelling a frame arrives in, live peers and the audit agree,
and no honest seat is ever blamed.

Hypothesis takes an honest frame of a real game and re-spells it: the outer array, its
sender, payload and signature in any legal msgpack form, the unsigned sender rewritten, the
signature's S replaced by S + L, the payload re-spelled (map keys shuffled or repeated,
longer integer, string, binary and container forms). A stranger can do all of that without
a key; the author can also re-sign its own re-spelled payload. Each mutated frame goes to a
live peer at some point of the game and, as entry at that point, to the audit.
"""

from __future__ import annotations

import copy
import struct
from functools import cache
from typing import Any

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from p2pclue.bots.protocol import seeded_identity
from p2pclue.crypto.group import L
from p2pclue.engine.audit import audit
from p2pclue.engine.peer import Peer, Status
from p2pclue.engine.transcript import Footer, Transcript, parse
from p2pclue.engine.wire import SIGNING_PREFIX, pack, split_frame, unpack_strict
from tests.engine.conftest import finished_game
from tests.profiles import examples

SEED = 1
POINTS = (0, 2, 3, 7, 12, 30, 48, 95)
"""Transcript positions at which a live peer is put to the test (join ... secrets)."""


@cache
def snapshots() -> dict[int, Peer]:
    game = finished_game(3, "classic", SEED)
    observer = Peer(game.config, None, relay=False)
    snaps: dict[int, Peer] = {}
    for i, raw in enumerate(game.peers[0].entries):
        if i in POINTS:
            snaps[i] = copy.deepcopy(observer)
        observer.receive(raw, float(i))
    return snaps


def entries() -> list[bytes]:
    return finished_game(3, "classic", SEED).peers[0].entries


# ---- spelling msgpack values in any legal form -----------------------------------------


def _int_forms(v: int) -> list[bytes]:
    forms = []
    if 0 <= v <= 127 or -32 <= v < 0:
        forms.append(struct.pack(">b", v) if v < 0 else bytes([v]))
    for code, fmt, lo, hi in ((0xCC, ">B", 0, 2**8), (0xCD, ">H", 0, 2**16),
                              (0xCE, ">I", 0, 2**32), (0xCF, ">Q", 0, 2**64),
                              (0xD0, ">b", -(2**7), 2**7), (0xD1, ">h", -(2**15), 2**15),
                              (0xD2, ">i", -(2**31), 2**31), (0xD3, ">q", -(2**63), 2**63)):
        if lo <= v < hi:
            forms.append(bytes([code]) + struct.pack(fmt, v))
    return forms


def _len_forms(n: int, fix: int | None, fix_max: int, codes: tuple[int, ...]) -> list[bytes]:
    forms = [bytes([fix | n])] if fix is not None and n <= fix_max else []
    for code, fmt, hi in zip(codes, (">B", ">H", ">I"), (2**8, 2**16, 2**32), strict=False):
        if n < hi:
            forms.append(bytes([code]) + struct.pack(fmt, n))
    return forms


@st.composite
def spelled(draw: st.DrawFn, obj: Any, duplicates: bool) -> bytes:
    """Any legal msgpack spelling of ``obj`` (maps: keys in any order, maybe one repeated)."""
    if obj is None:
        return b"\xc0"
    if isinstance(obj, bool):
        return b"\xc3" if obj else b"\xc2"
    if isinstance(obj, int):
        return draw(st.sampled_from(_int_forms(obj)))
    if isinstance(obj, str):
        data = obj.encode()
        return draw(st.sampled_from(_len_forms(len(data), 0xA0, 31, (0xD9, 0xDA, 0xDB)))) + data
    if isinstance(obj, bytes):
        return draw(st.sampled_from(_len_forms(len(obj), None, 0, (0xC4, 0xC5, 0xC6)))) + obj
    if isinstance(obj, list):
        head = draw(st.sampled_from(_len_forms(len(obj), 0x90, 15, (0xDC, 0xDD))))
        return head + b"".join(draw(spelled(v, duplicates)) for v in obj)
    assert isinstance(obj, dict)
    items = draw(st.permutations(list(obj.items())))
    if duplicates and items and draw(st.booleans()):
        items = [*items, draw(st.sampled_from(items))]
    head = draw(st.sampled_from(_len_forms(len(items), 0x80, 15, (0xDE, 0xDF))))
    return head + b"".join(draw(spelled(k, False)) + draw(spelled(v, duplicates))
                           for k, v in items)


@st.composite
def mutation(draw: st.DrawFn) -> tuple[int, bytes, int | None]:
    """(position, frame, seat that signed a changed payload or None for a stranger)."""
    position = draw(st.sampled_from(POINTS))
    source = draw(st.sampled_from([position, draw(st.integers(0, len(entries()) - 1))]))
    sender, payload, signature = split_frame(entries()[source])
    resigned: int | None = None
    kind = draw(st.sampled_from(["outer", "payload-stranger", "payload-author", "payload-author"]))
    if kind != "outer":
        original = payload
        payload = draw(spelled(unpack_strict(payload), True))
        assume(payload != original)  # a re-spelling, not the canonical bytes again
        if kind == "payload-author":
            signature = seeded_identity(SEED, sender).sign(SIGNING_PREFIX + payload)
            resigned = sender
    if draw(st.booleans()):
        sender = draw(st.integers(0, 63))
    if draw(st.booleans()):
        s = int.from_bytes(signature[32:], "little") + L
        signature = signature[:32] + s.to_bytes(32, "little")
    outer = [sender, payload, signature]
    frame = draw(spelled(outer, False)) if draw(st.booleans()) else pack(outer)
    return position, frame, resigned


def _audit_with_entry(position: int, frame: bytes) -> tuple[bool, int | None, str, str]:
    t = finished_game(3, "classic", SEED).peers[0].transcript()
    kept = (*t.entries[:position], frame)
    raw = Transcript(t.config, kept, Footer("abandoned", len(kept), None)).to_bytes()
    verdict = audit(parse(raw), raw)
    v = verdict.violation
    return verdict.valid, verdict.blamed, v.check if v else "", v.reason if v else ""


@settings(max_examples=examples(50),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=mutation())
def test_live_peers_and_the_audit_agree_and_nobody_honest_is_blamed(
    case: tuple[int, bytes, int | None],
) -> None:
    position, frame, resigned = case
    honest = entries()
    if frame in honest:
        return  # every choice was the canonical one: this is the honest frame itself
    peer = copy.deepcopy(snapshots()[position])
    peer.receive(frame, 1e6)
    valid, blamed, check, reason = _audit_with_entry(position, frame)
    event("blamed its author" if peer.status is Status.HALTED else "dropped")
    if peer.status is Status.HALTED:
        assert peer.blame is not None
        # Only the author of a payload it re-spelled and signed itself can be blamed ...
        assert resigned is not None and peer.blame.culprit == resigned
        assert peer.blame.check == "message"
        # ... and the audit, given that frame, reaches the very same verdict.
        assert not valid and (blamed, check, reason) == (
            peer.blame.culprit, peer.blame.check, peer.blame.reason)
        return
    # Nothing a stranger did costs anyone anything: the frame is dropped unread ...
    assert peer.blame is None and len(peer.entries) == position
    assert peer.dropped_count == snapshots()[position].dropped_count + 1
    # ... the audit blames nobody for it either (the file is simply not this game's chain) ...
    assert not valid and blamed is None
    # ... and the game goes on with the honest frame.
    peer.receive(honest[position], 1e6 + 1)
    assert peer.blame is None and len(peer.entries) == position + 1
