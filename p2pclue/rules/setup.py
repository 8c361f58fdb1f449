"""Set-up helpers (R6-R10): hand sizes, dealing a shuffled order, fixed weapons, first seat.

Dealing convention (so that every peer computes the same hands from one
shuffled order): cards are dealt one at a time clockwise starting at seat 0;
under DEAL-ALL the first ``18 % n`` seats get one card more, under DEAL-EQUAL
the last ``18 % n`` cards of the order are the leftovers shown to everyone.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pclue.rules.cards import CARDS, SUSPECTS
from p2pclue.rules.errors import SetupError
from p2pclue.rules.variants import Rules

DEALT = 18
"""Cards left to deal once the envelope holds one of each group (R6, R7)."""

FIXED_WEAPON_ROOMS: dict[int, int] = {
    7: 13,  # Dagger -> Ballroom
    8: 14,  # Lead Pipe -> Conservatory
    9: 20,  # Revolver -> Study
    10: 18,  # Rope -> Lounge
    6: 15,  # Candlestick -> Dining Room
    11: 12,  # Wrench -> Kitchen
}
"""R9 WEAPONS-FIXED (text C)."""


def check_players(n_players: int) -> None:
    if not isinstance(n_players, int) or not 3 <= n_players <= 6:
        raise SetupError("R1", f"Clue is for 3 to 6 players, not {n_players!r}")


def deal_sizes(rules: Rules, n_players: int) -> tuple[tuple[int, ...], int]:
    """Hand size per seat and the number of leftover cards (R7)."""
    check_players(n_players)
    base, extra = divmod(DEALT, n_players)
    if rules.deal_equal:
        return (base,) * n_players, extra
    return tuple(base + (1 if seat < extra else 0) for seat in range(n_players)), 0


def deal(
    rules: Rules, n_players: int, order: Sequence[int]
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Hands and leftovers from the shuffled order of the 18 non-envelope cards."""
    if len(order) != DEALT or len(set(order)) != DEALT or not all(
        isinstance(c, int) and 0 <= c < len(CARDS) for c in order
    ):
        raise SetupError("R7", f"the deal needs {DEALT} distinct card indices")
    sizes, n_left = deal_sizes(rules, n_players)
    dealt = list(order[: DEALT - n_left])
    hands = tuple(tuple(dealt[seat::n_players]) for seat in range(n_players))
    assert tuple(len(h) for h in hands) == sizes
    return hands, tuple(order[DEALT - n_left:])


def first_seat(rules: Rules, seats: Sequence[int]) -> int:
    """R10: the seat playing Miss Scarlett (or Mrs White); if nobody plays that
    suspect, the seat playing the next suspect in card order (cyclically)."""
    lead = 2 if rules.first_white else 0
    for offset in range(len(SUSPECTS)):
        suspect = (lead + offset) % len(SUSPECTS)
        if suspect in seats:
            return list(seats).index(suspect)
    raise SetupError("R10", "no seat plays a suspect")
