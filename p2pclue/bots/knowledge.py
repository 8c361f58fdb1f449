"""What a bot has observed, deduced when needed, and frozen for work done elsewhere.

Deduction is slow (milliseconds to tens of them), so a bot keeps the facts it
observes and brings its notepad up to date only when it needs it, one observation
at a time (the same notepad as learning them all at once). ``snapshot`` freezes
what was learned so far: another thread can bring that up to date without touching
anything the bot still changes, and ``adopt`` takes the result back (what was learned in
the meantime is still to be deduced from it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2pclue.deduce import Fact, Notepad
from p2pclue.rules.cards import CARDS
from p2pclue.rules.state import GameState


@dataclass(frozen=True, slots=True)
class Shape:
    """The table a notepad is about, as the public state gives it."""

    me: int
    n_players: int
    hand_sizes: tuple[int, ...]
    leftovers: int
    names: tuple[str, ...]

    @classmethod
    def of(cls, state: GameState, me: int) -> Shape:
        return cls(me, state.n_players, tuple(state.hand_sizes),
                   21 - 3 - sum(state.hand_sizes),
                   tuple(CARDS[s].name.split()[-1] for s in state.seats))

    def notepad(self, facts: Sequence[Fact]) -> Notepad:
        return Notepad(self.me, self.n_players, self.hand_sizes, self.leftovers,
                       seat_names=self.names, facts=facts)


def extend_each(notepad: Notepad, batches: Sequence[Sequence[Fact]]) -> Notepad:
    """``notepad`` with each batch of facts added in turn; a batch that would contradict
    what is known is left out (a lie cannot come through the protocol; keep sane)."""
    for facts in batches:
        new = notepad.extend(facts)
        if new.contradiction is None:
            notepad = new
    return notepad


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything learned up to observation ``learned``, frozen (shares nothing mutable)."""

    learned: int
    base: Notepad | None
    """The notepad as last brought up to date (None: not made yet)."""
    absorbed: int
    """The observations ``base`` knows (the first ``absorbed``)."""
    shape: Shape
    pending: tuple[Fact, ...]
    """Facts learned before the notepad was made (they make it)."""
    batches: tuple[tuple[Fact, ...], ...]
    """Facts learned since ``base``, one tuple per observation."""

    def notepad(self) -> Notepad:
        """The notepad up to date: the one ``Knowledge.read`` would give now."""
        base = self.base if self.base is not None else self.shape.notepad(self.pending)
        return extend_each(base, self.batches)


class Knowledge:
    """One seat's observed facts and its notepad, brought up to date lazily."""

    def __init__(self, me: int) -> None:
        self.me = me
        self.notepad: Notepad | None = None
        """As last brought up to date; None until the table's shape is known."""
        self._pending: list[Fact] = []
        self._unlearned: list[tuple[Fact, ...]] = []
        self.learned = 0
        """How many observations taught something: a notepad or plan made from fewer is
        out of date."""
        self.absorbed = 0
        """How many of them ``notepad`` knows (the others wait in ``_unlearned``)."""

    def learn(self, facts: Sequence[Fact]) -> None:
        if facts:
            self.learned += 1
        if self.notepad is None:
            self._pending.extend(facts)
        elif facts:
            self._unlearned.append(tuple(facts))

    def make(self, state: GameState) -> None:
        """Make the notepad from what was learned before the table's shape was known."""
        if self.notepad is None:
            pending, self._pending = self._pending, []
            self.notepad = Shape.of(state, self.me).notepad(pending)
            self.absorbed = self.learned

    def catch_up(self) -> bool:
        """Deduce from the facts learned since the last read; True if the notepad changed."""
        batches, self._unlearned = self._unlearned, []
        if self.notepad is None or not batches:
            return False
        self.absorbed = self.learned
        new = extend_each(self.notepad, batches)
        changed = new is not self.notepad
        self.notepad = new
        return changed

    def snapshot(self, state: GameState) -> Snapshot:
        return Snapshot(self.learned, self.notepad, self.absorbed, Shape.of(state, self.me),
                        tuple(self._pending), tuple(self._unlearned))

    def adopt(self, learned: int, notepad: Notepad) -> bool:
        """Take ``notepad`` (a ``Snapshot.notepad()`` of the first ``learned`` observations)
        if it knows more than ours; True if the notepad changed. One made from the facts
        learned before ours was made is taken only if nothing was learned since: ours is
        made from them all at once."""
        if self.notepad is None:
            if learned != self.learned:
                return False
            self._pending = []
        elif learned <= self.absorbed:
            return False
        else:
            del self._unlearned[:learned - self.absorbed]
        self.absorbed = learned
        changed = notepad is not self.notepad
        self.notepad = notepad
        return changed
