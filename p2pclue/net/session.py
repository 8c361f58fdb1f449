"""The session runner: one engine ``Peer`` (or observer) on a mesh of real links.

It is the asyncio driver around the sans-IO engine, and keeps none of the game's
logic: frames from a player's link go to ``Peer.receive``; the frames the peer wants
sent go to every link; the clock calls ``on_timeout`` at ``next_deadline``; the
local player's intents go to ``Peer.act``. Every accepted entry is appended to the
transcript file as the game goes, and this peer's own frames are on disk (fsync)
before any link sees them. Catch-up is by transcript index: on every new link each
side says how many entries it has (``have``) and the other sends the entries it
lacks, exactly as stored; the engine's duplicate rules make that idempotent. A link gets
no frame before its ``have``, so every honest link delivers entries in order, and what
cannot be placed (or costs work for nothing) is charged to its link (``net.junk``).

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
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.crypto.rand import OsRandom
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import EngineError, WireError
from p2pclue.engine.peer import Choice, Peer, Status, verify_own_from
from p2pclue.engine.peer_secrets import SecretsError
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import split_frame
from p2pclue.i18n import _, ngettext, outcome_word
from p2pclue.net import api, links
from p2pclue.net.gamedir import GameDir
from p2pclue.net.junk import JunkBudget
from p2pclue.net.lanes import CHEAP_FRAME_BYTES, Lanes
from p2pclue.net.lobby import MAX_SPECTATORS, Start
from p2pclue.net.mesh import (
    TAG_FRAME,
    TAG_LOBBY,
    TAG_SYNC,
    Item,
    LinkDown,
    LinkUp,
    Mesh,
    Received,
    Refused,
    decode_meta,
)
from p2pclue.net.store import StoreError, TranscriptFile
from p2pclue.rules.state import GameState

log = logging.getLogger("p2pclue.net.session")

DEFAULT_TIMEOUT = 120.0
"""Seconds of silence before the table is told who it waits for."""
GIVE_UP_AFTER = 3
"""Silences in a row (each ``timeout`` long) after which the game is ended as abandoned."""
PERSON_VOTE_FACTOR = 3
"""A person's seat (paced, ``pass_delay``) votes by itself only after this many times
``give_up_after`` silences: until then the person decides (``vote``, the UI's w / x)."""
LINGER = 10.0
"""After the end, how long to wait for every player to confirm it is done too."""
MAX_DROPPED_KEPT = 16
"""Frames the engine dropped (another game's, unsigned junk) kept for inspection."""
MAX_SENT_PER_HAVE = 100_000
CLOSED_POLL = 0.5
"""The loop looks at least this often whether ``close`` was called (nothing else wakes it
when no link speaks), so ``run`` returns soon after a front end closes the session."""
REDIAL_FIRST = 0.05
REDIAL_MAX = 1.0
"""Back-off for re-dialling a lost player: from 50 ms, doubling, at most 1 s apart."""
REDIAL_STRANGER = 2.0
REDIAL_STRANGER_MAX = 30.0
"""A re-dial answered by someone who is not that player waits this long, doubling."""
LINK_STEADY = 5.0
"""A link that lasted this long was a good one: the next re-dial starts at ``REDIAL_FIRST``
again (a link that keeps dying at once, refused by the other side, is re-dialled ever slower)."""
HAVES_FREE = 2
"""``have`` messages one link may send for free (one, or two when a link came up while the
runner started); each further one re-sends the transcript, so it is charged as junk."""
MAX_SYNC_BYTES = 2048
"""A sync message (``have``, ``done``, ``vote``) is at most this long; a longer one is junk,
charged before it is decoded."""
MAX_LATE_LOBBY_BYTES = 1024
"""During play the only lobby message that means something is a spectator's ``hello``."""
JUNK_UNIT_BYTES = 32 * 1024
"""A junk message costs one unit, and one more per this many bytes it carried."""
COPIES_PER_ENTRY = 3
"""Copies of accepted (or held) frames one link may deliver for free, per entry: an honest
link sends each entry once as a relay and once per catch-up it was asked for (at most two
``have`` messages are free); more copies than that are charged."""
COPIES_FREE = 64
HUMAN_PASS_DELAY = (1.0, 3.0)
"""How long a person's seat holds its automatic "cannot refute" (as ``net.local.Pace``)."""
_PACE_RNG = random.SystemRandom()


class NetSession:
    """A game as one seat (or a spectator, ``seat is None``) plays it over the network."""

    can_leave = True
    """``submit(ev.Leave())`` leaves gracefully (hand face up); front ends offer it."""

    def __init__(
        self,
        start: Start,
        mesh: Mesh,
        identity: Ed25519PrivateKey,
        transcript_path: Path,
        *,
        name: str,
        pending: Iterable[Item] = (),
        timeout: float = DEFAULT_TIMEOUT,
        give_up_after: int = GIVE_UP_AFTER,
        game: GameDir | None = None,
        resume: bool = False,
        host_addr: tuple[str, int] | None = None,
        pass_delay: tuple[float, float] = (0.0, 0.0),
    ) -> None:
        """``game``: the game's directory (its secrets are saved there before any frame
        that depends on them is sent). ``resume``: rebuild the peer from that directory
        after a crash (``StoreError`` with a clear message if it cannot be done).
        ``host_addr``: where the host was reached, for re-dialling it."""
        self.start_record = start
        self.config: GameConfig = start.config
        me = identity.public_key().public_bytes_raw()
        seats = {p.identity: i for i, p in enumerate(self.config.players)}
        self.seat: int | None = seats.get(me)
        self._seats = seats
        self._mesh = mesh
        self._name = name
        self._timeout = timeout
        person = pass_delay != (0.0, 0.0)
        self._give_up_after = give_up_after * (PERSON_VOTE_FACTOR if person else 1)
        self.events: asyncio.Queue[api.SessionEvent] = asyncio.Queue()
        now = time.monotonic()
        if self.seat is None:  # a spectator relays nothing: players ignore its frames
            self.peer = Peer(self.config, None, now=now, timeout=timeout, relay=False)
        else:
            self.peer = Peer(self.config, self.seat, identity, OsRandom(), now=now,
                             timeout=timeout, verify_own=verify_own_from(os.environ))
        self.transcript_path = transcript_path
        self._game = game
        self._host_addr = host_addr
        self._saved_secrets = 0
        self._redials: dict[bytes, asyncio.Task[None]] = {}
        self._redial_from: dict[bytes, float] = {}
        """Per player: the back-off the next re-dial starts with (see ``LINK_STEADY``)."""
        self._up_since: dict[bytes, float] = {}
        self._haves: dict[bytes, int] = {}
        """Per link: the ``have`` messages it sent. Frames go only to a link that sent one
        (after the catch-up it asked for), so an honest link delivers entries in order."""
        self._copies: dict[bytes, int] = {}
        """Per link: copies of accepted or held frames it delivered (``COPIES_PER_ENTRY``)."""
        self._dones: set[bytes] = set()
        """Links that said ``done`` (a second one is junk)."""
        self._hellos: set[bytes] = set()
        """Links whose spectator ``hello`` during play was answered (the next one is junk)."""
        self.junk = JunkBudget()
        """Junk (what the engine dropped) charged per link partner; see ``net.junk``."""
        self.junk_cuts = 0
        """Links this member cut because their junk went over budget."""
        self.junk_charged = 0
        """Junk units charged to link partners in all (an honest table charges none)."""
        self._cut_off: set[bytes] = set()
        outer = mesh.accept
        mesh.accept = lambda ident: not self.junk.banned(ident, time.monotonic()) and (
            ident in self._seats or self._strangers() < MAX_SPECTATORS) and (
            outer is None or outer(ident))
        self.left_table = False
        """This seat left gracefully (its own leave is accepted): the table plays on."""
        self.resumed_events: list[ev.Event] = []
        """The replayed events of a resumed game (a front end rebuilds its view from them)."""
        self.resent = 0
        """Entries sent to peers that lacked them (resync), for the benchmark."""
        if resume:
            self._store = self._resume(identity, now)
        else:
            self._store = TranscriptFile.create(transcript_path, self.config)
            if self._game is not None and self.seat is not None:
                # The game folder says where its transcript is (``--transcript`` puts it
                # elsewhere), before the secrets that make it a resumable game.
                self._game.record_transcript(transcript_path)
                # Saved at once (no secret drawn yet): a crash before this seat's first step
                # still leaves a game that ``join --resume`` finds, and it draws them then.
                self._game.save_secrets(self.peer.export_secrets())
        self._written = self._store.entries
        """Entries on disk; a resumed peer may already hold a new one of its own (built
        during the replay): it is written, like its secrets, before anything is sent."""
        self._pending = list(pending)
        self._wakeup = asyncio.Event()
        self._closed = False
        self._silences = 0
        self._done_from: set[bytes] = set()
        self._last_choice: tuple[int, Choice] | None = None
        self._names: dict[bytes, str] = {p.identity: p.name for p in self.config.players}
        self.spectators: dict[bytes, str] = {}
        self.dropped_total = 0
        self._ignored = 0
        self.ended: api.Ended | None = None
        self.pass_delay = pass_delay
        """A person's seat: hold its automatic "cannot refute" this long (see ``_hold_pass``)."""
        self._held: list[tuple[bytes, int | None]] | None = None
        self._hold_from = 0
        """While frames are held: the index of this seat's first held entry; nothing from
        there on is shown to anyone (no frame, no count) before the release."""
        self._lanes = Lanes()
        """Frames this seat need not check soon are checked at a lower OS priority."""
        self.on_close: list[Callable[[], Awaitable[None]]] = []
        """Called (and awaited) by ``close``: an announcer to withdraw, for example."""

    def _resume(self, identity: Ed25519PrivateKey, now: float) -> TranscriptFile:
        if self._game is None or self.seat is None:
            raise StoreError(_("only a player's own game directory can be resumed"))
        secrets = self._game.load_secrets()
        # Nothing on disk changes before the file is known to be this game's: the config
        # matches and every entry replays; only then is a torn last entry cut off.
        store, config, entries = TranscriptFile.reopen(self.transcript_path)
        if config != self.config:
            store.abandon()
            raise StoreError(_("{path} belongs to another game").format(
                path=self.transcript_path))
        try:
            self.resumed_events = self.peer.restore(secrets, entries, now)
        except (EngineError, SecretsError) as exc:
            store.abandon()
            raise StoreError(_("cannot resume from {path}: {error} (the transcript was "
                               "damaged or changed by another program)").format(
                path=self._game.path, error=exc)) from None
        store.keep_whole()
        self._saved_secrets = -1  # saved again before the first send, whatever changed
        for event in self.resumed_events:  # front ends and bots rebuild their view
            self.events.put_nowait(api.Engine(event))
        return store

    # ---- the api.Session contract ----------------------------------------------------

    @property
    def state(self) -> GameState | None:
        return self.peer.rules_state

    @property
    def hand(self) -> tuple[int, ...]:
        return self.peer.hand

    def choice(self) -> Choice | None:
        return self.peer.choice()

    def expected_seat(self) -> int | None:
        """Who owes the table's next message (the screen says whom it waits for from the
        first second, long before a silence is reported)."""
        return self.peer.expected_seat()

    async def submit(self, intent: ev.Intent) -> None:
        events = self.peer.act(intent, time.monotonic())  # LocalProtocolError: not now
        self._after_engine(events)
        # The frames are queued for the link writers, which run only when the loop gets
        # control: a front end that went on reading its events at once (a bot learning from
        # the refutation it just sent) held a show back from the table for 5-15 ms.
        await asyncio.sleep(0)

    async def run(self) -> None:
        try:
            await self._run()
        finally:
            await self.close()

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._store.is_open:
            self._store.abandon()
        for task in list(self._redials.values()):
            task.cancel()
        await asyncio.gather(*self._redials.values(), return_exceptions=True)
        await self._mesh.close()
        self._lanes.close()
        for hook in self.on_close:
            with contextlib.suppress(Exception):
                await hook()

    # ---- the loop --------------------------------------------------------------------

    async def _run(self) -> None:
        self._after_engine(self.peer.start(time.monotonic()))
        for ident in self._mesh.linked():
            self._link_up(ident)
        for item in self._pending:
            self._handle(item)
        self._pending = []
        while self.peer.status is Status.RUNNING and not self._closed:
            deadline = self.peer.next_deadline()
            wait = CLOSED_POLL if deadline is None \
                else min(CLOSED_POLL, max(0.0, deadline - time.monotonic()))
            try:
                item = await asyncio.wait_for(self._mesh.inbox.get(), wait)
            except TimeoutError:
                if deadline is not None and wait < CLOSED_POLL:
                    self._on_timeout()
                continue
            self._handle(item)
        if not self._closed:  # closed from outside: the game stays unfinished on disk
            await self._finish()

    def _handle(self, item: Item) -> None:
        if isinstance(item, Received) and item.identity in self._cut_off:
            self._ignored += 1  # still queued from a link cut for junk: not even read
            self._trim_dropped()
            return
        if isinstance(item, Received):
            if item.tag == TAG_FRAME:
                self._frame(item.identity, item.body)
            elif item.tag == TAG_SYNC:
                self._sync(item.identity, item.body)
            elif item.tag == TAG_LOBBY:
                self._late_lobby(item.identity, item.body)
        elif isinstance(item, LinkUp):
            self._link_up(item.identity)
        elif isinstance(item, LinkDown):
            self._cut_off.discard(item.identity)
            self._link_down(item.identity)
        elif isinstance(item, Refused):  # one of our listeners or dials met a wrong code
            self._mesh.broadcast(TAG_SYNC, self._mesh.guesses.message())
            self._guesses_changed()

    def _guesses_changed(self) -> None:
        """Show the table's wrong codes; once the budget is spent, our listeners stop
        running the code (a game-mode link needs none)."""
        guesses = self._mesh.guesses
        if guesses.dead:
            self._mesh.code_used_up()
        self.events.put_nowait(api.Guesses(guesses.total, guesses.dead))

    def _strangers(self) -> int:
        """Links to keys of no seat (spectators, or anyone with the code)."""
        return sum(1 for ident in self._mesh.linked() if ident not in self._seats)

    def _frame(self, ident: bytes, raw: bytes) -> None:
        seat = self._seats.get(ident)
        if seat is None:
            self._ignored += 1  # a spectator never acts (nor relays): its bytes go nowhere
            self._trim_dropped()
            self._charge(ident, 1, len(raw))
            return
        peer = self.peer
        before = peer.dropped_count + peer.unplaced_count
        copies = peer.duplicate_count
        urgent = peer.due_soon() or len(raw) <= CHEAP_FRAME_BYTES or peer.knows(raw)
        events = self._lanes.run(urgent, lambda: peer.receive(raw, time.monotonic(), via=seat))
        self._trim_dropped()
        junk = peer.dropped_count + peer.unplaced_count - before
        if peer.duplicate_count > copies:
            self._copies[ident] = self._copies.get(ident, 0) + 1
            if self._copies[ident] > COPIES_FREE + COPIES_PER_ENTRY * len(peer.entries):
                junk += 1
        self._charge(ident, junk, len(raw))
        self._after_engine(events)

    def _charge(self, ident: bytes, junk: int, size: int = 0) -> None:
        """Charge junk to the link it came on (``size``: the bytes of that message, one
        more unit per ``JUNK_UNIT_BYTES``); over budget, cut the link.

        The cut is a lost link, nothing more: no blame, nothing in the transcript; a player
        re-links (at once the first time, later after a growing wait) and catches up."""
        if junk <= 0:
            return
        junk += size // JUNK_UNIT_BYTES
        self.junk_charged += junk
        if not self.junk.charge(ident, junk, time.monotonic()):
            return
        if ident in self._mesh.linked():
            self.junk.cut(ident, time.monotonic())
            self.junk_cuts += 1
            self._cut_off.add(ident)  # until its LinkDown, which the mesh queues after them
            self._mesh.cut(ident)

    def _trim_dropped(self) -> None:
        """The engine bounds its own memory of dropped frames (a deque); count them all."""
        self.dropped_total = self.peer.dropped_count + self._ignored

    def _after_engine(self, events: list[ev.Event]) -> None:
        """Persist what was accepted, then send, then tell the front end.

        Nothing once closed: ``close`` may run while the loop holds an item it took just
        before, and a closed transcript file takes no more entries (the game stays
        unfinished on disk, and a resume fetches what it lacks)."""
        if self._closed:
            return
        self._hold_pass(events)
        entries = self.peer.entries
        if self._game is not None and self.seat is not None \
                and self.peer.secrets_version != self._saved_secrets:
            try:  # before any frame that commits to the new secret leaves
                self._game.save_secrets(self.peer.export_secrets())
            except StoreError as exc:
                self._fail(_("cannot save this game's secrets: {error}").format(error=exc))
                return
            self._saved_secrets = self.peer.secrets_version
        new = entries[self._written:]
        if new:
            mine = self.seat is not None and any(_sender(raw) == self.seat for raw in new)
            try:
                for i, raw in enumerate(new):
                    # one fsync after the last covers them all (before anything is sent)
                    self._store.append(raw, sync=mine and i == len(new) - 1)
            except StoreError as exc:
                self._fail(_("cannot write the transcript: {error}").format(error=exc))
                return
            self._written = len(entries)
            self._silences = 0
        gone = any(isinstance(e, ev.PlayerLeft) and e.seat == self.seat for e in events)
        self.left_table = self.left_table or gone
        if gone or any(isinstance(e, ev.LeaveQueued) for e in events):
            try:  # our leave is on disk, or asked for: nothing to resume from here on
                if self._game is not None:
                    self._game.mark_left()
            except (OSError, StoreError) as exc:
                self._fail(_("cannot write the transcript: {error}").format(error=exc))
                return
        self._send(self.peer.frames_to_send())
        for event in events:
            self.events.put_nowait(api.Engine(event))
        choice = self.peer.choice()
        if choice is not None:
            key = (len(entries), choice)
            if key != self._last_choice:
                self._last_choice = key
                self.events.put_nowait(api.YourChoice(choice))

    def _visible(self) -> int:
        """How many entries others may see now: all, but for held frames (``_hold_pass``)."""
        return len(self.peer.entries) if self._held is None else self._hold_from

    def _hold_pass(self, events: list[ev.Event]) -> None:
        """Pace a person's automatic "cannot refute" like a choice (1-3 s, as ``net.local``).

        The engine answers at once when this seat holds none of the named cards; sent at
        once, the timing would tell the table that. So the frames are held (on disk
        already: the transcript is written before this returns) and sent after a delay
        drawn from the time a person takes to pick a card. Frames the engine makes while
        they are held join them, so the order on the wire never changes. Catch-up shows
        nothing from the first held entry on either (``_visible``): a peer that re-links
        during the hold must not learn sooner than the others.
        """
        passed = self.pass_delay[1] > 0 and any(
            isinstance(e, ev.Passed) and e.seat == self.seat for e in events)
        if self._held is None and not passed:
            return
        if self._held is None:
            self._held = []
            entries = self.peer.entries
            self._hold_from = next((i for i in range(self._written, len(entries))
                                    if _sender(entries[i]) == self.seat), len(entries))
            low, high = self.pass_delay
            delay = _PACE_RNG.uniform(low, high)
            asyncio.get_running_loop().call_later(delay, self._release_held)
        self._held.extend(self.peer.frames_to_send())

    def _release_held(self) -> None:
        held, self._held = self._held or [], None
        if self._closed:
            return
        self._send(held)

    def _send(self, frames: list[tuple[bytes, int | None]]) -> None:
        """Frames to everyone (but their author); a frame addressed to one seat (a private
        opening of a show) only over that seat's own link, never relayed."""
        for raw, to in frames:
            if to is not None:
                self._mesh.send(self.config.players[to].identity, TAG_FRAME, raw)
            else:
                self._relay(raw)

    def _relay(self, raw: bytes) -> None:
        """Send a frame to every link but its signer's that asked for catch-up (``have``):
        until then a link gets nothing, and then the entries it lacks, in order, so an
        honest link never delivers a frame its receiver cannot place (which is charged)."""
        sender = _sender(raw)
        exclude = {ident for ident in self._mesh.linked() if not self._haves.get(ident)}
        if sender is not None:
            exclude.add(self.config.players[sender].identity)
        self._mesh.broadcast(TAG_FRAME, raw, exclude)

    def _fail(self, message: str) -> None:
        """This player's own disk failed: it stops playing, and says how to come back (the
        table only waits; nothing verified so far is lost)."""
        self.peer.abandon()
        if self._game is not None:
            message += " " + _("Everything verified so far is kept: fix this, then "
                               "p2pclue join --resume plays on.")
        self.ended = api.Ended("abandoned", None, None, message)
        self.events.put_nowait(self.ended)

    def _on_timeout(self) -> None:
        now = time.monotonic()
        events = self.peer.on_timeout(now)
        for e in events:
            if isinstance(e, ev.PeerSilent):
                self._silences += 1
                deadline = self.peer.next_deadline() or now
                self.events.put_nowait(api.Waiting(e.seat, e.deadline - self._timeout,
                                                   deadline))
        self._after_engine(events)
        if self._silences == self._give_up_after:
            self.vote("abandon")  # the table decides together (signed votes, a quorum)
        elif self._silences >= 2 * self._give_up_after:
            self.peer.abandon()  # nobody answers at all: keep what is verified, alone

    def vote(self, choice: str) -> bool:
        """Vote to ``"wait"`` or ``"abandon"`` about the seat the table waits for; False
        when there is nothing to vote on (nobody reported silent, or this is that seat), or
        while a pass is held (a vote names the head, which would show the held entry)."""
        if self._held is not None:
            return False
        try:
            raw, events = self.peer.vote(choice, time.monotonic())
        except EngineError:
            return False
        self._mesh.broadcast(TAG_SYNC, {"t": "vote", "v": raw})
        self._after_engine(events)
        return True

    def _late_lobby(self, ident: bytes, body: bytes) -> None:
        """A spectator arriving during the game gets the signed start (and then catches up).

        Players never join a started game: their hello is refused. Every other lobby
        message during play, and a second hello on one link, is junk (charged; one left
        over from the lobby costs an honest player one unit of its budget).
        """
        msg = decode_meta(body, MAX_LATE_LOBBY_BYTES)
        hello = msg is not None and msg.get("t") == "hello"
        if not hello or ident in self._hellos or ident in self._seats:
            self._charge(ident, 1, len(body))
        if msg is None or not hello or ident in self._hellos \
                or ident not in self._mesh.linked():
            return  # junk gets no answer, and one link gets one answer
        self._hellos.add(ident)
        player = ident in self._seats or msg.get("role") != "spectator"
        if player or len(self.spectators) >= MAX_SPECTATORS:
            reason = "the game has already started" if player else "there are enough spectators"
            self._mesh.send(ident, TAG_LOBBY, {"t": "refuse", "reason": reason})
            return
        self._mesh.send(ident, TAG_LOBBY, self.start_record.to_wire())

    # ---- sync and presence -------------------------------------------------------------

    def _hello(self) -> dict[str, Any]:
        return {"t": "have", "n": self._visible(), "name": self._name,
                "role": "player" if self.seat is not None else "spectator"}

    def _link_up(self, ident: bytes) -> None:
        self._haves[ident] = 0
        self._up_since.setdefault(ident, time.monotonic())
        self._mesh.send(ident, TAG_SYNC, self._hello())
        if self._mesh.guesses.own:
            self._mesh.send(ident, TAG_SYNC, self._mesh.guesses.message())
        seat = self._seats.get(ident)
        if seat is not None:
            for raw in self.peer.private_openings_for(seat):  # lost with the old link?
                self._mesh.send(ident, TAG_FRAME, raw)
            self.events.put_nowait(api.Presence(self._names[ident], seat, True))

    def _link_down(self, ident: bytes) -> None:
        self._haves.pop(ident, None)
        self._copies.pop(ident, None)
        self._hellos.discard(ident)
        self._dones.discard(ident)
        up = self._up_since.pop(ident, None)
        if up is not None and time.monotonic() - up >= LINK_STEADY:
            self._redial_from.pop(ident, None)
        seat = self._seats.get(ident)
        if seat is not None:
            self.events.put_nowait(api.Presence(self._names[ident], seat, False))
            if self._mesh.public < ident and not self._closed \
                    and ident not in self._redials:  # one side dials: the smaller key
                self._redials[ident] = asyncio.ensure_future(self._redial(ident))
        elif ident in self.spectators:
            self.events.put_nowait(api.Presence(self.spectators.pop(ident), None, False))

    def _sync(self, ident: bytes, body: bytes) -> None:
        msg = decode_meta(body, MAX_SYNC_BYTES)
        kind = None if msg is None else msg.get("t")
        if msg is None or kind not in ("have", "done", "vote", "attempts"):
            self._charge(ident, 1, len(body))
            return
        if kind == "attempts":
            before = self._mesh.guesses.total
            if not self._mesh.guesses.report(ident, msg.get("n")):
                self._charge(ident, 1)
            elif self._mesh.guesses.total != before:
                self._guesses_changed()
            return
        if kind == "have":
            n = msg.get("n")
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                self._charge(ident, 1)
                return
            if ident not in self._seats and ident not in self.spectators:
                name = msg.get("name")
                label = name if isinstance(name, str) and name.isprintable() else "someone"
                self.spectators[ident] = label[:40]
                self.events.put_nowait(api.Presence(self.spectators[ident], None, True))
            missing = self.peer.entries[n:min(n + MAX_SENT_PER_HAVE, self._visible())]
            self._haves[ident] = self._haves.get(ident, 0) + 1
            if self._haves[ident] > HAVES_FREE:  # 1 per 16 frames it makes us send again
                self._charge(ident, 1 + len(missing) // 16)
                if ident not in self._mesh.linked():
                    return
            for raw in missing:
                self._mesh.send(ident, TAG_FRAME, raw)
                self.resent += 1
        elif kind == "done":
            if ident in self._dones:  # a peer says it once (on a link that is up then)
                self._charge(ident, 1)
            self._dones.add(ident)
            if ident in self._seats:  # a spectator's says nothing we wait for
                self._done_from.add(ident)
        elif ident in self._seats and isinstance(msg.get("v"), bytes):
            before = self.peer.dropped_count
            events = self.peer.receive_vote(msg["v"], time.monotonic())
            self._charge(ident, self.peer.dropped_count - before)
            self._after_engine(events)
        else:
            self._charge(ident, 1)  # a spectator's vote, or a vote that is no bytes

    def start_redials(self) -> None:
        """After a restart: dial every player this member owes a link (smaller key dials);
        the others dial us on the port we listened on before."""
        for i, player in enumerate(self.config.players):
            if i != self.seat and self._mesh.public < player.identity \
                    and player.identity not in self._redials:
                self._redials[player.identity] = asyncio.ensure_future(
                    self._redial(player.identity))

    async def _redial(self, ident: bytes) -> None:
        """Dial a lost player again with back-off until it is back (its process restarts on
        the port it listened on) or this session closes."""
        address = next((a for a in self.start_record.addresses if a.identity == ident), None)
        host = address.host if address is not None else ""
        if not host and self._host_addr is not None:
            host = self._host_addr[0]
        wait = self._redial_from.get(ident, 0.0)  # its last link died at once: no hurry
        delay = REDIAL_FIRST
        try:
            while address is not None and host and not self._closed \
                    and ident not in self._mesh.linked():
                pause = max(wait, self.junk.banned_until(ident) - time.monotonic())
                if pause > 0:  # a key cut for junk waits out its refusal, and so do we
                    await asyncio.sleep(pause)
                    wait = 0.0
                    continue
                try:
                    await self._mesh.dial(host, address.port, timeout=2.0, expect=ident)
                except links.BadAddress as exc:  # no re-dial can help: say so, once
                    log.warning("seat %s cannot be re-dialled: %s", self._seats.get(ident), exc)
                    return
                except (links.Unreachable, links.HandshakeTimeout, links.LinkClosed,
                        links.Busy, OSError, TimeoutError):
                    pass  # nobody there yet (the player's process is restarting), or busy
                except (EngineError, links.LinkError) as exc:
                    # another key answered, or refused the link: no code was at stake (game
                    # mode), but it is logged, and asked again only slowly
                    log.info("re-dial of seat %s at %s:%s failed: %s",
                             self._seats.get(ident), host, address.port, exc)
                    delay = max(delay, REDIAL_STRANGER)
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, REDIAL_STRANGER_MAX)
                    continue
                else:  # should this link die at once, the next one waits
                    last = self._redial_from.get(ident, 0.0)
                    self._redial_from[ident] = min(max(2 * last, REDIAL_FIRST), REDIAL_MAX)
                    continue
                await asyncio.sleep(delay)
                delay = min(delay * 2, max(REDIAL_MAX, delay))
        finally:
            self._redials.pop(ident, None)

    # ---- the end ---------------------------------------------------------------------

    async def _finish(self) -> None:
        """Close the transcript, tell the table we are done, audit our own file."""
        if self.ended is not None:
            return  # already ended (the transcript could not be written)
        peer = self.peer
        transcript = peer.transcript()
        try:
            self._store.close(transcript.footer)
        except (StoreError, ValueError) as exc:
            self.ended = api.Ended(transcript.footer.status, None, None,
                                   _("the transcript could not be finished: {error}").format(
                                       error=exc))
            self.events.put_nowait(self.ended)
            return
        self._mesh.broadcast(TAG_SYNC, {"t": "done", "n": len(peer.entries)})
        if self.seat is not None and peer.status is Status.COMPLETE:
            await self._linger()
        ok, message = _audit_file(self.transcript_path)
        self.ended = api.Ended(transcript.footer.status, self.transcript_path, ok, message)
        self.events.put_nowait(self.ended)

    async def _linger(self) -> None:
        """Answer catch-up requests until every player still linked says it is done."""
        loop = asyncio.get_running_loop()
        end = loop.time() + LINGER
        others = {p.identity for i, p in enumerate(self.config.players) if i != self.seat}
        while loop.time() < end:
            waiting = (others & self._mesh.linked()) - self._done_from
            if not waiting:
                break
            try:
                item = await asyncio.wait_for(self._mesh.inbox.get(), end - loop.time())
            except TimeoutError:
                break
            if isinstance(item, Received) and item.identity in self._cut_off:
                continue
            if isinstance(item, LinkDown):
                self._cut_off.discard(item.identity)
            elif isinstance(item, Received) and item.tag == TAG_SYNC:
                self._sync(item.identity, item.body)
            elif isinstance(item, Received) and item.tag == TAG_FRAME:
                before = self.peer.dropped_count
                with contextlib.suppress(EngineError):
                    self.peer.receive(item.body, time.monotonic())
                self._trim_dropped()
                self._charge(item.identity, self.peer.dropped_count - before)
            elif isinstance(item, LinkUp):
                self._link_up(item.identity)
        await self._mesh.flush(2.0)


def _sender(raw: bytes) -> int | None:
    try:
        return split_frame(raw)[0]
    except WireError:
        return None


def _audit_file(path: Path) -> tuple[bool | None, str]:
    try:
        raw = path.read_bytes()
        verdict = audit(parse(raw), raw)
    except (OSError, EngineError) as exc:
        return False, _("the saved transcript cannot be read: {error}").format(error=exc)
    if verdict.valid:
        return True, ngettext("valid ({result}, {count} message)",
                              "valid ({result}, {count} messages)", verdict.entries).format(
            result=outcome_word(verdict.result), count=verdict.entries)
    v = verdict.violation
    # Translators: {reason} comes from the protocol checks, in English.
    return False, _("invalid: {reason}").format(reason=v.reason if v else "unknown")
