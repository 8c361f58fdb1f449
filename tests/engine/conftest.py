"""Small seeded games through the real engine and cryptography, cached per session."""

from __future__ import annotations

import random
from functools import cache

from p2pclue.bots import Decision
from p2pclue.bots.protocol import ProtocolGame, play
from p2pclue.bots.random_bot import RandomBot
from p2pclue.crypto.cards import identify
from p2pclue.crypto.group import ONE, inverse, mul
from p2pclue.engine.peer import Peer, Status
from p2pclue.engine.wire import decode_payload, split_frame
from p2pclue.rules.actions import Accuse
from p2pclue.rules.game import can_accuse
from p2pclue.rules.state import GameState, Phase
from p2pclue.rules.variants import preset


def status(peer: Peer) -> Status:
    """The peer's status as it is now: read through a call, so that the type checker does
    not carry an earlier assertion about it past the calls that change it."""
    return peer.status


def hasty(patience: int) -> object:
    def factory(seat: int, rng: random.Random) -> RandomBot:
        return RandomBot(seat, rng, patience=patience)

    return factory


def run(
    n: int = 3, rules: str = "classic", seed: int = 1, *, patience: int = 12,
    cheat: str | None = None, cheater: int | None = None, phase: str | None = None,
    delivery_seed: int | None = None,
) -> ProtocolGame:
    return play(preset(rules), n, seed, hasty(patience),  # type: ignore[arg-type]
                cheat=cheat, cheater=cheater, cheat_phase=phase, delivery_seed=delivery_seed)


@cache
def finished_game(n: int = 3, rules: str = "classic", seed: int = 1) -> ProtocolGame:
    """One complete game, shared by the tests that only read it."""
    game = run(n, rules, seed)
    assert all(p.status.value == "complete" for p in game.peers)
    return game


class OracleBot(RandomBot):
    """A test-only bot that reads the envelope from every peer's secrets and accuses it.

    Nobody can do this in a real game (it needs all players' keys); the test uses it
    to reach a right accusation through the real plaintext-equivalence test.
    """

    def __init__(self, seat: int, rng: random.Random, peers: list[Peer]) -> None:
        super().__init__(seat, rng, patience=10_000)
        self.peers = peers

    def decide(self, state: GameState) -> Decision:
        if state.phase is Phase.AWAIT_TURN_START and can_accuse(state) and self.peers[0].envelope:
            key = ONE
            for peer in self.peers:
                assert peer._secrets.k is not None
                key = key * peer._secrets.k
            cards = [identify(mul(inverse(key), p)) for p in self.peers[0].envelope]
            return Accuse(self.seat, *cards)  # type: ignore[arg-type]
        return super().decide(state)


def oracle_game(n: int = 3, rules: str = "classic", seed: int = 1) -> ProtocolGame:
    peers: list[Peer] = []
    return play(preset(rules), n, seed, lambda s, rng: OracleBot(s, rng, peers),
                on_peers=peers.extend)


def sent_types(entries: list[bytes]) -> list[tuple[int, str]]:
    """Each chained entry's sender and message type, in chain order."""
    out = []
    for raw in entries:
        sender, payload, _ = split_frame(raw)
        out.append((sender, decode_payload(sender, payload)[0].type))
    return out
