"""Issue 9: the accusation check (PET) ends with the accuser's own step.

Whoever steps last can compute the verdict before sending its step and then go silent.
With the accuser last, only the accuser can, and only about its own accusation; an accuser
that withholds its step counts as a wrong accuser, and any seat that withholds a step is
named by the audit.
"""

from __future__ import annotations

from functools import cache

import pytest

from p2pclue.bots.protocol import ProtocolGame
from p2pclue.crypto import proofs as P
from p2pclue.crypto.group import mul
from p2pclue.engine import events as ev
from p2pclue.engine.accusation import AccusationCheck
from p2pclue.engine.audit import audit
from p2pclue.engine.peer import Peer, Stage, Status
from p2pclue.engine.transcript import Footer, Transcript, parse
from p2pclue.engine.wire import read_payload, split_frame
from tests.engine.conftest import oracle_game


@cache
def right_accusation(n: int) -> ProtocolGame:
    game = oracle_game(n, "classic", seed=2)
    state = game.peers[0].rules_state
    assert state is not None and state.result == "won"
    return game


def _typed(entries: list[bytes]) -> list[tuple[int, str]]:
    out = []
    for raw in entries:
        _, payload, _ = split_frame(raw)
        header, _ = read_payload(payload)
        out.append((header.sender, header.type))
    return out


def _accusation(game: ProtocolGame) -> tuple[int, int]:
    """Index of the (last) accuse entry and the accuser."""
    typed = _typed(game.peers[0].entries)
    index = max(i for i, (_, t) in enumerate(typed) if t == "accuse")
    return index, typed[index][0]


@pytest.mark.parametrize("n", [3, 4])
def test_the_chain_starts_left_of_the_accuser_and_ends_with_it(n: int) -> None:
    game = right_accusation(n)
    index, accuser = _accusation(game)
    typed = _typed(game.peers[0].entries)
    steps = typed[index + 1: index + 1 + n]
    assert [t for _, t in steps] == ["pet"] * n
    assert [s for s, _ in steps] == [(accuser + 1 + k) % n for k in range(n)]
    assert steps[-1][0] == accuser


def test_before_its_step_the_accuser_alone_holds_what_decides_the_verdict() -> None:
    """Replay up to the accuser's step: with its own key the accuser can already tell the
    verdict (that is the informed abort it is allowed); the public values alone do not
    decide it (they are Q != P until the accuser's key is applied)."""
    game = right_accusation(3)
    index, accuser = _accusation(game)
    observer = Peer(game.config, None, relay=False)
    for i, raw in enumerate(game.peers[0].entries[: index + 3]):
        observer.receive(raw, float(i))
    assert observer.stage is Stage.PET and observer.expected_seat() == accuser
    assert observer.accuser == accuser
    check = observer._current
    assert isinstance(check, AccusationCheck)
    q, p = check.qp
    assert not P.pet_result(q, p)  # what everyone sees: no verdict yet
    k = game.peers[accuser]._secrets.k
    assert k is not None
    assert q == mul(k, p)  # the accuser's key turns it into "right", before it steps


def _cut(game: ProtocolGame, keep: int) -> bytes:
    t = game.peers[0].transcript()
    entries = t.entries[:keep]
    return Transcript(t.config, entries, Footer("abandoned", len(entries), None)).to_bytes()


@pytest.mark.parametrize("n", [3, 4])
def test_an_accuser_that_withholds_its_own_step_counts_as_wrong(n: int) -> None:
    game = right_accusation(n)
    index, accuser = _accusation(game)
    raw = _cut(game, index + n)  # every step but the accuser's, which comes last
    verdict = audit(parse(raw), raw)
    assert verdict.valid and verdict.violation is None
    assert verdict.withheld == {"seat": accuser, "accuser": accuser, "counts_as_wrong": True}
    assert verdict.winner is None and verdict.result != "won"
    assert any("counts as wrong" in note for note in verdict.notes)
    assert verdict.to_json()["withheld"] == verdict.withheld


@pytest.mark.parametrize("n", [3, 4])
def test_any_seat_that_withholds_a_step_is_named(n: int) -> None:
    game = right_accusation(n)
    index, accuser = _accusation(game)
    for k in range(n - 1):
        raw = _cut(game, index + 1 + k)
        verdict = audit(parse(raw), raw)
        seat = (accuser + 1 + k) % n
        assert verdict.valid and verdict.result == "abandoned"
        assert verdict.withheld == {"seat": seat, "accuser": accuser, "counts_as_wrong": False}
        assert any(f"seat {seat} withheld its step of seat {accuser}'s accusation check" in note
                   for note in verdict.notes)


def test_live_peers_know_whose_check_is_stalled_and_by_whom() -> None:
    game = right_accusation(3)
    index, accuser = _accusation(game)
    peer = Peer(game.config, None, relay=False, timeout=5.0)
    for i, raw in enumerate(game.peers[0].entries[: index + 2]):
        peer.receive(raw, float(i))
    silent = peer.on_timeout(1e6)
    assert peer.status is Status.RUNNING and peer.accuser == accuser
    assert len(silent) == 1 and isinstance(silent[0], ev.PeerSilent), silent
    assert silent[0].seat == (accuser + 2) % 3
