"""Bench section "cheats": every cheat kind from every seat, both presets, 3-6 players.

Each case is a real game of bots through the full protocol in which one seat cheats.
It counts as caught when the cheat really happened, every honest peer halted with the
cheater blamed, and the audit of the honest peers' transcript blames the same seat.
The full sweep (774 games, about ten minutes) is too long for the tests, which play a
sample of it: it runs here, ``p2pclue bench --only cheats``, and its goals are that every
cheat happened and every one was blamed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from p2pclue.bench import Emit
from p2pclue.bots.protocol import play
from p2pclue.bots.random_bot import RandomBot
from p2pclue.engine.audit import audit
from p2pclue.engine.cheats import CHEATS, PHASED, impossible
from p2pclue.engine.peer import Status
from p2pclue.engine.transcript import parse
from p2pclue.rules.variants import preset

PRESETS = ("classic", "cz")


@dataclass(frozen=True)
class Case:
    kind: str
    phase: str | None
    rules: str
    players: int
    cheater: int

    def __str__(self) -> str:
        phase = f"/{self.phase}" if self.phase else ""
        return f"{self.kind}{phase} {self.rules} {self.players}p seat {self.cheater}"


@dataclass(frozen=True)
class Outcome:
    case: Case
    fired: bool
    caught: bool
    """Every honest peer halted blaming the cheater, and the audit agrees."""
    checks: frozenset[str]
    seconds: float


def cases() -> Iterator[Case]:
    """Every kind and phase, preset, player count and seat where the cheat can happen."""
    for kind in CHEATS:
        for phase in PHASED.get(kind, (None,)):
            for rules in PRESETS:
                if impossible(kind, phase, preset(rules)) is not None:
                    continue
                for players in range(3, 7):
                    for cheater in range(players):
                        yield Case(kind, phase, rules, players, cheater)


def _bot(seat: int, rng: random.Random) -> RandomBot:
    return RandomBot(seat, rng, patience=40)


def run_case(case: Case, seed: int = 5) -> Outcome:
    start = time.perf_counter()
    game = play(preset(case.rules), case.players, seed, _bot, cheat=case.kind,
                cheater=case.cheater, cheat_phase=case.phase)
    fired = bool(getattr(game.peers[case.cheater], "cheated", False))
    honest = [p for p in game.peers if p.seat != case.cheater]
    checks = frozenset(p.blame.check for p in honest if p.blame is not None)
    caught = fired and all(
        p.status is Status.HALTED and p.blame is not None and p.blame.culprit == case.cheater
        for p in honest)
    if caught:
        raw = honest[0].transcript().to_bytes()
        verdict = audit(parse(raw), raw)
        caught = verdict.result == "halted" and verdict.blamed == case.cheater
    return Outcome(case, fired, caught, checks, time.perf_counter() - start)


def section(emit: Emit, quick: bool) -> dict[str, Any]:
    all_cases = list(cases())
    chosen = all_cases[::12] if quick else all_cases
    start = time.perf_counter()
    outcomes = [run_case(c) for c in chosen]
    elapsed = time.perf_counter() - start
    missed = [o for o in outcomes if not o.fired]
    uncaught = [o for o in outcomes if o.fired and not o.caught]
    emit(f"cheats: {len(outcomes)} cheat games (kind x seat x preset x 3-6 players) in "
         f"{elapsed:.0f} s; cheat happened in {len(outcomes) - len(missed)}, caught and "
         f"confirmed by the audit in {sum(o.caught for o in outcomes)}")
    for o in missed:
        emit(f"  cheat never happened: {o.case}")
    for o in uncaught:
        emit(f"  NOT caught: {o.case} (checks {sorted(o.checks)})")
    return {"cheats_games": len(outcomes), "cheats_missed": len(missed),
            "cheats_uncaught": len(uncaught), "cheats_seconds": round(elapsed, 1)}
