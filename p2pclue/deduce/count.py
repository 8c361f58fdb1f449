"""Exact counting of the deals consistent with what propagation left open.

Cards whose place is known are already out of the picture; the rest are
placed one at a time by a dynamic programme whose state is (room left in each
hand, in the leftovers and in each envelope category, and which open clauses
are satisfied so far). Each state is one integer: a field per place holding
its remaining room under a guard bit (taking a card from an empty place clears
the guard), then one bit per open clause. Cards are ordered so that clauses
close soon after they open, and a clause's bit is checked and dropped when its
last card is placed, which keeps the state count small. A forward pass counts
partial deals; a backward pass counts completions and, multiplied together,
gives for every (card, place) the exact number of consistent deals putting the
card there. Nothing is sampled.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pclue.deduce.propagate import NO, YES, Cell, Clause, Grid
from p2pclue.deduce.table import ENVELOPE

_Move = tuple[int, int, int, int]  # (owner, decrement, guard bit, clause bits to set)
_Prune = tuple[int, int, int]  # (shift, field mask, most room the place may still have)


class SearchTooLarge(Exception):
    """The state budget ran out before the count finished (only with a budget set)."""


@dataclass(frozen=True, slots=True)
class Counts:
    """How many consistent deals there are, and how many put each open card in each place."""

    total: int
    per_cell: dict[Cell, int]


@dataclass(frozen=True, slots=True)
class _Plan:
    cards: tuple[int, ...]
    moves: tuple[tuple[_Move, ...], ...]
    closes: tuple[int, ...]
    prunes: tuple[tuple[_Prune, ...], ...]
    start: int
    final: int


def _order(cards: list[int], clauses: list[tuple[tuple[int, ...], frozenset[int]]]) -> list[int]:
    """Clause cards first, each next card chosen to keep the fewest clauses half-placed."""
    involved = [c for c in cards if any(c in cl for cl, _ in clauses)]
    free = [c for c in cards if c not in involved]
    placed: set[int] = set()
    order: list[int] = []
    while len(order) < len(involved):
        def cost(c: int) -> tuple[int, int]:
            now = placed | {c}
            open_ = sum(1 for cl, _ in clauses
                        if any(d in now for d in cl) and not all(d in now for d in cl))
            return open_, -sum(1 for cl, _ in clauses if c in cl)
        best = min((c for c in involved if c not in placed), key=cost)
        placed.add(best)
        order.append(best)
    return order + free


def _essential(clauses: list[tuple[tuple[int, ...], frozenset[int]]],
               ) -> list[tuple[tuple[int, ...], frozenset[int]]]:
    """Drop clauses implied by another (fewer cards, fewer owners) and duplicates."""
    kept: list[tuple[tuple[int, ...], frozenset[int]]] = []
    for i, (cards, owners) in enumerate(clauses):
        implied = any(
            set(c2) <= set(cards) and o2 <= owners and (
                (set(c2), o2) != (set(cards), owners) or j < i)
            for j, (c2, o2) in enumerate(clauses) if j != i)
        if not implied:
            kept.append((cards, owners))
    return kept


def _plan(grid: Grid, clauses: list[Clause]) -> _Plan:
    table = grid.table
    open_cards = [c for c in table.cards
                  if not any(grid.mark(c, o) == YES for o in table.owners)]
    # Places with room left: seats, leftovers, and one envelope slot per category.
    slots: list[tuple[int, int]] = []  # (owner, category or -1)
    room: list[int] = []
    for o in table.owners:
        if o == ENVELOPE:
            for k, cat in enumerate(table.deck):
                slots.append((o, k))
                room.append(1 - sum(1 for c in cat if grid.mark(c, o) == YES))
        else:
            slots.append((o, -1))
            room.append(table.capacity(o) - sum(1 for c in table.cards if grid.mark(c, o) == YES))
    width = max([*room, 1]).bit_length() + 1
    guard_in_field = 1 << (width - 1)
    live = _essential([(tuple(c for c in cl.cards if c in open_cards), cl.owners)
                       for cl in clauses])
    order = _order(open_cards, live)

    def allowed(c: int) -> list[int]:
        k = table.category_of(c)
        return [s for s, (o, cat) in enumerate(slots)
                if grid.mark(c, o) != NO and (cat == -1 or cat == k)]

    clause_base = len(slots) * width
    last_of = [max(order.index(c) for c in cl) for cl, _ in live]
    moves, closes, prunes = [], [], []
    remaining = [sum(1 for c in order if s in allowed(c)) for s in range(len(slots))]
    for i, c in enumerate(order):
        row = []
        for s in allowed(c):
            owner = slots[s][0]
            bits = 0
            for j, (cl, owners) in enumerate(live):
                if c in cl and owner in owners:
                    bits |= 1 << (clause_base + j)
            row.append((owner, 1 << (s * width), guard_in_field << (s * width), bits))
            remaining[s] -= 1
        moves.append(tuple(row))
        closes.append(sum(1 << (clause_base + j) for j, last in enumerate(last_of) if last == i))
        prunes.append(tuple((s * width, guard_in_field - 1, remaining[s])
                            for s in range(len(slots)) if remaining[s] < room[s]))
    start = sum((guard_in_field | max(r, 0)) << (s * width) for s, r in enumerate(room))
    if any(r < 0 for r in room):
        start = -1  # over-full place: propagation should have caught it; count nothing
    final = sum(guard_in_field << (s * width) for s in range(len(slots)))
    return _Plan(tuple(order), tuple(moves), tuple(closes), tuple(prunes), start, final)


def _step(layer: dict[int, int], moves: tuple[_Move, ...], close: int,
          prune: tuple[_Prune, ...]) -> dict[int, int]:
    """Place one card in every allowed way from every partial deal of ``layer``."""
    nxt: dict[int, int] = {}
    get = nxt.get
    if not close and not prune:  # the common case, kept tight
        for key, n in layer.items():
            for _, dec, guard, bits in moves:
                new = key - dec
                if new & guard:
                    new |= bits
                    nxt[new] = get(new, 0) + n
        return nxt
    for key, n in layer.items():
        for _, dec, guard, bits in moves:
            new = key - dec
            if not new & guard:
                continue
            new |= bits
            if new & close != close:
                continue
            new ^= close
            for shift, mask, most in prune:
                if (new >> shift) & mask > most:
                    break
            else:
                nxt[new] = get(new, 0) + n
    return nxt


def _forward(plan: _Plan, budget: int | None) -> list[dict[int, int]]:
    layer: dict[int, int] = {plan.start: 1} if plan.start >= 0 else {}
    layers = [layer]
    for moves, close, prune in zip(plan.moves, plan.closes, plan.prunes, strict=True):
        layer = _step(layer, moves, close, prune)
        if budget is not None and len(layer) > budget:
            raise SearchTooLarge(f"more than {budget} partial deals to track")
        layers.append(layer)
    return layers


def count_consistent(grid: Grid, clauses: list[Clause], budget: int | None = None) -> int:
    """Only the number of consistent deals (no per-cell counts): a consistency test."""
    plan = _plan(grid, clauses)
    return _forward(plan, budget)[-1].get(plan.final, 0)


def count_deals(grid: Grid, clauses: list[Clause], budget: int | None = None) -> Counts:
    """Exact total and per-(card, place) deal counts for the cards left open.

    ``budget`` caps the partial deals tracked per step; past it ``SearchTooLarge``.
    """
    plan = _plan(grid, clauses)
    layers = _forward(plan, budget)
    total = layers[-1].get(plan.final, 0)
    per_cell: dict[Cell, int] = {}
    if not total:
        return Counts(0, per_cell)
    after: dict[int, int] = {plan.final: 1}
    for i in range(len(plan.cards) - 1, -1, -1):
        after, tally = _step_back(layers[i], after, plan.moves[i], plan.closes[i])
        for (owner, *_), t in zip(plan.moves[i], tally, strict=True):
            per_cell[(plan.cards[i], owner)] = t
    return Counts(total, per_cell)


def _step_back(layer: dict[int, int], after: dict[int, int], moves: tuple[_Move, ...],
               close: int) -> tuple[dict[int, int], list[int]]:
    """Completions from each partial deal of ``layer``, and per move the deals using it."""
    here: dict[int, int] = {}
    tally = [0] * len(moves)
    get = after.get
    indexed = tuple(enumerate(moves))
    for key, n in layer.items():
        ways = 0
        for j, (_, dec, guard, bits) in indexed:
            new = key - dec
            if not new & guard:
                continue
            new |= bits
            if close:
                if new & close != close:
                    continue
                new ^= close
            rest = get(new)
            if rest:
                ways += rest
                tally[j] += n * rest
        if ways:
            here[key] = ways
    return here, tally
