"""A seat builds its "cannot refute" ahead (``Peer.prepare``, issue 21).

The proof built while the seat before it still answers is the one it sends at its turn
(byte for byte), every peer accepts it, and the game's transcript is the same at every
seat and passes the audit. A proof built for a refutation an earlier seat ended with a
show is dropped, and the seat builds a fresh one when its turn does come.
"""

from __future__ import annotations

from p2pclue.bots.protocol import play
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.peer import Peer
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import read_payload, split_frame
from p2pclue.rules.variants import preset
from tests.engine.conftest import hasty


def _body(raw: bytes) -> tuple[int, str, dict[str, object]]:
    sender, payload, _ = split_frame(raw)
    header, body = read_payload(payload)
    return sender, header.type, body


def test_a_pass_built_ahead_is_the_one_sent() -> None:
    prepared: list[tuple[int, int, object]] = []
    peers: list[Peer] = []

    def ahead(seat: int, event: ev.Event) -> None:
        peer = peers[seat]
        if peer.prepare():
            ready = peer._ready_pass
            assert ready is not None
            prepared.append((seat, ready[0], ready[2]["proof"]))

    game = play(preset("classic"), 5, 3, hasty(40), on_event=ahead,  # type: ignore[arg-type]
                on_peers=peers.extend)
    entries = game.peers[0].entries
    assert all(p.entries == entries for p in game.peers)
    raw = game.peers[0].transcript().to_bytes()
    assert audit(parse(raw), raw).valid
    used = dropped = 0
    for seat, index, proof in prepared:
        if index < len(entries) and _body(entries[index])[:2] == (seat, "pass"):
            assert _body(entries[index])[2]["proof"] == proof
            used += 1
        else:
            dropped += 1
    assert used >= 3 and dropped >= 1, (used, dropped)
    # every seat that built ahead passed at that entry with that very proof; the others
    # built theirs at their turn, as without ``prepare``
    passes = sum(1 for e in entries if _body(e)[1] == "pass")
    assert used < passes
