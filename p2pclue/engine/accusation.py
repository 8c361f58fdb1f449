"""Accusations: a plaintext equality test against the envelope nobody can read.

The accuser names a triple; from the envelope's points and the triple every peer derives
the same starting pair, and each seat at the table in turn applies its key and a secret
blinding (proven, ``pet`` steps). After the last step the pair is equal exactly when the
triple is the envelope's, and nothing else about the envelope is learnt. The chain starts
left of the accuser and ends with it: whoever steps last can compute the verdict before
sending its step and withhold it, and only the accuser may know its own verdict early
(docs/protocol.md, "Informed abort").
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pclue.crypto import proofs as P
from p2pclue.crypto.group import Point
from p2pclue.engine import events as ev
from p2pclue.engine.ending import OpenRound
from p2pclue.engine.record import Play
from p2pclue.engine.stage import (
    Body,
    Fields,
    Host,
    Player,
    RoundStage,
    SeatRound,
    Stage,
    proof_context,
)
from p2pclue.rules import actions as ra


def on_accuse(peer: Host, play: Play, index: int, sender: int, f: Fields) -> None:
    """An accusation in play: the rules accept it, and its check begins."""
    triple = (f["suspect"], f["weapon"], f["room"])
    play.apply(ra.Accuse(sender, *triple))
    peer.announce(ev.Accused(sender, triple))
    record = peer.record
    ctx = proof_context(play.game_id, index, sender, "accuse")
    weights = P.pet_weights(ctx, triple, record.envelope)
    pair = P.pet_start(record.envelope, triple, weights)
    peer.enter(AccusationCheck(SeatRound.starting(record.n, sender + 1, record.left_hands), play,
                               triple, pair))


@dataclass
class AccusationCheck(RoundStage):
    """The ``pet`` chain of one accusation, from the accuser's left neighbour to the
    accuser; its verdict ends the game or puts the accuser out."""

    stage = Stage.PET
    message_type = "pet"

    round: SeatRound
    play: Play
    triple: tuple[int, int, int]
    qp: tuple[Point, Point]
    """The pair (Q, P) as the last step left it: Q == P after all steps iff right."""

    @property
    def accuser(self) -> int:
        return self.play.state.current_seat

    def on_pet(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        q_prev, p_prev = self.qp
        peer.verify(P.verify_pet_step, proof_context(self.play.game_id, index, sender, "pet"),
                    q_prev, p_prev, f["Q"], f["P"], peer.record.Y[sender], f["proof"])
        self.qp = (f["Q"], f["P"])
        self.next_in_round(peer)

    def finish(self, peer: Host) -> None:
        correct = P.pet_result(*self.qp)
        seat = self.accuser
        self.play.apply(ra.AccusationResult(seat, correct))
        peer.announce(ev.AccusationDecided(seat, self.triple, correct))
        if self.play.state.result is not None:
            record = peer.record
            peer.enter(OpenRound(SeatRound.starting(record.n, 0, record.left_hands), self.play))
        else:
            peer.resume_play()

    def build(self, peer: Host, me: Player, index: int) -> Body:
        q, p, proof = P.pet_step(proof_context(self.play.game_id, index, me.seat, "pet"),
                                 *self.qp, me.secrets.key(), peer.record.Y[me.seat], me.src)
        return {"Q": bytes(q), "P": bytes(p), "proof": proof.to_wire()}
