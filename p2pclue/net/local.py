"""A whole table in one process: the local player's engine peer and N bot peers.

``LocalSession`` implements ``net.api.Session`` without a network, so that front
ends (the terminal UI, the plain line mode) can be built and tested before and
beside the LAN runner. Every seat is a real ``engine.Peer`` with its own secrets;
frames travel through an in-process queue, one delivery at a time, as in the
in-memory harness. Every engine call (proofs, shuffles, the bots' deduction) runs
on one worker thread, so the event loop, and with it the UI, never waits on the
cryptography; one worker also means no two engine calls ever overlap.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar

from p2pclue.bots.protocol import BotSeat, make_config
from p2pclue.bots.registry import BOTS, DEFAULT_BOT
from p2pclue.crypto.rand import OsRandom, ScalarSource, SeededRandom
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import LocalProtocolError
from p2pclue.engine.peer import Choice, Peer, Stage, Status, verify_own_from
from p2pclue.engine.transcript import parse
from p2pclue.i18n import N_, _, os_error_line
from p2pclue.net.api import Ended, Engine, Progress, SessionEvent, Waiting, YourChoice
from p2pclue.net.store import StoreError, TranscriptFile
from p2pclue.rules.errors import SeatNo
from p2pclue.rules.state import GameState
from p2pclue.rules.variants import Rules

_T = TypeVar("_T")

DEAL_STAGES = (Stage.JOIN, Stage.KEYS, Stage.ENVELOPE, Stage.DEAL, Stage.UNLAYER, Stage.RANDOM)
HUMAN_TIMEOUT = 600.0
"""How long the table shows it will wait for the local player (nothing happens after)."""


@dataclass(frozen=True)
class Pace:
    """How fast the bots act, so that a person can follow the story.

    ``bot_think`` is the pause before each bot decision; ``pass_delay`` is how long
    the local player's automatic "cannot refute" is held before it is sent, drawn
    from the same range a person takes to pick a card, so that the table cannot
    tell from timing whether the player held a named card.
    """

    bot_think: float = 0.8
    pass_delay: tuple[float, float] = (1.0, 3.0)


FAST = Pace(0.0, (0.0, 0.0))


@dataclass
class _Delivery:
    to: int
    frame: bytes
    via: int


class LocalSession:
    """One human seat (``seat``) and bot seats, all real engine peers in this process."""

    def __init__(
        self,
        rules: Rules,
        n_players: int,
        *,
        seed: int | None = None,
        seat: int = 0,
        bot: str = DEFAULT_BOT,
        pace: Pace = Pace(),
        transcript_dir: Path | None = None,
    ) -> None:
        if not 3 <= n_players <= 6:
            raise LocalProtocolError(N_("a table has 3 to 6 players"))
        if not 0 <= seat < n_players:
            raise LocalProtocolError(N_("{seat} is not at this table"), seat=SeatNo(seat))
        if bot not in BOTS:
            raise LocalProtocolError(N_("no bot is called {bot!r} (known: {known})"), bot=bot,
                                     known=", ".join(BOTS))
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
        config, keys = make_config(rules, n_players, self.seed)
        self.config: GameConfig = config
        self.seat: int | None = seat
        self.events: asyncio.Queue[SessionEvent] = asyncio.Queue()
        self.pace = pace
        self.transcript_dir = transcript_dir
        rng = random.Random(self.seed)
        self._peers: list[Peer] = []
        for s in range(n_players):
            src: ScalarSource = (
                SeededRandom(b"p2pclue/simulate/%d/%d" % (self.seed, s)) if seed is not None
                else OsRandom())
            self._peers.append(Peer(config, s, keys[s], src, timeout=HUMAN_TIMEOUT,
                                    verify_own=verify_own_from(os.environ)))
        self._bots = {s: BotSeat(BOTS[bot](s, random.Random(rng.getrandbits(64))), n_players)
                      for s in range(n_players) if s != seat}
        self._pass_rng = random.Random(rng.getrandbits(64))
        self._queue: deque[_Delivery] = deque()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="p2pclue-engine")
        self._wake = asyncio.Event()
        self._announced: tuple[int, Choice] | None = None
        self._waiting_for: tuple[int, int] | None = None
        self._closed = False
        self._running = False
        self._submitting = 0
        """The person's choices on their way through the engine: until they are through,
        the table is not stuck even if nobody else can move."""
        self._progress_at = -1
        self.transcript_path: Path | None = None
        """Where the transcript is written as the game goes (set when ``run`` starts)."""
        self._store: TranscriptFile | None = None
        self._store_error = ""

    # ---- the Session contract ---------------------------------------------------------

    @property
    def me(self) -> Peer:
        assert self.seat is not None
        return self._peers[self.seat]

    @property
    def state(self) -> GameState | None:
        return self.me.rules_state

    @property
    def hand(self) -> tuple[int, ...]:
        return self.me.hand

    def choice(self) -> Choice | None:
        return self.me.choice()

    def expected_seat(self) -> int | None:
        """Who owes the table's next message (the screen says whom it waits for from the
        first second, long before a silence is reported)."""
        return self.me.expected_seat()

    can_leave = True
    """``submit(ev.Leave())`` leaves gracefully (hand face up); front ends offer it."""

    async def submit(self, intent: ev.Intent) -> None:
        """Run the local player's choice through the engine (on the worker thread).
        ``ev.Leave`` may come at any time: the engine queues it until the table awaits us."""
        if self.me.choice() is None and not isinstance(intent, ev.Leave):
            raise LocalProtocolError(N_("nothing is awaiting your choice"))
        now = time.monotonic()
        assert self.seat is not None
        self._submitting += 1
        try:
            events, frames = await self._step(self.seat, lambda: self.me.act(intent, now))
            await self._route(self.seat, events)
            self._enqueue(self.seat, frames)
        finally:
            self._submitting -= 1
            self._wake.set()

    async def run(self) -> None:
        """Deliver frames and let the bots play until the local peer stops."""
        self._running = True
        self._open_store()
        try:
            self._progress(0)
            for s, peer in enumerate(self._peers):
                now = time.monotonic()
                events, frames = await self._step(s, partial(peer.start, now))
                await self._route(s, events)
                self._enqueue(s, frames)
            while not self._closed:
                if await self._deliver_one():
                    continue
                if await self._bot_turn():
                    continue
                if self._submitting:  # the person's step is in the worker: wait for it
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                if self.me.status is not Status.RUNNING:
                    break
                if self._ask_human():
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                break  # nobody can move: the table is stuck (cannot happen with honest peers)
        finally:
            await self._finish()

    async def close(self) -> None:
        """Stop playing; ``run`` still saves what was verified (an abandoned transcript)."""
        if self._closed:
            return
        self._closed = True
        self._wake.set()
        if not self._running:
            self._worker.shutdown(wait=False, cancel_futures=True)

    # ---- driving ----------------------------------------------------------------------

    async def _engine(self, call: Callable[[], _T]) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self._worker, call)

    async def _step(self, seat: int, call: Callable[[], list[ev.Event]]
                    ) -> tuple[list[ev.Event], list[tuple[bytes, int | None]]]:
        """Run one engine call and take the frames it made in the same worker job.

        The person's ``submit`` runs beside the loop: had the loop taken a peer's frames
        after its own call returned, it could take them while the worker was in that
        person's call, and a frame made then would be lost (the table stuck)."""
        peer = self._peers[seat]
        return await self._engine(lambda: (call(), peer.frames_to_send()))

    def _enqueue(self, sender: int, frames: list[tuple[bytes, int | None]]) -> None:
        for frame, to in frames:
            for j in ([to] if to is not None else range(len(self._peers))):
                if j != sender:
                    self._queue.append(_Delivery(j, frame, sender))

    async def _deliver_one(self) -> bool:
        if not self._queue:
            return False
        d = self._queue.popleft()
        peer = self._peers[d.to]
        now = time.monotonic()
        if d.to == self.seat and (len(peer.entries) + 1) % len(self._peers) == self.seat:
            self._progress(len(peer.entries) + 1)
        events, frames = await self._step(d.to, lambda: peer.receive(d.frame, now, via=d.via))
        await self._route(d.to, events)
        if d.to == self.seat and self._human_passed(events):
            low, high = self.pace.pass_delay
            await asyncio.sleep(self._pass_rng.uniform(low, high))
        self._enqueue(d.to, frames)
        self._progress()
        return True

    def _human_passed(self, events: list[ev.Event]) -> bool:
        return any(isinstance(e, ev.Passed) and e.seat == self.seat for e in events)

    def _progress(self, index: int | None = None) -> None:
        """Tell who works on deal message ``index`` (default: the next one owed), once.

        The deal is rounds of one message per seat in seat order (join, keys, envelope,
        deal, unlayer, then the weapons' random round), so message ``i`` is seat
        ``i % n``'s. The local peer computes its own message inside the call that
        receives the one before, so the caller announces that one ahead of the call.
        """
        me = self.me
        n = len(self._peers)
        i = len(me.entries) if index is None else index
        if me.rules_state is not None or me.status is not Status.RUNNING or i <= self._progress_at:
            return
        stages = len(DEAL_STAGES) if self.config.rules.weapons_random else len(DEAL_STAGES) - 1
        if i >= stages * n:
            return
        self._progress_at = i
        self.events.put_nowait(Progress(DEAL_STAGES[i // n].value, i % n, i % n + 1, n))

    async def _bot_turn(self) -> bool:
        for s, seat in self._bots.items():
            peer = self._peers[s]
            if peer.status is not Status.RUNNING:
                continue
            choice = peer.choice()
            if choice is None:
                continue
            self._wait_on(s, self.pace.bot_think)
            if self.pace.bot_think:
                await asyncio.sleep(self.pace.bot_think)
            intent = await self._engine(partial(seat.choose, peer, choice))
            now = time.monotonic()
            events, frames = await self._step(s, partial(peer.act, intent, now))
            await self._route(s, events)
            self._enqueue(s, frames)
            return True
        return False

    def _wait_on(self, seat: int, seconds: float) -> None:
        key = (seat, len(self.me.entries))
        if self._waiting_for == key:
            return
        self._waiting_for = key
        since = time.monotonic()
        self.events.put_nowait(Waiting(seat, since, since + max(seconds, 0.0)))

    def _ask_human(self) -> bool:
        choice = self.me.choice()
        if choice is None:
            return False
        key = (len(self.me.entries), choice)
        if self._announced != key:
            self._announced = key
            assert self.seat is not None
            since = time.monotonic()
            self.events.put_nowait(Waiting(self.seat, since, since + HUMAN_TIMEOUT))
            self.events.put_nowait(YourChoice(choice))
        return True

    async def _route(self, seat: int, events: list[ev.Event]) -> None:
        bot = self._bots.get(seat)
        if bot is not None:
            for event in events:
                await self._engine(partial(bot.feed, event))
        if seat == self.seat:
            self._append_entries()
            for event in events:
                self.events.put_nowait(Engine(event))

    def _open_store(self) -> None:
        """Create the transcript file before the first message, so nothing is ever lost."""
        try:
            path = self.transcript_path or self._new_path()
            self._store = TranscriptFile.create(path, self.config)
            self.transcript_path = path
        except (OSError, StoreError) as exc:
            self._store_error = _("the transcript cannot be saved: {error}").format(
                error=os_error_line(exc) if isinstance(exc, OSError) else exc)

    def _append_entries(self) -> None:
        store = self._store
        if store is None or not store.is_open:
            return
        try:
            while store.entries < len(self.me.entries):
                store.append(self.me.entries[store.entries])
        except StoreError as exc:
            self._store_error = _("the transcript could not be written: {error}").format(
                error=exc)
            self._store = None

    async def _finish(self) -> None:
        me = self.me
        if me.status is Status.RUNNING:
            me.abandon()
        transcript = me.transcript()
        raw = transcript.to_bytes()
        self._append_entries()
        path: Path | None = None
        if self._store is not None:
            try:
                self._store.close(transcript.footer)
                path = self._store.path
            except StoreError as exc:
                self._store_error = _("the transcript could not be finished: {error}").format(
                    error=exc)
        verdict = await self._engine(lambda: audit(parse(raw), raw))
        ok = verdict.valid
        message = (_("audit: valid, every signature, proof and rule checked") if ok else
                   _("audit: INVALID: {violation}").format(violation=verdict.violation))
        if self._store_error:
            message = _("{problem}; {verdict}").format(problem=self._store_error, verdict=message)
        status = {Status.COMPLETE: "complete", Status.HALTED: "halted"}.get(
            me.status, "abandoned")
        self.events.put_nowait(Ended(status, path, ok, message))
        self._worker.shutdown(wait=False)

    def _new_path(self) -> Path:
        folder = self.transcript_dir if self.transcript_dir is not None else default_dir()
        folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = folder / f"local-{stamp}-seed{self.seed}.p2pclue"
        n = 1
        while path.exists():
            n += 1
            path = folder / f"local-{stamp}-seed{self.seed}-{n}.p2pclue"
        return path


def default_dir() -> Path:
    """Where transcripts go when nobody said: the user's data folder."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return Path(base) / "p2pclue" / "transcripts"
