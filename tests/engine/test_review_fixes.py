"""Attacks found in review: each must now fail, with nobody honest blamed."""

from __future__ import annotations

import random

from p2pclue.bots.protocol import play, seeded_identity
from p2pclue.bots.random_bot import RandomBot
from p2pclue.engine.peer import Peer, Status
from p2pclue.engine.wire import Header, decode_payload, sign_frame, split_frame
from p2pclue.rules.variants import CLASSIC
from tests.engine.conftest import finished_game, status


def test_frames_of_another_game_are_dropped_not_held() -> None:
    """Replaying an honest seat's frames from an older game cannot fill its hold."""
    old = finished_game(3, "classic", 1)
    fresh = Peer(finished_game(3, "classic", 2).config, None, relay=False)
    for raw in old.peers[0].entries:
        fresh.receive(raw, 0.0)
    assert fresh.status is Status.RUNNING and fresh.blame is None
    assert not any(fresh._held.values())
    assert fresh.dropped_count == len(old.peers[0].entries)


def test_a_late_second_version_of_the_last_message_is_equivocation() -> None:
    game = finished_game(3, "classic", 1)
    peer = game.peers[0]
    last = peer.entries[-1]
    sender, payload, _ = split_frame(last)
    header, body = decode_payload(sender, payload)
    # Its author signs a second, different message with the same sequence number (a
    # re-encoding is no longer a second message: only the canonical encoding is read).
    other = Header(header.game, header.sender, header.seq, bytes(32), header.type)
    twin = sign_frame(seeded_identity(1, sender), other, body)
    assert twin != last
    observer = Peer(game.config, None, relay=False)
    for i, raw in enumerate(peer.entries):
        observer.receive(raw, float(i))
    assert observer.status is Status.COMPLETE
    observer.receive(twin, 1e6)
    assert status(observer) is Status.HALTED
    assert observer.blame is not None and observer.blame.culprit == sender
    assert observer.blame.check == "equivocation"


def test_randomness_chains_renew_exactly_when_used_up() -> None:
    game = play(CLASSIC, 3, 5, lambda s, r: RandomBot(s, random.Random(s), patience=12),
                chain_length=2)
    assert all(p.status is Status.COMPLETE for p in game.peers)
    assert game.peers[0].record.chains.events_drawn > 4  # several renewals happened
    # A renewal before the chain is used up is refused.
    observer = Peer(game.config, None, relay=False)
    entries = game.peers[0].entries
    for i, raw in enumerate(entries):
        sender, payload, _ = split_frame(raw)
        header, body = decode_payload(sender, payload)
        if header.type == "reveal" and body["renew"] is None:
            early = sign_frame(seeded_identity(5, sender), header, dict(body, renew=bytes(32)))
            observer.receive(early, float(i))
            break
        observer.receive(raw, float(i))
    assert observer.status is Status.HALTED and observer.blame is not None
    assert observer.blame.check == "randomness" and observer.blame.culprit == sender
    assert isinstance(header, Header)
