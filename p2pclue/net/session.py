"""The session driver: the sans-IO ``SessionCore`` on a mesh of real links, in asyncio.

It decides nothing (``net.core`` does): like aioquic's asyncio protocol over its
``QuicConnection``, it feeds the core what happened (a link up or down, a message, a
wrong code met, the front end's intents and votes, the clock) and executes the actions
the core returns, in order: a persist action on disk (fsync where it says) before the
sends that follow it, sends through the mesh, dials as tasks whose outcome goes back to
the core, session events to the front end's queue. Between inputs it sleeps until the
core's ``next_deadline()``. It owns the files (the transcript, the game folder), the
CPU lanes and the clock.

The terminal UI, headless bots and spectators all drive this one class through the
``net.api.Session`` contract.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import time
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.crypto.rand import OsRandom, ScalarSource
from p2pclue.engine import events as ev
from p2pclue.engine.errors import EngineError
from p2pclue.engine.peer import verify_own_from
from p2pclue.engine.peer_secrets import SecretsError
from p2pclue.i18n import _
from p2pclue.net import actions as act
from p2pclue.net import api, redial
from p2pclue.net import transport as tp
from p2pclue.net.core import DEFAULT_TIMEOUT as DEFAULT_TIMEOUT
from p2pclue.net.core import GIVE_UP_AFTER as GIVE_UP_AFTER
from p2pclue.net.core import HUMAN_PASS_DELAY as HUMAN_PASS_DELAY
from p2pclue.net.core import SessionCore, Settings
from p2pclue.net.gamedir import GameDir
from p2pclue.net.lanes import CHEAP_FRAME_BYTES, Lanes
from p2pclue.net.lobby import Start
from p2pclue.net.mesh import Item, LinkDown, LinkUp, Mesh, Received
from p2pclue.net.meta import TAG_FRAME, encode
from p2pclue.net.store import StoreError, TranscriptFile, audit_file
from p2pclue.net.view import CoreView

log = logging.getLogger("p2pclue.net.session")

MAX_DROPPED_KEPT = 16
"""Frames the engine dropped (another game's, unsigned junk) kept for inspection."""
DIAL_TIMEOUT = 2.0
"""How long one re-dial may take (connection and handshake)."""


class NetSession(CoreView):
    """A game as one seat (or a spectator, ``seat is None``) plays it over the network."""

    can_leave = True
    """``submit(ev.Leave())`` leaves gracefully (hand face up); front ends offer it."""

    def __init__(
        self, start: Start, mesh: Mesh, identity: Ed25519PrivateKey, transcript_path: Path,
        *, name: str, pending: Iterable[Item] = (), timeout: float = DEFAULT_TIMEOUT,
        give_up_after: int = GIVE_UP_AFTER, game: GameDir | None = None, resume: bool = False,
        host_addr: tuple[str, int] | None = None, pass_delay: tuple[float, float] = (0.0, 0.0),
        src: ScalarSource | None = None, pacing: random.Random | None = None,
    ) -> None:
        """``game``: the game's directory (its secrets are saved there before any frame
        that depends on them is sent). ``resume``: rebuild the peer from that directory
        after a crash (``StoreError`` with a clear message if it cannot be done).
        ``host_addr``: where the host was reached, for re-dialling it. ``src``, ``pacing``:
        the seat's secret randomness and the pacing delays (the OS's by default)."""
        mine = game is not None and identity.public_key().public_bytes_raw() in {
            p.identity for p in start.config.players}
        settings = Settings(name, timeout, give_up_after, pass_delay, game_files=mine,
                            verify_own=verify_own_from(os.environ))
        self.core = SessionCore(start, identity, settings, time.monotonic(),
                                src=src or OsRandom(), rng=pacing or random.SystemRandom(),
                                host_addr=host_addr, guesses=mesh.guesses)
        self.config = start.config
        self.seat: int | None = self.core.seat
        self.events: asyncio.Queue[api.SessionEvent] = asyncio.Queue()
        self.transcript_path = transcript_path
        self._mesh = mesh
        self._game = game
        if resume:
            self._store = self._resume()
        else:
            self._store = TranscriptFile.create(transcript_path, self.config)
            for record in self.core.created():  # StoreError: no game to play
                self._persist(record)
        for event in self.core.resumed_events:  # front ends and bots rebuild their view
            self.events.put_nowait(api.Engine(event))
        outer = mesh.accept
        mesh.accept = lambda key: self.core.admits(key, time.monotonic(), mesh.linked()) and (
            outer is None or outer(key))
        self._pending = list(pending)
        self._dials: dict[bytes, asyncio.Task[None]] = {}
        self._end: act.End | None = None
        self._closed = False
        self._wake = asyncio.Event()
        self._getter: asyncio.Task[Item] | None = None
        self._waker: asyncio.Task[bool] | None = None
        self.ended: api.Ended | None = None
        self._lanes = Lanes()
        """Frames this seat need not check soon are checked at a lower OS priority."""
        self.on_close: list[Callable[[], Awaitable[None]]] = []
        """Called (and awaited) by ``close``: an announcer to withdraw, for example."""

    def _resume(self) -> TranscriptFile:
        game = self._game
        if game is None or self.seat is None:
            raise StoreError(_("only a player's own game directory can be resumed"))
        secrets = game.load_secrets()
        # Nothing on disk changes before the file is known to be this game's: the config
        # matches and every entry replays; only then is a torn last entry cut off.
        store, config, entries = TranscriptFile.reopen(self.transcript_path)
        if config != self.config:
            store.abandon()
            raise StoreError(_("{path} belongs to another game").format(
                path=self.transcript_path))
        try:
            self.core.restore(secrets, entries, time.monotonic())
        except (EngineError, SecretsError) as exc:
            store.abandon()
            raise StoreError(_("cannot resume from {path}: {error} (the transcript was "
                               "damaged or changed by another program)").format(
                path=game.path, error=exc)) from None
        store.keep_whole()
        return store

    # ---- the api.Session contract ------------------------------------------------------

    async def submit(self, intent: ev.Intent) -> None:
        self._execute(self.core.submit(intent, time.monotonic()))  # LocalProtocolError
        # The frames are queued for the link writers, which run only when the loop gets
        # control: a front end that went on reading its events at once (a bot learning from
        # the refutation it just sent) held a show back from the table for 5-15 ms.
        await asyncio.sleep(0)

    def vote(self, choice: str) -> bool:
        """Vote to ``"wait"`` or ``"abandon"`` about the seat the table waits for (see
        ``SessionCore.vote``); False when there is nothing to vote on now."""
        cast, actions = self.core.vote(choice, time.monotonic())
        self._execute(actions)
        return cast

    def start_redials(self) -> None:
        """After a restart: dial every player this member owes a link (smaller key dials);
        the others dial us on the port we listened on before."""
        self._execute(self.core.redial_all(time.monotonic()))

    async def run(self) -> None:
        try:
            await self._run()
        finally:
            await self.close()

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.core.close()
        self._wake.set()
        if self._store.is_open:
            self._store.abandon()
        tasks: list[asyncio.Task[Item] | asyncio.Task[bool] | asyncio.Task[None]] = [
            t for t in (self._getter, self._waker) if t is not None]
        tasks += self._dials.values()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self._mesh.close()
        self._lanes.close()
        for hook in self.on_close:
            with contextlib.suppress(Exception):
                await hook()

    # ---- the loop: inputs in, actions out ------------------------------------------------

    async def _run(self) -> None:
        self._execute(self.core.start(time.monotonic()))
        for key in self._mesh.linked():
            self._execute(self.core.link_up(key, time.monotonic()))
        for early in self._pending:
            self._feed(early)
        self._pending = []
        while self._end is None and not self._closed:
            deadline = self.core.next_deadline()
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            if (item := await self._next(wait)) is not None:
                self._feed(item)
            if deadline is not None and time.monotonic() >= deadline:
                self._execute(self.core.tick(time.monotonic()))
        if self._end is not None and not self._closed:
            await self._finish(self._end)

    async def _next(self, wait: float | None) -> Item | None:
        """The next inbox item, or None when ``wait`` passed or the driver was woken (a
        dial ended, the session closed, the game ended from the front end)."""
        inbox = self._mesh.inbox
        if self._getter is None and not inbox.empty():
            return inbox.get_nowait()
        getter = self._getter = self._getter or asyncio.create_task(inbox.get())
        waker = self._waker = self._waker or asyncio.create_task(self._wake.wait())
        done, _pending = await asyncio.wait((getter, waker), timeout=wait,
                                            return_when=asyncio.FIRST_COMPLETED)
        if waker in done:
            self._waker = None
            self._wake.clear()
        if getter in done:
            self._getter = None
            return None if getter.cancelled() else getter.result()  # cancelled: closed
        return None

    def _feed(self, item: Item) -> None:
        core = self.core
        if isinstance(item, Received):
            if item.tag == TAG_FRAME:
                self._execute(self._lanes.run(self._urgent(item), lambda: core.receive(
                    item.identity, item.tag, item.body, time.monotonic())))
            else:
                self._execute(core.receive(item.identity, item.tag, item.body,
                                           time.monotonic()))
        elif isinstance(item, LinkUp):
            self._execute(core.link_up(item.identity, time.monotonic()))
        elif isinstance(item, LinkDown):
            self._execute(core.link_down(item.identity, time.monotonic()))
        else:  # Refused: one of our listeners or dials met a wrong code
            self._execute(core.refused(time.monotonic()))

    def _urgent(self, item: Received) -> bool:
        """Whether to check this frame at once (``net.lanes``): this seat is due soon, or
        the frame is cheap (no costly proof fits), or a copy of one it holds."""
        peer, raw = self.core.peer, item.body
        return item.identity not in self.core.seats or peer.due_soon() \
            or len(raw) <= CHEAP_FRAME_BYTES or peer.knows(raw)

    def _execute(self, actions: list[act.Action]) -> None:
        """Carry out the core's actions in order; a persist that fails stops the batch
        (nothing after it depends on a lost write) and is reported to the core."""
        for action in actions:
            if isinstance(action, act.Send):
                if len(action.to) == 1:
                    self._mesh.send_encoded(action.to[0], encode(action.tag, action.body))
                else:  # one encoding for all (and the mesh's one door for a broadcast)
                    exclude = self._mesh.linked().difference(action.to)
                    self._mesh.broadcast(action.tag, action.body, exclude)
            elif isinstance(action, act.Emit):
                self.events.put_nowait(action.event)
            elif isinstance(action, act.Cut):
                self._mesh.cut(action.key)
            elif isinstance(action, act.Dial):
                self._dials[action.key] = asyncio.ensure_future(self._dial(action))
            elif isinstance(action, act.CodeUsedUp):
                self._mesh.code_used_up()
            elif isinstance(action, act.End):
                self._end = action
                self._wake.set()
            else:
                try:
                    self._persist(action)
                except (StoreError, OSError, ValueError) as exc:
                    self._execute(self.core.persist_failed(action, str(exc), time.monotonic()))
                    return

    def _persist(self, action: act.Action) -> None:
        if isinstance(action, act.Append):
            last = len(action.entries) - 1
            for i, raw in enumerate(action.entries):
                # one fsync after the last covers them all (before anything is sent)
                self._store.append(raw, sync=action.sync and i == last)
        elif isinstance(action, act.CloseTranscript):
            self._store.close(action.footer)
        elif self._game is None:
            return
        elif isinstance(action, act.SaveSecrets):
            self._game.save_secrets(action.secrets)
        elif isinstance(action, act.RecordTranscript):
            self._game.record_transcript(self.transcript_path)
        elif isinstance(action, act.MarkLeft):
            self._game.mark_left()

    async def _dial(self, action: act.Dial) -> None:
        """One re-dial of a lost player; the core decides whether and when the next."""
        outcome = redial.NOBODY
        seat = self.core.seats.get(action.key)
        try:
            await self._mesh.dial(action.host, action.port, timeout=DIAL_TIMEOUT,
                                  expect=action.key)
        except tp.BadAddress as exc:  # no re-dial can help: say so, once
            log.warning("seat %s cannot be re-dialled: %s", seat, exc)
            outcome = redial.BAD_ADDRESS
        except (tp.Unreachable, tp.HandshakeTimeout, tp.LinkClosed, tp.Busy, OSError, TimeoutError):
            pass  # nobody there yet (the player's process is restarting), or busy
        except (EngineError, tp.LinkError) as exc:
            # another key answered, or refused the link: no code was at stake (game mode),
            # but it is logged, and asked again only slowly
            log.info("re-dial of seat %s at %s:%s failed: %s", seat, action.host,
                     action.port, exc)
            outcome = redial.STRANGER
        else:
            outcome = redial.LINKED if action.key in self._mesh.linked() else redial.NOBODY
        finally:
            self._dials.pop(action.key, None)
        if not self._closed:
            self._execute(self.core.dialled(action.key, outcome, time.monotonic()))
            self._wake.set()  # the next re-dial may be due sooner than the loop sleeps

    async def _redial(self, key: bytes) -> None:
        """Re-dial one lost player until it is linked or no dial can help (what the loop
        does for every lost player, callable without the loop)."""
        self._execute(self.core.redial(key, time.monotonic()))
        while key in self.core.redials and not self._closed:
            task = self._dials.get(key)
            if task is not None:
                await asyncio.gather(task, return_exceptions=True)
            else:
                deadline = self.core.next_deadline() or time.monotonic()
                await asyncio.sleep(max(0.0, deadline - time.monotonic()))
                self._execute(self.core.tick(time.monotonic()))

    # ---- the end ---------------------------------------------------------------------

    async def _finish(self, end: act.End) -> None:
        """The transcript is closed and the table told (the core's last batch); audit our
        own file and say how the game ended."""
        if end.failure is not None:
            self.ended = api.Ended(end.status, None, None, end.failure)
        else:
            await self._mesh.flush(2.0)
            ok, message = audit_file(self.transcript_path)
            self.ended = api.Ended(end.status, self.transcript_path, ok, message)
        self.events.put_nowait(self.ended)
