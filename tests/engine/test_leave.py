"""Leaving the table: the hand laid face up, the envelope resealed by the others, the game
goes on and audits valid; a leave whose proofs fail is blamed on the leaver."""

from __future__ import annotations

import random

import pytest

from p2pclue.bots.protocol import BotSeat
from p2pclue.bots.random_bot import RandomBot
from p2pclue.crypto.cards import card_point
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.errors import LocalProtocolError
from p2pclue.engine.harness import Network, run_game
from p2pclue.engine.peer import Choice, Peer, Stage, Status
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import Header, decode_payload, sign_frame, split_frame
from tests.engine.leave_games import make_peers, play_with_leave


def _types_after(peer: Peer, seat: int, index: int) -> list[str]:
    out = []
    for raw in peer.entries[index + 1:]:
        sender, payload, _ = split_frame(raw)
        if sender == seat:
            out.append(decode_payload(sender, payload)[0].type)
    return out


def _leave_index(peer: Peer) -> int:
    for i, raw in enumerate(peer.entries):
        sender, payload, _ = split_frame(raw)
        if decode_payload(sender, payload)[0].type == "leave":
            return i
    raise AssertionError("no leave in the transcript")


def test_a_game_with_a_leave_finishes_and_audits_valid() -> None:
    game = play_with_leave(4, "classic", seed=3, leaver=1, after_turn=2)
    stayers = [p for p in game.peers if p.seat != 1]
    assert all(p.status is Status.COMPLETE for p in stayers)
    assert len({tuple(p.entries) for p in stayers}) == 1
    data = stayers[0].transcript().to_bytes()
    verdict = audit(parse(data), data)
    assert verdict.valid and verdict.result in ("won", "nobody")
    # the leaver's hand is public, and is its real hand
    assert verdict.hands is not None and verdict.hands[1] == game.true_hands[1]
    left = [e for s, e in game.events if s == 0 and isinstance(e, ev.PlayerLeft)]
    assert left == [ev.PlayerLeft(1, game.true_hands[1])]
    # after the leave, the leaver sends nothing: no pet, open, reveal or secrets of its own
    assert _types_after(stayers[0], 1, _leave_index(stayers[0])) == []
    assert 1 not in stayers[0].revealed_k
    assert any("seat 1 left the table" in note for note in verdict.notes)


def test_cards_shown_to_the_leaver_stay_secret() -> None:
    game = play_with_leave(4, "classic", seed=1, leaver=0, after_turn=8)
    peer = game.peers[2]
    assert peer.status is Status.COMPLETE
    verdict = audit(peer.transcript())
    assert verdict.valid and verdict.shown is not None
    to_leaver = [rec for rec in peer.shows if rec.suggester == 0]
    assert to_leaver, "this seed must have someone show the leaver a card"
    # every show is listed, in order; those to the leaver (and by it) were never opened
    assert [rec for rec, _ in verdict.shown] == peer.shows
    assert all(card is None for rec, card in verdict.shown if 0 in (rec.suggester, rec.refuter))
    assert all(card is not None for rec, card in verdict.shown
               if 0 not in (rec.suggester, rec.refuter))


def test_a_refuter_that_leaves_is_skipped() -> None:
    def asked_to_refute(seat: int, event: ev.Event) -> bool:
        return isinstance(event, ev.Suggested) and event.seat != seat

    game = play_with_leave(4, "classic", seed=7, leaver=2, when=asked_to_refute)
    peer = game.peers[0]
    assert peer.status is Status.COMPLETE
    assert audit(peer.transcript()).valid
    i = _leave_index(peer)
    # the leave answered a suggestion: the entry before it is that suggestion or a pass in it,
    # and the refutation went on past seat 2
    before = _type_of(peer.entries[i - 1])
    assert before[1] in ("suggest", "pass") and before[0] != 2
    after = _type_of(peer.entries[i + 1])
    assert after[0] != 2
    # later suggestions are never answered by seat 2
    answered_by = [e.seat for s, e in game.events if s == 0 and isinstance(e, ev.Passed)] + [
        e.refuter for s, e in game.events if s == 0 and isinstance(e, ev.Refuted)]
    assert 2 not in answered_by[len(answered_by) - _answers_after(peer, i):]


def _type_of(raw: bytes) -> tuple[int, str]:
    sender, payload, _ = split_frame(raw)
    return sender, decode_payload(sender, payload)[0].type


def _answers_after(peer: Peer, index: int) -> int:
    n = 0
    for raw in peer.entries[index + 1:]:
        sender, payload, _ = split_frame(raw)
        n += decode_payload(sender, payload)[0].type in ("show", "pass")
    return n


def _run_until_awaited(peers: list[Peer], net: Network, seat: int, turn: int) -> None:
    """Deliver, and let bots play, until the table awaits ``seat`` on its own turn
    ``turn`` or later (outside a suggestion)."""
    bots = [BotSeat(RandomBot(s, random.Random(s), patience=1000), len(peers))
            for s in range(len(peers))]
    for p in peers:
        p.start(net.now)
    while True:
        while net.step(lambda s, e: bots[s].feed(e)):
            pass
        for p in peers:
            state = p.rules_state
            if p.seat == seat and state is not None and state.turn_number >= turn \
                    and state.awaiting_seat == seat and state.pending_suggestion is None:
                return
        acted = False
        for p in peers:
            choice = p.choice()
            if choice is not None:
                assert p.seat is not None
                for e in p.act(bots[p.seat].choose(p, choice), net.now):
                    bots[p.seat].feed(e)
                acted = True
        assert acted


def _forge_leave(peer: Peer, corrupt: str) -> bytes:
    """The leaver's own leave, corrupted after the proofs were made, signed with its key."""
    body = peer._build_leave(len(peer.entries))
    if corrupt == "hand":
        # claim a different card at one hand position (the proof no longer fits)
        body["hand"][0] = bytes(card_point(20 if body["hand"][0] != bytes(card_point(20))
                                           else 19))
    else:
        body["envelope"][0], body["envelope"][1] = body["envelope"][1], body["envelope"][0]
    assert peer.seat is not None and peer._identity is not None
    header = Header(peer.config.digest(), peer.seat, len(peer._sent_by[peer.seat]),
                    peer.head, "leave")
    return sign_frame(peer._identity, header, body)


@pytest.mark.parametrize("corrupt", ["hand", "envelope"])
def test_a_leave_whose_proof_fails_is_blamed(corrupt: str) -> None:
    peers, net = make_peers(4, "classic", seed=11)
    _run_until_awaited(peers, net, seat=1, turn=1)
    bad = _forge_leave(peers[1], corrupt)
    honest = [p for p in peers if p.seat != 1]
    for p in honest:
        p.receive(bad, net.now, via=1)
        assert p.status is Status.HALTED and p.blame is not None
        assert p.blame.culprit == 1 and p.blame.check.startswith("proof:")
    # the audit confirms the blame from the transcript and the evidence
    verdict = audit(honest[0].transcript())
    assert verdict.result == "halted" and verdict.blamed == 1


def test_a_leave_out_of_turn_is_blamed_and_the_engine_queues_an_early_one() -> None:
    peers, net = make_peers(4, "classic", seed=11)
    _run_until_awaited(peers, net, seat=1, turn=1)
    # seat 2 is not awaited: its signed leave now is a message out of turn
    bad = _forge_leave_as(peers[2], peers[1])
    peers[0].receive(bad, net.now, via=2)
    assert peers[0].status is Status.HALTED and peers[0].blame is not None
    assert peers[0].blame.culprit == 2 and peers[0].blame.check == "turn"
    # the engine itself never sends one out of turn: it queues it
    events = peers[3].act(ev.Leave(), net.now)
    assert events == [ev.LeaveQueued()] and peers[3].frames_to_send() == []


def _forge_leave_as(leaver: Peer, awaited: Peer) -> bytes:
    """``leaver`` builds a well-proven leave while ``awaited`` is the seat due."""
    assert awaited.expected_seat() == awaited.seat and leaver.expected_seat() != leaver.seat
    return _sign_anyway(leaver)


def _sign_anyway(peer: Peer) -> bytes:
    body = peer._build_leave(len(peer.entries))
    assert peer.seat is not None and peer._identity is not None
    header = Header(peer.config.digest(), peer.seat, len(peer._sent_by[peer.seat]),
                    peer.head, "leave")
    return sign_frame(peer._identity, header, body)


def test_no_leave_once_the_game_is_decided() -> None:
    game = play_with_leave(3, "classic", seed=3, leaver=1, after_turn=10_000)
    peer = game.peers[1]
    assert peer.stage is Stage.DONE
    with pytest.raises(LocalProtocolError):
        peer.act(ev.Leave(), 0.0)


def test_when_all_but_one_leave_the_last_one_wins_and_opens_the_envelope_alone() -> None:
    peers, net = make_peers(3, "classic", seed=13)
    bots = [BotSeat(RandomBot(s, random.Random(s), patience=1000), 3) for s in range(3)]

    def choose(peer: Peer, choice: Choice) -> ev.Intent:
        assert peer.seat is not None
        if peer.seat in (1, 2):
            return ev.Leave()
        return bots[peer.seat].choose(peer, choice)

    run_game(net, choose, sink=lambda s, e: bots[s].feed(e))
    peer = peers[0]
    assert peer.status is Status.COMPLETE
    state = peer.rules_state
    assert state is not None and (state.result, state.winner) == ("won", 0)  # R29
    verdict = audit(peer.transcript())
    assert verdict.valid and verdict.result == "won" and verdict.winner == 0
    assert verdict.hands is not None and set(verdict.hands) == {0, 1, 2}
    assert verdict.envelope == peer.envelope_cards and list(peer.revealed_k) == [0]
