"""Write the sample transcripts in ``protocol/samples/`` (``python3 -m p2pclue.bots.samples``).

Three short seeded games through the real protocol: a complete ``classic`` game, a
complete ``cz`` game, and a ``classic`` game halted by a seat that biases the dice; and two
files made from the first, ended by signed abandon votes (docs/protocol.md, "Silence and
abandon"): a valid forfeit, and a footer with a vote signed before its voter's deadline.
Another implementation can audit them and must reach the verdicts listed in
``protocol/samples/README.md``.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from pathlib import Path

from p2pclue.bots.protocol import play, seeded_identity
from p2pclue.bots.random_bot import RandomBot
from p2pclue.engine.transcript import Footer, Transcript, parse
from p2pclue.engine.votes import Vote, sign_vote
from p2pclue.engine.wire import sha256
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
    if name in VOTED:
        return _voted(*VOTED[name])
    spec = SAMPLES[name]
    game = play(preset(spec.rules), spec.players, spec.seed, _bot, cheat=spec.cheat,
                cheater=spec.cheater)
    honest = next(p for p in game.peers if p.seat != spec.cheater)
    return honest.transcript().to_bytes()


VOTED = {
    "abandoned-forfeit-votes.p2pclue": (121_500, 120_250),
    "votes-signed-early.p2pclue": (121_500, 30_000),
}
"""``classic-3p`` cut where seat 2 owes its own (last) step of its accusation check, closed
by abandon votes of seats 0 and 1 whose ``waited`` are these (milliseconds; both say
``timeout`` 120 000)."""
VOTE_TIMEOUT_MS = 120_000
VOTE_CUT = 71


def _voted(*waited: int) -> bytes:
    base = SAMPLES["classic-3p.p2pclue"]
    t = parse(sample("classic-3p.p2pclue"))
    entries = t.entries[:VOTE_CUT]
    votes = tuple(
        sign_vote(seeded_identity(base.seed, voter),
                  Vote(t.config.digest(), VOTE_CUT, sha256(entries[-1]), 2, voter, "abandon", 1,
                       VOTE_TIMEOUT_MS, w))
        for voter, w in enumerate(waited))
    return Transcript(t.config, entries, Footer("abandoned", VOTE_CUT, votes=votes)).to_bytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", type=Path, default=Path("protocol/samples"))
    args = parser.parse_args()
    args.write.mkdir(parents=True, exist_ok=True)
    for name in (*SAMPLES, *VOTED):
        data = sample(name)
        (args.write / name).write_bytes(data)
        print(f"{args.write / name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
