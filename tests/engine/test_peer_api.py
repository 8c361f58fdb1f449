"""The local API: misuse is a LocalProtocolError; silence is reported, never blamed."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.bots.protocol import make_config
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine import events as ev
from p2pclue.engine.errors import LocalProtocolError, ReusedSessionError
from p2pclue.engine.harness import Network
from p2pclue.engine.peer import DROPPED_SAMPLE, DROPPED_SAMPLE_BYTES, Peer, Status
from p2pclue.engine.wire import pack
from p2pclue.rules.variants import CLASSIC


def peers(seed: int = 4) -> list[Peer]:
    config, keys = make_config(CLASSIC, 3, seed)
    return [Peer(config, s, keys[s], SeededRandom(b"%d" % s), timeout=10.0) for s in range(3)]


def test_wrong_identity_or_seat_is_a_local_error() -> None:
    config, keys = make_config(CLASSIC, 3, 1)
    with pytest.raises(LocalProtocolError):
        Peer(config, 0, keys[1], SeededRandom(b""))
    with pytest.raises(LocalProtocolError):
        Peer(config, 5, keys[0], SeededRandom(b""))
    with pytest.raises(LocalProtocolError):
        Peer(config, 0, Ed25519PrivateKey.generate(), SeededRandom(b""))


def test_acting_out_of_turn_is_a_local_error_and_changes_nothing() -> None:
    ps = peers()
    ps[0].start(0.0)
    with pytest.raises(LocalProtocolError):
        ps[1].act(ev.RollDice(), 0.0)
    assert ps[1].status is Status.RUNNING and not ps[1].entries


def test_silence_is_reported_not_blamed() -> None:
    ps = peers()
    net = Network(ps)
    ps[0].start(0.0)
    # Deliver only to seat 1: seat 2 never hears seat 0, so it never sends its join.
    for frame, _ in ps[0].frames_to_send():
        ps[1].receive(frame, 1.0, via=0)
    for frame, _ in ps[1].frames_to_send():
        ps[0].receive(frame, 2.0, via=1)
    deadline = ps[0].next_deadline()
    assert deadline is not None
    assert ps[0].on_timeout(deadline - 1) == []
    silent = ps[0].on_timeout(deadline + 1)
    assert silent == [ev.PeerSilent(2, deadline)]
    assert ps[0].status is Status.RUNNING and ps[0].blame is None
    assert ps[0].next_deadline() == deadline + 1 + 10.0
    ps[0].abandon()
    assert ps[0].transcript().footer.status == "abandoned"
    assert net.deliveries == 0


def test_unattributable_junk_is_dropped_never_blamed() -> None:
    """Anyone on the LAN can inject bytes: what no player signed cannot end a game."""
    p = peers()[1]
    junk_frames = [b"", b"\x00", b"\x93\x00\xc4\x00\xc4\x00", bytes(300_000),
                   pack([0, b"anything", bytes(64)]), pack([9, b"", bytes(64)])]
    for junk in junk_frames:
        assert p.receive(junk, 0.0, via=0) == []
    assert p.status is Status.RUNNING and p.blame is None
    assert [raw for raw, _ in p.dropped] == [j[:DROPPED_SAMPLE_BYTES] for j in junk_frames]
    assert p.dropped_count == len(junk_frames)


def test_dropped_frames_cost_bounded_memory() -> None:
    """Issue 9: a flood of unsigned frames is counted; only a small recent sample is kept."""
    p = peers()[1]
    flood = [pack([i % 3, bytes(200_000) + i.to_bytes(4, "big"), bytes(64)])
             for i in range(300)]
    for junk in flood:
        assert p.receive(junk, 0.0, via=0) == []
    assert p.status is Status.RUNNING and p.blame is None
    assert p.dropped_count == len(flood)
    assert len(p.dropped) == DROPPED_SAMPLE
    assert sum(len(raw) for raw, _ in p.dropped) <= DROPPED_SAMPLE * DROPPED_SAMPLE_BYTES
    assert p.dropped[-1][0] == flood[-1][:DROPPED_SAMPLE_BYTES]


def test_a_session_seen_before_is_refused() -> None:
    """Issue 9: a lobby that offers an old session id again (so that old frames would fit)
    is refused by every playing peer that took part in it; the caller persists the set."""
    config, keys = make_config(CLASSIC, 3, 6)
    seen: set[bytes] = set()
    first = Peer(config, 0, keys[0], SeededRandom(b"a"), seen_sessions=seen)
    seen.add(first.config.session)  # what the network layer records once a game starts
    with pytest.raises(ReusedSessionError, match="session"):
        Peer(config, 0, keys[0], SeededRandom(b"b"), seen_sessions=seen)
    with pytest.raises(ReusedSessionError):
        Peer(config, 2, keys[2], SeededRandom(b"c"), seen_sessions=frozenset({config.session}))
    other, other_keys = make_config(CLASSIC, 3, 7)
    assert other.session not in seen
    Peer(other, 0, other_keys[0], SeededRandom(b"d"), seen_sessions=seen)
    Peer(config, None, seen_sessions=seen)  # an observer (the audit) may read an old game
