"""The solver against brute force: every deal of a small instance, every fact checked.

Positions are generated from a hidden true deal (so most facts are consistent),
sometimes with a random fact that may be false (to exercise contradictions).
Forced cells and exact probabilities must match the enumeration exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pclue.deduce import (
    ENVELOPE,
    LEFTOVERS,
    Fact,
    Leftovers,
    Mark,
    Notepad,
    OwnHand,
    Passed,
    Refuted,
    ShownByMe,
    ShownToMe,
    WrongAccusation,
)
from tests.deduce.brute import brute
from tests.profiles import examples

SMALL_DECK = ((0, 1, 2), (6, 7, 8), (12, 13, 14, 15))
SHAPES = (((2, 2, 2), 1), ((3, 3), 1), ((2, 2, 3), 0), ((4, 3), 0), ((2, 2), 3))


def random_position(rng: random.Random, deck: Sequence[Sequence[int]], sizes: Sequence[int],
                    n_left: int, *, pin_down_to: int | None = None) -> tuple[int, list[Fact]]:
    """A seat and facts drawn from a hidden true deal; with ``pin_down_to``, cards are
    shown to me until at most that many have no known place (keeps brute force small)."""
    n = len(sizes)
    cards = [c for cat in deck for c in cat]
    envelope = [rng.choice(cat) for cat in deck]
    rest = [c for c in cards if c not in envelope]
    rng.shuffle(rest)
    deal = dict.fromkeys(envelope, ENVELOPE)
    hands, i = [], 0
    for seat, size in enumerate(sizes):
        hands.append(tuple(rest[i:i + size]))
        deal.update(dict.fromkeys(rest[i:i + size], seat))
        i += size
    deal.update(dict.fromkeys(rest[i:], LEFTOVERS))
    me = rng.randrange(n)
    facts: list[Fact] = []
    if rng.random() < 0.6 or pin_down_to is not None:
        facts.append(OwnHand(hands[me]))
    if pin_down_to is not None:
        hidden = [c for c in cards if deal[c] not in (me, ENVELOPE)]
        rng.shuffle(hidden)
        while len(hidden) + len(deck) > pin_down_to:
            card = hidden.pop()
            facts.append(ShownToMe(deal[card], card))
    if n_left and rng.random() < 0.5:
        facts.append(Leftovers(tuple(rest[i:])))
    for turn in range(rng.randrange(7)):
        triple = (rng.choice(deck[0]), rng.choice(deck[1]), rng.choice(deck[2]))
        suggester = rng.randrange(n)
        for k in range(1, n):
            seat = (suggester + k) % n
            held = [c for c in triple if deal[c] == seat]
            if not held:
                facts.append(Passed(seat, triple, turn, suggester))
                continue
            if suggester == me:
                facts.append(ShownToMe(seat, rng.choice(held), turn, triple))
            elif seat == me:
                facts.append(ShownByMe(suggester, rng.choice(held), turn, triple))
            else:
                facts.append(Refuted(seat, suggester, triple, turn))
            break
        if rng.random() < 0.25 and not all(deal[c] == ENVELOPE for c in triple):
            facts.append(WrongAccusation(suggester, triple, turn))
    if rng.random() < 0.15:  # maybe false
        seat = rng.randrange(n)
        facts.append(Passed(seat, (rng.choice(deck[0]), rng.choice(deck[1]), rng.choice(deck[2]))))
    if rng.random() < 0.1:
        other = (me + 1) % n
        facts.append(ShownToMe(other, rng.choice(cards)) if other != me else Passed(me, (
            deck[0][0], deck[1][0], deck[2][0])))
    return me, facts


def check_against_brute(deck: Sequence[Sequence[int]], sizes: Sequence[int], n_left: int,
                        me: int, facts: list[Fact]) -> None:
    pad = Notepad(me, len(sizes), sizes, n_left, deck=deck, facts=facts)
    total, odds = brute(deck, sizes, n_left, me, facts)
    if total == 0:
        assert pad.contradiction is not None
        return
    assert pad.contradiction is None
    assert pad.deal_count == total
    for (card, owner), p in odds.items():
        assert pad.probability(card, owner) == p, (card, owner)
        expected = Mark.YES if p == 1 else Mark.NO if p == 0 else Mark.UNKNOWN
        assert pad.cell(card, owner) is expected, (card, owner)


@settings(max_examples=examples(80))
@given(st.integers(0, 2**32 - 1), st.sampled_from(SHAPES))
def test_small_deck_matches_enumeration(seed: int, shape: tuple[tuple[int, ...], int]) -> None:
    sizes, n_left = shape
    me, facts = random_position(random.Random(seed), SMALL_DECK, sizes, n_left)
    check_against_brute(SMALL_DECK, sizes, n_left, me, facts)


@settings(max_examples=examples(12))
@given(st.integers(0, 2**32 - 1))
def test_full_deck_with_most_cards_placed_matches_enumeration(seed: int) -> None:
    """All 21 cards, 4 players; shown cards pin all but seven so brute force stays small."""
    deck = ((0, 1, 2, 3, 4, 5), (6, 7, 8, 9, 10, 11), tuple(range(12, 21)))
    sizes = (5, 5, 4, 4)
    me, facts = random_position(random.Random(seed), deck, sizes, 0, pin_down_to=7)
    check_against_brute(deck, sizes, 0, me, facts)
