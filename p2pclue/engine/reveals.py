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
from typing import TYPE_CHECKING

from p2pclue.crypto import randomness
from p2pclue.crypto.errors import CryptoError
from p2pclue.engine.stage import Body, Fields, Player, Reject, RoundStage, SeatRound, Stage

if TYPE_CHECKING:
    from p2pclue.engine.peer import Peer

Outcome = Callable[[str, tuple[bytes, ...]], None]
"""What a random event decides, from its name and the values revealed (in seat order)."""


@dataclass
class ChainCommitments:
    """Per seat, what its hash chain binds it to reveal next, and how many events were
    drawn: kept from the ``keys`` round to the end of the game."""

    length: int
    """How many values a chain holds (``GameConfig.chain_length``)."""
    used: list[int]
    """Per seat: values revealed from its current chain."""
    tip: list[bytes] = field(default_factory=list)
    """Per seat: the value its next reveal must be the preimage of."""
    head: list[bytes] = field(default_factory=list)
    """Per seat: the head its current chain was committed with (``keys`` or a renewal)."""
    events_drawn: int = 0
    """Random events completed so far; the next one is numbered this."""

    def commit(self, head: bytes) -> None:
        """The next seat's first chain, from its ``keys`` message."""
        self.tip.append(head)
        self.head.append(head)

    def take(self, sender: int, value: bytes, renew: bytes | None) -> None:
        """Check ``sender``'s next value (and a renewal exactly when its chain is used up),
        then move its commitment on."""
        try:
            randomness.verify_reveal(self.tip[sender], value)
        except CryptoError:
            raise Reject("randomness", "the value does not hash to the committed chain") from None
        used = self.used[sender] + 1
        if (used == self.length) != (renew is not None):
            raise Reject("randomness", "a chain is renewed exactly when its last value is used")
        self.used[sender] = 0 if renew is not None else used
        self.tip[sender] = renew if renew is not None else value
        if renew is not None:
            self.head[sender] = renew


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

    def on_reveal(self, peer: Peer, index: int, sender: int, f: Fields) -> None:
        if f["event"] != self.event:
            raise Reject("randomness", f"reveal for event {f['event']}, not {self.event}")
        self.chains.take(sender, f["value"], f["renew"])
        self.reveals.append(f["value"])
        self.next_in_round(peer)

    def finish(self, peer: Peer) -> None:
        self.chains.events_drawn += 1
        self.outcome(event_name(self.event), tuple(self.reveals))

    def build(self, peer: Peer, me: Player, index: int) -> Body:
        """The next chain value; the last one of a chain carries the head of a fresh chain."""
        sec = me.secrets
        chain = sec.current_chain()
        sec.used += 1
        value = chain.reveal(sec.used)
        renew = None
        if sec.used == chain.length:
            sec.chain = randomness.HashChain.create(me.src, self.chains.length)
            sec.seeds.append(sec.chain.reveal(sec.chain.length))
            peer.secrets_version += 1
            sec.used = 0
            renew = sec.chain.head
        return {"event": self.event, "value": value, "renew": renew}


def start_random(peer: Peer, outcome: Outcome) -> None:
    """Begin the next random event, seat 0 first."""
    chains = peer._chains
    peer._enter(RandomRound(chains, SeatRound.starting(peer.n, 0, peer.left_hands), outcome,
                            chains.events_drawn))
