"""Review attacks on the engine and the audit, with real keys and real cryptography.

A transcript cut short is signed by nobody: anyone holding a copy can cut it, and a lost
packet cuts the copies of the peers that missed it. Its audit must never contradict the
audit of the whole game.
"""

from __future__ import annotations

import copy
import random
from functools import cache

from p2pclue.bots.protocol import ProtocolGame, play, seeded_identity
from p2pclue.engine.audit import audit
from p2pclue.engine.peer import Peer, Status
from p2pclue.engine.transcript import Footer, Transcript, parse
from p2pclue.engine.wire import read_payload, sign_frame, split_frame
from p2pclue.rules.actions import Accuse, Action
from p2pclue.rules.state import GameState
from p2pclue.rules.variants import preset
from tests.engine.conftest import OracleBot, finished_game


class WrongAccuser(OracleBot):
    """Accuses at its first chance, one suspect off the envelope: eliminated (R27)."""

    def decide(self, state: GameState) -> Action:
        decision = super().decide(state)
        if isinstance(decision, Accuse):
            return Accuse(self.seat, (decision.suspect + 1) % 6, decision.weapon, decision.room)
        return decision  # type: ignore[return-value]


class NeverAccuses(OracleBot):
    def decide(self, state: GameState) -> Action:
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

    game = play(preset("classic"), 3, 2, factory, on_peers=peers.extend)
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


def test_a_sore_loser_cannot_erase_the_win_by_equivocating_after_the_end() -> None:
    """After a finished game, a losing seat signs a second version of its last message and
    sends it to the winner's peer only. The winner's peer halts with the loser blamed (the
    late equivocation would split the transcripts); before the fix its audit also reported
    no winner, so a loser, who has nothing left to lose by a blame, could erase the win
    from the winner's own transcript."""
    game = finished_game(3, "classic", 1)
    state = game.peers[0].rules_state
    assert state is not None and state.result == "won" and state.winner is not None
    winner = state.winner
    loser = next(s for s in range(3) if s != winner)
    peer = copy.deepcopy(game.peers[winner])
    last = peer._sent_by[loser][-1]
    header, body = read_payload(split_frame(last)[1])
    assert header.type == "secrets"
    second = sign_frame(seeded_identity(1, loser), header, {**body, "k": body["r"]})
    peer.receive(second, 0.0)
    assert peer.status is Status.HALTED and peer.blame is not None
    assert (peer.blame.culprit, peer.blame.check) == (loser, "equivocation")

    data = peer.transcript().to_bytes()
    verdict = audit(parse(data), data)
    assert not verdict.valid and verdict.result == "halted" and verdict.blamed == loser
    assert verdict.winner == winner
    assert any("decided before the blamed message" in note for note in verdict.notes)


def test_a_bad_reveal_after_the_decision_does_not_erase_the_win() -> None:
    """The same in the end-of-game reveal: the loser's bad ``secrets`` halts the game."""
    game = finished_game(3, "classic", 1)
    state = game.peers[0].rules_state
    assert state is not None and state.winner is not None
    entries = game.peers[0].entries
    typed = [read_payload(split_frame(raw)[1])[0] for raw in entries]
    first_secret = next(i for i, h in enumerate(typed) if h.type == "secrets")
    observer = Peer(game.config, None, relay=False)
    for i, raw in enumerate(entries[:first_secret]):
        observer.receive(raw, float(i))
    seat = typed[first_secret].sender
    _, body = read_payload(split_frame(entries[first_secret])[1])
    bad = sign_frame(seeded_identity(1, seat), typed[first_secret],
                     {**body, "k": body["r"]})
    observer.receive(bad, 0.0)
    assert observer.status is Status.HALTED and observer.blame is not None
    data = observer.transcript().to_bytes()
    verdict = audit(parse(data), data)
    assert verdict.result == "halted" and verdict.blamed == seat
    assert verdict.winner == state.winner
