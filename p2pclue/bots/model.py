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
        """``known`` plus the assumptions of every seat still trusted (``known`` if none)."""
        self._check(known)
        facts = self._facts()
        if not facts or known.contradiction is not None:
            return known
        what_if = known.extend(facts)
        if what_if.contradiction is None:
            return what_if
        for seat in sorted(s for s in self.assumed if s not in self.distrusted):
            trial = known.extend(self._facts(frozenset((seat,))))
            if trial.contradiction is None:
                self.distrusted.add(seat)
                return trial
        self.distrusted.update(self.assumed)
        return known
