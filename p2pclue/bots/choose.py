"""Which suggestion to make: the one choice the detective and the hint key share.

The worth of a suggestion is the expected drop in envelope entropy of the
notepad of observations (``Advisor.gain``). When a what-if notepad (a model of
the others) is given, the answers are weighted by its odds instead: the
detective then asks what would *prove* most, judged by what it finds likely.
Naming a rival's suspect costs a share of that worth, because the token moved
into the room gives its player a free suggestion (R22).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from p2pclue.deduce import Notepad, Triple
from p2pclue.deduce.advice import Advisor
from p2pclue.rules.state import GameState

SUMMON_COST = 0.3
"""Share of a suggestion's worth lost by pulling a rival's token into the room (R22)."""
SHORTLIST = 1
"""Most uncertain cards per category tried when scoring every room (plus one of mine)."""
MODEL_FLOOR = 0.05
"""Below this best worth (bits) the model has nothing left to ask: the plain odds decide."""


@dataclass(frozen=True, slots=True)
class Advice:
    """Scores suggestions from what one seat knows (and optionally a model of the others)."""

    known: Advisor
    what_if: Advisor | None = None
    _gains: dict[tuple[Triple, bool], float] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, known: Notepad, what_if: Notepad | None = None) -> Advice:
        return cls(Advisor(known), Advisor(what_if) if what_if is not None else None)

    def gain(self, triple: Triple, model: bool = True) -> float:
        """Expected bits the notepad gains (answers weighed by the model if ``model``)."""
        key = (triple, model and self.what_if is not None)
        if key not in self._gains:
            self._gains[key] = self.known.gain(triple, self.what_if if key[1] else None)
        return self._gains[key]

    def best_in_room(self, room: int, rivals: Collection[int] = (),
                     suspects: Sequence[int] | None = None,
                     weapons: Sequence[int] | None = None, *, fallback: bool = True,
                     ) -> tuple[float, Triple]:
        """The best (worth, triple) in ``room``; ties go to lower card indices.

        If the model finds nothing worth asking (it may be sure of what is not yet
        proven, or wrong), the plain odds of the notepad decide (unless ``fallback``
        is False: then the caller decides, e.g. once for all rooms).
        """
        best = self._best(room, rivals, suspects, weapons, model=True)
        if fallback and self.what_if is not None and best[0] < MODEL_FLOOR:
            best = self._best(room, rivals, suspects, weapons, model=False)
        return best

    def _best(self, room: int, rivals: Collection[int], suspects: Sequence[int] | None,
              weapons: Sequence[int] | None, model: bool) -> tuple[float, Triple]:
        deck = self.known.notepad.table.deck
        best: tuple[float, Triple] = (-1.0, (deck[0][0], deck[1][0], room))
        for s in suspects if suspects is not None else deck[0]:
            keep = 1.0 - SUMMON_COST if s in rivals else 1.0
            for w in weapons if weapons is not None else deck[1]:
                g = self.gain((s, w, room), model) * keep
                if g > best[0] + 1e-9:
                    best = (g, (s, w, room))
        return best

    def shortlist(self, category: int, model: bool = True) -> list[int]:
        """Cards of a category worth naming when scoring every room at once (a few of
        the most uncertain, and one of mine to block with)."""
        source = self.what_if if model and self.what_if is not None else self.known
        return source.shortlist(category, SHORTLIST)


def rivals_away(state: GameState, me: int, room: int) -> frozenset[int]:
    """Suspects played by rivals still in the game whose token is not already in ``room``."""
    return frozenset(
        suspect for seat, suspect in enumerate(state.seats)
        if seat != me and seat not in state.eliminated and state.token_of(seat) != room)
