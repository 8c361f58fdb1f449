"""An in-memory network that runs several peers together, deterministically.

Used by tests, ``simulate`` and the benchmark. Delivery can be adversarial within
what the protocol allows: frames reordered, duplicated and delayed (a seeded
``random.Random`` picks which queued frame goes next). Time is a counter that
advances by one per delivery, passed to the peers as ``now``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from p2pclue.engine import events as ev
from p2pclue.engine.peer import Choice, Peer, Status

Chooser = Callable[[Peer, Choice], ev.Intent]
EventSink = Callable[[int, ev.Event], None]


@dataclass
class Delivery:
    to: int
    frame: bytes
    via: int


@dataclass
class Network:
    """Routes every peer's outgoing frames to the others."""

    peers: Sequence[Peer]
    rng: random.Random | None = None
    """None: first in, first out. Otherwise the next delivery is drawn at random."""
    duplicate: float = 0.0
    """Probability that a delivery is queued a second time."""
    queue: list[Delivery] = field(default_factory=list)
    now: float = 0.0
    deliveries: int = 0

    def collect(self) -> None:
        for i, peer in enumerate(self.peers):
            for frame, to in peer.frames_to_send():
                targets = [to] if to is not None else [j for j in range(len(self.peers)) if j != i]
                for j in targets:
                    self.queue.append(Delivery(j, frame, i))
                    if self.rng is not None and self.rng.random() < self.duplicate:
                        self.queue.append(Delivery(j, frame, i))

    def step(self, sink: EventSink | None = None) -> bool:
        """Deliver one frame; False when nothing is queued."""
        self.collect()
        if not self.queue:
            return False
        k = 0 if self.rng is None else self.rng.randrange(len(self.queue))
        d = self.queue.pop(k)
        self.now += 1
        self.deliveries += 1
        peer = self.peers[d.to]
        for event in peer.receive(d.frame, self.now, via=d.via):
            if sink is not None:
                sink(d.to, event)
        return True


def run_game(
    net: Network,
    choose: Chooser,
    *,
    sink: EventSink | None = None,
    max_deliveries: int = 2_000_000,
) -> None:
    """Start every peer and run until no peer is running or nothing more can happen."""
    for i, peer in enumerate(net.peers):
        for event in peer.start(net.now):
            if sink is not None:
                sink(i, event)
    while net.deliveries < max_deliveries:
        acted = _let_players_choose(net, choose, sink)
        if net.step(sink):
            continue
        if not acted and not _any_choice(net) and not _wait_out_opening(net, sink):
            return


def _wait_out_opening(net: Network, sink: EventSink | None) -> bool:
    """Nothing left to deliver: let time pass to the first suggester that waits for a
    private opening that never came, so that it complains (False: nobody waits)."""
    waits = [(d, i) for i, p in enumerate(net.peers) if (d := p.opening_deadline()) is not None]
    if not waits:
        return False
    deadline, i = min(waits)
    net.now = max(net.now, deadline)
    for event in net.peers[i].on_timeout(net.now):
        if sink is not None:
            sink(i, event)
    return True


def _any_choice(net: Network) -> bool:
    return any(p.choice() is not None for p in net.peers)


def _let_players_choose(net: Network, choose: Chooser, sink: EventSink | None) -> bool:
    acted = False
    for i, peer in enumerate(net.peers):
        if peer.status is not Status.RUNNING:
            continue
        choice = peer.choice()
        if choice is None:
            continue
        for event in peer.act(choose(peer, choice), net.now):
            if sink is not None:
                sink(i, event)
        acted = True
    return acted
