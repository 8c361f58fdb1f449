"""Signed votes on a silent seat: wait more, or end the game as abandoned.

A vote is not a transcript entry: the chain only grows by the message the silent
seat owes, and a vote must not take that place (nor use up a sequence number,
which would look like equivocation once the game goes on). It is a statement of
its own, signed under its own prefix so that it can never be read as a frame:
"at this point of this game (config digest, entry count and head hash), seat
``silent`` owes the next message, and I vote ``choice``". ``ballot`` orders one
voter's votes at one point: the highest counts, so a voter may go from wait to abandon
and a replayed old vote changes nothing; an abandon vote is irrevocable (a later wait does
not cancel it), so a quorum of them is a certificate that stays one (``certificate``).

A vote also carries, signed, the voter's own observation window: ``timeout``, how long
after its copy of the chain reached this point its own deadline fell, and ``waited``,
how long it had been waiting when it signed (milliseconds; clocks are not shared, so
only durations mean anything across machines). An honest voter signs only after its
deadline, so ``waited < timeout`` is no vote. The window is the voter's word, not a
proof: what keeps a live seat from being voted out is that every peer holds the votes
it receives until its own deadline for that seat has passed (``Peer.receive_vote``).

The quorum that ends a game is a strict majority of the seats still at the table
other than the silent one (docs/protocol.md, "Silence and abandon"). The abandon
votes that reached it are stored in the transcript footer, where the audit
checks every one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from p2pclue.engine.errors import WireError
from p2pclue.engine.wire import HASH_BYTES, is_int, pack, unpack_canonical

VOTE_PREFIX = b"p2pclue/v1/vote\x00"
CHOICES = ("wait", "abandon")
MAX_VOTE_BYTES = 512
VOTE_KEYS = frozenset({"ballot", "choice", "entries", "from", "game", "head", "silent",
                       "timeout", "waited"})
MAX_MS = 2**32 - 1
"""The largest ``timeout`` or ``waited`` (about 49 days, in milliseconds)."""


@dataclass(frozen=True)
class Vote:
    game: bytes
    """The config digest."""
    entries: int
    """How many transcript entries the voter holds; the silent seat owes entry ``entries``."""
    head: bytes
    """The hash chain's head at that point (what the next entry's ``prev`` would be)."""
    silent: int
    voter: int
    choice: str
    ballot: int
    timeout: int
    """The voter's own deadline for ``silent``, in milliseconds after its copy of the
    chain reached this point."""
    waited: int
    """How long the voter had waited at this point when it signed, in milliseconds
    (at least ``timeout``)."""

    def payload(self) -> bytes:
        return pack({"ballot": self.ballot, "choice": self.choice, "entries": self.entries,
                     "from": self.voter, "game": self.game, "head": self.head,
                     "silent": self.silent, "timeout": self.timeout, "waited": self.waited})


def window_ms(seconds: float) -> int:
    """A duration as the vote's window field: whole milliseconds (rounded down), capped at
    ``MAX_MS``; an endless timeout is the cap, and nothing below zero."""
    ms = seconds * 1000
    if not ms > 0:  # negative, zero or not a number
        return 0
    return int(min(ms, MAX_MS))


def quorum(at_table: int) -> int:
    """Abandon votes needed when ``at_table`` seats other than the silent one remain:
    a strict majority of them (never fewer than one)."""
    return at_table // 2 + 1


def sign_vote(identity: Ed25519PrivateKey, vote: Vote) -> bytes:
    payload = vote.payload()
    return pack([vote.voter, payload, identity.sign(VOTE_PREFIX + payload)])


def read_vote(raw: bytes, keys: list[Ed25519PublicKey]) -> Vote:
    """A vote signed by the seat it names; ``WireError`` for anything else."""
    if not isinstance(raw, bytes) or len(raw) > MAX_VOTE_BYTES:
        raise WireError("a vote is at most 512 bytes")
    outer = unpack_canonical(raw, MAX_VOTE_BYTES)
    if not isinstance(outer, list) or len(outer) != 3:
        raise WireError("a vote is [voter, payload, signature]")
    voter, payload, signature = outer
    if not is_int(voter) or not 0 <= voter < len(keys):
        raise WireError("the voter is not a seat of this game")
    if not isinstance(payload, bytes) or not isinstance(signature, bytes):
        raise WireError("payload and signature are bytes")
    try:
        keys[voter].verify(signature, VOTE_PREFIX + payload)
    except InvalidSignature:
        raise WireError("the vote's signature does not verify") from None
    obj: Any = unpack_canonical(payload, MAX_VOTE_BYTES)
    if not isinstance(obj, dict) or set(obj) != VOTE_KEYS:
        raise WireError(f"a vote's keys are {sorted(VOTE_KEYS)}")
    for name in ("game", "head"):
        if not isinstance(obj[name], bytes) or len(obj[name]) != HASH_BYTES:
            raise WireError(f"{name} must be {HASH_BYTES} bytes")
    for name in ("entries", "silent", "ballot", "from", "timeout", "waited"):
        if not is_int(obj[name]) or not 0 <= obj[name] < 2**32:
            raise WireError(f"{name} must be an integer in [0, 2^32)")
    if obj["from"] != voter:
        raise WireError("the vote names another voter than its signer")
    if obj["choice"] not in CHOICES:
        raise WireError(f"the choice is one of {list(CHOICES)}")
    if not 0 <= obj["silent"] < len(keys) or obj["silent"] == voter:
        raise WireError("the silent seat is another seat of this game")
    if obj["waited"] < obj["timeout"]:
        raise WireError("a vote is signed only after the voter's own deadline "
                        "(waited at least timeout)")
    return Vote(obj["game"], obj["entries"], obj["head"], obj["silent"], voter, obj["choice"],
                obj["ballot"], obj["timeout"], obj["waited"])
