"""What a peer tells its caller, and what the caller asks of it.

Events come out of ``Peer.receive``/``Peer.act``/``Peer.on_timeout``; intents go
into ``Peer.act``. All are small frozen dataclasses. Events that carry private
knowledge (``HandDealt``, ``CardShownToMe``) are produced only by the peer that
is entitled to it, and never enter the transcript.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pclue.engine.errors import Blame
from p2pclue.rules.board import Square

# ---- events ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Accepted:
    """A frame was verified and chained at ``index``."""

    index: int
    sender: int
    type: str


@dataclass(frozen=True)
class HandDealt:
    """This peer's own hand, decrypted privately."""

    cards: tuple[int, ...]


@dataclass(frozen=True)
class LeftoversShown:
    """DEAL-EQUAL leftovers, opened publicly (R7)."""

    cards: tuple[int, ...]


@dataclass(frozen=True)
class WeaponsPlaced:
    """Weapon card index -> room card index, from shared randomness or the fixed table (R9)."""

    rooms: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class DiceRolled:
    seat: int
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Moved:
    seat: int
    path: tuple[Square, ...]
    room: int | None
    """The room entered, if the move ended in one."""


@dataclass(frozen=True)
class PassageTaken:
    seat: int
    room: int


@dataclass(frozen=True)
class TurnEnded:
    seat: int


@dataclass(frozen=True)
class Accused:
    seat: int
    triple: tuple[int, int, int]


@dataclass(frozen=True)
class Suggested:
    seat: int
    suspect: int
    weapon: int
    room: int


@dataclass(frozen=True)
class Refuted:
    """``refuter`` showed the suggester a card (which one, only the suggester learns)."""

    refuter: int
    suggester: int
    triple: tuple[int, int, int]


@dataclass(frozen=True)
class Passed:
    """``seat`` proved it holds none of ``triple``."""

    seat: int
    suggester: int
    triple: tuple[int, int, int]


@dataclass(frozen=True)
class CardShownToMe:
    refuter: int
    card: int


@dataclass(frozen=True)
class AccusationDecided:
    seat: int
    triple: tuple[int, int, int]
    correct: bool


@dataclass(frozen=True)
class GameOver:
    result: str
    """"won" or "nobody"."""
    winner: int | None
    envelope: tuple[int, int, int]


@dataclass(frozen=True)
class Finished:
    """Every secret was revealed and checked: the transcript is complete."""


@dataclass(frozen=True)
class Halted:
    blame: Blame


@dataclass(frozen=True)
class PeerSilent:
    """``seat`` owes the next message and has not sent it by ``deadline``.

    The engine blames nobody for silence; the caller decides to wait or abandon.
    """

    seat: int
    deadline: float


@dataclass(frozen=True)
class PlayerLeft:
    """``seat`` left the table; ``hand`` is its hand, opened publicly with proofs."""

    seat: int
    hand: tuple[int, ...]


@dataclass(frozen=True)
class LeaveQueued:
    """This player asked to leave; the ``leave`` goes out the next time the table awaits it
    in play (its turn or its refutation answer), never in the middle of a step it owes."""


@dataclass(frozen=True)
class VoteCounted:
    """A signed vote on what to do about silent ``silent`` was counted; the tally so far."""

    seat: int
    choice: str
    """"wait" or "abandon"."""
    silent: int
    abandon: tuple[int, ...]
    wait: tuple[int, ...]
    needed: int
    """How many abandon votes end the game (the quorum)."""


@dataclass(frozen=True)
class Abandoned:
    """The present players voted to end the game as abandoned; ``voters`` signed it.

    ``forfeit``: the silent seat was the accuser owing its own step of its accusation
    check, so its accusation counts as wrong (R27); ``result`` and ``winner`` are then what
    the rules make of that (R29/R30), ``result`` None if the game is not decided by it."""

    silent: int
    voters: tuple[int, ...]
    forfeit: bool = False
    result: str | None = None
    winner: int | None = None


Event = (
    Accepted | HandDealt | LeftoversShown | WeaponsPlaced | DiceRolled | Moved | PassageTaken
    | TurnEnded | Accused | Suggested | Refuted | Passed | CardShownToMe | AccusationDecided
    | GameOver | Finished | Halted | PeerSilent | PlayerLeft | LeaveQueued | VoteCounted
    | Abandoned
)

# ---- intents: the local player's choices -----------------------------------------------


@dataclass(frozen=True)
class RollDice:
    pass


@dataclass(frozen=True)
class TakePassage:
    pass


@dataclass(frozen=True)
class MoveAlong:
    path: tuple[Square, ...]


@dataclass(frozen=True)
class MakeSuggestion:
    suspect: int
    weapon: int


@dataclass(frozen=True)
class ShowCard:
    card: int


@dataclass(frozen=True)
class MakeAccusation:
    suspect: int
    weapon: int
    room: int


@dataclass(frozen=True)
class EndTurn:
    pass


@dataclass(frozen=True)
class Leave:
    """Leave the table for good, hand face up (sent at the next point the table awaits
    this player in play; see ``LeaveQueued``)."""


Intent = (
    RollDice | TakePassage | MoveAlong | MakeSuggestion | ShowCard | MakeAccusation | EndTurn
    | Leave
)
