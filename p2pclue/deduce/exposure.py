"""What the other players can know about my hand, and which card leaks least.

A seat's knowledge is modelled as a notepad from its point of view holding the
public facts (passes, refutations, wrong accusations, leftovers, hands laid face up,
the opened envelope) plus the cards I showed it. Its own hand is unknown to me, so
this is a lower bound on what it knows: every card reported is certainly known to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from p2pclue.deduce.facts import (
    EnvelopeOpened,
    Fact,
    HandLaidDown,
    Leftovers,
    Passed,
    Refuted,
    ShownByMe,
    ShownToMe,
    WrongAccusation,
)
from p2pclue.deduce.marks import Mark
from p2pclue.deduce.notepad import Notepad
from p2pclue.deduce.table import NotepadUsageError


def _seen_by(fact: Fact, me: int, seat: int) -> Fact | None:
    """The form in which ``seat`` saw ``fact`` (None if it learnt nothing from it)."""
    match fact:
        case (Leftovers() | Passed() | WrongAccusation() | Refuted() | HandLaidDown()
              | EnvelopeOpened()):
            return fact
        case ShownToMe(refuter, _, turn, triple) if triple is not None:
            return Refuted(refuter, me, triple, turn)
        case ShownByMe(to, card, turn, triple) if to == seat:
            return ShownToMe(me, card, turn, triple)
        case ShownByMe(to, _, turn, triple) if triple is not None:
            return Refuted(me, to, triple, turn)
    return None


VIEW_MAX_STATES = 20_000


def view_of(notepad: Notepad, seat: int) -> Notepad:
    """A notepad of what ``seat`` knows from what it saw (its own hand left out).

    Without that hand the exact search can grow large, so it is bounded; past
    the bound the view keeps what propagation proves (still a sound lower bound).
    """
    table, me = notepad.table, notepad.me
    table.check_seat(seat, "seat")
    seen = [f for f in (_seen_by(f, me, seat) for f in notepad.facts) if f is not None]
    return Notepad(seat, table.n_players, table.hand_sizes, table.n_leftovers,
                   seat_names=table.seat_names, deck=table.deck, facts=seen,
                   max_states=VIEW_MAX_STATES)


def exposure(notepad: Notepad) -> dict[int, frozenset[int]]:
    """For each other seat, the cards of my hand it can be certain I hold."""
    me = notepad.me
    return {s: view_of(notepad, s).holdings(me)
            for s in range(notepad.table.n_players) if s != me}


def least_revealing(notepad: Notepad, matching: Sequence[int], suggester: int,
                    view: Notepad | None = None) -> int:
    """Which of ``matching`` (my cards in the suggestion) to show ``suggester``.

    A card the suggester already knows I hold reveals nothing; otherwise show the
    one it already thinks most likely mine (the least surprise), then one already
    shown to others (fewer distinct cards leaked), then the lowest index.
    ``view``: ``view_of(notepad, suggester)`` if the caller already built it.
    """
    if not matching:
        raise NotepadUsageError("no matching card to show")
    for c in matching:
        if notepad.cell(c, notepad.me) is not Mark.YES:
            raise NotepadUsageError(f"card {c} is not known to be in my hand")
    if view is None:
        view = view_of(notepad, suggester)
    if view.contradiction is not None:  # pragma: no cover - a subset of consistent facts
        return min(matching)
    shown_elsewhere = {f.card for f in notepad.facts if isinstance(f, ShownByMe)}

    def belief(c: int) -> Fraction:
        if view.complete:
            return view.probability(c, notepad.me)
        return Fraction(1 if view.cell(c, notepad.me) is Mark.YES else 0)

    return max(sorted(matching), key=lambda c: (belief(c), c in shown_elsewhere, -c))
