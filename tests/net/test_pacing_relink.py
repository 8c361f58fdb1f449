"""A held "cannot refute" is not leaked to a peer that re-links during the hold.

Three session cores on the in-memory transport, with the table's clock, every seat a
person's (``pass_delay``). The first time a seat's engine passes (its pass is now held, on
disk but unsent), another player's link to that seat breaks; the link comes back by the
usual re-dial well inside the hold, and the new link's catch-up (``have``) must not carry
the held pass: that player gets it only when everybody does, after the delay. The game
then ends with identical, valid transcripts.
"""

from __future__ import annotations

from dataclasses import replace

from p2pclue.net.actions import Action, Send
from p2pclue.net.meta import TAG_SYNC, decode_meta
from tests.net.core_table import ended_well, make_table

DELAY = 1.2


def _haves(log: list[Action], to: bytes) -> int:
    """The catch-up requests (``have``) in ``log`` sent over the link to ``to``."""
    return sum(1 for a in log if isinstance(a, Send) and a.tag == TAG_SYNC and to in a.to
               and (decode_meta(a.body) or {}).get("t") == "have")


def test_a_held_pass_is_not_sent_to_a_peer_that_relinks_during_the_hold() -> None:
    ct = make_table(3, seed=1, bot="detective", pass_delay=(DELAY, DELAY))
    table = ct.table
    ct.run(until=lambda: any(ct.core(s).held is not None for s in range(3)))
    held = table.now
    passer = next(s for s in range(3) if ct.core(s).held is not None)
    index = ct.core(passer).visible()
    assert index < len(ct.core(passer).peer.entries), "its pass is accepted, and held"
    other = (passer + 1) % 3
    for s in range(3):  # one held pass is enough: the rest of the game goes at full speed
        core = ct.core(s)
        core.settings = replace(core.settings, pass_delay=(0.0, 0.0))
    a, b = ct.key(passer), ct.key(other)
    assert b in table.linked(a)
    asked = _haves(ct.members[other].log, a)
    table.unlink(a, b)
    times: dict[str, float] = {}

    def watch() -> bool:
        if "relinked" not in times and b in table.linked(a):
            times["relinked"] = table.now
        if "got" not in times and len(ct.core(other).peer.entries) > index:
            times["got"] = table.now
            times["released"] = float(ct.core(passer).held is None)
        return {"relinked", "got"} <= set(times)

    ct.run(until=watch)
    caught_up = _haves(ct.members[other].log, a) - asked
    ct.run()
    ended_well(ct)
    assert {"relinked", "got"} <= set(times), times
    assert times["relinked"] - held < DELAY * 0.8, "no re-link in the hold"
    assert times["got"] - held >= DELAY - 1e-9, "the re-linked peer got the held pass early"
    assert times["released"] == 1.0, "the pass arrived before its release"
    assert caught_up == 1, "the new link asked for catch-up once"
