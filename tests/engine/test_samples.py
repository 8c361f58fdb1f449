"""The sample transcripts in protocol/samples/ audit to the verdicts their README lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pclue.bots.samples import sample
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse

SAMPLES = Path(__file__).resolve().parents[2] / "protocol" / "samples"


@pytest.mark.parametrize(
    ("name", "valid", "result", "winner", "blamed", "check"),
    [
        ("classic-3p.p2pclue", True, "won", 0, None, None),
        ("cz-4p.p2pclue", True, "nobody", None, None, None),
        ("halted-bias-dice.p2pclue", False, "halted", None, 1, "randomness"),
        ("equivocation-inside.p2pclue", False, "halted", None, 1, "equivocation"),
        ("false-blame-wrong-seat.p2pclue", False, "halted", None, 1, "false-blame"),
        ("false-blame-nothing.p2pclue", False, "invalid", None, None, "false-blame"),
        ("halted-other-reason.p2pclue", False, "halted", None, 1, "randomness"),
    ],
)
def test_sample_verdict(name: str, valid: bool, result: str, winner: int | None,
                        blamed: int | None, check: str | None) -> None:
    raw = (SAMPLES / name).read_bytes()
    verdict = audit(parse(raw), raw)
    assert (verdict.valid, verdict.result, verdict.winner, verdict.blamed) == (
        valid, result, winner, blamed)
    assert (verdict.violation.check if verdict.violation else None) == check


def test_the_halted_sample_is_reproducible_from_its_seed() -> None:
    name = "halted-bias-dice.p2pclue"
    assert sample(name) == (SAMPLES / name).read_bytes()


@pytest.mark.parametrize("name", ["equivocation-inside.p2pclue",
                                  "false-blame-wrong-seat.p2pclue",
                                  "false-blame-nothing.p2pclue", "halted-other-reason.p2pclue"])
def test_the_edited_samples_are_reproducible(name: str) -> None:
    assert sample(name) == (SAMPLES / name).read_bytes()
