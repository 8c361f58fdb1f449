"""A game whose private openings are all lost: every show ends in a complaint and a public
opening (tests of the deniable refutation and of the schema use it)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from p2pclue.bots.protocol import BotSeat
from p2pclue.bots.random_bot import RandomBot
from p2pclue.engine.harness import Network, run_game
from p2pclue.engine.peer import Peer
from tests.engine.leave_games import make_peers


def is_private(frame: bytes) -> bool:
    """A private opening (a msgpack array of 4), not a signed frame (an array of 3)."""
    return frame[:1] == b"\x94"


@dataclass
class LossyNetwork(Network):
    """Loses every private opening (a lost link, or a refuter that never sends it)."""

    lost: int = 0

    def collect(self) -> None:
        super().collect()
        kept = [d for d in self.queue if not is_private(d.frame)]
        self.lost += len(self.queue) - len(kept)
        self.queue = kept


def play_bots(net: Network, peers: list[Peer], seed: int) -> None:
    seats = [BotSeat(RandomBot(s, random.Random(seed * 11 + s), patience=12), len(peers))
             for s in range(len(peers))]
    for p in peers:
        p.start(net.now)
    run_game(net, lambda p, c: seats[p.seat or 0].choose(p, c),
             sink=lambda i, e: seats[i].feed(e))


def lost_openings_game(seed: int = 5) -> tuple[list[Peer], LossyNetwork]:
    peers, _ = make_peers(3, "classic", seed)
    net = LossyNetwork(peers)
    play_bots(net, peers, seed)
    return peers, net
