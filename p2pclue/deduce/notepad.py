"""One player's detective notepad: every forced cell, exact odds, and why.

A ``Notepad`` is immutable: ``add`` returns a new one. Each is analysed when
made: propagation (explainable, cheap) fixes what it can, then exact counting
over every deal consistent with the facts finds the rest, so a cell reads YES
or NO exactly when it is so in every consistent deal. Odds are uniform over
consistent deals. Facts that cannot all hold make ``contradiction`` non-None
and the queries raise ``ContradictionError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from p2pclue.deduce.count import Counts, SearchTooLarge, count_consistent, count_deals
from p2pclue.deduce.explain import Line, explain_cell, explanation
from p2pclue.deduce.facts import Fact, Triple, describe
from p2pclue.deduce.marks import Mark
from p2pclue.deduce.propagate import NO, YES, Conflict, Grid, Reason, propagate
from p2pclue.deduce.table import (
    ENVELOPE,
    STANDARD_DECK,
    DeductionError,
    NotepadUsageError,
    Table,
)
from p2pclue.deduce.validate import check_fact
from p2pclue.deduce.words import N_, Said, said


@dataclass(frozen=True, slots=True)
class Contradiction:
    """The facts cannot all be true; ``facts`` is a small set of them that already clash."""

    message: Said
    facts: tuple[Fact, ...]
    lines: tuple[Said, ...]

    def __str__(self) -> str:
        return "\n".join((str(self.message), *(f"  - {line}" for line in self.lines)))


class IncompleteDeductionError(DeductionError):
    """Exact odds were asked of a notepad whose search hit its ``max_states`` budget."""


class ContradictionError(DeductionError):
    """A query on a notepad whose facts contradict each other."""

    def __init__(self, contradiction: Contradiction) -> None:
        super().__init__(str(contradiction))
        self.contradiction = contradiction


def consistent(table: Table, me: int, facts: tuple[Fact, ...],
               assume: tuple[tuple[int, int, int], ...] = ()) -> bool:
    """True when at least one deal satisfies every fact (and the assumptions)."""
    try:
        grid, clauses = propagate(table, me, facts, assume)
    except Conflict:
        return False
    return count_consistent(grid, clauses) > 0


def minimal_facts(facts: tuple[Fact, ...], holds: Callable[[tuple[Fact, ...]], bool],
                  ) -> tuple[Fact, ...]:
    """A subset of ``facts`` on which ``holds`` is still true, with no fact to spare.

    Deletion in shrinking chunks: try dropping big slices first, then single facts.
    """
    kept = list(facts)
    chunk = max(1, len(kept) // 2)
    while True:
        i = 0
        while i < len(kept):
            trial = kept[:i] + kept[i + chunk:]
            if holds(tuple(trial)):
                kept = trial
            else:
                i += chunk
        if chunk == 1:
            return tuple(kept)
        chunk = max(1, chunk // 2)


class Notepad:
    """The notepad of seat ``me``; see the module docstring."""

    __slots__ = ("_complete", "_contradiction", "_counts", "_facts", "_grid", "_max_states",
                 "_me", "_table")

    def __init__(self, me: int, n_players: int, hand_sizes: Sequence[int],
                 n_leftovers: int = 0, *, seat_names: Sequence[str] | None = None,
                 deck: Sequence[Sequence[int]] = STANDARD_DECK,
                 facts: Iterable[Fact] = (), max_states: int | None = None) -> None:
        """``max_states`` bounds the exact search (None: no bound). A notepad whose
        search would exceed it keeps only what propagation found (``complete`` is
        False), which is still sound; the players' own notepads need no bound."""
        table = Table.make(n_players, hand_sizes, n_leftovers, deck, seat_names)
        table.check_seat(me, "me")
        given = tuple(facts)
        for fact in given:
            check_fact(table, me, fact)
        self._setup(table, me, given, max_states)

    def _setup(self, table: Table, me: int, facts: tuple[Fact, ...],
               max_states: int | None) -> None:
        self._table, self._me, self._facts = table, me, facts
        self._max_states, self._complete = max_states, True
        self._contradiction: Contradiction | None = None
        self._grid = Grid(table, me)
        self._counts = Counts(0, {})
        try:
            self._grid, clauses = propagate(table, me, facts)
        except Conflict as conflict:
            self._contradiction = self._explain_conflict(conflict.message)
            return
        try:
            self._counts = count_deals(self._grid, clauses, max_states)
        except SearchTooLarge:
            self._complete = False
            return
        if not self._counts.total:
            self._contradiction = self._explain_conflict(said(N_("no deal fits all the facts")))

    def _explain_conflict(self, message: Said) -> Contradiction:
        core = minimal_facts(self._facts, lambda fs: not consistent(self._table, self._me, fs))
        names = self._table.seat_names
        return Contradiction(message, core, tuple(describe(f, names, self._me) for f in core))

    def add(self, fact: Fact) -> Notepad:
        """A new notepad knowing ``fact`` too (``NotepadUsageError`` if it is malformed)."""
        return self.extend((fact,))

    def extend(self, facts: Iterable[Fact]) -> Notepad:
        new = list(facts)
        for fact in new:
            check_fact(self._table, self._me, fact)
        other = object.__new__(Notepad)
        other._setup(self._table, self._me, self._facts + tuple(new), self._max_states)
        return other

    # --- what the notepad is about -------------------------------------------------------
    @property
    def table(self) -> Table:
        return self._table

    @property
    def me(self) -> int:
        return self._me

    @property
    def facts(self) -> tuple[Fact, ...]:
        return self._facts

    @property
    def complete(self) -> bool:
        """False when the exact search was cut short by ``max_states``."""
        return self._complete

    @property
    def contradiction(self) -> Contradiction | None:
        return self._contradiction

    def _ok(self) -> None:
        if self._contradiction is not None:
            raise ContradictionError(self._contradiction)

    # --- queries -------------------------------------------------------------------------
    @property
    def deal_count(self) -> int:
        """How many deals are consistent with everything known (0 on a contradiction)."""
        if not self._complete:
            raise IncompleteDeductionError(f"the exact search exceeded {self._max_states} states")
        return self._counts.total

    def _count(self, card: int, owner: int) -> int:
        mark = self._grid.mark(card, owner)
        if mark == YES:
            return self._counts.total
        if mark == NO:
            return 0
        if not self._complete:
            raise IncompleteDeductionError(
                f"the exact search exceeded {self._max_states} states; only certain cells "
                "are available")
        return self._counts.per_cell.get((card, owner), 0)

    def _check(self, card: int, owner: int) -> None:
        self._table.check_owner(owner)
        if not isinstance(card, int) or card not in self._table.cards:
            raise NotepadUsageError(f"{card!r} is not a card of this game")
        self._ok()

    def cell(self, card: int, owner: int) -> Mark:
        """YES/NO when forced in every consistent deal, else UNKNOWN."""
        self._check(card, owner)
        if not self._complete:
            mark = self._grid.mark(card, owner)
            return Mark.YES if mark == YES else Mark.NO if mark == NO else Mark.UNKNOWN
        n = self._count(card, owner)
        return Mark.YES if n == self._counts.total else Mark.NO if n == 0 else Mark.UNKNOWN

    def probability(self, card: int, owner: int) -> Fraction:
        """Exact share of consistent deals that put ``card`` with ``owner``."""
        self._check(card, owner)
        return Fraction(self._count(card, owner), self._counts.total)

    def envelope_odds(self) -> dict[int, Fraction]:
        self._ok()
        return {c: self.probability(c, ENVELOPE) for c in self._table.cards}

    def envelope_probabilities(self) -> dict[int, float]:
        return {c: float(p) for c, p in self.envelope_odds().items()}

    def holdings(self, owner: int) -> frozenset[int]:
        """Cards certainly with ``owner``."""
        return frozenset(c for c in self._table.cards if self.cell(c, owner) is Mark.YES)

    def solution(self) -> Triple | None:
        """The envelope, once it is certain."""
        env = self.holdings(ENVELOPE)
        if len(env) != len(self._table.deck):
            return None
        s, w, r = (next(c for c in cat if c in env) for cat in self._table.deck)
        return (s, w, r)

    def propagation_reason(self, card: int, owner: int) -> Reason | None:
        """The propagation step that fixed this cell, if propagation alone fixed it."""
        self._check(card, owner)
        return self._grid.reasons.get((card, owner))

    def forced_by(self, card: int, owner: int) -> tuple[Fact, ...]:
        """A minimal set of facts that alone force this cell's value (empty if not forced)."""
        mark = self.cell(card, owner)
        if mark is Mark.UNKNOWN:
            return ()
        opposite = NO if mark is Mark.YES else YES
        return minimal_facts(self._facts, lambda fs: not consistent(
            self._table, self._me, fs, ((card, owner, opposite),)))

    def explain(self, card: int, owner: int) -> str:
        """Why this cell has its value, citing the facts it follows from."""
        self._check(card, owner)
        return explain_cell(self, card, owner)

    def explanation(self, card: int, owner: int) -> list[Line]:
        """``explain`` as lines for a front end to render in its language."""
        self._check(card, owner)
        return explanation(self, card, owner)
