"""An abandon quorum is a certificate, and a certificate is final.

Four players, real keys, real frames. At one PET step the table waits for seat S. Seats A
and B pass their deadlines and vote abandon. A partition: A gets B's vote and counts the
quorum (2 of 3), so A's game ends abandoned there; B gets S's step first and plays on
(B's own vote no longer counts at the next point, the accusation is decided "won" at B).
When the link heals, B, C and S receive A's certificate (the votes) and end abandoned at
the same point: every honest transcript is the same file, every audit agrees, nobody is
blamed. Forged or mismatched votes from a cheating seat are dropped and cost nobody
anything (docs/protocol.md, "Silence and abandon", "Abandon certificates").
"""

from __future__ import annotations

from dataclasses import replace

from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.peer import Peer, Status
from p2pclue.engine.peer_secrets import PeerSecrets
from p2pclue.engine.transcript import parse
from p2pclue.engine.votes import read_vote, sign_vote
from tests.engine.accuser_owes import N, accusing_game, owed_point
from tests.engine.conftest import status

TIMEOUT = 120.0


def _table() -> tuple[list[Peer], int, int, list[bytes]]:
    """Every seat rebuilt at time 0 where the seat before the accuser owes its PET step:
    (peers, that point, the accuser, what the silent seat sent at once)."""
    game = accusing_game()
    owed, accuser = owed_point()
    point = owed - 1
    peers = []
    for seat in range(N):
        old = game.peers[seat]
        secrets = PeerSecrets.from_bytes(old.export_secrets().to_bytes())
        peer = Peer(game.config, seat, old._identity, SeededRandom(b"cert/%d" % seat),
                    timeout=TIMEOUT)
        peer.restore(secrets, list(old.entries[:point]), 0.0)
        peers.append(peer)
    silent = (accuser + N - 1) % N
    sent = [raw for raw, _ in peers[silent].frames_to_send()]
    assert sent and all(p.frames_to_send() == [] for p in peers)
    return peers, point, accuser, sent


def _deliver(frm: Peer, to: list[Peer], now: float) -> None:
    """Everything ``frm`` queued, to each of ``to``."""
    for raw, dest in frm.frames_to_send():
        for peer in to:
            if dest is None or dest == peer.seat:
                peer.receive(raw, now)


def _vote(peer: Peer, now: float) -> bytes:
    assert peer.on_timeout(now)
    raw, _ = peer.vote("abandon", now)
    return raw


def _partition() -> tuple[list[Peer], int, dict[str, int], list[bytes]]:
    """A ended abandoned on its own count; B chained S's step and the accuser's last step."""
    peers, point, accuser, sent = _table()
    silent = (accuser + N - 1) % N
    a = next(s for s in range(N) if s not in (silent, accuser))
    b = accuser  # B plays on and wins its accusation before the heal
    c = next(s for s in range(N) if s not in (silent, accuser, a))
    vote_a, vote_b = _vote(peers[a], TIMEOUT), _vote(peers[b], TIMEOUT)
    ended = peers[a].receive_vote(vote_b, TIMEOUT + 1)
    assert ev.Abandoned(silent, tuple(sorted((a, b)))) in ended
    assert peers[a].status is Status.ABANDONED and len(peers[a].entries) == point
    for seat in (b, c):  # the step reaches B and C, not A
        peers[seat].receive(sent[0], TIMEOUT + 2)
    assert peers[b].status is Status.RUNNING and len(peers[b].entries) > point + 1
    _deliver(peers[b], [peers[c], peers[silent]], TIMEOUT + 3)  # B's own last step
    for _ in range(3):
        for seat in (b, c, silent):
            _deliver(peers[seat], [peers[s] for s in (b, c, silent) if s != seat], TIMEOUT + 4)
    state = peers[b].rules_state
    assert state is not None and (state.result, state.winner) == ("won", accuser)
    assert len(peers[b].entries) >= point + 2
    assert peers[b].status is not Status.ABANDONED
    return peers, point, {"a": a, "b": b, "c": c, "s": silent}, [vote_a, vote_b]


def test_the_certificate_ends_every_seat_at_the_point_it_names() -> None:
    peers, point, role, _ = _partition()
    cert = peers[role["a"]].certificate()
    assert cert is not None and cert[0] == point and len(cert[1]) == 2
    for seat in (role["b"], role["c"], role["s"]):
        seen: list[ev.Event] = []
        for raw in cert[1]:
            seen += peers[seat].receive_vote(raw, TIMEOUT + 10)
        assert ev.Abandoned(role["s"], tuple(sorted((role["a"], role["b"])))) in seen, seat
        assert peers[seat].status is Status.ABANDONED and peers[seat].blame is None
        assert len(peers[seat].entries) == point
        state = peers[seat].rules_state
        assert state is not None and state.result is None  # B's win was after the point
        assert peers[seat].certificate() == cert
    files = {peers[s].transcript().to_bytes() for s in range(N)}
    assert len(files) == 1, "the honest transcripts differ"
    data = files.pop()
    verdict = audit(parse(data), data)
    assert verdict.valid and verdict.result == "abandoned" and verdict.blamed is None
    assert verdict.forfeit is None
    # late frames and votes change nothing once the game is over
    assert peers[role["b"]].receive_vote(cert[1][0], TIMEOUT + 11) == []


def test_the_voters_own_vote_alone_is_no_certificate_and_a_wait_cannot_undo_it() -> None:
    """B's own vote about the passed point is kept, but one vote is no quorum; A's second
    ballot "wait" does not cancel A's abandon (irrevocable), so A's first vote still makes it."""
    peers, point, role, (vote_a, vote_b) = _partition()
    b = peers[role["b"]]
    assert b.receive_vote(vote_b, TIMEOUT + 10) == [] and b.status is not Status.ABANDONED
    a_key = accusing_game().peers[role["a"]]._identity
    assert a_key is not None
    keys = [p.public_key() for p in accusing_game().config.players]
    wait = sign_vote(a_key, replace(read_vote(vote_a, keys), choice="wait", ballot=9))
    dropped = b.dropped_count
    assert b.receive_vote(wait, TIMEOUT + 11) == [] and b.dropped_count == dropped + 1
    assert status(b) is not Status.ABANDONED
    b.receive_vote(vote_a, TIMEOUT + 12)
    assert status(b) is Status.ABANDONED and len(b.entries) == point


def test_forged_and_mismatched_certificates_cost_nobody_anything() -> None:
    """A cheating seat (C) signs votes about the passed point with a wrong head, a wrong
    silent seat, another game, and tampers with A's vote: all dropped, no blame, B plays on.
    C's own real vote plus B's kept one would be a quorum: that is a certificate (C and B
    did vote), which no honest seat refuses."""
    peers, point, role, (vote_a, vote_b) = _partition()
    b = peers[role["b"]]
    keys = [p.public_key() for p in accusing_game().config.players]
    c_key = accusing_game().peers[role["c"]]._identity
    assert c_key is not None
    real = replace(read_vote(vote_a, keys), voter=role["c"])
    forged = [
        sign_vote(c_key, replace(real, head=bytes(32))),
        sign_vote(c_key, replace(real, silent=role["a"])),
        sign_vote(c_key, replace(real, game=bytes(32))),
        sign_vote(c_key, replace(real, entries=point + 1)),
        vote_a[:-1] + bytes([vote_a[-1] ^ 1]),  # A's vote, its signature broken
        b"\x93junk",
    ]
    entries = len(b.entries)
    for raw in forged:
        before = b.dropped_count
        assert b.receive_vote(raw, TIMEOUT + 10) == []
        assert b.status is not Status.ABANDONED and b.blame is None
        assert len(b.entries) == entries
        assert b.dropped_count >= before  # dropped (or, for the future point, ignored)
    assert all(p.blame is None for p in peers)
    # the seat's real vote completes a real quorum with B's own: a certificate
    b.receive_vote(vote_b, TIMEOUT + 11)
    b.receive_vote(sign_vote(c_key, real), TIMEOUT + 12)
    assert status(b) is Status.ABANDONED and len(b.entries) == point and b.blame is None
