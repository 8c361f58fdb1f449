"""A game's session as the application saw it, kept so that its screens can be shown again.

``Recording`` wraps a live session: every event the application takes is logged with the
state, the hand and the awaited seat the application reads right after it, and every
decision the person's keys submit. ``Replay`` is a session that hands the application the
same log again, event by event, and stops at each logged decision until the person's keys
(through the real application) submit a decision of the same kind. So one game, played
once through the real protocol, can be shown again in every language through the real
application, keys and terminal, without playing its cryptography again.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from dataclasses import dataclass

from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import LocalProtocolError
from p2pclue.engine.peer import Choice
from p2pclue.i18n import N_
from p2pclue.net.api import SessionEvent, SessionProxy, Waiting, YourChoice
from p2pclue.net.local import LocalSession
from p2pclue.rules.state import GameState


@dataclass(frozen=True)
class Seen:
    """An event the application took, and what it read of the session right after it."""

    event: SessionEvent
    state: GameState | None
    hand: tuple[int, ...]
    expected: int | None
    at: float
    """When it was taken (``time.monotonic``): a replayed wait is told as long as it was."""


@dataclass(frozen=True)
class Submitted:
    """A decision the person's keys handed to the session, and the session took."""

    intent: ev.Intent


Step = Seen | Submitted


class _Tapped(asyncio.Queue[SessionEvent]):
    """The live session's events, logged as the application takes them."""

    def __init__(self, session: LocalSession, log: list[Step]) -> None:
        super().__init__()
        self._session = session
        self._log = log

    async def get(self) -> SessionEvent:
        event = await self._session.events.get()
        s = self._session  # read now, as the application reads it, before anything runs
        self._log.append(Seen(event, s.state, s.hand, s.expected_seat(), time.monotonic()))
        return event


class Recording(SessionProxy):
    """A ``LocalSession`` that logs what the application sees of it (``log``)."""

    can_leave = True

    def __init__(self, session: LocalSession) -> None:
        super().__init__(session)
        self._local = session
        self.log: list[Step] = []
        self.events = _Tapped(session, self.log)

    def expected_seat(self) -> int | None:
        return self._local.expected_seat()

    async def submit(self, intent: ev.Intent) -> None:
        await super().submit(intent)  # a refused one is not logged: it changed nothing
        self.log.append(Submitted(intent))


class _Replayed(asyncio.Queue[SessionEvent]):
    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self._replay = replay

    async def get(self) -> SessionEvent:
        return await self._replay.next_event()


class Replay:
    """A session that plays ``log`` back to the application (see the module's docstring).

    A decision is taken only where the log has one and every event before it was handed
    out (the table awaits it); any other is refused as a live session refuses it. A
    decision of another kind than the logged one is kept in ``mismatches``."""

    can_leave = True

    def __init__(self, config: GameConfig, seat: int | None, log: list[Step]) -> None:
        self.config = config
        self.seat = seat
        self._log = log
        self._at = 0
        self._seen: Seen | None = None
        self._awaiting = False
        self._decided = asyncio.Event()
        self._closed = asyncio.Event()
        self.mismatches: list[str] = []
        self.events: asyncio.Queue[SessionEvent] = _Replayed(self)

    async def next_event(self) -> SessionEvent:
        while self._at < len(self._log):
            step = self._log[self._at]
            if isinstance(step, Submitted):
                self._awaiting = True
                await self._decided.wait()
                self._decided.clear()
                self._at += 1
                continue
            self._at += 1
            self._seen = step
            if isinstance(step.event, Waiting):  # since the same while before now
                shift = time.monotonic() - step.at
                return dataclasses.replace(step.event, since=step.event.since + shift,
                                           deadline=step.event.deadline + shift)
            return step.event
        await self._closed.wait()  # the log is over: nothing more comes
        raise asyncio.CancelledError

    @property
    def state(self) -> GameState | None:
        return self._seen.state if self._seen is not None else None

    @property
    def hand(self) -> tuple[int, ...]:
        return self._seen.hand if self._seen is not None else ()

    def choice(self) -> Choice | None:
        for step in reversed(self._log[:self._at]):
            if isinstance(step, Seen) and isinstance(step.event, YourChoice):
                return step.event.choice if self._awaiting else None
        return None

    def expected_seat(self) -> int | None:
        return self._seen.expected if self._seen is not None else None

    async def submit(self, intent: ev.Intent) -> None:
        if not self._awaiting:
            raise LocalProtocolError(N_("nothing is awaiting your choice"))
        logged = self._log[self._at]
        assert isinstance(logged, Submitted)
        if type(intent) is not type(logged.intent):
            self.mismatches.append(f"step {self._at}: {intent!r} where the game had "
                                   f"{logged.intent!r}")
        self._awaiting = False
        self._decided.set()

    async def run(self) -> None:
        await self._closed.wait()

    async def close(self) -> None:
        self._closed.set()
