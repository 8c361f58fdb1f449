"""A seated player sends a frame of this game, signed by it, over the 32 KiB entry limit
(docs/protocol.md, "Frames": a frame over 32 KiB). Three session cores on the in-memory
transport: each honest peer drops it unread, charges it as junk to the link it came on
(two units: one, and one per 32 KiB it carried), blames nobody, and the game ends with
the same valid transcript everywhere."""

from __future__ import annotations

import hashlib

from p2pclue.engine.wire import MAX_ENTRY_BYTES, Header, sign_frame
from p2pclue.net.meta import TAG_FRAME
from tests.net.core_table import ended_well, make_table

VILLAIN = 1


def test_a_signed_frame_over_the_entry_limit_is_junk_on_its_link_and_blames_nobody() -> None:
    ct = make_table(3, seed=5)
    ct.run(until=lambda: len(ct.core(VILLAIN).peer.entries) >= 12)  # the deal is under way
    peer = ct.core(VILLAIN).peer
    head = hashlib.sha256(peer.entries[-1]).digest()
    seq = len(peer._sent_by[VILLAIN])
    big = sign_frame(ct.keys[VILLAIN], Header(peer.config.digest(), VILLAIN, seq, head,
                                              "end_turn"), {"pad": [bytes(64)] * 600})
    assert MAX_ENTRY_BYTES < len(big) < 2 * MAX_ENTRY_BYTES
    honest = [ct.core(s) for s in (0, 2)]
    before = [(c.peer.dropped_count, c.junk.charged(ct.key(VILLAIN))) for c in honest]
    for core in honest:
        ct.table.inject(ct.key(VILLAIN), core.me, TAG_FRAME, big)
    ct.run()
    ended_well(ct)
    for core, (dropped, charged) in zip(honest, before, strict=True):
        assert core.peer.dropped_count == dropped + 1
        assert core.junk.charged(ct.key(VILLAIN)) == charged + 2
        assert any("over" in why for _raw, why in core.peer.dropped)
    assert ct.core(VILLAIN).junk_charged == 0, "nothing honest was charged"
