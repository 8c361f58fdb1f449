"""Leaving the table: a player's own ``leave``.

A ``leave`` opens the leaver's hand and removes its key from the envelope, each proven
(publishing the key itself would open every card shown to it); then the rules put it out
like a wrong accuser (docs/protocol.md, "Leaving the table"). A seat that falls silent
instead can be voted out (``silence``).
"""

from __future__ import annotations

from p2pclue.crypto import proofs as P
from p2pclue.crypto.cards import identify
from p2pclue.engine import events as ev
from p2pclue.engine.ending import OpenRound
from p2pclue.engine.errors import Reject
from p2pclue.engine.record import Play, PublicRecord
from p2pclue.engine.stage import Body, Fields, Host, Player, SeatRound, proof_context
from p2pclue.rules import actions as ra
from p2pclue.rules import game as rg


def on_leave(peer: Host, play: Play, index: int, sender: int, f: Fields) -> None:
    """The leaver's hand opened and its envelope layer removed, both proven; then it is
    out (rules: ``Leave``). Nothing else about it becomes public (docs/protocol.md,
    "Leaving the table")."""
    record = peer.record
    after = rg.apply(play.state, ra.Leave(sender))
    mine = record.hand_points(sender)
    if len(f["hand"]) != len(mine) or len(f["envelope"]) != 3:
        raise Reject("leave", f"a leave opens {len(mine)} hand points and 3 envelope points")
    peer.verify(P.verify_unlayer, proof_context(play.game_id, index, sender, "leave:hand"),
                mine, f["hand"], record.S[sender], f["hand_proof"])
    peer.verify(P.verify_unlayer, proof_context(play.game_id, index, sender, "leave:envelope"),
                record.envelope, f["envelope"], record.Y[sender], f["envelope_proof"])
    cards = [identify(p) for p in f["hand"]]
    if any(c is None for c in cards):
        raise Reject("leave", "the opened hand is not made of cards")
    hand = tuple(sorted(c for c in cards if c is not None))
    play.state = after
    record.envelope = f["envelope"]
    record.left_hands[sender] = hand
    peer.announce(ev.PlayerLeft(sender, hand))
    if after.result is not None:  # R29/R30: the game is decided; the reveal follows
        peer.enter(OpenRound(SeatRound.starting(record.n, 0, record.left_hands), play))
    else:
        peer.resume_play()


def build_leave(record: PublicRecord, play: Play, me: Player, index: int) -> Body:
    """Open the hand (remove s, never publish it) and remove k from the envelope, each
    with a batch DLEQ. Publishing k itself would open every card shown to this player."""
    sec = me.secrets
    hand, hand_proof = P.unlayer(proof_context(play.game_id, index, me.seat, "leave:hand"),
                                 record.hand_points(me.seat), sec.hand_key(),
                                 record.S[me.seat], me.src)
    env, env_proof = P.unlayer(proof_context(play.game_id, index, me.seat, "leave:envelope"),
                               record.envelope, sec.key(), record.Y[me.seat], me.src)
    return {"hand": [bytes(p) for p in hand], "hand_proof": hand_proof.to_wire(),
            "envelope": [bytes(p) for p in env], "envelope_proof": env_proof.to_wire()}
