"""Advisor.outcomes (walked by refuter) equals the sum over every owner combination,
and a model-weighted gain reads the answers' odds from the what-if notepad."""

from __future__ import annotations

from itertools import product

import pytest

from p2pclue.deduce import ENVELOPE, Lacks, Notepad, NotepadUsageError, OwnHand, Passed, Refuted
from p2pclue.deduce.advice import Advisor, refuter_order

HAND = (0, 6, 12, 1, 7, 13)


def brute_outcomes(advisor: Advisor, triple: tuple[int, int, int]
                   ) -> dict[tuple[int, int], list[float]]:
    out: dict[tuple[int, int], list[float]] = {}
    order = refuter_order(advisor.notepad.me, advisor.notepad.table.n_players)
    for combo in product(*(advisor.places[c] for c in triple)):
        p = combo[0][1] * combo[1][1] * combo[2][1]
        owners = [o for o, _ in combo]
        refuter = next((j for j in order if j in owners), None)
        shown = [-1] if refuter is None else [
            c for c, o in zip(triple, owners, strict=True) if o == refuter]
        for card in shown:
            acc = out.setdefault((-1 if refuter is None else refuter, card), [0.0] * 4)
            acc[0] += p / len(shown)
            for k in range(3):
                if owners[k] == ENVELOPE:
                    acc[k + 1] += p / len(shown)
    return out


@pytest.mark.parametrize(("n", "sizes"), [(3, (6, 6, 6)), (4, (5, 5, 4, 4))])
def test_outcomes_match_every_owner_combination(n: int, sizes: tuple[int, ...]) -> None:
    hand = HAND[:sizes[0]]
    notepad = Notepad(0, n, sizes, 0, facts=[
        OwnHand(hand), Passed(1, (2, 8, 14), 1, 2), Refuted(2, 1, (3, 9, 15), 2)])
    advisor = Advisor(notepad)
    for triple in [(2, 8, 14), (3, 9, 15), (0, 8, 16), (4, 10, 20), (0, 6, 12)]:
        fast, slow = advisor.outcomes(triple), brute_outcomes(advisor, triple)
        assert set(slow) == {k for k, v in fast.items() if v[0] > 0}
        for key, values in slow.items():
            assert fast[key] == pytest.approx(values, abs=1e-12)


def test_model_weighted_gain_uses_the_what_if_odds() -> None:
    known = Notepad(0, 3, (6, 6, 6), 0, facts=[OwnHand(HAND)])
    what_if = known.extend([Lacks(1, (2, 3)), Lacks(2, (2, 4))])
    plain, model = Advisor(known), Advisor(what_if)
    assert what_if.cell(2, 1).name == "NO" and known.cell(2, 1).name == "UNKNOWN"
    assert what_if.cell(2, ENVELOPE).name == "YES"  # assumed: White is with nobody else
    triple = (2, 8, 14)
    # unrefuted White becomes likely, so asking about it is worth more to the model
    assert plain.gain(triple, model) != pytest.approx(plain.gain(triple))
    assert plain.gain(triple, model) >= 0.0


def test_lacks_is_checked_like_any_fact() -> None:
    known = Notepad(0, 3, (6, 6, 6), 0, facts=[OwnHand(HAND)])
    with pytest.raises(NotepadUsageError):
        known.add(Lacks(3, (2,)))
    with pytest.raises(NotepadUsageError):
        known.add(Lacks(1, (2, 2)))
    clash = known.add(Lacks(1, (2, 3, 4, 5))).add(Lacks(2, (2, 3, 4, 5)))
    assert clash.contradiction is not None
