"""Every cheat kind, sent for real by a peer, halts the game and blames that peer.

The audit of the halted transcript (the honest peers' own file) confirms the blame.
"""

from __future__ import annotations

import pytest

from p2pclue.engine.audit import audit
from p2pclue.engine.cheats import CHEATS, PHASED
from p2pclue.engine.peer import Status
from p2pclue.engine.transcript import parse
from tests.engine.conftest import run

CASES = [(kind, phase) for kind in CHEATS for phase in PHASED.get(kind, (None,))]

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
    "wrong-opening": {"proof:opening"},
    "no-opening": {"proof:opening"},
}


@pytest.mark.parametrize(("kind", "phase"), CASES)
def test_cheat_is_caught_and_the_cheater_blamed(kind: str, phase: str | None) -> None:
    cheater = sum(map(ord, kind + str(phase))) % 3
    game = run(3, "classic", seed=7, patience=60, cheat=kind, cheater=cheater, phase=phase)
    honest = [p for p in game.peers if p.seat != cheater]
    assert game.peers[cheater].cheated  # type: ignore[attr-defined]
    for peer in honest:
        assert peer.status is Status.HALTED
        assert peer.blame is not None
        assert peer.blame.culprit == cheater
        assert peer.blame.check in EXPECTED_CHECK[kind]
        assert peer.blame.evidence
    raw = honest[0].transcript().to_bytes()
    verdict = audit(parse(raw), raw)
    assert not verdict.valid
    assert verdict.result == "halted"
    assert verdict.blamed == cheater
    assert verdict.violation is not None
    assert verdict.violation.check in EXPECTED_CHECK[kind]


def test_every_cheat_kind_is_listed_with_a_description() -> None:
    assert set(EXPECTED_CHECK) == set(CHEATS)
    assert all(CHEATS[k] for k in CHEATS)
