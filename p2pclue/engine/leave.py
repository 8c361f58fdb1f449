"""Leaving the table: by the player's own ``leave``, or by the others' votes when it falls
silent.

A ``leave`` opens the leaver's hand and removes its key from the envelope, each proven
(publishing the key itself would open every card shown to it); then the rules put it out
like a wrong accuser (docs/protocol.md, "Leaving the table"). A seat that owes a message
past every peer's deadline can be voted out: the players present sign votes (``votes``)
to wait more or to end the game as abandoned; a quorum of abandon votes ends it
(docs/protocol.md, "Silence and abandon"). Votes are about one point of the game: they
lapse as soon as the awaited entry is chained.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from p2pclue.crypto import proofs as P
from p2pclue.crypto.cards import identify
from p2pclue.engine import events as ev
from p2pclue.engine.accusation import AccusationCheck
from p2pclue.engine.ending import OpenRound
from p2pclue.engine.errors import LocalProtocolError, WireError
from p2pclue.engine.stage import (
    Body,
    Fields,
    Player,
    Reject,
    SeatRound,
    Stage,
    Status,
    proof_context,
)
from p2pclue.engine.votes import Vote, quorum, read_vote, sign_vote, window_ms
from p2pclue.rules import actions as ra
from p2pclue.rules import game as rg
from p2pclue.rules.errors import N_

if TYPE_CHECKING:
    from p2pclue.engine.peer import Peer
    from p2pclue.engine.turn import Play


def on_leave(peer: Peer, play: Play, index: int, sender: int, f: Fields) -> None:
    """The leaver's hand opened and its envelope layer removed, both proven; then it is
    out (rules: ``Leave``). Nothing else about it becomes public (docs/protocol.md,
    "Leaving the table")."""
    after = rg.apply(play.state, ra.Leave(sender))
    mine = peer._hand_points(sender)
    if len(f["hand"]) != len(mine) or len(f["envelope"]) != 3:
        raise Reject("leave", f"a leave opens {len(mine)} hand points and 3 envelope points")
    peer._verify(P.verify_unlayer, proof_context(play.game_id, index, sender, "leave:hand"),
                 mine, f["hand"], peer.S[sender], f["hand_proof"])
    peer._verify(P.verify_unlayer, proof_context(play.game_id, index, sender, "leave:envelope"),
                 peer.envelope, f["envelope"], peer.Y[sender], f["envelope_proof"])
    cards = [identify(p) for p in f["hand"]]
    if any(c is None for c in cards):
        raise Reject("leave", "the opened hand is not made of cards")
    hand = tuple(sorted(c for c in cards if c is not None))
    play.state = after
    peer.envelope = f["envelope"]
    peer.left_hands[sender] = hand
    peer._events.append(ev.PlayerLeft(sender, hand))
    if after.result is not None:  # R29/R30: the game is decided; the reveal follows
        peer._enter(OpenRound(SeatRound.starting(peer.n, 0, peer.left_hands), play))
    else:
        play.resume(peer)


def build_leave(peer: Peer, play: Play, me: Player, index: int) -> Body:
    """Open the hand (remove s, never publish it) and remove k from the envelope, each
    with a batch DLEQ. Publishing k itself would open every card shown to this player."""
    sec = me.secrets
    hand, hand_proof = P.unlayer(proof_context(play.game_id, index, me.seat, "leave:hand"),
                                 peer._hand_points(me.seat), sec.hand_key(), peer.S[me.seat],
                                 me.src)
    env, env_proof = P.unlayer(proof_context(play.game_id, index, me.seat, "leave:envelope"),
                               peer.envelope, sec.key(), peer.Y[me.seat], me.src)
    return {"hand": [bytes(p) for p in hand], "hand_proof": hand_proof.to_wire(),
            "envelope": [bytes(p) for p in env], "envelope_proof": env_proof.to_wire()}


def queue_leave(peer: Peer, now: float) -> list[ev.Event]:
    """The player asked to leave: its ``leave`` goes out the next time the table awaits it
    in play, never in the middle of a step it owes."""
    if peer.seat is None or peer.seat in peer.left_hands:
        raise LocalProtocolError(N_("this player is not at the table"))
    state = peer.rules_state
    if peer.stage in (Stage.OPEN, Stage.SECRETS, Stage.DONE) or (
            state is not None and state.result is not None):
        raise LocalProtocolError(N_("the game is decided: stay for the end-of-game reveal"))
    peer._leave_queued = True
    out = peer._run(now, lambda: None)
    if peer._leave_queued:
        out.append(ev.LeaveQueued())
    return out


# ---- silence: votes to wait or abandon (engine/votes.py) ---------------------------------


@dataclass
class Ballots:
    """The votes about the seat that owes the next entry, at the current point of the game."""

    silent_at: int | None = None
    """The entry count at which this peer reported the owed message overdue (votes count
    from then on); None: not reported at this point."""
    own_ballot: int = 0
    """This player's last ballot number (it only grows: the highest of a voter's counts)."""
    counted: dict[int, tuple[Vote, bytes]] = field(default_factory=dict)
    held: dict[int, tuple[Vote, bytes]] = field(default_factory=dict)
    """Votes about this point that arrived before this peer's own deadline for the silent
    seat: not counted until it passes, dropped if the awaited entry comes first."""

    def lapse(self) -> None:
        """The awaited entry was chained: every vote about the old point lapses."""
        self.counted.clear()
        self.held.clear()
        self.silent_at = None


def report_silence(peer: Peer, seat: int, deadline: float, now: float) -> list[ev.Event]:
    """``seat`` owes the next entry past this peer's ``deadline``: from now on, until it
    speaks, votes about it count, those held until now first."""
    ballots = peer._ballots
    ballots.silent_at = len(peer.entries)
    out: list[ev.Event] = [ev.PeerSilent(seat, deadline)]
    held, ballots.held = ballots.held, {}
    for _voter, (checked, raw) in sorted(held.items()):
        if peer.status is Status.RUNNING:
            out += count_vote(peer, checked, raw, now)
    return out


def vote(peer: Peer, choice: str, now: float) -> tuple[bytes, list[ev.Event]]:
    """``Peer.vote``: sign this player's vote about the seat silent now."""
    silent = peer.expected_seat()
    if peer.status is not Status.RUNNING or peer.seat is None or peer._identity is None:
        raise LocalProtocolError(N_("only a player of a running game votes"))
    ballots = peer._ballots
    if ballots.silent_at != len(peer.entries) or silent is None:
        raise LocalProtocolError(N_("nobody has been reported silent at this point"))
    if silent == peer.seat or peer.seat in peer.left_hands:
        raise LocalProtocolError(N_("the silent seat and seats that left do not vote"))
    if choice not in ("wait", "abandon"):
        raise LocalProtocolError(N_("vote wait or abandon"))
    ballots.own_ballot += 1
    # The silence was reported, so this peer's deadline (``timeout`` after ``_since``)
    # has passed: ``waited`` is at least ``timeout`` (``max`` only absorbs rounding).
    timeout = window_ms(peer._timeout)
    waited = max(window_ms(now - peer._since), timeout)
    raw = sign_vote(peer._identity, Vote(peer._config_digest, len(peer.entries), peer.head,
                                         silent, peer.seat, choice, ballots.own_ballot,
                                         timeout, waited))
    return raw, receive_vote(peer, raw, now)


def receive_vote(peer: Peer, raw: bytes, now: float) -> list[ev.Event]:
    """``Peer.receive_vote``: check a signed vote, then hold it or count it."""
    if peer.status is not Status.RUNNING:
        return []
    try:
        checked = read_vote(raw, peer._keys)
    except WireError as exc:
        peer._drop(raw, f"unreadable vote: {exc}")
        return []
    if (checked.game, checked.entries, checked.head) != (peer._config_digest, len(peer.entries),
                                                         peer.head) \
            or checked.silent != peer.expected_seat() or checked.voter in peer.left_hands:
        peer._drop(raw, "a vote about another point of the game")
        return []
    ballots = peer._ballots
    if ballots.silent_at != len(peer.entries):
        held = ballots.held.get(checked.voter)
        if held is None or held[0].ballot < checked.ballot:
            ballots.held[checked.voter] = (checked, raw)
        return []
    return count_vote(peer, checked, raw, now)


def count_vote(peer: Peer, checked: Vote, raw: bytes, now: float) -> list[ev.Event]:
    """Add a checked vote about this point to the tally, after this peer's deadline."""
    counted = peer._ballots.counted
    old = counted.get(checked.voter)
    if old is not None and old[0].ballot >= checked.ballot:
        return []
    counted[checked.voter] = (checked, raw)
    abandon = tuple(s for s, (v, _) in sorted(counted.items()) if v.choice == "abandon")
    wait = tuple(s for s, (v, _) in sorted(counted.items()) if v.choice == "wait")
    needed = abandon_quorum(peer)
    out: list[ev.Event] = [ev.VoteCounted(checked.voter, checked.choice, checked.silent,
                                          abandon, wait, needed)]
    if len(abandon) >= needed:
        current = peer._current  # read before the status changes
        forfeited = current if isinstance(current, AccusationCheck) \
            and checked.silent == current.accuser else None
        peer.status = Status.ABANDONED
        peer.abandon_votes = tuple(counted[s][1] for s in abandon)
        result = winner = None
        if forfeited is not None:
            # The quorum signed that the accuser owes its own (last) PET step here: a
            # withheld step of its own check, which counts as a wrong accusation (R27,
            # then R29/R30). The same rule in the audit: docs/protocol.md, "Informed abort".
            forfeited.play.apply(ra.AccusationResult(checked.silent, False))
            result, winner = forfeited.play.state.result, forfeited.play.state.winner
        out.append(ev.Abandoned(checked.silent, abandon, forfeited is not None, result, winner))
    elif len(wait) >= needed:
        peer._deadline = now + peer._timeout
    return out


def abandon_quorum(peer: Peer) -> int:
    """``Peer.abandon_quorum``: a strict majority of the seats still at the table other
    than the silent one."""
    silent = peer.expected_seat()
    at_table = [s for s in range(peer.n) if s not in peer.left_hands and s != silent]
    return quorum(len(at_table))
