"""Write the sample transcripts in ``protocol/samples/`` (``python3 -m p2pclue.bots.samples``).

Three short seeded games through the real protocol: a complete ``classic`` game, a
complete ``cz`` game, and a ``classic`` game halted by a seat that biases the dice.
Another implementation can audit them and must reach the verdicts listed in
``protocol/samples/README.md``.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from pathlib import Path

from p2pclue.bots.protocol import play
from p2pclue.bots.random_bot import RandomBot
from p2pclue.rules.variants import preset


@dataclass(frozen=True)
class Spec:
    rules: str
    players: int
    seed: int
    cheat: str | None = None
    cheater: int | None = None


SAMPLES = {
    "classic-3p.p2pclue": Spec("classic", 3, 21),
    "cz-4p.p2pclue": Spec("cz", 4, 23),
    "halted-bias-dice.p2pclue": Spec("classic", 3, 23, cheat="bias-dice", cheater=1),
}
PATIENCE = 8
"""Bots accuse from this turn on, to keep the samples short."""


def _bot(seat: int, rng: random.Random) -> RandomBot:
    return RandomBot(seat, rng, patience=PATIENCE)


def sample(name: str) -> bytes:
    spec = SAMPLES[name]
    game = play(preset(spec.rules), spec.players, spec.seed, _bot, cheat=spec.cheat,
                cheater=spec.cheater)
    honest = next(p for p in game.peers if p.seat != spec.cheater)
    return honest.transcript().to_bytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", type=Path, default=Path("protocol/samples"))
    args = parser.parse_args()
    args.write.mkdir(parents=True, exist_ok=True)
    for name in SAMPLES:
        data = sample(name)
        (args.write / name).write_bytes(data)
        print(f"{args.write / name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
