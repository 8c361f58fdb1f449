"""The fixed shape of one game as a notepad sees it: cards, places, how many each holds.

Places ("owners") are the players' seats ``0..n-1`` plus two pseudo-owners,
``ENVELOPE`` and ``LEFTOVERS``. Every card has exactly one owner. The deck is a
parameter so that tests can use a reduced deck (a few cards per category) and
check the solver against brute-force enumeration of every deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2pclue.deduce.words import ENVELOPE_KIND, LEFTOVERS_KIND, MINE_KIND, THEIRS_KIND, PlaceV
from p2pclue.rules.cards import ROOMS, SUSPECTS, WEAPONS

ENVELOPE = -1
LEFTOVERS = -2

STANDARD_DECK: tuple[tuple[int, ...], ...] = (
    tuple(c.index for c in SUSPECTS),
    tuple(c.index for c in WEAPONS),
    tuple(c.index for c in ROOMS),
)


class DeductionError(Exception):
    """Base of every error the deduction package raises on purpose."""


class NotepadUsageError(DeductionError, ValueError):
    """Local misuse: a malformed table or a fact that cannot describe this game."""


@dataclass(frozen=True, slots=True)
class Table:
    """Cards per category, hand sizes and leftover count; validated on creation."""

    n_players: int
    hand_sizes: tuple[int, ...]
    n_leftovers: int
    deck: tuple[tuple[int, ...], ...]
    seat_names: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.n_players < 1:
            raise NotepadUsageError(f"need at least one player, not {self.n_players}")
        if len(self.hand_sizes) != self.n_players:
            raise NotepadUsageError(
                f"{len(self.hand_sizes)} hand sizes given for {self.n_players} players")
        if any(h < 0 for h in self.hand_sizes) or self.n_leftovers < 0:
            raise NotepadUsageError("hand sizes and the leftover count cannot be negative")
        if len(self.seat_names) != self.n_players:
            raise NotepadUsageError(
                f"{len(self.seat_names)} seat names given for {self.n_players} players")
        if not self.deck or any(not cat for cat in self.deck):
            raise NotepadUsageError("every category needs at least one card")
        flat = [c for cat in self.deck for c in cat]
        if len(set(flat)) != len(flat):
            raise NotepadUsageError("a card appears twice in the deck")
        total = sum(self.hand_sizes) + self.n_leftovers + len(self.deck)
        if total != len(flat):
            raise NotepadUsageError(
                f"hands ({sum(self.hand_sizes)}) + leftovers ({self.n_leftovers}) + "
                f"envelope ({len(self.deck)}) = {total}, but the deck has {len(flat)} cards")

    @staticmethod
    def make(n_players: int, hand_sizes: Sequence[int], n_leftovers: int,
             deck: Sequence[Sequence[int]] = STANDARD_DECK,
             seat_names: Sequence[str] | None = None) -> Table:
        names = tuple(seat_names) if seat_names is not None else tuple(
            f"player {s + 1}" for s in range(n_players))
        return Table(n_players, tuple(hand_sizes), n_leftovers,
                     tuple(tuple(cat) for cat in deck), names)

    @property
    def cards(self) -> tuple[int, ...]:
        return tuple(c for cat in self.deck for c in cat)

    @property
    def owners(self) -> tuple[int, ...]:
        """Every place a card can be: seats, then the envelope, then the leftovers."""
        return (*range(self.n_players), ENVELOPE, LEFTOVERS)

    def category_of(self, card: int) -> int:
        for k, cat in enumerate(self.deck):
            if card in cat:
                return k
        raise NotepadUsageError(f"card {card} is not in this game's deck")

    def capacity(self, owner: int) -> int:
        """How many cards ``owner`` holds (the envelope: one per category)."""
        if owner == ENVELOPE:
            return len(self.deck)
        if owner == LEFTOVERS:
            return self.n_leftovers
        return self.hand_sizes[owner]

    def place(self, owner: int, me: int, category: int | None = None) -> PlaceV:
        """Where a card lies, for a sentence (``category``: one slot of the envelope)."""
        if owner == ENVELOPE:
            return PlaceV(ENVELOPE_KIND, category=category)
        if owner == LEFTOVERS:
            return PlaceV(LEFTOVERS_KIND)
        return PlaceV(MINE_KIND) if owner == me else PlaceV(THEIRS_KIND, self.seat_names[owner])

    def check_owner(self, owner: int) -> None:
        if not isinstance(owner, int) or not (
                owner in (ENVELOPE, LEFTOVERS) or 0 <= owner < self.n_players):
            raise NotepadUsageError(f"no such place: {owner!r}")

    def check_seat(self, seat: int, what: str) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not (
                0 <= seat < self.n_players):
            raise NotepadUsageError(f"{what} {seat!r} is not a seat (0-{self.n_players - 1})")
