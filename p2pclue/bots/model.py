"""A model of how the other players choose their suggestions, for planning only.

Many players (and the ``random`` bot always) name only cards they do not hold:
a suggestion's suspect and weapon then say "not in my hand". The model adds
that as ``Lacks`` assumptions to a what-if notepad. It is never used for what
is certain: the accusation is decided by the notepad of observations alone.

A seat that names a card it is known to hold, or whose assumptions clash with
what was observed, is dropped from the model for the rest of the game.
"""

from __future__ import annotations

from p2pclue.deduce import Fact, Lacks, Mark, Notepad
from p2pclue.deduce.notepad import consistent


class SuggestionModel:
    """Collects ``Lacks`` assumptions per seat and builds the what-if notepad."""

    def __init__(self, me: int) -> None:
        self.me = me
        self.assumed: dict[int, list[Lacks]] = {}
        self.distrusted: set[int] = set()

    def saw_suggestion(self, suggester: int, suspect: int, weapon: int, turn: int) -> None:
        if suggester == self.me or suggester in self.distrusted:
            return
        self.assumed.setdefault(suggester, []).append(Lacks(suggester, (suspect, weapon), turn))

    def _check(self, known: Notepad) -> None:
        if known.contradiction is not None:
            return
        for seat, lacks in self.assumed.items():
            if seat in self.distrusted:
                continue
            if any(known.cell(c, seat) is Mark.YES for f in lacks for c in f.cards):
                self.distrusted.add(seat)

    def _facts(self, skip: frozenset[int] = frozenset()) -> list[Fact]:
        return [f for seat, lacks in sorted(self.assumed.items())
                if seat not in self.distrusted and seat not in skip for f in lacks]

    def notepad(self, known: Notepad) -> Notepad:
        """``known`` plus the assumptions of every seat still trusted (``known`` if none).

        Consistency is tested before a notepad is built: building one on clashing
        facts would also search for the smallest explanation, which is slow.
        """
        self._check(known)
        if known.contradiction is not None:
            return known
        table, me = known.table, known.me
        for skip in (frozenset(), *(frozenset((seat,)) for seat in sorted(self.assumed)
                                    if seat not in self.distrusted)):
            facts = self._facts(skip)
            if not facts:
                return known
            if consistent(table, me, known.facts + tuple(facts)):
                self.distrusted.update(skip)
                return known.extend(facts)
        self.distrusted.update(self.assumed)
        return known
