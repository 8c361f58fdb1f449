"""What the local player knows, as notepad facts, and a snapshot of the notepad to draw.

The facts come from the same feed the bots learn from (``p2pclue.deduce.feed``): the
local engine peer's events (its own hand, leftovers, passes, refutations, the cards
shown to it and those it showed, accusations, a leaver's hand laid face up, the
envelope at the end), so a person's notepad knows what a bot in the seat would. Building
the notepad counts consistent deals, which can take a moment, so ``snapshot`` is meant to
run off the UI thread; the view reads only the finished, immutable ``NotepadView``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from p2pclue.deduce import ENVELOPE, Fact, Mark, Notepad, least_revealing
from p2pclue.deduce.advice import Advisor
from p2pclue.deduce.feed import SeatFeed
from p2pclue.engine import events as ev
from p2pclue.i18n import _
from p2pclue.rules.cards import CARDS
from p2pclue.tui.reasons import explanation_text, render


@dataclass(frozen=True)
class NotepadView:
    """Marks and envelope odds of every card, ready to draw."""

    marks: dict[tuple[int, int], Mark]
    envelope: dict[int, float]
    solution: tuple[int, int, int] | None
    notepad: Notepad | None = field(default=None, compare=False, repr=False)

    def mark(self, card: int, owner: int) -> Mark:
        return self.marks.get((card, owner), Mark.UNKNOWN)


@dataclass
class Knowledge:
    me: int
    n_players: int
    seat_names: tuple[str, ...]
    facts: list[Fact] = field(default_factory=list)
    hand_sizes: tuple[int, ...] | None = None
    n_leftovers: int = 0
    game_turn: int | None = None
    """The turn the status line shows, set before each event: explanations name it."""
    seat_feed: SeatFeed = field(init=False, repr=False)
    """Turns the events into facts, as it does for the bots."""

    def __post_init__(self) -> None:
        self.seat_feed = SeatFeed(self.me)

    def i_showed(self, card: int) -> None:
        """The local player chose to show ``card`` (recorded when the proof is accepted)."""
        self.seat_feed.i_show(card)

    def feed(self, event: ev.Event) -> bool:
        """Learn from one event; True if a fact was added."""
        if isinstance(event, ev.LeftoversShown):
            self.n_leftovers = len(event.cards)
        new = self.seat_feed.see(event, self.game_turn)
        self.facts += new
        return bool(new)

    def notepad(self) -> Notepad | None:
        """A notepad of everything known (slow: counts deals; run it off the UI thread)."""
        return self.frozen()()

    def frozen(self) -> Callable[[], Notepad | None]:
        """What ``notepad`` needs, copied now, to be built later on another thread."""
        if self.hand_sizes is None:
            return lambda: None
        me, n, sizes, left = self.me, self.n_players, self.hand_sizes, self.n_leftovers
        names, facts = self.seat_names, tuple(self.facts)
        return lambda: Notepad(me, n, sizes, left, seat_names=names, facts=facts)


def build_snapshot(build: Callable[[], Notepad | None]) -> NotepadView:
    """Build a notepad and read every mark of it (slow: run it off the UI thread)."""
    return snapshot(build())


def snapshot(notepad: Notepad | None) -> NotepadView:
    """Every mark and the envelope odds (slow: run it off the UI thread)."""
    if notepad is None or notepad.contradiction is not None:
        return NotepadView({}, {}, None, notepad)
    owners = notepad.table.owners
    marks = {(c.index, o): notepad.cell(c.index, o) for c in CARDS for o in owners}
    envelope = notepad.envelope_probabilities()
    return NotepadView(marks, envelope, notepad.solution(), notepad)


def explain(notepad: Notepad | None, card: int, owner: int) -> str:
    """The notepad's reason for one cell, in words (slow: off the UI thread)."""
    if notepad is None:
        return _("The notepad starts when the cards are dealt.")
    clash = notepad.contradiction
    if clash is not None:
        text = "\n".join((render(clash.message), *(f"  - {render(s)}" for s in clash.lines)))
        return _("The notepad found a contradiction: {contradiction}").format(contradiction=text)
    return explanation_text(notepad.explanation(card, owner))


def best_suggestion(notepad: Notepad | None, room: int) -> tuple[int, int] | None:
    """The most informative (suspect, weapon) to name in ``room`` (slow: off the UI thread)."""
    if notepad is None or notepad.contradiction is not None:
        return None
    advisor = Advisor(notepad)
    suspects, weapons = (
        [c for c in cat if advisor.envelope[c] > 0] or list(cat)
        for cat in notepad.table.deck[:2])
    # Only cards that may still be in the envelope: a hint naming a card the notepad has
    # already placed in someone's hand reads as a mistake to a person (issue 20).
    gain, (s, w, _r) = advisor.best_in_room(room, suspects, weapons)
    if gain <= 0:
        _gain, (s, w, _r) = advisor.best_in_room(room)
    return s, w


def quietest_card(notepad: Notepad | None, options: tuple[int, ...], suggester: int) -> int:
    """Which matching card tells ``suggester`` least (slow: off the UI thread)."""
    if notepad is None or notepad.contradiction is not None or len(options) < 2:
        return min(options)
    return least_revealing(notepad, options, suggester)


__all__ = ["ENVELOPE", "Knowledge", "NotepadView", "best_suggestion", "explain",
           "quietest_card", "snapshot"]
