"""Write the sample transcripts in ``protocol/samples/`` (``python3 -m p2pclue.bots.samples``).

Three short seeded games through the real protocol: a complete ``classic`` game, a
complete ``cz`` game, and a ``classic`` game halted by a seat that biases the dice; and
files derived from them that pin the audit's edge cases (docs/protocol.md, "Blame" and
"Confirming a blame"): an equivocating frame inside the entries, a footer blaming the wrong
seat, a blame whose evidence shows nothing, and a confirmed blame whose prose reason differs;
and two ended by signed abandon votes (docs/protocol.md, "Silence and abandon"): a valid
forfeit, and a footer with a vote signed before its voter's deadline.
Another implementation can audit them and must reach the verdicts listed in
``protocol/samples/README.md``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from p2pclue.bots.protocol import play, seeded_identity
from p2pclue.bots.random_bot import RandomBot
from p2pclue.engine.errors import Blame
from p2pclue.engine.transcript import Footer, Transcript, parse
from p2pclue.engine.votes import Vote, sign_vote
from p2pclue.engine.wire import Header, read_payload, sha256, sign_frame, split_frame
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
    if name in DERIVED:
        return DERIVED[name]()
    spec = SAMPLES[name]
    game = play(preset(spec.rules), spec.players, spec.seed, _bot, cheat=spec.cheat,
                cheater=spec.cheater)
    honest = next(p for p in game.peers if p.seat != spec.cheater)
    return honest.transcript().to_bytes()


def _equivocation_inside() -> bytes:
    """classic-3p with, right after entry 10, a second version of entry 10 signed by its
    seat (same ``seq``, another ``prev``): the replay halts there, blaming that seat."""
    t = parse(sample("classic-3p.p2pclue"))
    sender, payload, _ = split_frame(t.entries[10])
    header, body = read_payload(payload)
    twin = sign_frame(seeded_identity(SAMPLES["classic-3p.p2pclue"].seed, sender),
                      Header(header.game, sender, header.seq, bytes(32), header.type), body)
    entries = (*t.entries[:11], twin, *t.entries[11:])
    return Transcript(t.config, entries, Footer("complete", len(entries))).to_bytes()


def _reblamed(change: Callable[[Transcript, Blame], Blame]) -> Callable[[], bytes]:
    def build() -> bytes:
        t = parse(sample("halted-bias-dice.p2pclue"))
        assert t.footer.blame is not None
        footer = Footer("halted", t.footer.entries, change(t, t.footer.blame))
        return Transcript(t.config, t.entries, footer).to_bytes()
    return build


def _evidence_shows_nothing() -> bytes:
    """classic-3p closed as halted, blaming seat 0 with its own chained last frame as the
    evidence: a duplicate, which makes nobody halt."""
    t = parse(sample("classic-3p.p2pclue"))
    blame = Blame(0, "equivocation", "made up", len(t.entries), (t.entries[-1],))
    return Transcript(t.config, t.entries, Footer("halted", len(t.entries), blame)).to_bytes()


VOTE_TIMEOUT_MS = 120_000
VOTE_CUT = 71
"""classic-3p's entry count when seat 2 owes its own (last) step of its accusation check."""


def _voted(*waited: int) -> Callable[[], bytes]:
    """classic-3p cut at ``VOTE_CUT``, closed by the abandon votes of seats 0 and 1 naming
    seat 2, with these ``waited`` (milliseconds; both say ``timeout`` 120 000)."""
    def build() -> bytes:
        t = parse(sample("classic-3p.p2pclue"))
        entries = t.entries[:VOTE_CUT]
        seed = SAMPLES["classic-3p.p2pclue"].seed
        votes = tuple(
            sign_vote(seeded_identity(seed, voter),
                      Vote(t.config.digest(), VOTE_CUT, sha256(entries[-1]), 2, voter,
                           "abandon", 1, VOTE_TIMEOUT_MS, w))
            for voter, w in enumerate(waited))
        return Transcript(t.config, entries, Footer("abandoned", VOTE_CUT, votes=votes)).to_bytes()
    return build


DERIVED: dict[str, Callable[[], bytes]] = {
    "equivocation-inside.p2pclue": _equivocation_inside,
    "false-blame-wrong-seat.p2pclue": _reblamed(
        lambda t, b: Blame(0, b.check, b.reason, b.index, b.evidence)),
    "false-blame-nothing.p2pclue": _evidence_shows_nothing,
    "halted-other-reason.p2pclue": _reblamed(
        lambda t, b: Blame(b.culprit, b.check, "any prose at all", b.index, b.evidence)),
    "abandoned-forfeit-votes.p2pclue": _voted(121_500, 120_250),
    "votes-signed-early.p2pclue": _voted(121_500, 30_000),
}
"""Files made from the seeded samples by editing them (an equivocation re-signed with the
seat's seeded key): they pin the audit's verdicts on edge cases."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", type=Path, default=Path("protocol/samples"))
    args = parser.parse_args()
    args.write.mkdir(parents=True, exist_ok=True)
    for name in (*SAMPLES, *DERIVED):
        data = sample(name)
        (args.write / name).write_bytes(data)
        print(f"{args.write / name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
