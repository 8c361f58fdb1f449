"""What the stage modules share: the stages, the seat rounds, what a stage asks of its peer.

A peer (``engine/peer.py``) is always in exactly one stage, held as one stage object
(a ``StageState``): the stage's own state, with fields that exist because the stage
has begun (no "not yet" values to narrow), and the stage's answers to the questions
the peer asks of every stage: who owes the next message, which message types fit
now, and what the local player sends without a decision. The stage modules are
``deal`` (join to unlayer), ``reveals`` (random events), ``turn`` (play),
``accusation``, ``ending`` (open and secrets) and ``leave`` (leaving the table).
Handlers verify before they change anything. Each is handed a ``Host`` (the peer): the
public record of the game (``engine/record.py``), shared by every stage, and the few
things only the peer does (verify with blame, report an event, move to another stage).

The stage modules import each other one way only, in the order of the game: ``deal``
imports ``turn``, ``turn`` imports ``accusation`` and ``leave``, both import ``ending``;
``deal`` and ``turn`` import ``reveals``. None imports the peer or a stage before it: a
stage that goes back to play asks its host (``Host.resume_play``), and only the peer,
above every stage, picks the play stage.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Container
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.crypto import proofs as P
from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.rand import ScalarSource
from p2pclue.engine.errors import LocalProtocolError
from p2pclue.engine.events import Event, Intent
from p2pclue.engine.peer_secrets import SeatSecrets
from p2pclue.engine.record import PublicRecord, ShowRecord
from p2pclue.rules.errors import N_
from p2pclue.rules.state import Suggestion

Fields = dict[str, Any]
"""A message body as ``messages.decode_body`` reads it (points and proofs decoded)."""
Body = dict[str, Any]
"""A message body as this peer builds it, before it is signed."""
Message = tuple[str, Body]


class Status(enum.Enum):
    RUNNING = "running"
    COMPLETE = "complete"
    HALTED = "halted"
    ABANDONED = "abandoned"


class Stage(enum.Enum):
    JOIN = "join"
    KEYS = "keys"
    ENVELOPE = "envelope"
    DEAL = "deal"
    UNLAYER = "unlayer"
    RANDOM = "random"
    PLAY = "play"
    PET = "pet"
    OPEN = "open"
    SECRETS = "secrets"
    DONE = "done"


@dataclass(frozen=True)
class Choice:
    """What the local player must decide now; ``options`` lists cards for ``show``."""

    kind: str
    """"turn" (the current player's free choice) or "show" (which card to show)."""
    options: tuple[int, ...] = ()


@dataclass(repr=False, eq=False)
class Player:
    """The local seat of a playing peer (an observer has none): what its own messages are
    built from, and what only it knows of the game (its hand, the cards shown to it)."""

    seat: int
    identity: Ed25519PrivateKey
    src: ScalarSource
    secrets: SeatSecrets
    hand: tuple[int, ...] = ()
    dealt: tuple[int, ...] = ()
    """The hand in deal-position order (the order of ``PublicRecord.hand_points``), for the
    shows: where a card sits is looked up, never searched for with secret-dependent work."""
    shown_to_me: list[tuple[int, int]] = field(default_factory=list)
    """(refuter, card) for every card shown to this seat, in order."""
    openings: dict[int, tuple[int, P.Opening]] = field(default_factory=dict)
    """Per refuter seat: the last private opening it sent us (show index, opening)."""

    def __repr__(self) -> str:
        return f"Player(seat={self.seat}, <keys hidden>)"


def my_opening(record: PublicRecord, me: Player, game_id: bytes, rec: ShowRecord) -> P.Opening:
    """This seat's opening of its own show, from its key (nothing stored): sent privately
    to the suggester, publicly after a complaint, and in the end-of-game ``open``."""
    rho = P.show_rho(me.secrets.key(), proof_context(game_id, rec.index, rec.refuter, "show"))
    opening = P.find_opening(rec.triple, record.Y[rec.suggester], rec.commitment, rho)
    if opening is None:
        raise LocalProtocolError(N_("this seat cannot open its own show"))
    return opening


class Host(Protocol):
    """What a stage asks of the peer that runs it (``Peer`` is one): the record to read
    and write, and the few things only the peer does."""

    @property
    def record(self) -> PublicRecord:
        """The public record of the game, shared by every stage."""

    @property
    def player(self) -> Player | None:
        """The local seat (None: an observer)."""

    @property
    def now(self) -> float:
        """The time of the step being run (from the driver: stages read no clock)."""

    def announce(self, event: Event) -> None:
        """Report ``event`` to the front end, after the step being run."""

    def enter(self, stage: StageState) -> None:
        """Make ``stage`` the running stage."""

    def resume_play(self) -> None:
        """Enter the play stage the rules state calls for now (a turn or a refutation)."""

    def verify(self, check: Callable[..., None], *args: Any) -> None:
        """Run a proof check on the message being handled (its failure blames the
        sender), unless it is this peer's own, just built, and trusted."""

    def when_chained(self, action: Callable[[], None]) -> None:
        """Run ``action`` once the message being handled is chained."""

    def send_opening(self, rec: ShowRecord) -> None:
        """Send the suggester this seat's private opening of its show ``rec``."""


def proof_context(game_id: bytes, index: int, sender: int, step: str) -> ProofContext:
    """Every proof is bound to the game, its transcript position, its step and its prover."""
    return ProofContext(game_id, f"{index}:{step}", sender)


def triple_of(s: Suggestion) -> tuple[int, int, int]:
    return (s.suspect, s.weapon, s.room)


@dataclass
class SeatRound:
    """The seats that owe one message each, in order, and how many have sent theirs.

    Every seat still at the table goes through a round from its first seat on: seat 0
    for most rounds, the accuser's left neighbour for an accusation check."""

    order: list[int]
    pos: int = 0

    @classmethod
    def starting(cls, n: int, first: int, left: Container[int]) -> SeatRound:
        return cls([(first + k) % n for k in range(n) if (first + k) % n not in left])

    def due(self) -> int:
        return self.order[self.pos]

    def due_after(self) -> int:
        """The seat due after the current one (the round's last: the next round's first)."""
        return self.order[(self.pos + 1) % len(self.order)]

    def advance(self) -> bool:
        """Count the message just accepted; True when it completed the round (which then
        points at its first seat again, as a fresh round would)."""
        self.pos += 1
        if self.pos < len(self.order):
            return False
        self.pos = 0
        return True


class StageState:
    """One stage of the game, as the peer runs it (see the module docstring).

    Messages reach a stage through its ``on_<type>`` methods (the peer's dispatch); each
    gets the peer, the message's transcript index, its sender and its decoded fields."""

    stage: ClassVar[Stage]

    def due(self) -> int | None:
        """The seat that owes the next message (None: nobody, the game is over)."""
        raise NotImplementedError

    def due_soon(self, due: int, seat: int, n: int) -> bool:
        """Whether ``seat``, not ``due`` now, is likely to speak right after
        (``Peer.due_soon``)."""
        raise NotImplementedError

    def allowed(self) -> frozenset[str]:
        """The message types the due seat may send now."""
        raise NotImplementedError

    def automatic(self, peer: Host, me: Player) -> Message | None:
        """What the local player, due now, sends without a decision (None: it decides, or
        waits)."""
        raise NotImplementedError

    def choice(self, peer: Host, me: Player) -> Choice | None:
        """The decision the local player owes now (only play asks for decisions)."""
        return None

    def choose(self, peer: Host, me: Player, intent: Intent, choice: Choice) -> Message:
        """The message for the local player's decision on ``choice``, checked before it is
        built; ``LocalProtocolError`` if it does not answer ``choice``."""
        raise LocalProtocolError(N_("nothing is awaiting this player's choice"))


class RoundStage(StageState):
    """A stage in which every seat at the table sends one message of one type in turn."""

    message_type: ClassVar[str]
    round: SeatRound

    def due(self) -> int | None:
        return self.round.due()

    def due_soon(self, due: int, seat: int, n: int) -> bool:
        return self.round.due_after() == seat

    def allowed(self) -> frozenset[str]:
        return frozenset({self.message_type})

    def automatic(self, peer: Host, me: Player) -> Message | None:
        return self.message_type, self.build(peer, me, len(peer.record.entries))

    def build(self, peer: Host, me: Player, index: int) -> Body:
        """This seat's message of the round, to be the entry at ``index``."""
        raise NotImplementedError

    def next_in_round(self, peer: Host) -> None:
        """Count the message just handled; when it ends the round, ``finish`` runs once
        the message is chained (its checks can still fail the message)."""
        if self.round.advance():
            peer.when_chained(lambda: self.finish(peer))

    def finish(self, peer: Host) -> None:
        """Close the round: compute what it decided and enter the next stage."""
        raise NotImplementedError
