"""Cheap, explainable inference: unit propagation over the notepad grid.

Every cell the propagation fixes keeps the first reason found for it, citing
facts and the cells it follows from, so that ``explain`` can tell a chain of
real events. Propagation is sound but not complete; ``count`` finishes the job.
A conflict raises ``Conflict`` carrying both sides' reasons.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pclue.deduce.facts import (
    EnvelopeOpened,
    Fact,
    HandLaidDown,
    Lacks,
    Leftovers,
    OwnHand,
    Passed,
    Refuted,
    ShownByMe,
    ShownToMe,
    WrongAccusation,
    describe,
)
from p2pclue.deduce.table import ENVELOPE, LEFTOVERS, Table
from p2pclue.deduce.words import N_, CardsV, CardV, PlaceV, Said, counted, said

UNKNOWN, YES, NO = 0, 1, 2
ONLY_ONE_LEFT = (said(N_("it is the only suspect still possible for the envelope")),
                 said(N_("it is the only weapon still possible for the envelope")),
                 said(N_("it is the only room still possible for the envelope")))
Cell = tuple[int, int]  # (card, owner)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a cell has its value: a sentence, the facts it cites, the cells it follows from."""

    text: Said
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

    def __init__(self, message: Said, reasons: tuple[Reason, ...]) -> None:
        super().__init__(str(message))
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

    def place(self, owner: int) -> PlaceV:
        return self.table.place(owner, self.me)

    def set(self, card: int, owner: int, value: int, reason: Reason) -> None:
        old = self.marks.get((card, owner), UNKNOWN)
        if old == value:
            return
        if old != UNKNOWN:
            where = self.place(owner)
            raise Conflict(
                said(N_("{card} would be both in and not in {place}"), card=CardV(card),
                     place=where), (self.reasons[(card, owner)], reason))
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
            case HandLaidDown(seat, cards, _):
                for c in table.cards:
                    grid.set(c, seat, YES if c in cards else NO, why)
            case EnvelopeOpened(triple):
                for c in table.cards:
                    grid.set(c, ENVELOPE, YES if c in triple else NO, why)
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
            grid.set(c, LEFTOVERS, NO, Reason(said(N_("there are no leftover cards in this game"))))
    return clauses


def _card_rules(grid: Grid) -> None:
    table = grid.table
    for c in table.cards:
        owners = table.owners
        yes = [o for o in owners if grid.mark(c, o) == YES]
        if len(yes) > 1:
            raise Conflict(said(N_("{card} would be in two places"), card=CardV(c)),
                           tuple(grid.reasons[(c, o)] for o in yes))
        if yes:
            for o in owners:
                if o != yes[0]:
                    grid.set(c, o, NO, Reason(
                        said(N_("{card} is {place:in}"), card=CardV(c), place=grid.place(yes[0])),
                        premises=((c, yes[0]),)))
            continue
        open_ = [o for o in owners if grid.mark(c, o) != NO]
        if not open_:
            raise Conflict(said(N_("{card} can be nowhere"), card=CardV(c)),
                           tuple(grid.reasons[(c, o)] for o in owners))
        if len(open_) == 1:
            premises = tuple((c, o) for o in owners
                             if o != open_[0] and not (o == LEFTOVERS and not table.n_leftovers))
            grid.set(c, open_[0], YES, Reason(said(N_("every other place is ruled out")),
                                              premises=premises))


def _capacity_rules(grid: Grid) -> None:
    table = grid.table
    groups: list[tuple[int, tuple[int, ...], int, PlaceV]] = [
        (o, table.cards, table.capacity(o), grid.place(o))
        for o in (*range(table.n_players), LEFTOVERS)]
    for k, cat in enumerate(table.deck):
        groups.append((ENVELOPE, cat, 1, table.place(ENVELOPE, grid.me, k % 3)))
    for owner, cards, cap, label in groups:
        yes = [c for c in cards if grid.mark(c, owner) == YES]
        maybe = [c for c in cards if grid.mark(c, owner) == UNKNOWN]
        if len(yes) > cap:
            raise Conflict(counted("{place} would hold {count} card, more than {cap}",
                                   "{place} would hold {count} cards, more than {cap}", len(yes),
                                   place=label, count=len(yes), cap=cap),
                           tuple(grid.reasons[(c, owner)] for c in yes))
        if len(yes) + len(maybe) < cap:
            no = [c for c in cards if grid.mark(c, owner) == NO]
            raise Conflict(counted("{place} holds {cap} card but only {count} remain possible",
                                   "{place} holds {cap} cards but only {count} remain possible",
                                   cap, place=label, cap=cap, count=len(yes) + len(maybe)),
                           tuple(grid.reasons[(c, owner)] for c in no))
        if not maybe:
            continue
        if len(yes) == cap:
            known = CardsV(tuple(yes))
            text = (said(N_("{place} is {cards}"), place=label, cards=known)
                    if owner == ENVELOPE else
                    counted("the {cap} card of {place} is known: {cards}",
                            "all {cap} cards of {place} are known: {cards}", cap, place=label,
                            cap=cap, cards=known) if cap else
                    said(N_("{place} holds no cards"), place=label))
            for c in maybe:
                grid.set(c, owner, NO, Reason(text, premises=tuple((y, owner) for y in yes)))
        elif len(yes) + len(maybe) == cap:
            ruled_out = tuple((c, owner) for c in cards if grid.mark(c, owner) == NO)
            text = (ONLY_ONE_LEFT[label.category or 0] if owner == ENVELOPE else
                    counted("{place} holds {cap} card and only {cards} remains possible",
                            "{place} holds {cap} cards and only {cards} remain possible", cap,
                         place=label, cap=cap, cards=CardsV(tuple(yes + maybe))))
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
            raise Conflict(said(N_("this cannot be: {fact}"), fact=text),
                           (Reason(text, (clause.fact,)),))
        if len(live) > 1:
            continue
        (c,) = live
        others = [d for d in clause.cards if d != c]
        if len(clause.owners) == 1:
            (owner,) = clause.owners
            premises = tuple((d, owner) for d in others)
            grid.set(c, owner, YES, Reason(
                said(N_("{fact}, and the other cards are ruled out"), fact=text), (clause.fact,),
                premises))
        else:
            premises = tuple((d, ENVELOPE) for d in others)
            for o in table.owners:
                if o not in clause.owners:
                    grid.set(c, o, NO, Reason(
                        said(N_("{fact}, and the other cards are in the envelope"), fact=text),
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
        grid.set(card, owner, value, Reason(said(N_("supposing otherwise"))))
    grid.changed = True
    while grid.changed:
        grid.changed = False
        _card_rules(grid)
        _capacity_rules(grid)
        _clause_rules(grid, clauses)
    return grid, [c for c in clauses if not clause_status(grid, c)[0]]
