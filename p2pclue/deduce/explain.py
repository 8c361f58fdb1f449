"""Explanations in words: the chain of real events that forces a cell.

Cells fixed by propagation are explained by walking their recorded reasons
(each citing facts and earlier cells). Cells only complete reasoning could fix
are explained by a minimal set of facts that already forces them, found by
re-running the solver with facts removed.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Protocol

from p2pclue.deduce.facts import Fact, describe
from p2pclue.deduce.marks import Mark
from p2pclue.deduce.propagate import NO, YES, Cell, Reason
from p2pclue.deduce.table import Table
from p2pclue.deduce.words import N_, CardV, Said, ShareV, counted, said


class Notepad(Protocol):
    """What an explanation reads of a notepad (``deduce.notepad.Notepad`` is one): named
    here so that the notepad can explain itself without the two modules importing each
    other."""

    @property
    def table(self) -> Table: ...

    @property
    def me(self) -> int: ...

    @property
    def complete(self) -> bool: ...

    def cell(self, card: int, owner: int) -> Mark: ...

    def probability(self, card: int, owner: int) -> Fraction: ...

    def propagation_reason(self, card: int, owner: int) -> Reason | None: ...

    def forced_by(self, card: int, owner: int) -> tuple[Fact, ...]: ...

MAX_DEPTH = 3
MAX_LINES = 24

Line = tuple[int, Said]
"""One line of an explanation: its depth (0 the headline, then one per step back) and
what it says; ``None``-free so a front end can render each in its language."""
MORE = said(N_("..."))


def _headline(notepad: Notepad, cell: Cell, value: int) -> Said:
    card, owner = cell
    place = notepad.table.place(owner, notepad.me)
    template = N_("{card} is {place:in}") if value == YES else N_("{card} is not {place:in}")
    return said(template, card=CardV(card), place=place)


def explanation(notepad: Notepad, card: int, owner: int) -> list[Line]:
    """Why a cell has its value, as lines a front end renders (see ``explain_cell``)."""
    mark = notepad.cell(card, owner)
    place = notepad.table.place(owner, notepad.me)
    if mark is Mark.UNKNOWN:
        if not notepad.complete:
            return [(0, said(N_("Not known whether {card} is {place:in}."), card=CardV(card),
                             place=place))]
        p = notepad.probability(card, owner)
        return [(0, counted("Not known whether {card} is {place:in}: it is there in {count} of "
                            "every {total} consistent deal ({odds}).",
                            "Not known whether {card} is {place:in}: it is there in {count} of "
                            "every {total} consistent deals ({odds}).", p.denominator,
                            card=CardV(card), place=place, count=p.numerator, total=p.denominator,
                            odds=ShareV(float(p))))]
    value = YES if mark is Mark.YES else NO
    head = _headline(notepad, (card, owner), value)
    reason = notepad.propagation_reason(card, owner)
    if reason is None:
        core = notepad.forced_by(card, owner)
        if not core:
            return [(0, said(N_("{head}: this follows from the hand sizes alone."), head=head))]
        names = notepad.table.seat_names
        lines: list[Line] = [(0, said(N_(
            "{head}: no deal consistent with these facts allows otherwise (given the hand sizes "
            "and one card of each kind in the envelope):"), head=head))]
        lines += [(1, describe(f, names, notepad.me)) for f in core]
        return lines
    lines = [(0, said(N_("{head}: {reason}."), head=head, reason=reason.text))]
    seen = {(card, owner)}

    def walk(premises: tuple[Cell, ...], depth: int) -> None:
        for p in premises:
            if p in seen or len(lines) >= MAX_LINES:
                continue
            seen.add(p)
            why = notepad.propagation_reason(*p)
            if why is None:  # pragma: no cover - premises are always propagated cells
                continue
            value = YES if notepad.cell(*p) is Mark.YES else NO
            lines.append((depth, said(N_("{head}: {reason}."),
                                      head=_headline(notepad, p, value), reason=why.text)))
            if depth < MAX_DEPTH:
                walk(why.premises, depth + 1)

    walk(reason.premises, 1)
    if len(lines) >= MAX_LINES:
        lines.append((1, MORE))
    return lines


def layout(lines: list[Line], render: Callable[[Said], str] = str) -> str:
    """The lines as text: each step back indented under the line it explains."""
    out = []
    for depth, text in lines:
        body = render(text)
        out.append(body if depth == 0 else "  " * depth + ("" if text is MORE else "- ") + body)
    return "\n".join(out)


def explain_cell(notepad: Notepad, card: int, owner: int) -> str:
    """Why a cell has its value, in English, citing the facts it follows from."""
    return layout(explanation(notepad, card, owner))
