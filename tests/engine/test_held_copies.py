"""Copies of a frame held for later cost a hash lookup, not a signature check.

A link partner can re-send a frame that arrived early (held until its ``prev`` is known)
as often as it likes; like a copy of an accepted frame, it is recognised on sight. The
real signature check runs (counted through a wrapper around it), only not again.
"""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2pclue.engine import peer as peer_module
from p2pclue.engine import wire
from p2pclue.engine.peer import Peer
from tests.engine.conftest import finished_game


def test_copies_of_a_held_frame_are_not_verified_again(monkeypatch: pytest.MonkeyPatch) -> None:
    game = finished_game(3, "classic", 1)
    entries = game.peers[0].entries
    real = wire.verify_signature
    calls: list[int] = []

    def counted(key: Ed25519PublicKey, payload: bytes, signature: bytes) -> bool:
        calls.append(1)
        return real(key, payload, signature)

    monkeypatch.setattr(peer_module, "verify_signature", counted)
    watcher = Peer(game.peers[0].config, None, relay=False)
    watcher.receive(entries[1], 0.0)  # early: its prev (entry 0) is not known yet
    assert watcher.entries == [] and len(calls) == 1
    for _ in range(500):
        watcher.receive(entries[1], 0.0)
    assert len(calls) == 1, "a held frame's copies are known on sight"
    assert watcher.dropped_count == 0 and watcher.blame is None
    watcher.receive(entries[0], 0.0)
    assert watcher.entries == entries[:2], "the held frame is accepted when it fits"
    for raw in entries[:2]:
        watcher.receive(raw, 0.0)
    assert len(calls) == 2 and watcher.entries == entries[:2]
    for raw in entries[2:]:  # the rest of the game, in order, as before
        watcher.receive(raw, 0.0)
    assert watcher.entries == entries and watcher.blame is None
