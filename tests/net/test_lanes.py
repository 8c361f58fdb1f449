"""The two CPU lanes (issue 21): the seat that speaks next checks first.

Real threads and the real OS priority: the slow lane runs on its own thread with a
raised nice value, returns what the call returns and raises what it raises; the
urgent lane runs inline. ``Peer.due_soon`` names the seat due and the one after it.
"""

from __future__ import annotations

import os
import threading

import pytest

from p2pclue.bots.protocol import make_config
from p2pclue.crypto.group import MULT_COUNTER
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine.harness import Network
from p2pclue.engine.peer import Peer, Stage
from p2pclue.engine.wire import read_payload, split_frame
from p2pclue.net.lanes import CHEAP_FRAME_BYTES, SLOW_NICE, Lanes
from p2pclue.rules.variants import preset
from tests.net.samples import classic_3p


def _where() -> tuple[int, int]:
    tid = threading.get_native_id()
    return tid, os.getpriority(os.PRIO_PROCESS, tid)


def test_slow_lane_runs_on_a_lower_priority_thread() -> None:
    lanes = Lanes()
    try:
        here_tid, here_nice = _where()
        assert lanes.run(True, _where) == (here_tid, here_nice)
        tid, nice = lanes.run(False, _where)
        assert tid != here_tid
        assert nice == min(19, here_nice + SLOW_NICE)
        assert _where()[1] == here_nice  # the caller's own priority is untouched
        assert lanes.run(False, _where)[0] == tid  # one thread, reused
        with pytest.raises(ZeroDivisionError):
            lanes.run(False, lambda: 1 // 0)
        assert lanes.slow_calls == 3
    finally:
        lanes.close()


def test_due_soon_is_the_seat_due_and_the_one_after_it() -> None:
    config, keys = make_config(preset("classic"), 4, 3)
    peers = [Peer(config, s, keys[s], SeededRandom(b"lanes/%d" % s)) for s in range(4)]
    net = Network(peers)
    for p in peers:
        p.start(0.0)
    seen = 0
    while peers[0].stage is not Stage.PLAY and net.step():
        for p in peers:
            due = p.expected_seat()
            if due is None or p.stage is Stage.PLAY:
                continue
            assert p.due_soon() == (p.seat in (due, (due + 1) % 4))
            seen += 1
    assert seen > 100
    observer = Peer(config, None, relay=False)
    assert not observer.due_soon()


def test_only_frames_without_a_costly_proof_are_short() -> None:
    """``CHEAP_FRAME_BYTES`` sends short frames to the urgent lane: in a real game an
    observer checks every frame that short with 16 multiplications at most, and every frame
    with a shuffle, an unlayering, a "cannot refute" or a show proof is longer."""
    game = classic_3p()  # a finished game of three, stored
    observer = Peer(game.config, None, relay=False)
    kinds: set[str] = set()
    for raw in game.entries:
        MULT_COUNTER.reset()
        observer.receive(raw, 0.0)
        cost = MULT_COUNTER.total
        kind = read_payload(split_frame(raw)[1])[0].type
        kinds.add(kind)
        if len(raw) <= CHEAP_FRAME_BYTES:
            assert cost <= 16, (kind, cost)
        if kind in ("envelope", "deal", "unlayer", "pass", "show"):
            assert len(raw) > CHEAP_FRAME_BYTES, kind
    assert list(observer.entries) == list(game.entries)
    assert {"envelope", "unlayer", "pass", "show", "ack", "suggest", "open"} <= kinds
