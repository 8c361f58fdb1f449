"""Review attacks on the engine and the audit, with real keys and real cryptography.

A transcript cut short is signed by nobody: anyone holding a copy can cut it, and a lost
packet cuts the copies of the peers that missed it. Its audit must never contradict the
audit of the whole game.
"""

from __future__ import annotations

import random
from functools import cache

from p2pclue.bots.protocol import ProtocolGame, play
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import Footer, Transcript, parse
from p2pclue.engine.wire import read_payload, split_frame
from p2pclue.rules.actions import Accuse, Action
from p2pclue.rules.state import GameState
from p2pclue.rules.variants import preset
from tests.engine.conftest import OracleBot


class WrongAccuser(OracleBot):
    """Accuses at its first chance, one suspect off the envelope: eliminated (R27)."""

    def decide(self, state: GameState) -> Action:  # type: ignore[override]
        decision = super().decide(state)
        if isinstance(decision, Accuse):
            return Accuse(self.seat, (decision.suspect + 1) % 6, decision.weapon, decision.room)
        return decision  # type: ignore[return-value]


class NeverAccuses(OracleBot):
    def decide(self, state: GameState) -> Action:  # type: ignore[override]
        decision = super().decide(state)
        if isinstance(decision, Accuse):
            return super(OracleBot, self).decide(state)  # type: ignore[return-value]
        return decision  # type: ignore[return-value]


@cache
def seat1_wins_by_a_right_accusation() -> ProtocolGame:
    """Three players: seat 0 accuses wrongly, then seat 1 accuses right and wins."""
    peers: list = []  # type: ignore[type-arg]
    bots = (WrongAccuser, OracleBot, NeverAccuses)

    def factory(seat: int, rng: random.Random) -> OracleBot:
        return bots[seat](seat, rng, peers)

    game = play(preset("classic"), 3, 2, factory, on_peers=peers.extend)  # type: ignore[arg-type]
    state = game.peers[0].rules_state
    assert state is not None and (state.result, state.winner) == ("won", 1)
    return game


def test_a_transcript_cut_before_the_accusers_own_step_does_not_crown_another_seat() -> None:
    """Seat 2 (or a dropped packet) cuts its copy just before seat 1's last PET step.

    Before the fix the cut file audited valid as "won, winner 2": seat 1's right
    accusation counted as wrong (R27) and seat 2 was the last one standing (R29), although
    nothing seat 1 signed says so and the whole transcript proves seat 1 won.
    """
    game = seat1_wins_by_a_right_accusation()
    whole = game.peers[2].transcript()
    raw_whole = whole.to_bytes()
    full = audit(parse(raw_whole), raw_whole)
    assert full.valid and (full.result, full.winner) == ("won", 1)

    senders = [read_payload(split_frame(raw)[1])[0] for raw in whole.entries]
    accuse = max(i for i, h in enumerate(senders) if h.type == "accuse")
    assert senders[accuse].sender == 1
    steps = [h.sender for h in senders[accuse + 1: accuse + 4]]
    assert steps == [2, 0, 1]  # the accuser steps last
    kept = whole.entries[: accuse + 3]  # every step but seat 1's own
    raw_cut = Transcript(whole.config, kept, Footer("abandoned", len(kept))).to_bytes()
    cut = audit(parse(raw_cut), raw_cut)

    assert cut.valid
    assert cut.withheld == {"seat": 1, "accuser": 1, "counts_as_wrong": True}
    assert cut.winner is None and cut.result == "abandoned"
    assert cut.blamed is None
