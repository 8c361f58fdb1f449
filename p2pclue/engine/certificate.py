"""Abandon certificates: a quorum of abandon votes about a point is final, wherever it forms.

Votes about a point do not lapse for good when the awaited entry is chained: a peer keeps
every valid abandon vote about any point it has passed in this game (one per voter and point,
the first it got: an abandon vote is irrevocable, so any one of them is as good as another),
and if a quorum of them about point ``i`` ever exists at it, it ends the game abandoned at
``i`` exactly as if it had counted them there (docs/protocol.md, "Silence and abandon",
"Abandon certificates"). Without that, a partition lets one seat count a quorum and end
while the seat whose vote was counted receives the awaited entry and plays on: two honest
transcripts of one game that end differently.

This module only sorts and keeps the votes (cheap checks: signature, this game, a passed
point whose head and awaited seat match this peer's chain). Whether they really make a
quorum there (seats still at the table then, the forfeit) is decided by replaying the
chain up to ``i`` in an observer and counting them as the audit does (``Peer``).
"""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2pclue.engine.errors import WireError
from p2pclue.engine.votes import Vote, quorum, read_vote
from p2pclue.engine.wire import sha256, split_frame

CHAIN_START = b"p2pclue/v1/chain-start\x00"


def head_at(config_digest: bytes, entries: list[bytes], index: int) -> bytes:
    """The hash entry ``index`` names as ``prev`` (what a vote about that point names)."""
    return sha256(CHAIN_START + config_digest) if index == 0 else sha256(entries[index - 1])


class PastVotes:
    """The abandon votes this peer holds about points it has passed, per point and voter."""

    def __init__(self, config_digest: bytes, keys: list[Ed25519PublicKey]) -> None:
        self.config_digest = config_digest
        self.keys = keys
        self.points: dict[int, dict[int, bytes]] = {}
        self.tried: dict[int, int] = {}
        """Per point: how many voters it had when it was last replayed without ending."""

    def keep(self, vote: Vote, raw: bytes) -> bool:
        """Keep an abandon vote already checked against its point; False if it adds nothing."""
        if vote.choice != "abandon":
            return False
        at_point = self.points.setdefault(vote.entries, {})
        if vote.voter in at_point:
            return False
        at_point[vote.voter] = raw
        return True

    def check(self, raw: bytes, entries: list[bytes]) -> Vote:
        """A signed abandon vote about a point this peer has passed (fewer entries than it
        holds): this game, the head there, and the seat that did send the awaited entry.
        ``WireError`` for anything else (the caller drops it: it costs nobody anything)."""
        try:
            vote = read_vote(raw, self.keys)
        except WireError as exc:
            raise WireError(f"unreadable vote: {exc}") from None
        i = vote.entries
        if vote.game != self.config_digest or not i < len(entries) \
                or vote.head != head_at(self.config_digest, entries, i):
            raise WireError("a vote about another point of the game")
        if vote.choice != "abandon":
            raise WireError("a wait vote about a passed point says nothing")
        if split_frame(entries[i])[0] != vote.silent:
            raise WireError("a vote naming another silent seat than the one that owed the entry")
        return vote

    def candidates(self, at_table: int) -> list[int]:
        """The passed points that may hold a quorum now, earliest first: as many voters as
        the quorum among ``at_table`` seats (the fewest there can have been since), and more
        than when the point was last tried."""
        need = quorum(at_table)
        return [i for i in sorted(self.points)
                if len(self.points[i]) >= need and len(self.points[i]) > self.tried.get(i, 0)]

    def votes(self, i: int) -> list[bytes]:
        """The votes about point ``i``, in voter order."""
        return [raw for _, raw in sorted(self.points.get(i, {}).items())]

    def certificate(self, i: int) -> tuple[bytes, ...]:
        """Every abandon vote kept about point ``i`` (a peer that ended sends them all)."""
        return tuple(self.votes(i))
