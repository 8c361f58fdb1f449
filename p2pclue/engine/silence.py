"""Silence: the clock on the seat that owes the next entry, and the votes about it.

A seat that owes a message past every peer's deadline can be voted out: the players
present sign votes (``votes``) to wait more or to end the game as abandoned; a quorum of
abandon votes ends it (docs/protocol.md, "Silence and abandon"). Votes are about one point
of the game: they lapse as soon as the awaited entry is chained, but for the abandon votes,
which are irrevocable and kept (``certificate``): a quorum of them is final wherever it
forms. The peer owns one ``Silence`` and tells it where the game stands (``At``); the
clock's readings come from the driver, never from here.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2pclue.engine import events as ev
from p2pclue.engine.accusation import AccusationCheck
from p2pclue.engine.errors import LocalProtocolError, WireError
from p2pclue.engine.stage import Player, StageState
from p2pclue.engine.votes import Vote, quorum, read_vote, sign_vote, window_ms
from p2pclue.rules import actions as ra
from p2pclue.rules.errors import N_

FORFEIT_GRACE = 2
"""Silences of the accuser owing its own last PET step (this peer's deadline, then each
``timeout`` after it) before votes about it count at this peer. A forfeit is the heaviest
outcome, so one deadline is not enough for it: a step late by less than one more
``timeout`` still wins (docs/protocol.md, "Silence and abandon", "Forfeit grace")."""

Counted = dict[int, tuple[Vote, bytes]]
"""Per voter: its latest vote about this point, and the signed bytes."""


@dataclass(frozen=True)
class At:
    """A point of the game, as a vote names it."""

    entries: int
    head: bytes
    silent: int | None
    """The seat that owes the next entry (None: nobody does)."""
    left: Container[int]
    """Seats that left the table: they neither vote nor count."""
    forfeit: bool = False
    """The silent seat is the accuser owing its own last step: an abandon here is a
    forfeit, so votes about it wait for ``FORFEIT_GRACE`` silences."""


class Silence:
    """The deadline for the seat that owes the next entry, and the votes about it at the
    current point of the game."""

    def __init__(self, config_digest: bytes, keys: list[Ed25519PublicKey], timeout: float,
                 now: float) -> None:
        self.config_digest = config_digest
        self.keys = keys
        self.timeout = timeout
        self.deadline = now + timeout
        self.since = now
        """When this peer reached the current point (its last entry chained, or it started):
        the start of its own observation window for the seat that owes the next entry."""
        self.silent_at: int | None = None
        """The entry count at which this peer reported the owed message overdue (votes count
        from then on, or after the forfeit grace); None: not reported at this point."""
        self.silences = 0
        """How many times this peer reported the owed message overdue at ``silent_at``."""
        self.own_ballot = 0
        """This player's last ballot number (it only grows: the highest of a voter's counts)."""
        self.counted: Counted = {}
        self.held: Counted = {}
        """Votes about this point that arrived before this peer's own deadline for the silent
        seat: not counted until it passes, dropped if the awaited entry comes first."""

    def restart(self, now: float) -> None:
        """The game moved on (or this peer resumed): a new observation window."""
        self.deadline = now + self.timeout
        self.since = now

    def lapse(self) -> list[tuple[Vote, bytes]]:
        """The awaited entry was chained: every vote about the old point lapses (returned:
        its abandon votes are kept, ``certificate``)."""
        lapsed = [*self.counted.values(), *self.held.values()]
        self.counted.clear()
        self.held.clear()
        self.silent_at = None
        self.silences = 0
        return lapsed

    def overdue(self, now: float) -> float | None:
        """The deadline passed by ``now`` (None: not yet); the clock starts again."""
        if now < self.deadline:
            return None
        deadline = self.deadline
        self.deadline = now + self.timeout
        return deadline

    def report(self, at: At) -> list[tuple[Vote, bytes]]:
        """The owed entry is reported overdue at ``at``: from now on (at a forfeit point,
        from its ``FORFEIT_GRACE``-th report on), until it comes, votes about it count;
        the ones held until now, to count first."""
        self.silences = self.silences + 1 if self.silent_at == at.entries else 1
        self.silent_at = at.entries
        if not self.counting(at):
            return []
        held, self.held = self.held, {}
        return [held[voter] for voter in sorted(held)]

    def counting(self, at: At) -> bool:
        """Votes about ``at`` count now (else they are held): this peer's deadline has
        passed there, and at a forfeit point its grace too."""
        return self.silent_at == at.entries and (
            not at.forfeit or self.silences >= FORFEIT_GRACE)

    def sign(self, me: Player, choice: str, at: At, now: float) -> bytes:
        """This player's vote about the seat silent at ``at``."""
        if self.silent_at != at.entries or at.silent is None:
            raise LocalProtocolError(N_("nobody has been reported silent at this point"))
        if at.silent == me.seat or me.seat in at.left:
            raise LocalProtocolError(N_("the silent seat and seats that left do not vote"))
        if choice not in ("wait", "abandon"):
            raise LocalProtocolError(N_("vote wait or abandon"))
        self.own_ballot += 1
        # The silence was reported, so this peer's deadline (``timeout`` after ``since``)
        # has passed: ``waited`` is at least ``timeout`` (``max`` only absorbs rounding).
        timeout = window_ms(self.timeout)
        waited = max(window_ms(now - self.since), timeout)
        return sign_vote(me.identity, Vote(self.config_digest, at.entries, at.head, at.silent,
                                           me.seat, choice, self.own_ballot, timeout, waited))

    def check(self, raw: bytes, at: At) -> Vote | None:
        """A signed vote about ``at``, to count now; None: held until this peer's own
        deadline passes (at a forfeit point, until its grace passes too). ``WireError``
        (with the reason to drop it) for any other."""
        try:
            checked = read_vote(raw, self.keys)
        except WireError as exc:
            raise WireError(f"unreadable vote: {exc}") from None
        if (checked.game, checked.entries, checked.head) != (self.config_digest, at.entries,
                                                             at.head) \
                or checked.silent != at.silent or checked.voter in at.left:
            raise WireError("a vote about another point of the game")
        if not self.counting(at):
            held = self.held.get(checked.voter)
            if held is None or (held[0].ballot < checked.ballot
                                and held[0].choice != "abandon"):
                self.held[checked.voter] = (checked, raw)
            return None
        return checked

    def quorum(self, at: At, n: int) -> int:
        """Abandon votes that end the game: a strict majority of the seats still at the
        table other than the silent one; at a forfeit point, every one of them. A quorum is
        final wherever it forms (``certificate``), so a forfeit, which changes the result,
        needs every honest voter's own word that it waited its whole deadline and grace:
        a majority of colluders cannot forfeit a live accuser at an honest table."""
        voters = sum(1 for s in range(n) if s not in at.left and s != at.silent)
        return max(voters, 1) if at.forfeit else quorum(voters)

    def count(self, checked: Vote, raw: bytes, at: At, n: int, current: StageState,
              now: float) -> tuple[list[ev.Event], tuple[bytes, ...] | None]:
        """Add a checked vote about this point to the tally, after this peer's deadline:
        the events, and the abandon votes if they reached a quorum (the game is over)."""
        counted = self.counted
        old = counted.get(checked.voter)
        if old is not None and (old[0].ballot >= checked.ballot or old[0].choice == "abandon"):
            return [], None  # an abandon vote is irrevocable: nothing replaces it
        counted[checked.voter] = (checked, raw)
        abandon = tuple(s for s, (v, _) in sorted(counted.items()) if v.choice == "abandon")
        wait = tuple(s for s, (v, _) in sorted(counted.items()) if v.choice == "wait")
        needed = self.quorum(at, n)
        out: list[ev.Event] = [ev.VoteCounted(checked.voter, checked.choice, checked.silent,
                                              abandon, wait, needed)]
        if len(abandon) >= needed:
            out.append(forfeit(current, checked.silent, abandon))
            return out, tuple(counted[s][1] for s in abandon)
        if len(wait) >= needed:
            self.deadline = now + self.timeout
        return out, None


def forfeit(current: StageState, silent: int, abandon: tuple[int, ...]) -> ev.Abandoned:
    """The game abandoned by a quorum, waiting for ``silent`` in stage ``current``.

    If the quorum signed that the accuser owes its own (last) PET step here, that is a
    withheld step of its own check, which counts as a wrong accusation (R27, then
    R29/R30). The same rule in the audit: docs/protocol.md, "Informed abort"."""
    if not (isinstance(current, AccusationCheck) and silent == current.accuser):
        return ev.Abandoned(silent, abandon, False, None, None)
    play = current.play
    play.apply(ra.AccusationResult(silent, False))
    return ev.Abandoned(silent, abandon, True, play.state.result, play.state.winner)
