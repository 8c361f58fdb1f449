"""Brute-force reference: enumerate every deal and test every fact on it directly.

Independent of the solver: no propagation, no counting tricks. Only the facts
that pin a card to one place are used to skip deals early (a deal violating
them fails the check anyway).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction

from p2pclue.deduce import (
    ENVELOPE,
    LEFTOVERS,
    Fact,
    Leftovers,
    OwnHand,
    Passed,
    Refuted,
    ShownByMe,
    ShownToMe,
    WrongAccusation,
)

Deal = dict[int, int]


def holds(fact: Fact, deal: Deal, me: int) -> bool:
    match fact:
        case OwnHand(cards):
            return {c for c, o in deal.items() if o == me} == set(cards)
        case Leftovers(cards):
            return {c for c, o in deal.items() if o == LEFTOVERS} == set(cards)
        case ShownToMe(refuter, card, _, _):
            return deal[card] == refuter
        case ShownByMe(_, card, _, _):
            return deal[card] == me
        case Refuted(refuter, _, triple, _):
            return any(deal[c] == refuter for c in triple)
        case Passed(seat, triple, _, _):
            return all(deal[c] != seat for c in triple)
        case WrongAccusation(_, triple, _):
            return not all(deal[c] == ENVELOPE for c in triple)
    raise AssertionError(fact)


def deals(deck: Sequence[Sequence[int]], hand_sizes: Sequence[int], n_leftovers: int,
          pinned: dict[int, int]) -> Iterator[Deal]:
    """Every deal (one card per category in the envelope, exact hand sizes)."""
    cards = [c for cat in deck for c in cat]
    cat_of = {c: k for k, cat in enumerate(deck) for c in cat}
    room = {**{p: h for p, h in enumerate(hand_sizes)}, LEFTOVERS: n_leftovers}
    env_used = [False] * len(deck)
    deal: Deal = {}

    def place(i: int) -> Iterator[Deal]:
        if i == len(cards):
            if all(env_used) and all(r == 0 for r in room.values()):
                yield dict(deal)
            return
        c = cards[i]
        options = [pinned[c]] if c in pinned else [*room, ENVELOPE]
        for o in options:
            if o == ENVELOPE:
                if env_used[cat_of[c]]:
                    continue
                env_used[cat_of[c]] = True
                deal[c] = o
                yield from place(i + 1)
                env_used[cat_of[c]] = False
            elif room[o] > 0:
                room[o] -= 1
                deal[c] = o
                yield from place(i + 1)
                room[o] += 1
        deal.pop(c, None)

    yield from place(0)


def brute(deck: Sequence[Sequence[int]], hand_sizes: Sequence[int], n_leftovers: int,
          me: int, facts: Sequence[Fact]) -> tuple[int, dict[tuple[int, int], Fraction]]:
    """(number of consistent deals, exact probability of each (card, place))."""
    pinned: dict[int, int] = {}
    for f in facts:
        if isinstance(f, ShownToMe):
            pinned[f.card] = f.refuter
        elif isinstance(f, ShownByMe):
            pinned[f.card] = me
        elif isinstance(f, OwnHand):
            pinned.update(dict.fromkeys(f.cards, me))
        elif isinstance(f, Leftovers):
            pinned.update(dict.fromkeys(f.cards, LEFTOVERS))
    owners = [*range(len(hand_sizes)), ENVELOPE, LEFTOVERS]
    hits = {(c, o): 0 for cat in deck for c in cat for o in owners}
    total = 0
    for deal in deals(deck, hand_sizes, n_leftovers, pinned):
        if all(holds(f, deal, me) for f in facts):
            total += 1
            for c, o in deal.items():
                hits[(c, o)] += 1
    probs = {k: Fraction(v, total) if total else Fraction(0) for k, v in hits.items()}
    return total, probs
