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
        ("abandoned-forfeit-votes.p2pclue", True, "won", 0, None, None),
        ("votes-signed-early.p2pclue", False, "invalid", None, None, "votes"),
    ],
)
def test_sample_verdict(name: str, valid: bool, result: str, winner: int | None,
                        blamed: int | None, check: str | None) -> None:
    raw = (SAMPLES / name).read_bytes()
    verdict = audit(parse(raw), raw)
    assert (verdict.valid, verdict.result, verdict.winner, verdict.blamed) == (
        valid, result, winner, blamed)
    assert (verdict.violation.check if verdict.violation else None) == check


@pytest.mark.parametrize("name", ["classic-3p.p2pclue", "cz-4p.p2pclue",
                                  "halted-bias-dice.p2pclue"])
def test_the_played_samples_are_reproducible_from_their_seeds(name: str) -> None:
    """The generator and the files agree byte for byte: a change to the protocol, the
    engine or the bots that moves a sample shows here, and the files are written again."""
    assert sample(name) == (SAMPLES / name).read_bytes()


@pytest.mark.parametrize("name", ["equivocation-inside.p2pclue",
                                  "false-blame-wrong-seat.p2pclue",
                                  "false-blame-nothing.p2pclue", "halted-other-reason.p2pclue",
                                  "abandoned-forfeit-votes.p2pclue",
                                  "votes-signed-early.p2pclue"])
def test_the_edited_samples_are_reproducible(name: str) -> None:
    assert sample(name) == (SAMPLES / name).read_bytes()


def test_the_forfeit_sample_names_its_voters_and_their_windows() -> None:
    raw = (SAMPLES / "abandoned-forfeit-votes.p2pclue").read_bytes()
    verdict = audit(parse(raw), raw)
    assert verdict.forfeit == {"seat": 2, "voters": [0, 1]}
    assert ("by their own signed word, seat 0 signed after waiting 121.5 s (its own timeout "
            "120 s); seat 1 signed after waiting 120.25 s (its own timeout 120 s)"
            ) in verdict.notes
