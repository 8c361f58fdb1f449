"""Which suggestion teaches me most about the envelope, judged from my notepad.

The outcome of a suggestion (who refutes first, which card I am shown) is
modelled from the notepad's exact per-card location odds, taking the three
named cards as independent (they are in different categories, so this is a
mild approximation). The value of a suggestion is the expected drop in the
envelope's entropy (summed over categories), net of nothing else: a suggestion
whose every outcome is already certain is worth zero.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from p2pclue.deduce.facts import Triple
from p2pclue.deduce.notepad import Notepad
from p2pclue.deduce.table import ENVELOPE


def refuter_order(me: int, n_players: int) -> tuple[int, ...]:
    """The seats asked to refute my suggestion, in order (clockwise from my left, R21)."""
    return tuple((me + k) % n_players for k in range(1, n_players))


def _plogp(p: float) -> float:
    return p * math.log2(p) if p > 1e-12 else 0.0


def _entropy(ps: Sequence[float]) -> float:
    return -sum(p * math.log2(p) for p in ps if p > 1e-12)


class Advisor:
    """Scores suggestions for one notepad (odds are read once, then reused)."""

    def __init__(self, notepad: Notepad) -> None:
        self.notepad = notepad
        table = notepad.table
        self.order = refuter_order(notepad.me, table.n_players)
        self.envelope = notepad.envelope_probabilities()
        self.places: dict[int, list[tuple[int, float]]] = {}
        for c in table.cards:
            odds = [(o, float(notepad.probability(c, o))) for o in table.owners]
            self.places[c] = [(o, p) for o, p in odds if p > 0]
        self.category_entropy = [_entropy([self.envelope[c] for c in cat])
                                 for cat in table.deck]
        self._plogp = [sum(_plogp(self.envelope[c]) for c in cat) for cat in table.deck]

    def _category_entropy_after(self, k: int, card: int, posterior: float) -> float:
        """Entropy of category ``k`` once ``card``'s odds move to ``posterior`` and the
        others scale to fill the rest: O(1) from the category's sum of p log p."""
        prior = self.envelope[card]
        if prior >= 1.0 or posterior >= 1.0:
            return 0.0
        scale = (1.0 - posterior) / (1.0 - prior)
        if scale <= 0.0:
            return 0.0
        others = self._plogp[k] - _plogp(prior)
        return -_plogp(posterior) - scale * others - scale * math.log2(scale) * (1.0 - prior)

    def outcomes(self, triple: Triple) -> dict[tuple[int, int], list[float]]:
        """Each answer (refuter or -1, card shown or -1) to ``triple``: its weight, then
        the weight of the deals in it that put each named card in the envelope.

        The cards' places are independent here, so rather than walking every
        combination of owners it walks refuters in order: seat ``j`` answers with
        the named cards it holds (``held``) when no earlier seat holds any of them.
        """
        odds = [dict(self.places[c]) for c in triple]
        outcomes: dict[tuple[int, int], list[float]] = {}
        earlier: set[int] = set()
        for j in (*self.order, -1):
            if j == -1:  # nobody refutes: every named card is with me, the envelope or
                free = [sum(p for o, p in odd.items() if o not in earlier) for odd in odds]
                weight = math.prod(free)  # the leftovers
                if weight > 0:
                    outcomes[(-1, -1)] = [weight, *(
                        weight / free[k] * odds[k].get(ENVELOPE, 0.0) for k in range(3))]
                break
            earlier.add(j)
            beyond = [sum(p for o, p in odd.items() if o not in earlier) for odd in odds]
            for mask in range(1, 8):
                held = [k for k in range(3) if mask >> k & 1]
                weight = math.prod(odds[k].get(j, 0.0) if k in held else beyond[k]
                                   for k in range(3))
                if weight <= 0:
                    continue
                share = weight / len(held)
                env = [0.0 if k in held else share / beyond[k] * odds[k].get(ENVELOPE, 0.0)
                       for k in range(3)]
                for k in held:
                    acc = outcomes.setdefault((j, triple[k]), [0.0, 0.0, 0.0, 0.0])
                    acc[0] += share
                    for i in range(3):
                        acc[i + 1] += env[i]
        return outcomes

    def gain(self, triple: Triple, odds_from: Advisor | None = None) -> float:
        """Expected envelope entropy removed by suggesting ``triple`` (bits, >= 0).

        ``odds_from`` weighs the answers by another advisor's odds (a what-if notepad
        that assumes more than this one knows) while the entropy stays this one's:
        what the answer would *prove*, weighted by how likely the model finds it.
        """
        outcomes = self.outcomes(triple)
        weights = outcomes if odds_from is None else odds_from.outcomes(triple)
        total = sum(acc[0] for acc in weights.values())
        if total <= 0:
            return 0.0
        before = sum(self.category_entropy)
        after = 0.0
        for key, weight in weights.items():
            acc = outcomes.get(key)
            w = weight[0] / total
            if w <= 0 or acc is None or acc[0] <= 0:
                continue
            after += w * sum(
                self._category_entropy_after(k, triple[k], acc[k + 1] / acc[0])
                for k in range(3))
        return max(0.0, before - after)

    def best_in_room(self, room: int, suspects: Sequence[int] | None = None,
                     weapons: Sequence[int] | None = None) -> tuple[float, Triple]:
        """The best (gain, triple) for a suggestion in ``room``; ties go to lower indices."""
        deck = self.notepad.table.deck
        best: tuple[float, Triple] = (-1.0, (deck[0][0], deck[1][0], room))
        for s in suspects if suspects is not None else deck[0]:
            for w in weapons if weapons is not None else deck[1]:
                g = self.gain((s, w, room))
                if g > best[0] + 1e-9:
                    best = (g, (s, w, room))
        return best

    def shortlist(self, category: int, size: int = 3) -> list[int]:
        """Cards of a category worth naming: the most uncertain about the envelope first,
        then cards I hold (they block others' answers, isolating the other two cards)."""
        me = self.notepad.me
        cat = self.notepad.table.deck[category]
        mine = [c for c in cat if any(o == me for o, _ in self.places[c])
                and len(self.places[c]) == 1]
        ranked = sorted(cat, key=lambda c: (-_entropy([self.envelope[c],
                                                        1 - self.envelope[c]]), c))
        return list(dict.fromkeys(ranked[:size] + mine[:1]))

