"""The public record of one game: what every stage reads and writes, and every peer
(observers too) holds alike.

Keys (``Y``, ``R``, ``S``), the envelope and the dealt positions, the shows and what was
opened, the hands of seats that left, the rules' game and the transcript's entries: all of
it follows from the transcript alone, so no secret is ever kept here. A stage
(``engine/stage.py``) is handed the record with each message; the peer
(``engine/peer.py``) owns it and shows it under the names its callers read
(``RecordView``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from p2pclue.crypto.group import Point, Scalar
from p2pclue.engine.chains import ChainCommitments
from p2pclue.engine.config import GameConfig
from p2pclue.rules import game as rg
from p2pclue.rules.state import GameState


@dataclass(frozen=True)
class ShowRecord:
    """A public refutation: who showed whom, and the commitment only an opening names."""

    index: int
    suggester: int
    refuter: int
    triple: tuple[int, int, int]
    commitment: Point


@dataclass(frozen=True)
class PassRecord:
    """A public ``pass``: ``refuter`` proved it holds none of ``triple``; its ``secrets``
    are checked against it at the end (``reveal_checks``)."""

    index: int
    suggester: int
    refuter: int
    triple: tuple[int, int, int]


@dataclass
class Play:
    """The game of Clue itself, from the weapons' placement to the end: the rules state
    every play stage, random event and accusation check reads and advances."""

    game_id: bytes
    state: GameState
    weapon_rooms: dict[int, int]
    """Weapon card -> the room it started in."""
    n_dice: int

    def apply(self, action: Any) -> None:
        self.state = rg.apply(self.state, action)


@dataclass
class PublicRecord:
    """Everything the transcript so far has made public, as the stages wrote it."""

    config: GameConfig
    config_digest: bytes
    chains: ChainCommitments
    owners: tuple[int | None, ...]
    """Owner seat of each dealt position (None: a public leftover)."""
    entries: list[bytes] = field(default_factory=list)
    """The transcript: every accepted frame, in order."""
    game_id: bytes | None = None
    """Fixed by the join round (the stages after it hold their own copy)."""
    Y: list[Point] = field(default_factory=list)
    R: list[Point] = field(default_factory=list)
    S: list[Point] = field(default_factory=list)
    envelope: list[Point] = field(default_factory=list)
    positions: list[Point] = field(default_factory=list)
    leftovers: tuple[int, ...] = ()
    envelope_cards: tuple[int, int, int] | None = None
    shows: list[ShowRecord] = field(default_factory=list)
    passes: list[PassRecord] = field(default_factory=list)
    opened: dict[int, int] = field(default_factory=dict)
    """Publicly opened shows (in the end-of-game ``open`` round): transcript index of the
    show -> card."""
    sealed: dict[int, Point] = field(default_factory=dict)
    """Shows settled by a ``sealed`` after a complaint: transcript index of the show -> R
    (``rho*G``; the end-of-game opening of that show must have this rho)."""
    revealed_k: dict[int, Scalar] = field(default_factory=dict)
    revealed_r: dict[int, Scalar] = field(default_factory=dict)
    left_hands: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Seats that left the table, with their hands (opened publicly by the leave)."""
    dice_log: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    play: Play | None = None
    """The game of Clue, from the weapons' placement on (None while setting up)."""

    @property
    def n(self) -> int:
        return self.config.n_players

    def hand_points(self, seat: int) -> list[Point]:
        """The dealt positions of ``seat``'s hand, as the deal left them."""
        return [self.positions[p] for p, o in enumerate(self.owners) if o == seat]


class RecordView:
    """The public record under the names a peer's callers have always read it by."""

    record: PublicRecord

    @property
    def entries(self) -> list[bytes]:
        return self.record.entries

    @property
    def game_id(self) -> bytes | None:
        return self.record.game_id

    @property
    def Y(self) -> list[Point]:
        return self.record.Y

    @property
    def R(self) -> list[Point]:
        return self.record.R

    @property
    def S(self) -> list[Point]:
        return self.record.S

    @property
    def envelope(self) -> list[Point]:
        return self.record.envelope

    @property
    def owners(self) -> tuple[int | None, ...]:
        return self.record.owners

    @property
    def positions(self) -> list[Point]:
        return self.record.positions

    @property
    def leftovers(self) -> tuple[int, ...]:
        return self.record.leftovers

    @property
    def envelope_cards(self) -> tuple[int, int, int] | None:
        return self.record.envelope_cards

    @property
    def shows(self) -> list[ShowRecord]:
        return self.record.shows

    @property
    def opened(self) -> dict[int, int]:
        return self.record.opened

    @property
    def revealed_k(self) -> dict[int, Scalar]:
        return self.record.revealed_k

    @property
    def revealed_r(self) -> dict[int, Scalar]:
        return self.record.revealed_r

    @property
    def left_hands(self) -> dict[int, tuple[int, ...]]:
        return self.record.left_hands

    @property
    def dice_log(self) -> list[tuple[int, tuple[int, ...]]]:
        return self.record.dice_log

    @property
    def rules_state(self) -> GameState | None:
        """The rules' view of the game (None before the cards are dealt)."""
        play = self.record.play
        return None if play is None else play.state

    @property
    def weapon_rooms(self) -> dict[int, int] | None:
        play = self.record.play
        return None if play is None else play.weapon_rooms
