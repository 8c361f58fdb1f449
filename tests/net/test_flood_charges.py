"""Floods that cost work are charged to the link that carried them (issue 19, point 4).

Three session cores on the in-memory transport, with the table's clock. A seated
player (its bot still plays honestly) signs frames for this very game with sequence
numbers far beyond the hold window, and pours them down its links; then it sends lobby
messages in the middle of play. A stranger links as a spectator and floods lobby
messages. Each honest peer charges that work to the link it came on and cuts it; nobody
is blamed, honest traffic (catch-up included) is never charged, and the game ends with
one valid transcript.
"""

from __future__ import annotations

import os

from p2pclue.engine.wire import Header, pack, sign_frame
from p2pclue.net.meta import TAG_FRAME, TAG_LOBBY
from tests.net.core_table import CoreTable, ended_well, make_table
from tests.net.test_junk_flood import (
    FLOOD,
    VILLAIN,
    Message,
    flood_until_cut,
    stranger,
    stranger_floods,
)


def _ahead(ct: CoreTable, count: int) -> list[Message]:
    """Frames the villain's own key signs for this game, 1000 numbers past its next one
    (each a well-formed payload: its padding list within the payload's 48-item limit)."""
    game = ct.start.config.digest()
    return [(TAG_FRAME, sign_frame(ct.keys[VILLAIN],
                                   Header(game, VILLAIN, 1000 + i, os.urandom(32), "end_turn"),
                                   {"pad": [os.urandom(32) for _ in range(40)]}))
            for i in range(count)]


def _lobby_chatter(count: int, hello: bool) -> list[Message]:
    """Lobby messages in the middle of play: picks, 60 KiB of empty maps, and (``hello``)
    spectators' hellos (the first is answered, with the start: a seat's own chatter leaves
    them out, so that honest answers to it are not counted as its victims' junk)."""
    wide = b"\xdd" + (60_000).to_bytes(4, "big") + b"\x80" * 60_000
    kinds: list[Message] = [(TAG_LOBBY, pack({"t": "pick", "suspect": 3})), (TAG_LOBBY, wide)]
    if hello:
        kinds.append((TAG_LOBBY, pack({"t": "hello", "role": "spectator", "name": "x"})))
    return [kinds[i % len(kinds)] for i in range(count)]


def _play_through(floods: list[str], seed: int) -> list[str]:
    """A 3-seat game in which seat 1 floods (``"ahead"``: frames far ahead; ``"chatter"``:
    lobby messages; each until both honest players cut it once more) and then
    (``"stranger"``) a stranger chatters; checks the end. Returns what the stranger saw."""
    ct = make_table(3, seed=seed, bot="detective")
    ct.run(until=lambda: len(ct.core(VILLAIN).peer.entries) >= 12)  # the deal is under way
    stranger_seen: list[str] = []
    cuts = 0
    for kind in floods:
        if kind == "ahead":
            cuts += 1
            flood_until_cut(ct, lambda: _ahead(ct, FLOOD), cuts)
        elif kind == "chatter":
            cuts += 1
            flood_until_cut(ct, lambda: _lobby_chatter(FLOOD, hello=False), cuts)
        else:
            stranger_seen.append(stranger_floods(ct, stranger(ct),
                                                 _lobby_chatter(FLOOD, hello=True)))
    ct.run()
    ended_well(ct)
    villain = ct.key(VILLAIN)
    others = [ct.key(s) for s in range(3) if s != VILLAIN]
    for seat in (0, 2):
        core = ct.core(seat)
        assert core.junk.cuts(villain) == cuts, "each honest player cut the flooder's link"
        assert all(core.junk.cuts(o) == 0 for o in others), "no honest player was ever cut"
        assert all(core.junk.charged(o) == 0 for o in others), "nor charged anything"
    assert all(ct.core(VILLAIN).junk.charged(o) == 0 for o in others), \
        "honest traffic (catch-up included) is never charged"
    return stranger_seen


def test_a_seats_frames_far_beyond_the_hold_window_are_charged_and_cut() -> None:
    assert _play_through(["ahead"], seed=8) == []


def test_lobby_chatter_during_play_is_charged_and_cut() -> None:
    assert _play_through(["chatter", "stranger"], seed=9) == ["cut"]
