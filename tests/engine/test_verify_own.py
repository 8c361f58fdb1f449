"""A peer trusts the proofs it has just built (issue 21); ``verify_own`` is the debug switch.

Skipping the check must change nothing anyone can see: the same seeds give the same
transcript bytes either way. And a peer whose own proof is bad is still caught: with the
switch on by itself before it sends anything, with it off by every other peer, which
blames it and nobody else.
"""

from __future__ import annotations

from typing import Any

import pytest

from p2pclue.bots.protocol import make_config
from p2pclue.crypto.group import MULT_COUNTER
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine.harness import Network
from p2pclue.engine.peer import VERIFY_OWN_ENV, Peer, Stage, Status, verify_own_from
from p2pclue.rules.variants import preset
from tests.engine.conftest import run


class SwappingPeer(Peer):
    """Builds its envelope shuffle honestly, then swaps two output cards of one deck: the
    proof no longer matches the deck (a bug in building a proof, or a cheat)."""

    def _automatic_message(self) -> tuple[str, dict[str, Any]] | None:
        msg = super()._automatic_message()
        if msg is not None and msg[0] == "envelope":
            deck = msg[1]["decks"][2]
            deck[0], deck[1] = deck[1], deck[0]
        return msg


def _peers(verify_own: bool, bad: int | None = None) -> list[Peer]:
    config, keys = make_config(preset("classic"), 3, 5)
    return [(SwappingPeer if s == bad else Peer)(
        config, s, keys[s], SeededRandom(b"verify-own/%d" % s), verify_own=verify_own)
        for s in range(3)]


def _deal(peers: list[Peer]) -> Network:
    net = Network(peers)
    for p in peers:
        p.start(0.0)
    while any(p.status is Status.RUNNING and p.stage is not Stage.PLAY for p in peers) \
            and net.step():
        pass
    return net


def test_switch_reads_the_environment() -> None:
    assert verify_own_from({VERIFY_OWN_ENV: "1"})
    assert not verify_own_from({})
    assert not verify_own_from({VERIFY_OWN_ENV: "0"})


@pytest.mark.parametrize("seed", [1, 2])
def test_trusting_own_proofs_gives_the_same_transcript(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(VERIFY_OWN_ENV, "0")
    trusting = run(3, "classic", seed)
    monkeypatch.setenv(VERIFY_OWN_ENV, "1")
    checking = run(3, "classic", seed)
    assert not any(p._verify_own for p in trusting.peers)
    assert all(p._verify_own for p in checking.peers)
    assert all(p.status is Status.COMPLETE for p in trusting.peers + checking.peers)
    for a, b in zip(trusting.peers, checking.peers, strict=True):
        assert a.entries == b.entries
        assert a.transcript().to_bytes() == b.transcript().to_bytes()


def test_trusting_own_proofs_saves_one_verification_in_six() -> None:
    counts = []
    for verify_own in (False, True):
        MULT_COUNTER.reset()
        peers = _peers(verify_own)
        _deal(peers)
        assert all(p.stage is Stage.PLAY for p in peers)
        counts.append(MULT_COUNTER.total)
    # three players: every proof verified by 2 others instead of 3 peers
    assert counts[0] < counts[1] * 0.85


def test_own_bad_proof_is_caught_before_sending_with_the_switch() -> None:
    peers = _peers(True, bad=1)
    _deal(peers)
    bad = peers[1]
    assert bad.status is Status.HALTED and bad.blame is not None
    assert bad.blame.culprit == 1 and bad.blame.check == "proof:shuffle"
    assert len(bad.entries) == 7  # three joins, three keys, seat 0's envelope
    assert all(len(p.entries) == 7 for p in peers)  # its own envelope never left
    assert all(p.status is Status.RUNNING for p in (peers[0], peers[2]))


def test_own_bad_proof_is_blamed_by_every_other_peer_without_the_switch() -> None:
    peers = _peers(False, bad=1)
    _deal(peers)
    honest = [peers[0], peers[2]]
    for p in honest:
        assert p.status is Status.HALTED and p.blame is not None
        assert p.blame.culprit == 1 and p.blame.check == "proof:shuffle"
    assert peers[1].status is Status.RUNNING  # it trusted itself and sent the frame


def test_the_engines_deal_costs_what_the_bare_deal_costs() -> None:
    """The bench's in-process deal (``bench --only lan``) does exactly the multiplications
    of the crypto module's deal, where every proof is verified by every other player once:
    nobody checks its own any more (issue 21: 12,486 before for six players)."""
    from p2pclue.bench.lan import in_process_deal
    from p2pclue.crypto.deck import run_deal

    _seconds, engine = in_process_deal(3)
    MULT_COUNTER.reset()
    run_deal(3, b"bench", [SeededRandom(b"deal/%d" % j) for j in range(3)])
    assert engine == MULT_COUNTER.total
