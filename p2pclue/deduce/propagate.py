"""Cheap, explainable inference: unit propagation over the notepad grid.

Every cell the propagation fixes keeps the first reason found for it, citing
facts and the cells it follows from, so that ``explain`` can tell a chain of
real events. Propagation is sound but not complete; ``count`` finishes the job.
A conflict raises ``Conflict`` carrying both sides' reasons.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pclue.deduce.facts import (
    Fact,
    Lacks,
    Leftovers,
    OwnHand,
    Passed,
    Refuted,
    ShownByMe,
    ShownToMe,
    WrongAccusation,
    card_name,
    describe,
)
from p2pclue.deduce.table import ENVELOPE, LEFTOVERS, Table

UNKNOWN, YES, NO = 0, 1, 2
CATEGORY_NAMES = ("suspect", "weapon", "room")
Cell = tuple[int, int]  # (card, owner)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a cell has its value: a sentence, the facts it cites, the cells it follows from."""

    text: str
    facts: tuple[Fact, ...] = ()
    premises: tuple[Cell, ...] = ()


@dataclass(frozen=True, slots=True)
class Clause:
    """At least one card of ``cards`` lies with an owner in ``owners``."""

    cards: tuple[int, ...]
    owners: frozenset[int]
    fact: Fact


class Conflict(Exception):
    """The facts cannot all be true; ``reasons`` are the clashing derivations."""

    def __init__(self, message: str, reasons: tuple[Reason, ...]) -> None:
        super().__init__(message)
        self.message = message
        self.reasons = reasons


@dataclass
class Grid:
    """Mutable working state of one propagation run (never escapes ``propagate``)."""

    table: Table
    me: int
    marks: dict[Cell, int] = field(default_factory=dict)
    reasons: dict[Cell, Reason] = field(default_factory=dict)
    changed: bool = False

    def mark(self, card: int, owner: int) -> int:
        return self.marks.get((card, owner), UNKNOWN)

    def place(self, owner: int) -> str:
        return self.table.owner_name(owner, self.me)

    def set(self, card: int, owner: int, value: int, reason: Reason) -> None:
        old = self.marks.get((card, owner), UNKNOWN)
        if old == value:
            return
        if old != UNKNOWN:
            where = self.place(owner)
            raise Conflict(
                f"{card_name(card)} would be both in and not in {where}",
                (self.reasons[(card, owner)], reason))
        self.marks[(card, owner)] = value
        self.reasons[(card, owner)] = reason
        self.changed = True


def compile_facts(table: Table, me: int, facts: tuple[Fact, ...], grid: Grid) -> list[Clause]:
    """Turn facts into fixed cells on ``grid`` and the clauses left to reason about."""
    names, clauses = table.seat_names, []
    non_envelope = frozenset(o for o in table.owners if o != ENVELOPE)
    for fact in facts:
        why = Reason(describe(fact, names, me), (fact,))
        match fact:
            case OwnHand(cards) | Leftovers(cards):
                owner = me if isinstance(fact, OwnHand) else LEFTOVERS
                for c in table.cards:
                    grid.set(c, owner, YES if c in cards else NO, why)
            case ShownToMe(refuter, card, _, _):
                grid.set(card, refuter, YES, why)
            case ShownByMe(_, card, _, _):
                grid.set(card, me, YES, why)
            case Passed(seat, triple, _, _):
                for c in triple:
                    grid.set(c, seat, NO, why)
            case Lacks(seat, cards, _):
                for c in cards:
                    grid.set(c, seat, NO, why)
            case Refuted(refuter, _, triple, _):
                clauses.append(Clause(triple, frozenset((refuter,)), fact))
            case WrongAccusation(_, triple, _):
                clauses.append(Clause(triple, non_envelope, fact))
    if table.n_leftovers == 0:
        for c in table.cards:
            grid.set(c, LEFTOVERS, NO, Reason("there are no leftover cards in this game"))
    return clauses


def _card_rules(grid: Grid) -> None:
    table = grid.table
    for c in table.cards:
        owners = table.owners
        yes = [o for o in owners if grid.mark(c, o) == YES]
        if len(yes) > 1:
            raise Conflict(f"{card_name(c)} would be in two places",
                           tuple(grid.reasons[(c, o)] for o in yes))
        if yes:
            for o in owners:
                if o != yes[0]:
                    grid.set(c, o, NO, Reason(
                        f"{card_name(c)} is in {grid.place(yes[0])}", premises=((c, yes[0]),)))
            continue
        open_ = [o for o in owners if grid.mark(c, o) != NO]
        if not open_:
            raise Conflict(f"{card_name(c)} can be nowhere",
                           tuple(grid.reasons[(c, o)] for o in owners))
        if len(open_) == 1:
            premises = tuple((c, o) for o in owners
                             if o != open_[0] and not (o == LEFTOVERS and not table.n_leftovers))
            grid.set(c, open_[0], YES, Reason("every other place is ruled out", premises=premises))


def _capacity_rules(grid: Grid) -> None:
    table = grid.table
    groups: list[tuple[int, tuple[int, ...], int, str]] = [
        (o, table.cards, table.capacity(o), grid.place(o))
        for o in (*range(table.n_players), LEFTOVERS)]
    for k, cat in enumerate(table.deck):
        groups.append((ENVELOPE, cat, 1, f"the envelope's {CATEGORY_NAMES[k % 3]}"))
    for owner, cards, cap, label in groups:
        yes = [c for c in cards if grid.mark(c, owner) == YES]
        maybe = [c for c in cards if grid.mark(c, owner) == UNKNOWN]
        if len(yes) > cap:
            raise Conflict(f"{label} would hold {len(yes)} cards, more than {cap}",
                           tuple(grid.reasons[(c, owner)] for c in yes))
        if len(yes) + len(maybe) < cap:
            no = [c for c in cards if grid.mark(c, owner) == NO]
            raise Conflict(f"{label} holds {cap} cards but only {len(yes) + len(maybe)} remain "
                           "possible", tuple(grid.reasons[(c, owner)] for c in no))
        if not maybe:
            continue
        if len(yes) == cap:
            known = ", ".join(card_name(c) for c in yes)
            text = (f"{label} is {known}" if owner == ENVELOPE else
                    f"all {cap} cards of {label} are known: {known}" if cap else
                    f"{label} holds no cards")
            for c in maybe:
                grid.set(c, owner, NO, Reason(text, premises=tuple((y, owner) for y in yes)))
        elif len(yes) + len(maybe) == cap:
            ruled_out = tuple((c, owner) for c in cards if grid.mark(c, owner) == NO)
            names = ", ".join(card_name(c) for c in yes + maybe)
            text = (f"it is the only {label.rsplit(' ', 1)[-1]} still possible for the envelope"
                    if owner == ENVELOPE else
                    f"{label} holds {cap} card{'s' if cap != 1 else ''} and only {names} "
                    f"{'remain' if len(yes) + len(maybe) > 1 else 'remains'} possible")
            for c in maybe:
                grid.set(c, owner, YES, Reason(text, premises=ruled_out))


def clause_status(grid: Grid, clause: Clause) -> tuple[bool, list[int]]:
    """(satisfied already, cards that may still lie with the clause's owners)."""
    live = []
    for c in clause.cards:
        if any(grid.mark(c, o) == YES for o in clause.owners):
            return True, []
        if any(grid.mark(c, o) != NO for o in clause.owners):
            live.append(c)
    return False, live


def _clause_rules(grid: Grid, clauses: list[Clause]) -> None:
    table = grid.table
    for clause in clauses:
        done, live = clause_status(grid, clause)
        if done:
            continue
        text = describe(clause.fact, table.seat_names, grid.me)
        if not live:
            raise Conflict(f"this cannot be: {text}", (Reason(text, (clause.fact,)),))
        if len(live) > 1:
            continue
        (c,) = live
        others = [d for d in clause.cards if d != c]
        if len(clause.owners) == 1:
            (owner,) = clause.owners
            premises = tuple((d, owner) for d in others)
            grid.set(c, owner, YES, Reason(
                f"{text}, and the other cards are ruled out", (clause.fact,), premises))
        else:
            premises = tuple((d, ENVELOPE) for d in others)
            for o in table.owners:
                if o not in clause.owners:
                    grid.set(c, o, NO, Reason(
                        f"{text}, and the other cards are in the envelope",
                        (clause.fact,), premises))


def propagate(table: Table, me: int, facts: tuple[Fact, ...],
              assume: tuple[tuple[int, int, int], ...] = ()) -> tuple[Grid, list[Clause]]:
    """Apply every rule until nothing changes; raises ``Conflict`` on a contradiction.

    ``assume`` adds hypothetical (card, owner, YES/NO) cells, used to test whether
    a cell is forced (its opposite must then be contradictory).
    """
    grid = Grid(table, me)
    clauses = compile_facts(table, me, facts, grid)
    for card, owner, value in assume:
        grid.set(card, owner, value, Reason("supposing otherwise"))
    grid.changed = True
    while grid.changed:
        grid.changed = False
        _card_rules(grid)
        _capacity_rules(grid)
        _clause_rules(grid, clauses)
    return grid, [c for c in clauses if not clause_status(grid, c)[0]]
