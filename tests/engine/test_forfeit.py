"""The forfeit of an accuser that withholds its own accusation-check step, proven by votes.

Three players, real keys, real cryptography, real frames: seat 0 accused wrongly earlier
(R27), seat 1 accuses right, and the check (PET) runs 2, 0, then 1, the accuser last.
Seat 1 can compute its verdict before its own step. If it goes silent there and the two
other seats sign abandon votes naming it at that point, its accusation counts as wrong:
eliminated (R27), and seat 2 is the last player standing (R29). Live peers and the audit
reach that same verdict. Without those signatures (a file cut there, votes about another
seat or another point, forged or tampered votes) nothing is applied and nobody is blamed.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.bots.protocol import ProtocolGame
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine import events as ev
from p2pclue.engine.audit import Verdict, audit
from p2pclue.engine.peer import Peer, Stage, Status
from p2pclue.engine.peer_secrets import PeerSecrets
from p2pclue.engine.transcript import Footer, Transcript, parse
from p2pclue.engine.votes import read_vote, sign_vote
from p2pclue.engine.wire import pack, read_payload, split_frame, unpack_canonical
from tests.engine.test_review_attacks import seat1_wins_by_a_right_accusation

LATE = 1e9
"""A time past every deadline: the silence is reported."""
LATER = 2e9
"""A time past the forfeit grace too (``FORFEIT_GRACE`` = 2 silences at one point)."""


def _past_grace(peer: Peer) -> list[ev.Event]:
    """The peer reports the silence twice: at its deadline, then after its grace."""
    return peer.on_timeout(LATE) + peer.on_timeout(LATER)


def _game() -> ProtocolGame:
    return seat1_wins_by_a_right_accusation()


def _accuse_index(game: ProtocolGame) -> int:
    typed = [read_payload(split_frame(raw)[1])[0] for raw in game.peers[0].entries]
    index = max(i for i, h in enumerate(typed) if h.type == "accuse")
    assert typed[index].sender == 1
    assert [h.sender for h in typed[index + 1: index + 4]] == [2, 0, 1]  # accuser last
    return index


def _live_at(entries: int, seats: tuple[int, ...]) -> dict[int, Peer]:
    """Fresh live peers for ``seats``, rebuilt from their own secrets and the first
    ``entries`` entries of the real game (as after a crash): the game as it stood then."""
    game = _game()
    out: dict[int, Peer] = {}
    for seat in seats:
        old = game.peers[seat]
        secrets = PeerSecrets.from_bytes(old.export_secrets().to_bytes())
        peer = Peer(game.config, seat, old._identity, SeededRandom(b"forfeit/%d" % seat))
        peer.restore(secrets, list(old.entries[:entries]), 0.0)
        assert peer.frames_to_send() == []  # the silent seat owes the next entry, not them
        out[seat] = peer
    return out


def _vote_all(peers: dict[int, Peer]) -> dict[int, list[ev.Event]]:
    """Every present peer reports the silence and signs an abandon vote, which every
    other present peer counts; the events each one saw."""
    seen: dict[int, list[ev.Event]] = {s: _past_grace(p) for s, p in peers.items()}
    for seat, peer in peers.items():
        if peer.status is not Status.RUNNING:
            continue
        raw, events = peer.vote("abandon", LATE)
        seen[seat] += events
        for other, q in peers.items():
            if other != seat:
                seen[other] += q.receive_vote(raw, LATE)
    return seen


def _audit(t: Transcript) -> Verdict:
    raw = t.to_bytes()
    return audit(parse(raw), raw)


@cache
def _forfeited() -> tuple[dict[int, Peer], dict[int, list[ev.Event]]]:
    """Seat 1 silent at its own step; seats 0 and 2 vote to abandon."""
    peers = _live_at(_accuse_index(_game()) + 3, (0, 2))
    for peer in peers.values():
        assert peer.stage is Stage.PET and peer.accuser == 1 and peer.expected_seat() == 1
    return peers, _vote_all(peers)


def test_live_peers_apply_the_forfeit_when_the_quorum_signs_it() -> None:
    peers, seen = _forfeited()
    for seat, peer in peers.items():
        assert peer.status is Status.ABANDONED
        assert ev.Abandoned(1, (0, 2), True, "won", 2) in seen[seat]
        state = peer.rules_state
        assert state is not None
        assert set(state.eliminated) == {0, 1}  # seat 0 earlier, seat 1 by forfeit
        assert (state.result, state.winner) == ("won", 2)  # R29: the last one standing


def test_the_audit_applies_the_same_forfeit_from_the_signed_votes() -> None:
    peers, _ = _forfeited()
    data = peers[0].transcript().to_bytes()
    assert peers[2].transcript().to_bytes() == data  # every present peer writes one file
    verdict = audit(parse(data), data)
    assert verdict.valid and verdict.blamed is None
    assert (verdict.result, verdict.winner) == ("won", 2)
    assert verdict.forfeit == {"seat": 1, "voters": [0, 2]}
    assert verdict.withheld == {"seat": 1, "accuser": 1, "counts_as_wrong": True}
    assert verdict.to_json()["forfeit"] == verdict.forfeit
    assert any("forfeit decided by the signed abandon votes of seats [0, 2]" in n
               for n in verdict.notes)
    assert any("this forfeit rests on the word of seats [0, 2] that seat 1 was silent" in n
               for n in verdict.notes)  # the audit says whose word it rests on
    assert ev.Abandoned(1, (0, 2), True, "won", 2) in verdict.events
    # the whole game, where seat 1 did step, still audits as seat 1's win
    whole = _game().peers[2].transcript()
    assert (_audit(whole).result, _audit(whole).winner) == ("won", 1)


def test_the_same_transcript_cut_before_the_votes_forfeits_nothing() -> None:
    peers, _ = _forfeited()
    voted = peers[0].transcript()
    cut = replace(voted, footer=Footer("abandoned", len(voted.entries)))
    verdict = _audit(cut)
    assert verdict.valid and verdict.blamed is None
    assert (verdict.result, verdict.winner, verdict.forfeit) == ("abandoned", None, None)
    assert verdict.withheld == {"seat": 1, "accuser": 1, "counts_as_wrong": True}
    # a live peer that only gives up waiting (no quorum) applies nothing either
    alone = _live_at(len(voted.entries), (2,))[2]
    alone.on_timeout(LATE)
    alone.abandon()
    state = alone.rules_state
    assert state is not None and set(state.eliminated) == {0} and state.result is None
    assert _audit(alone.transcript()).forfeit is None


@pytest.mark.parametrize("step", [1, 2])
def test_votes_naming_a_seat_that_owes_another_step_only_name_it(step: int) -> None:
    """Seat 2 (first step) or seat 0 (second step) goes silent inside seat 1's check."""
    entries = _accuse_index(_game()) + step
    silent = (2, 0)[step - 1]
    peers = _live_at(entries, tuple(s for s in range(3) if s != silent))
    seen = _vote_all(peers)
    for seat, peer in peers.items():
        assert peer.status is Status.ABANDONED
        assert ev.Abandoned(silent, tuple(sorted(peers)), False, None, None) in seen[seat]
        state = peer.rules_state
        assert state is not None and set(state.eliminated) == {0} and state.result is None
    verdict = _audit(peers[1].transcript())
    assert verdict.valid and verdict.blamed is None
    assert (verdict.result, verdict.winner, verdict.forfeit) == ("abandoned", None, None)
    assert verdict.withheld == {"seat": silent, "accuser": 1, "counts_as_wrong": False}
    assert any(f"seat {silent} withheld its step of seat 1's accusation check" in n
               for n in verdict.notes)


def _tampered_silent(raw: bytes) -> bytes:
    """A real signed vote whose payload now names seat 0 as the silent seat."""
    voter, payload, signature = unpack_canonical(raw, 512)
    body = unpack_canonical(payload, 512)
    body["silent"] = 0
    return pack([voter, pack(body), signature])


def _bad_votes() -> dict[str, tuple[bytes, ...]]:
    """Footers that try to prove seat 1's silence without the quorum's signatures."""
    peers, _ = _forfeited()
    good = peers[0].transcript().footer.votes
    assert len(good) == 2
    game = _game()
    v0 = read_vote(good[0], [p.public_key() for p in game.config.players])
    stranger = Ed25519PrivateKey.from_private_bytes(b"\x07" * 32)
    as_seat2 = replace(v0, voter=2)
    return {
        # seat 0 signs a vote in seat 2's name
        "in another's name": (good[0], sign_vote(peers[0]._identity,  # type: ignore[arg-type]
                                                 as_seat2)),
        # a key that is no seat of this game signs as seat 2
        "stranger's key": (good[0], sign_vote(stranger, as_seat2)),
        # a real vote whose signed payload is altered
        "tampered payload": (good[0], _tampered_silent(good[1])),
        # one real vote twice, to fake the quorum
        "one voter twice": (good[0], good[0]),
        # votes that are real, but about the step before (another head, another silent seat)
        "another head": tuple(
            sign_vote(peers[s]._identity,  # type: ignore[arg-type]
                      replace(read_vote(good[k], [p.public_key() for p in game.config.players]),
                              entries=v0.entries - 1,
                              head=read_payload(split_frame(
                                  game.peers[0].entries[v0.entries - 1])[1])[0].prev))
            for k, s in enumerate((0, 2))),
    }


@pytest.mark.parametrize("case", ["in another's name", "stranger's key", "tampered payload",
                                  "one voter twice", "another head"])
def test_forged_or_tampered_votes_forfeit_nothing_and_blame_nobody(case: str) -> None:
    votes = _bad_votes()[case]
    entries = _accuse_index(_game()) + 3
    # live: a peer where seat 1 is silent counts none of them to a quorum
    peer = _live_at(entries, (2,))[2]
    _past_grace(peer)
    seen = [e for raw in votes for e in peer.receive_vote(raw, LATE)]
    assert peer.status is Status.RUNNING and not any(isinstance(e, ev.Abandoned) for e in seen)
    state = peer.rules_state
    assert state is not None and set(state.eliminated) == {0} and state.result is None
    # audit: the same entries with those votes in the footer are refused, with no culprit
    t = Transcript(_game().config, tuple(_game().peers[0].entries[:entries]),
                   Footer("abandoned", entries, votes=votes))
    verdict = _audit(t)
    assert not verdict.valid and verdict.violation is not None
    assert verdict.violation.check == "votes" and verdict.violation.culprit is None
    assert verdict.blamed is None and verdict.winner is None and verdict.forfeit is None
    assert verdict.result == "invalid"
