"""What a front end sees of a game session: the contract between ``net/`` and its users.

The terminal UI, the plain line mode, headless bots and spectators all drive a game
through this one shape, whether the table is real (``net.session``: links, discovery,
the transcript on disk) or in one process (``net.local``: engine peers wired by the
in-memory harness, for developing and testing front ends without a network). The
session owns the engine ``Peer``, the clock and the links; a front end reads events
from ``events`` and hands the local player's choices to ``submit``. It never touches
a socket or the engine's private state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.engine.peer import Choice
from p2pclue.rules.state import GameState

if TYPE_CHECKING:  # the events are plain data: the sans-IO session core makes them too
    import asyncio
    from pathlib import Path

# ---- session events: engine events are passed through as ``Engine`` --------------------


@dataclass(frozen=True)
class Engine:
    """One event of the local engine peer, in the order the engine produced them."""

    event: ev.Event


@dataclass(frozen=True)
class Progress:
    """The deal's long crypto rounds: ``seat`` is working on ``step`` of ``steps``.

    ``stage`` is the engine stage name (``keys``, ``envelope``, ``deal``, ``unlayer``...).
    """

    stage: str
    seat: int
    step: int
    steps: int


@dataclass(frozen=True)
class YourChoice:
    """The local player owes a decision now (``Peer.choice()``)."""

    choice: Choice


@dataclass(frozen=True)
class Waiting:
    """The table waits for ``seat`` since ``since``; the runner acts at ``deadline``."""

    seat: int
    since: float
    deadline: float


@dataclass(frozen=True)
class Presence:
    """A player's link came up or went down (``away``), or a spectator arrived/left."""

    name: str
    seat: int | None
    """None for a spectator."""
    present: bool
    silent: bool = False
    """Gone because its link brought nothing for seconds (``net.liveness``): most likely
    the network, on either side; the link is re-dialled as after any loss."""


@dataclass(frozen=True)
class Ended:
    """The session is over: how, where the transcript was saved, and its audit verdict."""

    status: str
    """"complete", "halted" or "abandoned", as the transcript footer says."""
    transcript: Path | None
    audit_ok: bool | None
    """The audit's verdict on the saved transcript (None if it was not run)."""
    message: str
    """The audit's or the runner's one-line explanation."""


@dataclass(frozen=True)
class Guesses:
    """Wrong table codes the whole table met so far (every member's listeners and dials,
    ``net.guesses``); ``used_up``: the budget is spent and the code opens nothing now."""

    count: int
    used_up: bool


@dataclass(frozen=True)
class LinkPath:
    """How one link runs now, as its transport measured it (iroh's QUIC does; a LAN link
    measures nothing): shown in the lobby of an internet table, so people see which
    members a relay carries and how far each is. For display only, never evidence."""

    relayed: bool
    rtt_ms: int
    """The round trip in whole milliseconds (0: under one)."""


SessionEvent = Engine | Progress | YourChoice | Waiting | Presence | Guesses | Ended


class Session(Protocol):
    """A running game as one seat (or, with ``seat is None``, a spectator) sees it."""

    config: GameConfig
    seat: int | None
    events: asyncio.Queue[SessionEvent]

    @property
    def state(self) -> GameState | None:
        """The public rules state (board, turn, pending suggestion), once play began."""

    @property
    def hand(self) -> tuple[int, ...]:
        """This seat's cards (empty for a spectator or before the deal)."""

    def choice(self) -> Choice | None:
        """The decision this seat owes now, if any."""

    async def submit(self, intent: ev.Intent) -> None:
        """Hand the local player's choice to the engine; raises ``LocalProtocolError``."""

    async def run(self) -> None:
        """Drive the session until it ends (the last event put on ``events`` is ``Ended``)."""

    async def close(self) -> None:
        """Stop every task, close every link; safe to call twice."""


class SessionProxy:
    """A session that hands everything to another one: the base of a wrapper that changes
    one thing (submissions paced for a person to follow, what a front end saw logged) and
    is still a ``Session`` in every other respect."""

    def __init__(self, inner: Session) -> None:
        self._inner = inner
        self.config: GameConfig = inner.config
        self.seat: int | None = inner.seat
        self.events: asyncio.Queue[SessionEvent] = inner.events

    @property
    def state(self) -> GameState | None:
        return self._inner.state

    @property
    def hand(self) -> tuple[int, ...]:
        return self._inner.hand

    def choice(self) -> Choice | None:
        return self._inner.choice()

    async def submit(self, intent: ev.Intent) -> None:
        await self._inner.submit(intent)

    async def run(self) -> None:
        await self._inner.run()

    async def close(self) -> None:
        await self._inner.close()
