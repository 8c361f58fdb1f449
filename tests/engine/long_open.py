"""A long 3-seat game in which one seat makes more shows than one entry's openings hold.

Seat 0 keeps suggesting a suspect or weapon that seat 1 (first to answer it) holds, and
nobody accuses until seat 1 has made ``SHOWS`` shows to seat 0; then seat 0 accuses the
envelope (read from every peer's secrets, as ``conftest.OracleBot`` does: test-only). So
seat 1 owes more than ``MAX_OPENINGS`` public openings at the end: its ``open`` carries the
first 48 and an ``openings`` entry the rest (75 public openings of a hand of 6 would not
fit one 32 KiB entry). The game is real: every message through the
engine and the cryptography.
"""

from __future__ import annotations

from functools import cache

from p2pclue.bots import Decision
from p2pclue.bots.protocol import ProtocolGame, play
from p2pclue.bots.random_bot import RandomBot
from p2pclue.engine.peer import Peer
from p2pclue.rules.actions import Suggest
from p2pclue.rules.cards import SUSPECTS, WEAPONS
from p2pclue.rules.state import GameState, Phase
from p2pclue.rules.variants import preset
from tests.engine.conftest import OracleBot

SHOWS = 75
FARMER, SHOWER = 0, 1


class FarmBot(OracleBot):
    """Never accuses until the shower has made ``SHOWS`` shows; seat 0 names its cards."""

    def _shows(self) -> int:
        return sum(1 for rec in self.peers[0].record.shows
                   if (rec.refuter, rec.suggester) == (SHOWER, FARMER))

    def _ready(self, state: GameState) -> bool:
        return False

    def decide(self, state: GameState) -> Decision:
        if (self.seat == FARMER and state.phase is Phase.AWAIT_TURN_START
                and self._shows() >= SHOWS):
            return super().decide(state)  # the oracle's right accusation
        return RandomBot.decide(self, state)  # never accusing (``_ready``)

    def _suggest(self, state: GameState) -> Suggest:
        if self.seat != FARMER:
            return super()._suggest(state)
        me = self.peers[SHOWER]._player
        held = set(me.hand) if me is not None else set()
        suspects = [c.index for c in SUSPECTS if c.index in held]
        weapons = [c.index for c in WEAPONS if c.index in held]
        suspect = self.rng.choice(suspects or [c.index for c in SUSPECTS])
        weapon = self.rng.choice(weapons or [c.index for c in WEAPONS])
        return Suggest(self.seat, suspect, weapon)


@cache
def long_open_game(seed: int = 1) -> ProtocolGame:
    """The whole game (cached: several tests read it)."""
    peers: list[Peer] = []
    return play(preset("classic"), 3, seed, lambda s, rng: FarmBot(s, rng, peers),
                on_peers=peers.extend)
