"""Size and shape limits come before the work, and what cannot be placed is counted.

A frame over 32 KiB is dropped before it is hashed or its signature checked; values over a
message kind's limits fail while decoding; a seat's frames far beyond the hold window are
neither held nor blamed, only counted (``unplaced_count``), so that the network runner can
charge them to the link that carried them.
"""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from p2pclue.engine import peer as peer_module
from p2pclue.engine import wire
from p2pclue.engine.errors import WireError
from p2pclue.engine.peer import HOLD_WINDOW, Peer
from p2pclue.engine.wire import (
    MAX_ENTRY_BYTES,
    PAYLOAD_LIMITS,
    SIGNING_PREFIX,
    Header,
    pack,
    sign_frame,
    unpack_strict,
)
from tests.engine.conftest import finished_game

NOWHERE = bytes(range(100, 132))
"""A hash that names no entry and no game (32 bytes)."""


def _fresh_seat_one() -> tuple[Peer, Ed25519PrivateKey]:
    """A watcher of a game that has not begun (it makes no frame of its own), and seat 1's
    key (the flooder's)."""
    game = finished_game(3, "classic", 1)
    key = game.peers[1]._identity
    assert key is not None
    return Peer(game.peers[0].config, None, relay=False), key


def test_a_frame_over_the_limit_is_dropped_before_any_signature_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    peer, key = _fresh_seat_one()
    calls: list[int] = []
    real = wire.verify_signature

    def counted(k: Ed25519PublicKey, payload: bytes, signature: bytes) -> bool:
        calls.append(1)
        return real(k, payload, signature)

    monkeypatch.setattr(peer_module, "verify_signature", counted)
    header = Header(peer.config.digest(), 1, 5000, NOWHERE, "end_turn")
    big = sign_frame(key, header, {"pad": [[NOWHERE] * 64] * 16})
    assert len(big) > MAX_ENTRY_BYTES
    peer.receive(big, 0.0)
    assert calls == [] and peer.dropped_count == 1 and peer.blame is None
    assert "over" in peer.dropped[-1][1]


def test_frames_far_ahead_are_counted_not_held_nor_blamed() -> None:
    peer, key = _fresh_seat_one()
    digest = peer.config.digest()
    for seq in (1, HOLD_WINDOW + 5, 10_000):
        peer.receive(sign_frame(key, Header(digest, 1, seq, NOWHERE, "end_turn"), {}),
                     0.0)
    assert peer.unplaced_count == 3, "one held, two beyond the window: all three counted"
    assert sum(len(h) for h in peer._held.values()) == 1
    assert peer.blame is None and peer.dropped_count == 0


@pytest.mark.parametrize("names_this_game", [True, False])
def test_a_signed_payload_over_the_limits_fails_rule_3(names_this_game: bool) -> None:
    peer, key = _fresh_seat_one()
    game = peer.config.digest() if names_this_game else NOWHERE
    payload = pack({"v": 1, "game": game, "from": 1, "seq": 0, "prev": NOWHERE,
                    "type": "end_turn", "body": {"x": list(range(PAYLOAD_LIMITS.array + 1))}})
    raw = pack([1, payload, key.sign(SIGNING_PREFIX + payload)])
    peer.receive(raw, 0.0)
    if names_this_game:  # signed for this game, and not a valid payload: its signer is blamed
        assert peer.blame is not None and peer.blame.culprit == 1
        assert peer.blame.check == "message"
    else:
        assert peer.blame is None and peer.dropped_count == 1


def test_limits_refuse_while_decoding() -> None:
    with pytest.raises(WireError, match="undecodable"):
        unpack_strict(pack({"x": bytes(65)}), limits=PAYLOAD_LIMITS)
    with pytest.raises(WireError, match="undecodable"):
        unpack_strict(pack([0] * 4), limits=wire.FRAME_LIMITS)
    wide = b"\xdd" + (50_000).to_bytes(4, "big") + b"\x80" * 50_000
    with pytest.raises(WireError, match="undecodable"):
        unpack_strict(wide, limits=PAYLOAD_LIMITS)
    assert unpack_strict(pack({"x": bytes(64)}), limits=PAYLOAD_LIMITS) == {"x": bytes(64)}


def test_an_entry_carries_at_most_48_openings_and_the_schema_cap_is_the_limit() -> None:
    """An ``open`` or ``openings`` entry carries at most 48 public openings (a seat with
    more sends them in consecutive entries), so the payload's array limit is the schema's
    cap, 48: 48 decode, 49 do not (the payload), and the field refuses 49 too."""
    from p2pclue.engine.messages import _openings
    from p2pclue.engine.wire import MAX_OPENINGS

    one = {"card": 3, "rho": (7).to_bytes(32, "little"),
           "held": {"c": [(5).to_bytes(32, "little")] * 6, "u": [(9).to_bytes(32, "little")] * 6}}
    many = [one] * MAX_OPENINGS
    data = pack({"type": "open", "body": {"openings": many}})
    assert len(data) < 24 * 1024
    decoded = unpack_strict(data, limits=PAYLOAD_LIMITS)
    assert len(_openings(decoded["body"]["openings"], "openings")) == 48
    assert PAYLOAD_LIMITS.array == MAX_OPENINGS == 48
    with pytest.raises(WireError, match="undecodable"):
        unpack_strict(pack({"openings": [0] * (MAX_OPENINGS + 1)}), limits=PAYLOAD_LIMITS)
    with pytest.raises(WireError, match="at most 48 openings"):
        _openings([one] * (MAX_OPENINGS + 1), "openings")
