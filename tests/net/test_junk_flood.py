"""A link partner that floods junk is cut off; nobody is blamed and the game goes on.

Three session cores on the in-memory transport, with the table's clock. One seated
player (its bot still plays honestly) also pours junk down its links: frames with a
broken signature, random bytes, and frames its own key signed for another game. And a
stranger (a key of no seat) links to the opener as a spectator and floods junk frames and
junk sync messages. Each honest peer charges what its engine dropped to the link it came
on, cuts that link when the budget is spent, refuses a second offender for a while, and
the game still ends with the same transcript everywhere, valid, with nobody blamed.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.engine.wire import Header, pack, sign_frame, split_frame
from p2pclue.net.core import SessionCore
from p2pclue.net.junk import JUNK_BURST
from p2pclue.net.meta import TAG_FRAME, TAG_SYNC
from tests.net.core_table import CoreTable, ended_well, make_table

FLOOD = int(JUNK_BURST) + 150
"""Junk frames per burst: more than one budget's worth."""
VILLAIN = 1
HOST = 0

Message = tuple[int, bytes]
"""A message's tag and body."""


def _junk(ct: CoreTable, rng: random.Random, count: int) -> list[Message]:
    """Bad signatures, random bytes and the villain's own frames of another game, mixed."""
    real = ct.core(VILLAIN).peer.entries[-1]
    sender, payload, signature = split_frame(real)
    out: list[Message] = []
    for i in range(count):
        kind = i % 3
        if kind == 0:  # the real frame, one signature byte flipped
            bad = bytearray(signature)
            bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
            out.append((TAG_FRAME, pack([sender, payload, bytes(bad)])))
        elif kind == 1:
            out.append((TAG_FRAME, os.urandom(rng.randrange(1, 400))))
        else:  # really signed by the villain, but for a game that is not this one
            header = Header(os.urandom(32), VILLAIN, i, os.urandom(32), "end_turn")
            out.append((TAG_FRAME, sign_frame(ct.keys[VILLAIN], header, {})))
    return out


def flood_until_cut(ct: CoreTable, messages: Callable[[], list[Message]], cuts: int) -> None:
    """Once the villain is back on both links, it sends ``messages()`` down each, as fast
    as the wire takes them, until both honest seats cut it ``cuts`` times in all."""
    villain = ct.key(VILLAIN)
    honest = [ct.core(s) for s in range(3) if s != VILLAIN]
    others = [c.me for c in honest]
    ct.run(until=lambda: sorted(ct.table.linked(villain)) == sorted(others))
    assert sorted(ct.table.linked(villain)) == sorted(others), "the villain is back"
    for key in others:
        for tag, body in messages():
            ct.table.inject(villain, key, tag, body)
    ct.run(until=lambda: min(c.junk.cuts(villain) for c in honest) >= cuts)
    assert [c.junk.cuts(villain) for c in honest] == [cuts, cuts], "both honest cut it"


def stranger(ct: CoreTable) -> SessionCore:
    """A stranger's end of links: a key of no seat, at the table as a spectator would be,
    whose core decides nothing (closed): it sends only what the test injects."""
    core = SessionCore(ct.start, Ed25519PrivateKey.generate(), ct.settings, ct.table.now,
                       src=None, rng=random.Random(0))
    ct.table.add(core)
    core.close()
    return core


def stranger_floods(ct: CoreTable, core: SessionCore, messages: list[Message]) -> str:
    """The stranger links to the opener and floods: "cut" (let in, then cut) or "refused"
    (not let in)."""
    host = ct.key(HOST)
    if not ct.table.link(core.me, host):
        return "refused"
    for tag, body in messages:
        ct.table.inject(core.me, host, tag, body)
    pair = frozenset((core.me, host))
    ct.run(until=lambda: pair not in ct.table.links)
    return "still linked" if pair in ct.table.links else "cut"


def _stranger_junk() -> list[Message]:
    """Junk frames, junk sync messages, "have" again and again."""
    kinds: list[Message] = [
        (TAG_FRAME, os.urandom(64)), (TAG_SYNC, b"\xc1 not msgpack"),
        (TAG_SYNC, pack({"t": "have", "n": 0, "name": "x", "role": "spectator"}))]
    return [kinds[i % 3] for i in range(FLOOD)]


def test_a_junk_flood_cuts_the_link_blames_nobody_and_the_game_ends() -> None:
    rng = random.Random(7)
    ct = make_table(3, seed=7, bot="detective")
    ct.run(until=lambda: len(ct.core(VILLAIN).peer.entries) >= 12)  # the deal is under way
    intruder = stranger(ct)
    stranger_seen = [stranger_floods(ct, intruder, _stranger_junk())]
    for burst in (1, 2):  # after the second cut it is refused for a while
        flood_until_cut(ct, lambda: _junk(ct, rng, FLOOD), burst)
        stranger_seen.append(stranger_floods(ct, intruder, _stranger_junk()))
    ct.run()
    ended_well(ct)
    villain = ct.key(VILLAIN)
    for seat in (0, 2):
        core = ct.core(seat)
        assert core.junk.cuts(villain) == 2, "every honest player cut the flooding link twice"
        others = [ct.key(s) for s in range(3) if s != VILLAIN]
        assert all(core.junk.cuts(o) == 0 for o in others), "no honest player was ever cut"
        assert core.peer.dropped_count >= JUNK_BURST
    reasons = {why.split(":")[0].rstrip("0123456789") for _raw, why in ct.core(2).peer.dropped}
    assert {"not signed by seat ", "unreadable frame",
            "the frame belongs to another game"} <= reasons, reasons
    assert ct.core(VILLAIN).junk_charged == 0, \
        "honest traffic (catch-up included) is never charged"
    # The stranger: let in and cut, let in again (first offence) and cut, then refused.
    assert stranger_seen == ["cut", "cut", "refused"], stranger_seen
    assert ct.core(HOST).junk_cuts == 2 + 2
