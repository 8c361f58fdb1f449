"""Hand-built positions whose forced conclusions are known, with their explanations."""

from __future__ import annotations

from fractions import Fraction

import pytest

from p2pclue.deduce import (
    ENVELOPE,
    LEFTOVERS,
    ContradictionError,
    Fact,
    Leftovers,
    Mark,
    Notepad,
    NotepadUsageError,
    OwnHand,
    Passed,
    Refuted,
    ShownToMe,
    WrongAccusation,
)
from p2pclue.rules.cards import find_card


def c(name: str) -> int:
    return find_card(name).index


SCARLETT, MUSTARD, WHITE, GREEN, PEACOCK, PLUM = range(6)
CANDLE, DAGGER, PIPE, REVOLVER, ROPE, WRENCH = range(6, 12)
KITCHEN, BALLROOM, CONSERVATORY, DINING, BILLIARD, LIBRARY, LOUNGE, HALL, STUDY = range(12, 21)
NAMES = ("Scarlett", "Mustard", "Plum")


def three_players() -> Notepad:
    """Me (seat 0) holding six cards; seats 1 and 2 hold six each."""
    hand = (SCARLETT, MUSTARD, CANDLE, DAGGER, KITCHEN, BALLROOM)
    return Notepad(0, 3, (6, 6, 6), 0, seat_names=NAMES).add(OwnHand(hand))


def test_R21_a_pass_rules_out_all_three_cards() -> None:
    pad = three_players().add(Passed(2, (PLUM, ROPE, HALL), turn=4, suggester=1))
    for card in (PLUM, ROPE, HALL):
        assert pad.cell(card, 2) is Mark.NO
    assert pad.explain(ROPE, 2) == (
        "Rope is not in Plum's hand: Plum passed on turn 4 "
        "(Professor Plum, Rope, Hall).")


def test_R21_a_shown_card_is_placed_and_nowhere_else() -> None:
    pad = three_players().add(ShownToMe(1, ROPE, turn=2, triple=(PLUM, ROPE, HALL)))
    assert pad.cell(ROPE, 1) is Mark.YES
    assert pad.cell(ROPE, 2) is Mark.NO
    assert pad.cell(ROPE, ENVELOPE) is Mark.NO
    assert "Mustard showed you Rope on turn 2" in pad.explain(ROPE, 1)
    assert "Rope is in Mustard's hand" in pad.explain(ROPE, ENVELOPE)


def test_R21_refutation_with_two_cards_ruled_out_names_the_third() -> None:
    pad = three_players().add(Refuted(2, 1, (SCARLETT, ROPE, HALL), turn=5)).add(
        Passed(2, (PLUM, PIPE, HALL), turn=3))
    assert pad.cell(ROPE, 2) is Mark.YES
    text = pad.explain(ROPE, 2)
    assert text.startswith("Rope is in Plum's hand: Plum refuted Mustard on turn 5 "
                           "(Miss Scarlett, Rope, Hall), and the other cards are ruled out.")
    assert "Hall is not in Plum's hand: Plum passed on turn 3" in text
    assert "Miss Scarlett is not in Plum's hand" in text


def test_R5_own_hand_rules_out_every_other_place() -> None:
    pad = three_players()
    assert pad.cell(SCARLETT, 0) is Mark.YES
    assert pad.cell(SCARLETT, 1) is Mark.NO and pad.cell(SCARLETT, ENVELOPE) is Mark.NO
    assert pad.cell(PLUM, 0) is Mark.NO
    assert pad.envelope_probabilities()[SCARLETT] == 0.0


def test_R6_envelope_holds_the_last_candidate_of_a_category() -> None:
    pad = three_players()
    for turn, suspect in enumerate((WHITE, GREEN, PEACOCK), start=1):
        pad = pad.add(ShownToMe(1 + turn % 2, suspect, turn=turn))
    assert pad.cell(PLUM, ENVELOPE) is Mark.YES
    assert pad.probability(PLUM, ENVELOPE) == 1
    text = pad.explain(PLUM, ENVELOPE)
    assert text.startswith("Professor Plum is in the envelope: it is the only suspect still "
                           "possible for the envelope.")
    assert "Reverend Green is in Mustard's hand: Mustard showed you Reverend Green on turn 2" \
        in text
    assert pad.solution() is None


def test_R7_hand_size_full_hand_rules_out_the_rest() -> None:
    pad = Notepad(0, 6, (3,) * 6, 0).add(OwnHand((SCARLETT, CANDLE, KITCHEN)))
    for turn, card in enumerate((MUSTARD, DAGGER, BALLROOM), start=1):
        pad = pad.add(ShownToMe(1, card, turn=turn))
    assert pad.cell(PLUM, 1) is Mark.NO
    assert "all 3 cards of player 2's hand are known" in pad.explain(PLUM, 1)


def test_R7_hand_size_only_possible_cards_are_held() -> None:
    # Seat 2 (hand of 3) has passed on everything but three cards: it holds those.
    pad = Notepad(0, 6, (3,) * 6, 0).add(OwnHand((SCARLETT, CANDLE, KITCHEN)))
    suspects, weapons = (MUSTARD, WHITE, GREEN, PEACOCK, PLUM), (DAGGER, PIPE, REVOLVER, ROPE)
    rooms = (BALLROOM, CONSERVATORY, DINING, BILLIARD, LIBRARY, LOUNGE, HALL, STUDY)
    held = (PLUM, WRENCH, STUDY)
    free = [x for x in suspects + weapons + rooms if x not in held]
    s = [x for x in free if x in suspects]
    w = [x for x in free if x in weapons]
    r = [x for x in free if x in rooms]
    for i, room in enumerate(r):
        pad = pad.add(Passed(2, (s[i % len(s)], w[i % len(w)], room), turn=i + 1))
    assert pad.holdings(2) == {PLUM, WRENCH, STUDY}
    assert "remain possible" in pad.explain(PLUM, 2)


def test_R7_hand_size_counting_beyond_propagation() -> None:
    # Seat 1 holds 2 cards and refuted two disjoint triples: one card from each,
    # so it holds nothing else. Only complete reasoning sees it.
    pad = Notepad(0, 4, (5, 2, 5, 6), 0, seat_names=("me", "Ann", "Bob", "Cy"))
    pad = pad.add(Refuted(1, 0, (MUSTARD, ROPE, HALL), turn=1))
    pad = pad.add(Refuted(1, 2, (WHITE, PIPE, STUDY), turn=2))
    assert pad.cell(PLUM, 1) is Mark.NO
    assert pad.propagation_reason(PLUM, 1) is None
    text = pad.explain(PLUM, 1)
    assert "Ann refuted you on turn 1 (Colonel Mustard, Rope, Hall)" in text
    assert "Ann refuted Bob on turn 2 (Mrs White, Lead Pipe, Study)" in text
    assert pad.forced_by(PLUM, 1) == pad.facts


def test_R27_failed_accusation_excludes_the_last_card() -> None:
    pad = three_players()
    for turn, card in enumerate((WHITE, GREEN, PEACOCK, MUSTARD), start=1):
        if card != MUSTARD:
            pad = pad.add(ShownToMe(1, card, turn=turn))
    for turn, card in enumerate((PIPE, REVOLVER, ROPE), start=5):
        pad = pad.add(ShownToMe(2, card, turn=turn))
    # Plum is the suspect and Wrench the weapon; a wrong accusation of them in
    # the Hall leaves the Hall out of the envelope.
    assert pad.cell(PLUM, ENVELOPE) is Mark.YES and pad.cell(WRENCH, ENVELOPE) is Mark.YES
    pad = pad.add(WrongAccusation(1, (PLUM, WRENCH, HALL), turn=9))
    assert pad.cell(HALL, ENVELOPE) is Mark.NO
    assert "Mustard accused wrongly on turn 9" in pad.explain(HALL, ENVELOPE)


def test_R27_failed_accusation_in_counting() -> None:
    pad = Notepad(0, 3, (6, 6, 6), 0).add(OwnHand((0, 1, 2, 6, 7, 8)))
    before = pad.probability(3, ENVELOPE)
    after = pad.add(WrongAccusation(1, (3, 9, 12))).probability(3, ENVELOPE)
    assert after < before


def test_R7_leftovers_are_public_and_fill_no_hand() -> None:
    pad = Notepad(0, 4, (4, 4, 4, 4), 2).add(Leftovers((PLUM, STUDY)))
    assert pad.cell(PLUM, LEFTOVERS) is Mark.YES
    assert pad.cell(PLUM, ENVELOPE) is Mark.NO
    assert pad.cell(ROPE, LEFTOVERS) is Mark.NO
    assert "shown to all" in pad.explain(PLUM, LEFTOVERS)


def test_solution_when_certain() -> None:
    pad = Notepad(0, 3, (6, 6, 6), 0)
    pad = pad.add(OwnHand((SCARLETT, MUSTARD, CANDLE, DAGGER, KITCHEN, BALLROOM)))
    shown = [WHITE, GREEN, PEACOCK, PIPE, REVOLVER, ROPE,
             CONSERVATORY, DINING, BILLIARD, LIBRARY, LOUNGE, HALL]
    for turn, card in enumerate(shown, start=1):
        assert pad.solution() is None
        pad = pad.add(ShownToMe(1 + turn % 2, card, turn=turn))
    assert pad.solution() == (PLUM, WRENCH, STUDY)
    assert pad.deal_count == 1


def test_probabilities_are_exact_and_sum_to_one_per_category() -> None:
    pad = three_players().add(Refuted(1, 2, (PLUM, ROPE, HALL)))
    odds = pad.envelope_odds()
    for category in pad.table.deck:
        assert sum(odds[x] for x in category) == 1
    # Before anything else: 4 unseen suspects, uniform by symmetry.
    assert three_players().probability(PLUM, ENVELOPE) == Fraction(1, 4)


def test_unknown_cell_explanation_gives_the_odds() -> None:
    pad = three_players()
    assert pad.cell(PLUM, 1) is Mark.UNKNOWN
    assert "consistent deals" in pad.explain(PLUM, 1)


def test_contradiction_is_flagged_with_the_clashing_facts() -> None:
    pad = three_players().add(Passed(1, (PLUM, ROPE, HALL), turn=3))
    bad = pad.add(ShownToMe(1, ROPE, turn=7))
    assert bad.contradiction is not None
    assert len(bad.contradiction.facts) == 2
    assert "Mustard passed on turn 3" in str(bad.contradiction)
    with pytest.raises(ContradictionError):
        bad.cell(ROPE, 1)
    assert pad.contradiction is None


def test_contradiction_found_only_by_counting() -> None:
    # Seat 1 holds one card yet refuted two disjoint triples.
    pad = Notepad(0, 4, (5, 1, 6, 6), 0)
    pad = pad.add(Refuted(1, 0, (MUSTARD, ROPE, HALL))).add(Refuted(1, 2, (WHITE, PIPE, STUDY)))
    assert pad.contradiction is not None
    assert len(pad.contradiction.facts) == 2


@pytest.mark.parametrize("fact", [
    Passed(7, (PLUM, ROPE, HALL)),
    Passed(1, (ROPE, PLUM, HALL)),
    ShownToMe(0, ROPE),
    ShownToMe(1, ROPE, triple=(PLUM, PIPE, HALL)),
    Refuted(1, 1, (PLUM, ROPE, HALL)),
    OwnHand((PLUM, ROPE)),
    OwnHand((PLUM,) * 6),
    Leftovers((PLUM,)),
    ShownToMe(1, 99),
])
def test_malformed_facts_are_usage_errors(fact: object) -> None:
    with pytest.raises(NotepadUsageError):
        three_players().add(fact)  # type: ignore[arg-type]


def test_bad_table_is_a_usage_error() -> None:
    with pytest.raises(NotepadUsageError, match="deck has 21 cards"):
        Notepad(0, 3, (6, 6, 5), 0)
    with pytest.raises(NotepadUsageError):
        Notepad(3, 3, (6, 6, 6), 0)
    with pytest.raises(NotepadUsageError):
        three_players().cell(PLUM, 5)


def test_notepad_is_immutable() -> None:
    pad = three_players()
    pad.add(ShownToMe(1, ROPE))
    assert pad.cell(ROPE, 1) is Mark.UNKNOWN


def test_bounded_search_keeps_what_propagation_proves() -> None:
    from p2pclue.deduce import IncompleteDeductionError

    facts: list[Fact] = [
        OwnHand((SCARLETT, MUSTARD, CANDLE, DAGGER, KITCHEN, BALLROOM)),
        Passed(2, (PLUM, ROPE, HALL), turn=1), Refuted(1, 2, (WHITE, PIPE, STUDY), turn=2)]
    pad = Notepad(0, 3, (6, 6, 6), 0, facts=facts, max_states=2)
    assert not pad.complete
    assert pad.cell(ROPE, 2) is Mark.NO
    assert pad.cell(WHITE, 1) is Mark.UNKNOWN
    with pytest.raises(IncompleteDeductionError):
        pad.probability(WHITE, 1)
    exact = Notepad(0, 3, (6, 6, 6), 0, facts=facts)
    assert exact.complete and exact.probability(WHITE, 1) > 0
