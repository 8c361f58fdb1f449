"""The session core: one game as one seat (or a spectator) plays it, without any I/O.

Everything a table member decides during a game lives here, as a state machine in the
style of h11 and aioquic's ``QuicConnection``: it holds the engine ``Peer`` and the
network's own protocol around it (the sync messages ``have``/``done``/``vote``/
``attempts``, catch-up by transcript index, junk and copy accounting per link, the pacing
of a person's automatic "cannot refute", spectators arriving late, the re-dial back-off,
silences and abandon votes, the linger after the end). It never touches a socket, a file,
a clock or a random module: every input carries ``now``, randomness is injected, and every
input returns the ordered list of ``net.actions`` its driver executes. A driver
(``net.session`` on real links, ``net.memory`` in tests) feeds link events, messages,
the front end's intents and votes, and a ``tick`` at ``next_deadline()``.

Order is the persistence contract: within a batch, a persist action (transcript entries,
a secrets record, the transcript's place, the leave mark, the closing footer) comes before
every send that depends on it; this seat's own frames go out only after the append that
holds them (``sync``) and after the secrets they commit to.

Resume: ``restore`` rebuilds the core from what its driver persisted (the signed start, the
transcript entries, the last secrets record): the engine replays the entries, so the core
holds the same peer state and sends the same frames as before the crash (its own stored
frames by catch-up, never a new version of a step it signed).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Protocol

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.crypto.rand import ScalarSource
from p2pclue.engine import events as ev
from p2pclue.engine.errors import EngineError, WireError
from p2pclue.engine.peer import Choice, Peer, Status
from p2pclue.engine.peer_secrets import PeerSecrets
from p2pclue.engine.wire import pack, split_frame, unpack_canonical
from p2pclue.i18n import _
from p2pclue.net import api, redial
from p2pclue.net.actions import (
    Action,
    Append,
    CloseTranscript,
    CodeUsedUp,
    Cut,
    Dial,
    Emit,
    End,
    MarkLeft,
    RecordTranscript,
    SaveSecrets,
    Send,
)
from p2pclue.net.guesses import Guesses
from p2pclue.net.hosts import LOOPBACK
from p2pclue.net.junk import JunkBudget
from p2pclue.net.liveness import Liveness
from p2pclue.net.lobby import MAX_SPECTATORS, Start
from p2pclue.net.meta import TAG_FRAME, TAG_LOBBY, TAG_SYNC, decode_meta
from p2pclue.rules.state import GameState

DEFAULT_TIMEOUT = 120.0
"""Seconds of silence before the table is told who it waits for."""
GIVE_UP_AFTER = 3
"""Silences in a row (each ``timeout`` long) after which the game is ended as abandoned."""
PERSON_VOTE_FACTOR = 3
"""A person's seat (paced, ``pass_delay``) votes by itself only after this many times
``give_up_after`` silences: until then the person decides (``vote``, the UI's w / x)."""
LINGER = 10.0
"""After the end, how long to wait for every player to confirm it is done too."""
MAX_SENT_PER_HAVE = 100_000
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
PRIVATE_OPENING_HEAD = b"\x94"
"""A private opening is a msgpack array of 4 (a frame, of 3): ``engine.turn``."""
MAX_PRIVATE_OPENING = 256
COPIES_FREE = 64
HUMAN_PASS_DELAY = (1.0, 3.0)
"""How long a person's seat holds its automatic "cannot refute" (as ``net.local.Pace``)."""
SYNC_KINDS = ("have", "done", "vote", "attempts", "alive")


class Uniform(Protocol):
    """Where the pacing delay comes from (``random.SystemRandom`` in play, seeded in tests)."""

    def uniform(self, a: float, b: float, /) -> float: ...


@dataclass(frozen=True)
class Settings:
    """How this member plays: what its driver knows before the game starts."""

    name: str
    timeout: float = DEFAULT_TIMEOUT
    give_up_after: int = GIVE_UP_AFTER
    pass_delay: tuple[float, float] = (0.0, 0.0)
    """A person's seat: hold its automatic "cannot refute" this long (``_hold_pass``)."""
    game_files: bool = False
    """A game folder keeps this player's secrets, the transcript's place and the leave mark."""
    verify_own: bool = False


class SessionCore:
    """A game as one seat (``seat``; None for a spectator) decides it over its links."""

    def __init__(self, start: Start, identity: Ed25519PrivateKey, settings: Settings,
                 now: float, *, src: ScalarSource | None, rng: Uniform,
                 host_addr: tuple[str, int] | None = None,
                 guesses: Guesses | None = None) -> None:
        """``src``: this seat's secret randomness (None only for a spectator); ``rng``: the
        pacing delays; ``host_addr``: where the host was reached, for re-dialling it;
        ``guesses``: the table's wrong codes, the very object the member's transport
        reserves guesses in and counts them (shared, not copied: the count shown during
        play is the table's, and the listeners' budget sees what the others report)."""
        self.start_record = start
        self.config = start.config
        self.me = identity.public_key().public_bytes_raw()
        self.seats = {p.identity: i for i, p in enumerate(self.config.players)}
        self.seat: int | None = self.seats.get(self.me)
        self.settings = settings
        self.host_addr = host_addr
        self._rng = rng
        person = settings.pass_delay != (0.0, 0.0)
        self._give_up_after = settings.give_up_after * (PERSON_VOTE_FACTOR if person else 1)
        if self.seat is None:  # a spectator relays nothing: players ignore its frames
            self.peer = Peer(self.config, None, now=now, timeout=settings.timeout,
                             relay=False)
        else:
            self.peer = Peer(self.config, self.seat, identity, src, now=now,
                             timeout=settings.timeout, verify_own=settings.verify_own)
        self.guesses = guesses if guesses is not None else Guesses()
        self._names = {p.identity: p.name for p in self.config.players}
        self._out: list[Action] = []
        self._links: dict[bytes, None] = {}
        """The links this core was told are up, in the order they came (a dict: ordered)."""
        self._haves: dict[bytes, int] = {}
        """Per link: the ``have`` messages it sent. Frames go only to a link that sent one
        (after the catch-up it asked for), so an honest link delivers entries in order."""
        self._copies: dict[bytes, int] = {}
        self._openings: dict[bytes, tuple[int, bytes]] = {}
        """The last private opening each link brought, with its show's index."""
        """Per link: copies of accepted or held frames it delivered (``COPIES_PER_ENTRY``)."""
        self._dones: set[bytes] = set()
        """Links that said ``done`` (a second one is junk)."""
        self._done_from: set[bytes] = set()
        self._hellos: set[bytes] = set()
        """Links whose spectator ``hello`` during play was answered (the next one is junk)."""
        self._cut_off: set[bytes] = set()
        """Links cut for junk until their ``link_down``: what they still had queued is not read."""
        self.liveness = Liveness()
        """When each link last carried something (``net.liveness``: ``alive``, silent cuts)."""
        self._silent: set[bytes] = set()
        """Links cut as silent until their ``link_down`` (told as "not answering")."""
        self.junk = JunkBudget()
        """Junk (what the engine dropped) charged per link partner; see ``net.junk``."""
        self.junk_cuts = 0
        """Links this member cut because their junk went over budget."""
        self.junk_charged = 0
        """Junk units charged to link partners in all (an honest table charges none)."""
        self.redials = redial.Redials()
        self.spectators: dict[bytes, str] = {}
        self.left_table = False
        """This seat left gracefully (its own leave is accepted): the table plays on."""
        self.resumed_events: list[ev.Event] = []
        """The replayed events of a resumed game (a front end rebuilds its view from them)."""
        self.resent = 0
        """Entries sent to peers that lacked them (catch-up), for the benchmark."""
        self.ignored = 0
        """Messages not even read: a spectator's frames, a cut link's leftovers."""
        self._resumed = False
        self._created = False
        self._written = 0
        """Entries handed to the driver to persist; a resumed peer may already hold a new
        one of its own (built during the replay): it is persisted, like its secrets, before
        anything is sent."""
        self._saved_secrets = 0
        self._silences = 0
        self._last_choice: tuple[int, Choice] | None = None
        self.held: list[tuple[bytes, int | None]] | None = None
        """While a pass is held: the frames waiting for ``release_at``, in order."""
        self._hold_from = 0
        """While frames are held: the index of this seat's first held entry; nothing from
        there on is shown to anyone (no frame, no count) before the release."""
        self.release_at: float | None = None
        self._linger_until: float | None = None
        self._finished = False
        """The game is over for this peer (transcript closed or failed): no more persists."""
        self._status = "abandoned"
        """The footer's status once the game is over (what ``End`` reports)."""
        self._told: set[bytes] = set()
        """Seats' links that got this peer's abandon certificate since they came up."""
        self.ended: End | None = None
        self.closed = False

    # ---- resume ----------------------------------------------------------------------

    def restore(self, secrets: PeerSecrets, entries: list[bytes], now: float) -> None:
        """Rebuild the peer from what was persisted (before ``start``). ``EngineError`` or
        ``SecretsError`` when the entries do not replay or the secrets do not fit them."""
        self.resumed_events = self.peer.restore(secrets, entries, now)
        self._resumed = True
        self._written = len(entries)
        self._saved_secrets = -1  # saved again before the first send, whatever changed

    # ---- what the front ends read ----------------------------------------------------

    @property
    def state(self) -> GameState | None:
        return self.peer.rules_state

    @property
    def dropped_total(self) -> int:
        """Frames the engine dropped plus messages never read (all charged somewhere)."""
        return self.peer.dropped_count + self.ignored

    def copies(self, key: bytes) -> int:
        """Copies of accepted or held frames the link to ``key`` delivered (while it is up)."""
        return self._copies.get(key, 0)

    def visible(self) -> int:
        """How many entries others may see now: all, but for held frames (``_hold_pass``)."""
        return len(self.peer.entries) if self.held is None else self._hold_from

    def admits(self, key: bytes, now: float, linked: Collection[bytes]) -> bool:
        """Whether a new link from ``key`` may be kept: not while refused for junk, and at
        most ``MAX_SPECTATORS`` links (of ``linked``) to keys of no seat."""
        strangers = sum(1 for k in linked if k not in self.seats)
        return not self.junk.banned(key, now) and (
            key in self.seats or strangers < MAX_SPECTATORS)

    def next_deadline(self) -> float | None:
        """When ``tick`` has something to do (None: nothing until the next input)."""
        if self.closed or self.ended is not None:
            return None
        times = [t for t in (self.release_at, self._linger_until) if t is not None]
        if not self._finished and (deadline := self.peer.next_deadline()) is not None:
            times.append(deadline)
        if self.redials and (dial := self.redials.next_time(self._bans())) is not None:
            times.append(dial)
        if not self._finished and (alive := self.liveness.next_time()) is not None:
            times.append(alive)
        return min(times) if times else None

    # ---- inputs ----------------------------------------------------------------------

    def created(self) -> list[Action]:
        """What a new seat persists as its session is created, before anything else: where
        its transcript is, then its secrets (none drawn yet), so a player killed before its
        first step still has a game that ``join --resume`` finds (it draws them then)."""
        if not self.settings.game_files or self.seat is None or self._resumed \
                or self._created:
            return []
        self._created = True
        self._saved_secrets = self.peer.secrets_version
        return [RecordTranscript(), SaveSecrets(self.peer.export_secrets())]

    def start(self, now: float) -> list[Action]:
        """The first batch: whatever this seat owes first (seat 0's join)."""
        if self._idle():
            return []
        self._after_engine(self.peer.start(now), now)
        return self._done(now)

    def link_up(self, key: bytes, now: float) -> list[Action]:
        """An authenticated link to ``key`` came up (again): say how far we are (``have``).
        After an end by an abandon certificate, the certificate is all it gets."""
        if self._idle():
            self._told.discard(key)
            self._spread_certificate(key)
            return self._done(now) if self._out else []
        self.liveness.called(now)
        self._links[key] = None
        self._haves[key] = 0
        self.liveness.up(key, now)
        self.redials.up(key, now)
        self._send((key,), TAG_SYNC, self._hello())
        if self.guesses.own:
            self._send((key,), TAG_SYNC, self.guesses.message())
        seat = self.seats.get(key)
        if seat is not None:
            for raw in self.peer.private_openings_for(seat):  # lost with the old link?
                self._send((key,), TAG_FRAME, raw)
            self._out.append(Emit(api.Presence(self._names[key], seat, True)))
        return self._done(now)

    def link_down(self, key: bytes, now: float) -> list[Action]:
        """The link to ``key`` is gone (either side closed it, or it broke)."""
        if self._idle():
            return []
        self._cut_off.discard(key)
        silent = key in self._silent
        self._silent.discard(key)
        self.liveness.down(key)
        self._links.pop(key, None)
        self._haves.pop(key, None)
        self._copies.pop(key, None)
        self._hellos.discard(key)
        self._dones.discard(key)
        self.redials.down(key, now)
        if self._finished:
            return self._done(now)  # after the end nobody is re-dialled or announced
        seat = self.seats.get(key)
        if seat is not None:
            self._out.append(Emit(api.Presence(self._names[key], seat, False, silent=silent)))
            if self.me < key and self._address(key) is not None:  # the smaller key dials
                self.redials.lost(key, now)
        elif key in self.spectators:
            self._out.append(Emit(api.Presence(self.spectators.pop(key), None, False)))
        return self._done(now)

    def receive(self, key: bytes, tag: int, body: bytes, now: float) -> list[Action]:
        """One message from the link to ``key``: a frame, a sync or a late lobby message."""
        if self._idle():
            self._spread_certificate(key)  # it may play on past the point we ended at
            return self._done(now) if self._out else []
        self.liveness.called(now)
        if key in self._links:
            self.liveness.heard(key, now)
        if key in self._cut_off or key in self._silent:
            self.ignored += 1  # still queued from a link cut for junk: not even read
        elif tag == TAG_FRAME:
            self._frame(key, body, now)
        elif tag == TAG_SYNC:
            self._sync(key, body, now)
        elif tag == TAG_LOBBY:
            self._late_lobby(key, body, now)
        return self._done(now)

    def refused(self, now: float) -> list[Action]:
        """One of this member's listeners or dials met a wrong code: tell the table. The
        transport's report already counted it in ``guesses`` (in the same step as its
        reservation ended: ``net.guesses``)."""
        if self._idle():
            return []
        self._send(tuple(self._links), TAG_SYNC, self.guesses.message())
        self._guesses_changed()
        return self._done(now)

    def submit(self, intent: ev.Intent, now: float) -> list[Action]:
        """The local player's choice; ``LocalProtocolError`` when it is not theirs now."""
        events = self.peer.act(intent, now)
        if self._idle():
            return []
        self._after_engine(events, now)
        return self._done(now)

    def vote(self, choice: str, now: float) -> tuple[bool, list[Action]]:
        """Vote to ``"wait"`` or ``"abandon"`` about the seat the table waits for; False
        when there is nothing to vote on (nobody reported silent, or this is that seat), or
        while a pass is held (a vote names the head, which would show the held entry)."""
        if self._idle():
            return False, []
        cast = self._vote(choice, now)
        return cast, self._done(now)

    def tick(self, now: float) -> list[Action]:
        """Time passed: release a held pass, end the linger, re-dial, report silences."""
        if self._idle():
            return []
        if self.release_at is not None and now >= self.release_at:
            held, self.held, self.release_at = self.held or [], None, None
            self._send_frames(held)
        if self._linger_until is not None and now >= self._linger_until:
            self._end()
        self.liveness.called(now)
        if not self._finished:
            self._keep_alive(now)
        for key in self.redials.due(now, self._bans()) if self.redials else ():
            address = self._address(key)
            if address is not None:
                self._out.append(Dial(key, *address))
        deadline = self.peer.next_deadline()
        if not self._finished and deadline is not None and now >= deadline:
            self._on_timeout(now)
        return self._done(now)

    def redial_all(self, now: float) -> list[Action]:
        """After a restart: dial every player this member owes a link (the smaller key
        dials); the others dial us on the port we listened on before."""
        if self._idle():
            return []
        for i, player in enumerate(self.config.players):
            if i != self.seat and self.me < player.identity \
                    and self._address(player.identity) is not None:
                self.redials.lost(player.identity, now)
        return self.tick(now)

    def redial(self, key: bytes, now: float) -> list[Action]:
        """Dial the player ``key`` now and on (until linked, or no dial can help)."""
        if self._idle() or self._address(key) is None:
            return []
        self.redials.lost(key, now)
        return self.tick(now)

    def dialled(self, key: bytes, outcome: str, now: float) -> list[Action]:
        """How a ``Dial`` ended (``net.redial``: linked, nobody, stranger, bad-address)."""
        if outcome not in redial.OUTCOMES:
            raise ValueError(f"unknown dial outcome {outcome!r}")
        if not self._idle():
            self.redials.dialled(key, outcome, now)
        return []

    def persist_failed(self, action: Action, error: str, now: float) -> list[Action]:
        """The driver could not execute the persist ``action`` (it dropped the rest of its
        batch): this player stops and says how to come back; the table only waits."""
        if self.ended is not None:
            return []
        self._out = []
        if isinstance(action, CloseTranscript):
            self._finished = True
            self._end(action.footer.status, _("the transcript could not be finished: {error}")
                      .format(error=error))
            return self._done(now)
        message = (_("cannot save this game's secrets: {error}") if isinstance(action, SaveSecrets)
                   else _("cannot write the transcript: {error}")).format(error=error)
        self.peer.abandon()
        if self.settings.game_files:
            message += " " + _("Everything verified so far is kept: fix this, then "
                               "p2pclue join --resume plays on.")
        self._finished = True
        self._end("abandoned", message)
        return self._done(now)

    def close(self) -> None:
        """The front end closed the session: nothing more is decided (the game stays
        unfinished on disk, and a resume fetches what it lacks)."""
        self.closed = True
        self.redials.cancel_all()
        self.held, self.release_at = None, None

    # ---- one frame path ----------------------------------------------------------------

    def _frame(self, key: bytes, raw: bytes, now: float) -> None:
        seat = self.seats.get(key)
        if seat is None:
            self.ignored += 1  # a spectator never acts (nor relays): its bytes go nowhere
            self._charge(key, 1, now, len(raw))
            return
        peer = self.peer
        before = peer.dropped_count + peer.unplaced_count
        copies = peer.duplicate_count
        events = peer.receive(raw, now, via=seat)
        junk = peer.dropped_count + peer.unplaced_count - before
        if peer.duplicate_count > copies:
            self._copies[key] = self._copies.get(key, 0) + 1
            if self._copies[key] > COPIES_FREE + COPIES_PER_ENTRY * len(peer.entries):
                junk += 1
        elif not junk:
            junk += self._another_opening(key, raw)
        self._charge(key, junk, now, len(raw))
        self._after_engine(events, now)

    def _another_opening(self, key: bytes, raw: bytes) -> int:
        """1 when ``raw``, a private opening the engine just kept, is a different one for
        the index of the last one this link brought: an honest refuter's re-send is the
        same bytes (its opening is a function of its key and the show), so only a flood of
        replacements pays (docs/protocol.md, "Deniable refutation")."""
        if raw[:1] != PRIVATE_OPENING_HEAD:
            return 0
        try:
            index = unpack_canonical(raw, MAX_PRIVATE_OPENING)[2]
        except (WireError, IndexError, TypeError):
            return 0  # the engine kept it, so it reads; this is no more than a guard
        last = self._openings.get(key)
        self._openings[key] = (index, raw)
        return 1 if last is not None and last[0] == index and last[1] != raw else 0

    def _charge(self, key: bytes, junk: int, now: float, size: int = 0) -> None:
        """Charge junk to the link it came on (``size``: the bytes of that message, one
        more unit per ``JUNK_UNIT_BYTES``); over budget, cut the link.

        The cut is a lost link, nothing more: no blame, nothing in the transcript; a player
        re-links (at once the first time, later after a growing wait) and catches up."""
        if junk <= 0:
            return
        junk += size // JUNK_UNIT_BYTES
        self.junk_charged += junk
        if not self.junk.charge(key, junk, now) or key not in self._links:
            return
        self.junk.cut(key, now)
        self.junk_cuts += 1
        self._cut_off.add(key)  # until its link_down, which the driver reports after them
        self._links.pop(key, None)
        self._out.append(Cut(key, "junk over budget"))

    def _after_engine(self, events: list[ev.Event], now: float) -> None:
        """Persist what was accepted, then send, then tell the front end."""
        if self._finished:
            return  # the transcript is closed: late frames are checked and charged only
        peer = self.peer
        self._hold_pass(events, now)
        if self.settings.game_files and self.seat is not None \
                and peer.secrets_version != self._saved_secrets:
            # before any frame that commits to the new secret leaves
            self._out.append(SaveSecrets(peer.export_secrets()))
            self._saved_secrets = peer.secrets_version
        entries = peer.entries
        new = entries[self._written:]
        if new:
            mine = self.seat is not None and any(_sender(raw) == self.seat for raw in new)
            self._out.append(Append(tuple(new), sync=mine))
            self._written = len(entries)
            self._silences = 0
        gone = any(isinstance(e, ev.PlayerLeft) and e.seat == self.seat for e in events)
        self.left_table = self.left_table or gone
        if self.settings.game_files and (
                gone or any(isinstance(e, ev.LeaveQueued) for e in events)):
            self._out.append(MarkLeft())  # our leave is on disk, or asked for
        self._send_frames(peer.frames_to_send())
        self._out += [Emit(api.Engine(event)) for event in events]
        choice = peer.choice()
        if choice is not None:
            key = (len(entries), choice)
            if key != self._last_choice:
                self._last_choice = key
                self._out.append(Emit(api.YourChoice(choice)))

    def _hold_pass(self, events: list[ev.Event], now: float) -> None:
        """Pace a person's automatic "cannot refute" like a choice (1-3 s, as ``net.local``).

        The engine answers at once when this seat holds none of the named cards; sent at
        once, the timing would tell the table that. So the frames are held (persisted
        already: the append comes first in the batch) and sent after a delay drawn from the
        time a person takes to pick a card. Frames the engine makes while they are held join
        them, so the order on the wire never changes. Catch-up shows nothing from the first
        held entry on either (``visible``): a peer that re-links during the hold must not
        learn sooner than the others.
        """
        passed = self.settings.pass_delay[1] > 0 and any(
            isinstance(e, ev.Passed) and e.seat == self.seat for e in events)
        if self.held is None and not passed:
            return
        if self.held is None:
            self.held = []
            entries = self.peer.entries
            self._hold_from = next((i for i in range(self._written, len(entries))
                                    if _sender(entries[i]) == self.seat), len(entries))
            low, high = self.settings.pass_delay
            self.release_at = now + self._rng.uniform(low, high)
        self.held.extend(self.peer.frames_to_send())

    def _send_frames(self, frames: list[tuple[bytes, int | None]]) -> None:
        """Frames to everyone (but their author); a frame addressed to one seat (a private
        opening of a show) only over that seat's own link, never relayed."""
        for raw, to in frames:
            if to is not None:
                key = self.config.players[to].identity
                if key in self._links:
                    self._send((key,), TAG_FRAME, raw)
            else:
                self._relay(raw)

    def _relay(self, raw: bytes) -> None:
        """Send a frame to every link but its signer's that asked for catch-up (``have``):
        until then a link gets nothing, and then the entries it lacks, in order, so an
        honest link never delivers a frame its receiver cannot place (which is charged)."""
        sender = _sender(raw)
        signer = self.config.players[sender].identity if sender is not None else None
        to = tuple(k for k in self._links if self._haves.get(k) and k != signer)
        self._send(to, TAG_FRAME, raw)

    def _send(self, to: tuple[bytes, ...], tag: int, body: bytes | dict[str, Any]) -> None:
        if to:
            self._out.append(Send(to, tag, body if isinstance(body, bytes) else pack(body)))

    # ---- silence and votes ------------------------------------------------------------

    def _on_timeout(self, now: float) -> None:
        events = self.peer.on_timeout(now)
        for e in events:
            if isinstance(e, ev.PeerSilent):
                self._silences += 1
                deadline = self.peer.next_deadline() or now
                self._out.append(Emit(api.Waiting(e.seat, e.deadline - self.settings.timeout,
                                                  deadline)))
        self._after_engine(events, now)
        if self._silences == self._give_up_after:
            self._vote("abandon", now)  # the table decides together (signed votes, a quorum)
        elif self._silences >= 2 * self._give_up_after:
            self.peer.abandon()  # nobody answers at all: keep what is verified, alone

    def _vote(self, choice: str, now: float) -> bool:
        if self.held is not None or self._finished:
            return False
        try:
            raw, events = self.peer.vote(choice, now)
        except EngineError:
            return False
        self._send(tuple(self._links), TAG_SYNC, {"t": "vote", "v": raw})
        self._after_engine(events, now)
        return True

    # ---- sync messages, late lobby messages -------------------------------------------

    def _hello(self) -> dict[str, Any]:
        return {"t": "have", "n": self.visible(), "name": self.settings.name,
                "role": "player" if self.seat is not None else "spectator"}

    def _sync(self, key: bytes, body: bytes, now: float) -> None:
        msg = decode_meta(body, MAX_SYNC_BYTES)
        kind = None if msg is None else msg.get("t")
        if msg is None or kind not in SYNC_KINDS:
            self._charge(key, 1, now, len(body))
        elif kind == "attempts":
            before = self.guesses.total
            if not self.guesses.report(key, msg.get("n")):
                self._charge(key, 1, now)
            elif self.guesses.total != before:
                self._guesses_changed()
        elif kind == "alive":
            if set(msg) != {"t"} or not self.liveness.alive_is_free(key, now):
                self._charge(key, 1, now)
        elif kind == "have":
            self._have(key, msg, now)
        elif kind == "done":
            if key in self._dones:  # a peer says it once (on a link that is up then)
                self._charge(key, 1, now)
            self._dones.add(key)
            if key in self.seats:  # a spectator's says nothing we wait for
                self._done_from.add(key)
        elif key in self.seats and isinstance(msg.get("v"), bytes):
            before = self.peer.dropped_count
            events = self.peer.receive_vote(msg["v"], now)
            self._charge(key, self.peer.dropped_count - before, now)
            self._after_engine(events, now)
        else:
            self._charge(key, 1, now)  # a spectator's vote, or a vote that is no bytes

    def _have(self, key: bytes, msg: dict[str, Any], now: float) -> None:
        """Catch-up: send the entries from ``n`` on, exactly as stored (what may be shown)."""
        n = msg.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            self._charge(key, 1, now)
            return
        if key not in self.seats and key not in self.spectators:
            name = msg.get("name")
            label = name if isinstance(name, str) and name.isprintable() else "someone"
            self.spectators[key] = label[:40]
            self._out.append(Emit(api.Presence(self.spectators[key], None, True)))
        missing = self.peer.entries[n:min(n + MAX_SENT_PER_HAVE, self.visible())]
        self._haves[key] = self._haves.get(key, 0) + 1
        if self._haves[key] > HAVES_FREE:  # 1 per 16 frames it makes us send again
            self._charge(key, 1 + len(missing) // 16, now)
            if key not in self._links:
                return
        for raw in missing:
            self._send((key,), TAG_FRAME, raw)
        self.resent += len(missing)

    def _late_lobby(self, key: bytes, body: bytes, now: float) -> None:
        """A spectator arriving during the game gets the signed start (and then catches up).

        Players never join a started game: their hello is refused. Every other lobby
        message during play, and a second hello on one link, is junk (charged; one left
        over from the lobby costs an honest player one unit of its budget).
        """
        msg = decode_meta(body, MAX_LATE_LOBBY_BYTES)
        hello = msg is not None and msg.get("t") == "hello"
        if not hello or key in self._hellos or key in self.seats:
            self._charge(key, 1, now, len(body))
        if msg is None or not hello or key in self._hellos or key not in self._links:
            return  # junk gets no answer, and one link gets one answer
        self._hellos.add(key)
        player = key in self.seats or msg.get("role") != "spectator"
        if player or len(self.spectators) >= MAX_SPECTATORS:
            reason = "the game has already started" if player else "there are enough spectators"
            self._send((key,), TAG_LOBBY, {"t": "refuse", "reason": reason})
            return
        self._send((key,), TAG_LOBBY, self.start_record.to_wire())

    def _guesses_changed(self) -> None:
        """Show the table's wrong codes; once the budget is spent, our listeners stop
        running the code (a game-mode link needs none)."""
        if self.guesses.dead:
            self._out.append(CodeUsedUp())
        self._out.append(Emit(api.Guesses(self.guesses.total, self.guesses.dead)))

    # ---- the end -----------------------------------------------------------------------

    def _done(self, now: float) -> list[Action]:
        """Close the batch: finish the game if it just ended, end the linger if nobody is
        left to wait for; hand the actions over."""
        if not self._finished and not self.closed and self.peer.status is not Status.RUNNING:
            self._finish(now)
        if self._linger_until is not None and not self._waiting_for_done():
            self._end()
        out, self._out = self._out, []
        for action in out:
            if isinstance(action, Send):
                for key in action.to:
                    self.liveness.sent(key, now)
        self.liveness.last_call = max(self.liveness.last_call or now, now)
        return out

    def _keep_alive(self, now: float) -> None:
        """Cut the links that brought nothing for ``SILENT_AFTER`` (a network lost without
        a word: the re-dial takes over); say ``alive`` on the quiet ones."""
        for key in self.liveness.silent(now):
            self.liveness.down(key)
            if key in self._links:
                self._links.pop(key)
                self._silent.add(key)  # until its link_down: told "not answering"
                self._out.append(Cut(key, "silent"))
        for key in self.liveness.due(now):
            self._send((key,), TAG_SYNC, {"t": "alive"})

    def _finish(self, now: float) -> None:
        """Close the transcript, tell the table we are done; a player of a complete game
        then answers catch-up until every linked player is done too (``LINGER`` at most)."""
        self._finished = True
        self.held, self.release_at = None, None
        self.redials.cancel_all()
        transcript = self.peer.transcript()
        self._status = transcript.footer.status
        self._out.append(CloseTranscript(transcript.footer))
        self._send(tuple(self._links), TAG_SYNC, {"t": "done", "n": len(self.peer.entries)})
        for key in tuple(self._links):
            self._spread_certificate(key)
        if self.seat is not None and self.peer.status is Status.COMPLETE:
            self._linger_until = now + LINGER
        else:
            self._end()

    def _spread_certificate(self, key: bytes) -> None:
        """Send the abandon votes this game ended by to a seat's link, once per time it came
        up: a seat that played on (a partition) ends at the same point on receiving them
        (docs/protocol.md, "Abandon certificates"). Nothing once closed from outside."""
        cert = self.peer.certificate()
        if cert is None or self.closed or key not in self.seats or key in self._told:
            return
        self._told.add(key)
        for raw in cert[1]:
            self._send((key,), TAG_SYNC, {"t": "vote", "v": raw})

    def _waiting_for_done(self) -> set[bytes]:
        others = {p.identity for i, p in enumerate(self.config.players) if i != self.seat}
        return (others & set(self._links)) - self._done_from

    def _end(self, status: str | None = None, failure: str | None = None) -> None:
        if self.ended is None:
            self.ended = End(status or self._status, failure)
            self._out.append(self.ended)
        self._linger_until = None

    # ---- helpers -----------------------------------------------------------------------

    def _idle(self) -> bool:
        """Nothing is decided any more: closed from outside, or over."""
        return self.closed or self.ended is not None

    def _address(self, key: bytes) -> tuple[str, int] | None:
        """Where the player ``key`` listens, from the signed start (the host, and a member
        from the host's own machine: where the host was reached); None: not in the start."""
        address = next((a for a in self.start_record.addresses if a.identity == key), None)
        if address is None:
            return None
        # "": where the lobby was reached; the opener itself (no such address) reaches
        # there its own machine, where a member written so came from (a loopback guest)
        host = address.host or (self.host_addr[0] if self.host_addr is not None else LOOPBACK)
        return host, address.port

    def _bans(self) -> dict[bytes, float]:
        return {key: self.junk.banned_until(key) for key in self.seats}


def _sender(raw: bytes) -> int | None:
    try:
        return split_frame(raw)[0]
    except WireError:
        return None
