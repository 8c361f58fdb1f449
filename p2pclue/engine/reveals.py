"""Random events (the weapons' rooms, every roll of the dice): one hash-chain value per seat.

Each seat commits to the head of a secret hash chain in its ``keys`` message and, for each
random event, reveals the next value back along the chain (docs/protocol.md,
"7. Fair randomness"). A value is fixed by the commitment before anyone reveals, so no seat can
steer an event by choosing its value after seeing the others'; the event's outcome is
derived from all of them. A chain's last value carries the head of a fresh chain.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from p2pclue.crypto import randomness
from p2pclue.engine.chains import ChainCommitments
from p2pclue.engine.errors import Reject
from p2pclue.engine.stage import Body, Fields, Host, Player, RoundStage, SeatRound, Stage

Outcome = Callable[[str, tuple[bytes, ...]], None]
"""What a random event decides, from its name and the values revealed (in seat order)."""


def event_name(event: int) -> str:
    return f"random/{event}"


@dataclass
class RandomRound(RoundStage):
    """One random event: every seat at the table reveals, then ``outcome`` decides."""

    stage = Stage.RANDOM
    message_type = "reveal"

    chains: ChainCommitments
    round: SeatRound
    outcome: Outcome
    event: int
    reveals: list[bytes] = field(default_factory=list)

    def on_reveal(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        if f["event"] != self.event:
            raise Reject("randomness", f"reveal for event {f['event']}, not {self.event}")
        self.chains.take(sender, f["value"], f["renew"])
        self.reveals.append(f["value"])
        self.next_in_round(peer)

    def finish(self, peer: Host) -> None:
        self.chains.events_drawn += 1
        self.outcome(event_name(self.event), tuple(self.reveals))

    def build(self, peer: Host, me: Player, index: int) -> Body:
        """The next chain value; the last one of a chain carries the head of a fresh chain."""
        sec = me.secrets
        chain = sec.current_chain()
        sec.used += 1
        value = chain.reveal(sec.used)
        renew = None
        if sec.used == chain.length:
            sec.chain = randomness.HashChain.create(me.src, self.chains.length)
            sec.seeds.append(sec.chain.reveal(sec.chain.length))
            sec.version += 1
            sec.used = 0
            renew = sec.chain.head
        return {"event": self.event, "value": value, "renew": renew}


def start_random(peer: Host, outcome: Outcome) -> None:
    """Begin the next random event, seat 0 first."""
    record = peer.record
    chains = record.chains
    peer.enter(RandomRound(chains, SeatRound.starting(record.n, 0, record.left_hands), outcome,
                           chains.events_drawn))
