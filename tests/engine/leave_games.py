"""Seeded protocol games where a player leaves the table (shared by the leave tests)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from p2pclue.bots.protocol import BotFactory, BotSeat, make_config
from p2pclue.bots.random_bot import RandomBot
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine import events as ev
from p2pclue.engine.harness import Network, run_game
from p2pclue.engine.peer import Choice, Peer
from p2pclue.rules.variants import preset


@dataclass
class LeaveGame:
    peers: list[Peer]
    net: Network
    events: list[tuple[int, ev.Event]] = field(default_factory=list)
    true_hands: dict[int, tuple[int, ...]] = field(default_factory=dict)


def make_peers(n: int, rules: str, seed: int) -> tuple[list[Peer], Network]:
    config, keys = make_config(preset(rules), n, seed)
    peers = [Peer(config, s, keys[s], SeededRandom(b"leave/%d/%d" % (seed, s)))
             for s in range(n)]
    return peers, Network(peers)


def play_with_leave(
    n: int = 4, rules: str = "classic", seed: int = 3, *, leaver: int = 1,
    after_turn: int = 2, when: Callable[[int, ev.Event], bool] | None = None,
    patience: int = 14, bots: BotFactory | None = None,
) -> LeaveGame:
    """Bots play; ``leaver`` asks to leave once turn ``after_turn`` is reached (or when
    ``when(seat, event)`` first holds for one of its own events); the engine sends the
    leave the next time the table awaits it. ``bots``: these bots instead of random ones,
    fed every event as a networked seat is, the leave included."""
    peers, net = make_peers(n, rules, seed)
    game = LeaveGame(peers, net)
    rng = random.Random(seed)
    seats = [BotSeat(bots(s, random.Random(rng.getrandbits(64))) if bots is not None else
                     RandomBot(s, random.Random(rng.getrandbits(64)), patience=patience), n)
             for s in range(n)]
    asked = False

    def ask_leave() -> None:
        nonlocal asked
        asked = True
        for e in peers[leaver].act(ev.Leave(), net.now):
            sink(leaver, e)

    def sink(seat: int, event: ev.Event) -> None:
        game.events.append((seat, event))
        if isinstance(event, ev.HandDealt):
            game.true_hands[seat] = event.cards
        if bots is not None or not isinstance(event, ev.PlayerLeft):
            seats[seat].feed(event)
        if not asked and seat == leaver and when is not None and when(seat, event):
            ask_leave()

    def choose(peer: Peer, choice: Choice) -> ev.Intent:
        state = peer.rules_state
        assert state is not None and peer.seat is not None
        if not asked and when is None and peer.seat == leaver \
                and state.turn_number >= after_turn:
            return ev.Leave()
        return seats[peer.seat].choose(peer, choice)

    run_game(net, choose, sink=sink)
    return game
