"""What one seat learns in a game, as notepad facts: the one feed that both a person's
notepad and the bots' notepads read.

A seat sees its own hand, the leftovers, every suggestion and who passed or showed a
card for it, the cards shown to it (and the ones it showed), every accusation and its
verdict, the hand of a player who leaves (laid face up for all) and, at the end, the
envelope. ``SeatFeed`` turns each into the facts a ``Notepad`` reasons from, so that a
person never knows less than a bot in the same seat would. It takes a step at a time
(the bots' trusted table hands a suggestion over with all its answers at once) or the
engine's own events (``see``); both paths make the same facts.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pclue.deduce.facts import (
    EnvelopeOpened,
    Fact,
    HandLaidDown,
    Leftovers,
    OwnHand,
    Passed,
    Refuted,
    ShownByMe,
    ShownToMe,
    Triple,
    WrongAccusation,
)
from p2pclue.engine import events as ev


class SeatFeed:
    """The facts seat ``me`` learns, step by step (each step returns the new facts)."""

    def __init__(self, me: int) -> None:
        self.me = me
        self.turn = 0
        """The turn the facts are dated with (explanations name it): the game's turn where
        the caller passes it, else a count of the suggestions seen."""
        self._asked: Triple | None = None
        """This seat's latest suggestion: a card shown to it answers that one."""
        self._showing: int | None = None
        self._envelope_known = False

    def i_show(self, card: int) -> None:
        """This seat chose to show ``card``: its coming refutation is known in full."""
        self._showing = card

    # ---- one step at a time -----------------------------------------------------------

    def own_hand(self, cards: Sequence[int]) -> list[Fact]:
        return [OwnHand(tuple(cards))]

    def leftovers(self, cards: Sequence[int]) -> list[Fact]:
        return [Leftovers(tuple(cards))]

    def suggestion(self, suggester: int, triple: Triple, turn: int | None = None
                   ) -> list[Fact]:
        """A suggestion was made: nothing learnt yet, but its answers are dated by it."""
        self.turn = turn if turn is not None else self.turn + 1
        if suggester == self.me:
            self._asked = triple
        return []

    def passed(self, seat: int, suggester: int, triple: Triple) -> list[Fact]:
        if seat == self.me:
            self._showing = None  # a card chosen to show was not shown after all
        return [Passed(seat, triple, self.turn, suggester)]

    def refuted(self, refuter: int, suggester: int, triple: Triple) -> list[Fact]:
        """``refuter`` showed ``suggester`` a card of ``triple``: which one, this seat knows
        only if it showed it (``i_show``) or it was shown to it (``shown_to_me``, next)."""
        showing, self._showing = self._showing, None
        if refuter != self.me:
            return [Refuted(refuter, suggester, triple, self.turn)]
        if showing is not None and showing in triple:
            return [ShownByMe(suggester, showing, self.turn, triple)]
        return []

    def shown_to_me(self, refuter: int, card: int) -> list[Fact]:
        return [ShownToMe(refuter, card, self.turn, self._asked)]

    def accusation(self, seat: int, triple: Triple, correct: bool) -> list[Fact]:
        """A verdict: a wrong accusation rules out the three together; a right one opens
        the envelope to everyone."""
        if correct:
            return self.envelope(triple)
        return [WrongAccusation(seat, triple, self.turn)]

    def hand_laid_down(self, seat: int, cards: Sequence[int]) -> list[Fact]:
        """A player left and laid its hand face up (this seat's own hand it knew)."""
        if seat == self.me:
            return []
        return [HandLaidDown(seat, tuple(sorted(cards)), self.turn)]

    def envelope(self, triple: Triple) -> list[Fact]:
        """The envelope's cards, once (a right accusation and the reveal name the same)."""
        if self._envelope_known:
            return []
        self._envelope_known = True
        return [EnvelopeOpened(triple)]

    # ---- the engine's events -----------------------------------------------------------

    def see(self, event: ev.Event, turn: int | None = None) -> list[Fact]:
        """The facts in one event of this seat's engine peer; ``turn``: the game's turn
        number as the table's state has it (None: count the suggestions)."""
        if turn is not None:
            self.turn = turn
        match event:
            case ev.HandDealt(cards=cards):
                return self.own_hand(cards)
            case ev.LeftoversShown(cards=cards):
                return self.leftovers(cards)
            case ev.Suggested(seat=seat, suspect=s, weapon=w, room=r):
                return self.suggestion(seat, (s, w, r), turn)
            case ev.Passed(seat=seat, suggester=suggester, triple=triple):
                return self.passed(seat, suggester, triple)
            case ev.Refuted(refuter=refuter, suggester=suggester, triple=triple):
                return self.refuted(refuter, suggester, triple)
            case ev.CardShownToMe(refuter=refuter, card=card):
                return self.shown_to_me(refuter, card)
            case ev.AccusationDecided(seat=seat, triple=triple, correct=correct):
                return self.accusation(seat, triple, correct)
            case ev.PlayerLeft(seat=seat, hand=hand):
                return self.hand_laid_down(seat, hand)
            case ev.GameOver(envelope=envelope):
                return self.envelope(envelope)
        return []
