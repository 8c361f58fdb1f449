"""Explanations in words: the chain of real events that forces a cell.

Cells fixed by propagation are explained by walking their recorded reasons
(each citing facts and earlier cells). Cells only complete reasoning could fix
are explained by a minimal set of facts that already forces them, found by
re-running the solver with facts removed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2pclue.deduce.facts import card_name, describe
from p2pclue.deduce.marks import Mark
from p2pclue.deduce.propagate import NO, YES, Cell

if TYPE_CHECKING:
    from p2pclue.deduce.notepad import Notepad

MAX_DEPTH = 3
MAX_LINES = 24


def _headline(notepad: Notepad, cell: Cell, value: int) -> str:
    card, owner = cell
    place = notepad.table.owner_name(owner, notepad.me)
    return f"{card_name(card)} is {'in' if value == YES else 'not in'} {place}"


def explain_cell(notepad: Notepad, card: int, owner: int) -> str:
    mark = notepad.cell(card, owner)
    place = notepad.table.owner_name(owner, notepad.me)
    if mark is Mark.UNKNOWN:
        if not notepad.complete:
            return f"Not known whether {card_name(card)} is in {place}."
        p = notepad.probability(card, owner)
        return (f"Not known whether {card_name(card)} is in {place}: it is there in "
                f"{p.numerator} of every {p.denominator} consistent deals ({float(p):.0%}).")
    value = YES if mark is Mark.YES else NO
    head = _headline(notepad, (card, owner), value)
    reason = notepad.propagation_reason(card, owner)
    if reason is None:
        core = notepad.forced_by(card, owner)
        if not core:
            return f"{head}: this follows from the hand sizes alone."
        names = notepad.table.seat_names
        lines = [f"{head}: no deal consistent with these facts allows otherwise "
                 "(given the hand sizes and one card of each kind in the envelope):"]
        lines += [f"  - {describe(f, names, notepad.me)}" for f in core]
        return "\n".join(lines)
    lines = [f"{head}: {reason.text}."]
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
            lines.append("  " * depth + f"- {_headline(notepad, p, value)}: {why.text}.")
            if depth < MAX_DEPTH:
                walk(why.premises, depth + 1)

    walk(reason.premises, 1)
    if len(lines) >= MAX_LINES:
        lines.append("  ...")
    return "\n".join(lines)
