"""Every cheat kind, sent for real by a peer, halts the game and blames that peer.

The audit of the halted transcript (the honest peers' own file) confirms the blame. Each
kind and phase is played once, at a seat, preset and table size spread over the cases: the
same games ``p2pclue bench --only cheats`` plays for those cases (its seed and bots); the
bench plays every seat of every preset and table size.
"""

from __future__ import annotations

import pytest

from p2pclue.bench.cheats import Case
from p2pclue.engine.audit import audit
from p2pclue.engine.cheats import CHEATS, PHASED, impossible
from p2pclue.engine.peer import Status
from p2pclue.engine.transcript import parse
from p2pclue.rules.variants import preset
from tests.engine.conftest import run

EXPECTED_CHECK = {
    "bad-shuffle": {"proof:shuffle"},
    "bad-decrypt": {"proof:dleq-batch"},
    "false-cannot-refute": {"proof:none"},
    "show-unheld-card": {"proof:commit-show"},
    "show-unnamed-card": {"proof:commit-show"},
    "illegal-move": {"R13"},
    "out-of-turn": {"turn", "chain"},
    "forged-signature": {"signature"},
    "equivocate": {"equivocation"},
    "bias-dice": {"randomness"},
    "accuse-twice": {"R27"},
    "replay": {"chain"},
    "bad-pet": {"proof:pet-step"},
    "wrong-opening": {"proof:sealed-opening"},
    "no-opening": {"proof:sealed-opening"},
    "bad-sealed": {"proof:sealed-opening"},
    "bad-held": {"proof:held-opening"},
}


def sampled() -> list[Case]:
    """One case per kind and phase, spread over seats, presets and player counts."""
    picked: list[Case] = []
    for i, (kind, phase) in enumerate((k, p) for k in CHEATS for p in PHASED.get(k, (None,))):
        rules = ("cz", "classic")[i % 2]
        if impossible(kind, phase, preset(rules)) is not None:
            rules = "classic"
        players = 3 + (i * 3) % 4
        seat = (players - 1, 0, players // 2)[i % 3]
        picked.append(Case(kind, phase, rules, players, seat))
    return picked


def test_the_sample_covers_every_kind_and_phase_seats_presets_and_sizes() -> None:
    cases = sampled()
    assert [(c.kind, c.phase) for c in cases] == [
        (k, p) for k in CHEATS for p in PHASED.get(k, (None,))]
    assert {c.rules for c in cases} == {"classic", "cz"}
    assert {c.players for c in cases} == {3, 4, 5, 6}
    assert {c.cheater == 0 for c in cases} == {True, False}
    assert {c.cheater == c.players - 1 for c in cases} == {True, False}


@pytest.mark.parametrize("case", sampled(), ids=str)
def test_cheat_is_caught_and_the_cheater_blamed(case: Case) -> None:
    cheater = case.cheater
    game = run(case.players, case.rules, seed=5, patience=40, cheat=case.kind, cheater=cheater,
               phase=case.phase)
    honest = [p for p in game.peers if p.seat != cheater]
    assert game.peers[cheater].cheated, "the cheat never happened"  # type: ignore[attr-defined]
    for peer in honest:
        assert peer.status is Status.HALTED
        assert peer.blame is not None
        assert peer.blame.culprit == cheater
        assert peer.blame.check in EXPECTED_CHECK[case.kind]
        assert peer.blame.evidence
    raw = honest[0].transcript().to_bytes()
    verdict = audit(parse(raw), raw)
    assert not verdict.valid
    assert verdict.result == "halted"
    assert verdict.blamed == cheater
    assert verdict.violation is not None
    assert verdict.violation.check in EXPECTED_CHECK[case.kind]


def test_every_cheat_kind_is_listed_with_a_description() -> None:
    assert set(EXPECTED_CHECK) == set(CHEATS)
    assert all(CHEATS[k] for k in CHEATS)
