"""Abandon certificates: a quorum of abandon votes about a point is final, wherever it forms.

Votes about a point do not lapse for good when the awaited entry is chained: a peer keeps
every valid abandon vote about any point it has passed in this game (one per voter and point,
the first it got: an abandon vote is irrevocable, so any one of them is as good as another),
and if a quorum of them about point ``i`` ever exists at it, it ends the game abandoned at
``i`` exactly as if it had counted them there (docs/protocol.md, "Silence and abandon",
"Abandon certificates"). Without that, a partition lets one seat count a quorum and end
while the seat whose vote was counted receives the awaited entry and plays on: two honest
transcripts of one game that end differently.

``PastVotes`` only sorts and keeps the votes (cheap checks: signature, this game, a passed
point whose head and awaited seat match this peer's chain). Whether they really make a
quorum there (seats still at the table then, the forfeit) is decided by replaying the
chain up to ``i`` in an observer and counting them as the audit does (``Certificates``);
the peer hands its votes over, and takes on the observer's game if they end it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Iterable
from typing import Generic, Protocol, TypeVar

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2pclue.engine import events as ev
from p2pclue.engine.errors import WireError
from p2pclue.engine.silence import FORFEIT_GRACE
from p2pclue.engine.stage import Status
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


class Observer(Protocol):
    """A peer with no seat, fed the chain up to a passed point and the votes kept about it
    (``Peer`` is one: the replay runs exactly the code of live play and of the audit)."""

    @property
    def entries(self) -> list[bytes]: ...

    @property
    def status(self) -> Status: ...

    @property
    def abandon_votes(self) -> tuple[bytes, ...]:
        """Set exactly when a quorum of abandon votes ended its game."""

    def receive(self, raw: bytes, now: float, via: int | None = None) -> list[ev.Event]: ...

    def on_timeout(self, now: float) -> list[ev.Event]: ...

    def receive_vote(self, raw: bytes, now: float) -> list[ev.Event]: ...


ObserverT = TypeVar("ObserverT", bound=Observer)


class Certificates(Generic[ObserverT]):
    """One peer's abandon votes about the points it has passed, and the end they force.

    The peer keeps the dispatch: it hands over every vote about a passed point (``take``)
    and the votes about its point that lapse when the awaited entry is chained (``keep``),
    then asks once per step whether they end the game (``settle``). ``observer`` makes the
    fresh observer each replay needs."""

    def __init__(self, config_digest: bytes, keys: list[Ed25519PublicKey],
                 observer: Callable[[], ObserverT]) -> None:
        self.past = PastVotes(config_digest, keys)
        self.observer = observer
        self.due = False
        """A vote was kept since the last ``settle``: a quorum may have formed."""

    def passed(self, raw: bytes, entries: list[bytes]) -> bool:
        """Whether ``raw`` reads as a vote about a point before the ``entries`` held (the
        peer hands it to ``take``; any other vote, readable or not, is about its point)."""
        try:
            return read_vote(raw, self.past.keys).entries < len(entries)
        except WireError:
            return False

    def keep(self, lapsed: Iterable[tuple[Vote, bytes]]) -> None:
        """The votes about a point just passed: its abandon votes are kept (they never lapse)."""
        for vote, raw in lapsed:
            self.due = self.past.keep(vote, raw) or self.due

    def take(self, raw: bytes, entries: list[bytes]) -> bool:
        """Keep a signed abandon vote about a point this peer has passed (``PastVotes.check``:
        ``WireError`` to drop it); False: a vote of that voter there is kept already."""
        kept = self.past.keep(self.past.check(raw, entries), raw)
        self.due = kept or self.due
        return kept

    def certificate(self, entries: list[bytes], counted: tuple[bytes, ...]) -> tuple[bytes, ...]:
        """The votes that ended the game after ``entries`` (``counted``), with every other
        abandon vote kept about that point: a peer that ended sends them all."""
        return tuple(dict.fromkeys(counted + self.past.certificate(len(entries))))

    def settle(self, entries: list[bytes], n: int, left: Container[int], now: float,
               ) -> tuple[ObserverT, list[ev.Event]] | None:
        """The earliest passed point where the kept votes make a quorum, if one does and a
        vote was kept since the last call: the observer whose game they ended there (the
        peer's game becomes that one), with the events of their count. ``left``: the seats
        of the ``n`` that have left the table by now."""
        if not self.due:
            return None
        self.due = False
        at_table = sum(1 for s in range(n) if s not in left)
        for i in self.past.candidates(at_table - 1):
            found = self.end_at(i, entries, now)
            if found is not None:
                return found
            self.past.tried[i] = len(self.past.points[i])
        return None

    def end_at(self, i: int, entries: list[bytes], now: float,
               ) -> tuple[ObserverT, list[ev.Event]] | None:
        """Count the kept votes about point ``i`` exactly as a peer standing there past its
        deadline and its forfeit grace would (as the audit does): the chain up to ``i`` is
        replayed in an observer, which counts them. If they make a quorum, the observer, whose
        game is the first ``i`` entries abandoned by those votes (the entries chained after
        ``i`` are void). None: no quorum there."""
        observer = self.observer()
        for k, raw in enumerate(entries[:i]):
            observer.receive(raw, float(k))
        if len(observer.entries) != i or observer.status is not Status.RUNNING:
            return None
        for _ in range(FORFEIT_GRACE):
            observer.on_timeout(math.inf)
        events: list[ev.Event] = []
        for raw in self.past.votes(i):
            events += observer.receive_vote(raw, now)
        if not observer.abandon_votes:
            return None
        return observer, [e for e in events if isinstance(e, ev.VoteCounted | ev.Abandoned)]
