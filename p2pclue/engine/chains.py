"""What every seat's hash chain binds it to reveal next (docs/protocol.md, "7. Fair
randomness"): read by the random events, and by a resumed peer checking its stored chain.

Each seat commits to the head of a secret hash chain in its ``keys`` message; each random
event takes the next value back along every chain. Kept apart from the random-event stage
(``reveals``) because a seat's own secrets (``peer_secrets``) are checked against it too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pclue.crypto import randomness
from p2pclue.crypto.errors import CryptoError
from p2pclue.engine.errors import Reject


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
