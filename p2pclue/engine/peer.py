"""The protocol peer: one file owns the state machine.

A ``Peer`` is fed frames (``receive``), the local player's choices (``act``) and
the passing of time (``on_timeout``); it hands back events and queues frames to
broadcast (``frames_to_send``). It never touches a socket, a thread or a clock.
With ``seat=None`` it is an observer: ``p2pclue audit`` replays a transcript
through exactly this code, so live play and audit cannot disagree.

The protocol is strictly sequential: at every point exactly one seat owes the
next message, and each message names the hash of the previous transcript entry.
That gives every honest peer the same, byte-identical transcript. A frame that
arrives early (its ``prev`` is not yet known) is held until it fits; a frame that
builds on an older entry is a replay; two different signed frames with one
sender and sequence number are equivocation. Accepted frames from others are
relayed, so an equivocator cannot split the honest peers unnoticed.

Stages, in order: join, keys, envelope, deal, unlayer, [random: weapons], play
(with random rounds for dice, and pet rounds for accusations), open, secrets,
done. ``docs/protocol.md`` specifies each message.
"""

from __future__ import annotations

import dataclasses
import enum
from collections import deque
from collections.abc import Callable, Container, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.crypto import proofs as P
from p2pclue.crypto import randomness
from p2pclue.crypto.cards import card_point, identify
from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.errors import CryptoError, InvalidPointError
from p2pclue.crypto.group import (
    G,
    Owed,
    Point,
    Scalar,
    base_mul,
    current_owed,
    mul,
    owing,
    own_points,
    scalar_from_bytes,
)
from p2pclue.crypto.keys import prove_key
from p2pclue.crypto.rand import ScalarSource, random_scalar
from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import (
    Blame,
    LocalProtocolError,
    RemoteProtocolError,
    ReusedSessionError,
    Violation,
    WireError,
)
from p2pclue.engine.messages import decode_body, field_check
from p2pclue.engine.peer_secrets import PeerSecrets, SecretsError
from p2pclue.engine.transcript import Transcript
from p2pclue.engine.transcript import build as build_transcript
from p2pclue.engine.votes import Vote, quorum, read_vote, sign_vote, window_ms
from p2pclue.engine.wire import (
    MAX_ENTRY_BYTES,
    Header,
    is_int,
    names_game,
    pack,
    read_payload,
    sha256,
    sign_frame,
    split_frame,
    unpack_canonical,
    verify_signature,
)
from p2pclue.rules import actions as ra
from p2pclue.rules import game as rg
from p2pclue.rules.cards import ROOMS, SUSPECTS, WEAPONS
from p2pclue.rules.errors import N_, RuleError, SeatNo
from p2pclue.rules.state import GameState, Suggestion

CATEGORY_DECKS = (
    tuple(c.index for c in SUSPECTS),
    tuple(c.index for c in WEAPONS),
    tuple(c.index for c in ROOMS),
)
DECK_NAMES = ("suspects", "weapons", "rooms")
HOLD_WINDOW = 32
"""How far ahead of a sender's next sequence number a frame may be held (one per number)."""
DEFAULT_TIMEOUT = 120.0
DROPPED_SAMPLE = 16
"""How many dropped frames a peer keeps (the latest ones) for diagnosis; it counts them all."""
DROPPED_SAMPLE_BYTES = 512
"""How much of each kept dropped frame is kept."""


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


ROUND_TYPES = {
    Stage.JOIN: "join",
    Stage.KEYS: "keys",
    Stage.ENVELOPE: "envelope",
    Stage.DEAL: "deal",
    Stage.UNLAYER: "unlayer",
    Stage.RANDOM: "reveal",
    Stage.PET: "pet",
    Stage.OPEN: "open",
    Stage.SECRETS: "secrets",
}
TURN_TYPES = frozenset({"roll", "passage", "move", "suggest", "accuse", "end_turn"})
REFUTE_TYPES = frozenset({"show", "pass"})
OPENING_WAIT = 10.0
"""How long the suggester waits for the private opening of a show before it complains."""
PRIVATE_OPENING = "opening"
"""First element of a private opening (never signed, never chained: see ``_private``)."""
MAX_PRIVATE_BYTES = 256
VERIFY_OWN_ENV = "P2PCLUE_VERIFY_OWN"
"""Set to 1, every peer a front end makes also verifies its own proofs (``verify_own``)."""


def verify_own_from(environ: Mapping[str, str]) -> bool:
    """The ``verify_own`` debug switch as an environment sets it (the tests set it)."""
    return environ.get(VERIFY_OWN_ENV, "") == "1"


@dataclass(frozen=True)
class Choice:
    """What the local player must decide now; ``options`` lists cards for ``show``."""

    kind: str
    """"turn" (the current player's free choice) or "show" (which card to show)."""
    options: tuple[int, ...] = ()


@dataclass(frozen=True)
class ShowRecord:
    """A public refutation: who showed whom, and the commitment only an opening names."""

    index: int
    suggester: int
    refuter: int
    triple: tuple[int, int, int]
    commitment: Point


@dataclass(repr=False)
class _Secrets:
    k: Scalar | None = None
    r: Scalar | None = None
    chain: randomness.HashChain | None = None
    used: int = 0
    seeds: list[bytes] = field(default_factory=list)
    """Every hash-chain seed drawn, oldest first (a resumed peer picks the committed one)."""

    def __repr__(self) -> str:
        return "_Secrets(<hidden>)"

    @property
    def s(self) -> Scalar:
        assert self.k is not None and self.r is not None
        return self.k * self.r


def deal_owners(n_players: int, deal_equal: bool, n_cards: int = 18) -> tuple[int | None, ...]:
    """Owner seat of each dealt position (None: a public leftover).

    Position p goes to seat p mod n, one card at a time clockwise from seat 0 (R7);
    under DEAL-EQUAL the positions past the last full round are leftovers.
    """
    dealt = n_cards - n_cards % n_players if deal_equal else n_cards
    return tuple(p % n_players if p < dealt else None for p in range(n_cards))


class Peer:
    """One participant (or, with ``seat=None``, an observer) of one game."""

    def __init__(
        self,
        config: GameConfig,
        seat: int | None,
        identity: Ed25519PrivateKey | None = None,
        src: ScalarSource | None = None,
        *,
        now: float = 0.0,
        timeout: float = DEFAULT_TIMEOUT,
        relay: bool = True,
        seen_sessions: Container[bytes] = frozenset(),
        verify_own: bool = False,
    ) -> None:
        """``seen_sessions``: the session ids of every game this player has taken part in
        (the caller persists them); a playing peer refuses to start a game that reuses one
        (``ReusedSessionError``), since old frames of that session would fit it.

        ``verify_own``: also verify the proofs in the frames this peer has just built
        (a debug switch, on in tests). Off, its own frames still go through decoding,
        every rule and every state change, only their proofs are trusted: they were
        computed here a moment ago from values this peer holds, and every other peer
        verifies them anyway. That check cost the sender as much as one verifier's
        (docs/protocol.md, "Frames")."""
        if seat is not None:
            if not 0 <= seat < config.n_players:
                raise LocalProtocolError(N_("{seat} is not in this game"), seat=SeatNo(seat))
            if identity is None or src is None:
                raise LocalProtocolError(N_("a playing peer needs its identity key and a source"))
            mine = identity.public_key().public_bytes_raw()
            if mine != config.players[seat].identity:
                raise LocalProtocolError(N_("the identity key does not match this seat's"))
            if config.session in seen_sessions:
                raise ReusedSessionError("this session id was used by an earlier game; "
                                         "the lobby must agree on a fresh one")
        self.config = config
        self.seat = seat
        self._identity = identity
        self._src = src
        self._timeout = timeout
        self._relay = relay
        self._verify_own = verify_own
        self._building = False
        """True while this peer accepts a frame it has just built itself (``_emit``)."""
        self._chain_length = config.chain_length
        n = config.n_players
        self.n = n
        self._keys = [p.public_key() for p in config.players]
        self.status = Status.RUNNING
        self.blame: Blame | None = None
        self.entries: list[bytes] = []
        self._index_of: dict[bytes, int] = {}
        self._sent_by: list[list[bytes]] = [[] for _ in range(n)]
        self._held: dict[int, list[tuple[bytes, Header, dict[str, Any]]]] = {}
        self._held_digests: set[bytes] = set()
        """Digests of the held frames: a copy of one is known on sight, like a duplicate."""
        self._outbox: list[tuple[bytes, int | None]] = []
        self.dropped: deque[tuple[bytes, str]] = deque(maxlen=DROPPED_SAMPLE)
        """The latest frames ignored without blame (their first ``DROPPED_SAMPLE_BYTES``),
        with the reason: anyone can send junk, so memory for it is bounded."""
        self.dropped_count = 0
        """How many frames were ignored without blame in all."""
        self.unplaced_count = 0
        """Frames signed for this game that could not be placed yet: held for later (out of
        order) or beyond the hold window. Blames nobody; a network runner charges them to
        the link that carried them (an honest link delivers in order, docs/protocol.md)."""
        self.duplicate_count = 0
        """Copies of accepted or held frames (free here; a runner bounds them per link)."""
        self._events: list[ev.Event] = []
        self._config_digest = config.digest()
        self._head = sha256(b"p2pclue/v1/chain-start\x00" + self._config_digest)
        self.game_id: bytes | None = None
        self._deadline = now + timeout
        self._since = now
        """When this peer reached the current point (its last entry chained, or it started):
        the start of its own observation window for the seat that owes the next entry."""
        # round bookkeeping
        self.stage = Stage.JOIN
        self._round_pos = 0
        self._round_order: list[int] = list(range(n))
        """The seats a round goes through: every seat still at the table from 0, except in
        an accusation check (see ``_on_accuse``)."""
        self._random_for: int | None = None
        """Whose roll the running random event is for (None: the weapon placement)."""
        self._after_message: list[Callable[[], None]] = []
        self._event_id = 0
        self._reveals: list[bytes] = []
        # public cryptographic state
        self._nonces: list[bytes] = []
        self.Y: list[Point] = []
        self._chain_tip: list[bytes] = []
        self._chain_head: list[bytes] = []
        """Per seat: the head its current hash chain was committed with."""
        self._chain_used: list[int] = [0] * n
        self._decks: list[list[Point]] = [[card_point(c) for c in d] for d in CATEGORY_DECKS]
        self.envelope: list[Point] = []
        self._deal_deck: list[Point] = []
        self.R: list[Point] = []
        self.S: list[Point] = []
        self.owners = deal_owners(n, config.rules.deal_equal)
        self.positions: list[Point] = []
        self.leftovers: tuple[int, ...] = ()
        self.weapon_rooms: dict[int, int] | None = None
        self.rules_state: GameState | None = None
        self._pet_triple: tuple[int, int, int] | None = None
        self._pet_qp: tuple[Point, Point] | None = None
        self.envelope_cards: tuple[int, int, int] | None = None
        self.shows: list[ShowRecord] = []
        self.opened: dict[int, int] = {}
        """Publicly opened shows (after a complaint, or in the end-of-game ``open`` round):
        transcript index of the show -> card."""
        self._show_open: ShowRecord | None = None
        """The last show, until the suggester's ``ack`` (or, after its ``complain``, the
        refuter's public ``opening``)."""
        self._complained = False
        self._opening_deadline: float | None = None
        self._opening_expired = False
        """Set by ``on_timeout`` at the deadline: only the clock makes a suggester complain
        about a missing opening (never the arrival of some other frame)."""
        self._now = now
        self.revealed_k: dict[int, Scalar] = {}
        self.revealed_r: dict[int, Scalar] = {}
        self.left_hands: dict[int, tuple[int, ...]] = {}
        """Seats that left the table, with their hands (opened publicly by the leave)."""
        self._leave_queued = False
        self.secrets_version = 0
        """Bumped whenever this peer draws a new secret: a caller that persists secrets
        (``export_secrets``) writes them before it sends any frame queued after the bump."""
        # silence and votes
        self._silent_at: int | None = None
        """The entry count at which the owed message was reported overdue (votes allowed)."""
        self._ballot = 0
        self._votes: dict[int, tuple[Vote, bytes]] = {}
        self._held_votes: dict[int, tuple[Vote, bytes]] = {}
        """Votes about this point that arrived before this peer's own deadline for the silent
        seat: not counted until it passes, dropped if the awaited entry comes first."""
        self.abandon_votes: tuple[bytes, ...] = ()
        # private state
        self._secrets = _Secrets()
        self.hand: tuple[int, ...] = ()
        self._dealt: tuple[int, ...] = ()
        """The hand in deal-position order (the order of ``_hand_points``), for the shows:
        where a card sits is looked up, never searched for with secret-dependent work."""
        self.shown_to_me: list[tuple[int, int]] = []
        self._private: dict[int, tuple[int, P.Opening]] = {}
        """Per refuter seat: the last private opening it sent us (show index, opening)."""
        self._acked: dict[int, int] = {}
        """Show index -> card, for the shows to this seat it acknowledged (a secret: the
        card is nowhere in the transcript)."""
        self.dice_log: list[tuple[int, tuple[int, ...]]] = []

    # ---- public API ------------------------------------------------------------------

    def start(self, now: float) -> list[ev.Event]:
        """Send whatever this peer owes first (seat 0's join)."""
        return self._run(now, lambda: None)

    def receive(self, raw: bytes, now: float, via: int | None = None) -> list[ev.Event]:
        """Feed one frame from the network (``via``: the seat whose channel carried it).

        Never raises for bad input: a frame nobody can be held to (not the canonical
        encoding, signed by no player, or not provably of this game) is dropped, counted in
        ``dropped_count`` and sampled in ``dropped``; a bad frame its signer's key signed for
        this game halts the game with that signer blamed. ``via`` is never evidence.
        """
        if self._private_opening(raw, via):
            return self._run(now, lambda: None)
        return self._run(now, lambda: self._ingest(raw))

    def act(self, intent: ev.Intent, now: float) -> list[ev.Event]:
        """The local player's choice; ``LocalProtocolError`` if it is not theirs to make now."""
        if self.status is not Status.RUNNING:
            raise LocalProtocolError(N_("the game is over ({status})"), status=self.status.value)
        if isinstance(intent, ev.Leave):
            return self._queue_leave(now)
        choice = self.choice()
        if choice is None:
            raise LocalProtocolError(N_("nothing is awaiting this player's choice"))
        msg_type, body = self._intent_message(intent, choice)
        return self._run(now, lambda: self._emit(msg_type, body))

    def frames_to_send(self) -> list[tuple[bytes, int | None]]:
        """Frames to deliver, each with its destination seat (None: everyone)."""
        out, self._outbox = self._outbox, []
        return out

    def next_deadline(self) -> float | None:
        if self.status is not Status.RUNNING:
            return None
        if self._waiting_for_opening() and self._opening_deadline is not None:
            return min(self._deadline, self._opening_deadline)
        return self._deadline

    def opening_deadline(self) -> float | None:
        """When this suggester stops waiting for a private opening and complains (None:
        it waits for none). ``on_timeout`` at or after it sends the complaint."""
        return self._opening_deadline if self._waiting_for_opening() else None

    def on_timeout(self, now: float) -> list[ev.Event]:
        """Report who owes a message past its deadline; blames nobody. From then on, until
        the silent seat speaks, the players present may vote (``vote``), and the votes this
        peer held because they came before its own deadline are counted. A suggester past
        its opening deadline complains instead (``_acknowledge``)."""
        if self.status is not Status.RUNNING:
            return []
        if self._waiting_for_opening() and self._opening_deadline is not None \
                and now >= self._opening_deadline:
            self._opening_expired = True
            return self._run(now, lambda: None)
        if now < self._deadline:
            return []
        seat = self.expected_seat()
        deadline = self._deadline
        self._deadline = now + self._timeout
        if seat is None:
            return []
        self._silent_at = len(self.entries)
        out: list[ev.Event] = [ev.PeerSilent(seat, deadline)]
        held, self._held_votes = self._held_votes, {}
        for _voter, (vote, raw) in sorted(held.items()):
            if self.status is Status.RUNNING:
                out += self._count_vote(vote, raw, now)
        return out

    @property
    def head(self) -> bytes:
        """The hash the next entry must name as ``prev``."""
        return self._head

    def entries_from(self, index: int) -> list[bytes]:
        """Resync: the stored entries from ``index`` on, exactly the bytes accepted."""
        return list(self.entries[max(index, 0):])

    # ---- persistence: secrets out, resume in ------------------------------------------

    def export_secrets(self) -> PeerSecrets:
        """This player's secrets, for its own 0600 file (see ``secrets_version``)."""
        if self.seat is None:
            raise LocalProtocolError(N_("an observer has no secrets"))
        sec = self._secrets
        return PeerSecrets(self.seat, None if sec.k is None else bytes(sec.k),
                           None if sec.r is None else bytes(sec.r), tuple(sec.seeds),
                           tuple(sorted(self._acked.items())))

    def restore(self, secrets: PeerSecrets, entries: list[bytes], now: float) -> list[ev.Event]:
        """Rebuild a fresh peer's state after a crash: load the stored secrets, replay the
        stored transcript (this peer's own frames included, so it never signs a second
        message for a step it already signed: the caller re-sends the stored frames), then
        send whatever is owed and was never signed. Returns every event of the replay, for
        the front end to rebuild its view. ``SecretsError`` if the secrets do not fit the
        transcript, ``LocalProtocolError`` if the stored transcript does not replay."""
        if self.seat is None or self.entries or secrets.seat != self.seat:
            raise LocalProtocolError(
                N_("restore a fresh playing peer, with its own seat's secrets"))
        sec = self._secrets
        try:
            sec.k = None if secrets.k is None else scalar_from_bytes(secrets.k, "k")
            sec.r = None if secrets.r is None else scalar_from_bytes(secrets.r, "r")
        except CryptoError:
            raise SecretsError("a stored secret is not a valid scalar") from None
        sec.seeds = list(secrets.seeds)
        self._acked = dict(secrets.shown)
        events: list[ev.Event] = []
        for i, raw in enumerate(entries):
            try:
                self._ingest(raw)
                self._drain_held()
                self._check_restored()  # before a wrong secret could fail a later step
            except RemoteProtocolError as exc:
                raise LocalProtocolError(
                    N_("stored entry {number} does not verify: {check}"), number=i,
                    check=exc.violation.check) from None
            if len(self.entries) != i + 1:
                raise LocalProtocolError(
                    N_("stored entry {number} does not follow the entry before it"), number=i)
            events += self._events
            self._events = []
        self._outbox.clear()  # the stored frames go out by resync, not as new relays
        self._check_restored()
        self._since, self._deadline = now, now + self._timeout  # it observes from now on
        rec = self._show_open
        if rec is not None and rec.refuter == self.seat and not self._complained:
            self._send_opening(rec)  # it may have been lost in the crash
        return events + self._run(now, lambda: None)

    def _check_restored(self) -> None:
        me, sec = self.seat, self._secrets
        assert me is not None
        if me < len(self.Y) and (sec.k is None or base_mul(sec.k) != self.Y[me]):
            raise SecretsError("the stored key does not match this seat's public key")
        if me < len(self.R) and (sec.r is None or base_mul(sec.r) != self.R[me]):
            raise SecretsError("the stored hand secret does not match this seat's")
        if me >= len(self._chain_head):
            return
        if sec.chain is None or sec.chain.head != self._chain_head[me]:
            for seed in reversed(sec.seeds):
                chain = randomness.HashChain(seed, self._chain_length)
                if chain.head == self._chain_head[me]:
                    sec.chain = chain
                    break
            else:
                raise SecretsError("no stored hash chain matches the committed one")
        sec.used = self._chain_used[me]

    # ---- silence: votes to wait or abandon (engine/votes.py) ---------------------------

    def vote(self, choice: str, now: float) -> tuple[bytes, list[ev.Event]]:
        """Sign this player's vote about the seat that is silent now (after ``PeerSilent``);
        the caller sends the returned bytes to every peer, which feed it to ``receive_vote``.
        ``LocalProtocolError`` if no silence was reported at this point or this player is
        the silent one or has left."""
        silent = self.expected_seat()
        if self.status is not Status.RUNNING or self.seat is None or self._identity is None:
            raise LocalProtocolError(N_("only a player of a running game votes"))
        if self._silent_at != len(self.entries) or silent is None:
            raise LocalProtocolError(N_("nobody has been reported silent at this point"))
        if silent == self.seat or self.seat in self.left_hands:
            raise LocalProtocolError(N_("the silent seat and seats that left do not vote"))
        if choice not in ("wait", "abandon"):
            raise LocalProtocolError(N_("vote wait or abandon"))
        self._ballot += 1
        # The silence was reported, so this peer's deadline (``timeout`` after ``_since``)
        # has passed: ``waited`` is at least ``timeout`` (``max`` only absorbs rounding).
        timeout = window_ms(self._timeout)
        waited = max(window_ms(now - self._since), timeout)
        raw = sign_vote(self._identity, Vote(self._config_digest, len(self.entries), self._head,
                                             silent, self.seat, choice, self._ballot, timeout,
                                             waited))
        return raw, self.receive_vote(raw, now)

    def receive_vote(self, raw: bytes, now: float) -> list[ev.Event]:
        """Count a signed vote. A vote about another point of the game (stale, or from a
        peer that is ahead) or that does not verify is ignored: votes cost nobody anything.
        A vote that arrives before this peer's own deadline for the silent seat has passed
        (``on_timeout`` has not reported it at this point) is held, not counted: it counts
        when the deadline passes, and lapses if the awaited entry is chained first, so a
        majority cannot vote out a seat this peer has not seen fall silent.
        A quorum of abandon votes ends the game as abandoned (and, when the silent seat is
        the accuser owing its own step of its accusation check, applies that accusation as
        wrong: the forfeit); of wait votes, restarts the silence clock."""
        if self.status is not Status.RUNNING:
            return []
        try:
            vote = read_vote(raw, self._keys)
        except WireError as exc:
            self._drop(raw, f"unreadable vote: {exc}")
            return []
        if (vote.game, vote.entries, vote.head) != (self._config_digest, len(self.entries),
                                                    self._head) \
                or vote.silent != self.expected_seat() or vote.voter in self.left_hands:
            self._drop(raw, "a vote about another point of the game")
            return []
        if self._silent_at != len(self.entries):
            held = self._held_votes.get(vote.voter)
            if held is None or held[0].ballot < vote.ballot:
                self._held_votes[vote.voter] = (vote, raw)
            return []
        return self._count_vote(vote, raw, now)

    def _count_vote(self, vote: Vote, raw: bytes, now: float) -> list[ev.Event]:
        """Add a checked vote about this point to the tally, after this peer's deadline."""
        old = self._votes.get(vote.voter)
        if old is not None and old[0].ballot >= vote.ballot:
            return []
        self._votes[vote.voter] = (vote, raw)
        abandon = tuple(s for s, (v, _) in sorted(self._votes.items()) if v.choice == "abandon")
        wait = tuple(s for s, (v, _) in sorted(self._votes.items()) if v.choice == "wait")
        needed = self.abandon_quorum()
        out: list[ev.Event] = [ev.VoteCounted(vote.voter, vote.choice, vote.silent, abandon,
                                              wait, needed)]
        if len(abandon) >= needed:
            forfeit = vote.silent == self.accuser  # read before the status changes
            self.status = Status.ABANDONED
            self.abandon_votes = tuple(self._votes[s][1] for s in abandon)
            if forfeit:
                # The quorum signed that the accuser owes its own (last) PET step here: a
                # withheld step of its own check, which counts as a wrong accusation (R27,
                # then R29/R30). The same rule in the audit: docs/protocol.md, "Informed abort".
                self.rules_state = rg.apply(self._state(),
                                            ra.AccusationResult(vote.silent, False))
            state = self.rules_state
            out.append(ev.Abandoned(vote.silent, abandon, forfeit,
                                    state.result if forfeit and state is not None else None,
                                    state.winner if forfeit and state is not None else None))
        elif len(wait) >= needed:
            self._deadline = now + self._timeout
        return out

    def abandon_quorum(self) -> int:
        """Abandon votes that end the game now: a strict majority of the seats still at the
        table other than the silent one."""
        silent = self.expected_seat()
        at_table = [s for s in range(self.n) if s not in self.left_hands and s != silent]
        return quorum(len(at_table))

    # ---- leaving the table -----------------------------------------------------------

    def _queue_leave(self, now: float) -> list[ev.Event]:
        if self.seat is None or self.seat in self.left_hands:
            raise LocalProtocolError(N_("this player is not at the table"))
        state = self.rules_state
        if self.stage in (Stage.OPEN, Stage.SECRETS, Stage.DONE) or (
                state is not None and state.result is not None):
            raise LocalProtocolError(N_("the game is decided: stay for the end-of-game reveal"))
        self._leave_queued = True
        out = self._run(now, lambda: None)
        if self._leave_queued:
            out.append(ev.LeaveQueued())
        return out

    def abandon(self) -> None:
        """The caller gave up waiting: keep everything verified so far."""
        if self.status is Status.RUNNING:
            self.status = Status.ABANDONED

    def transcript(self) -> Transcript:
        """Everything verified so far, with a footer saying how the game stands."""
        status = {Status.COMPLETE: "complete", Status.HALTED: "halted"}.get(
            self.status, "abandoned")
        votes = self.abandon_votes if self.status is Status.ABANDONED else ()
        return build_transcript(self.config, self.entries, status, self.blame, votes)

    def choice(self) -> Choice | None:
        """The decision the local player owes now, if any."""
        if self.status is not Status.RUNNING or self.seat is None or self.stage is not Stage.PLAY:
            return None
        state = self.rules_state
        assert state is not None
        if state.awaiting_seat != self.seat or self._show_open is not None:
            return None
        suggestion = state.pending_suggestion
        if suggestion is not None:
            # Asked even with one option, so that how long an answer takes does not tell
            # the table whether the refuter holds one named card or several.
            options = tuple(c for c in self.hand if c in _triple(suggestion))
            return Choice("show", options) if options else None
        return Choice("turn")

    def expected_seat(self) -> int | None:
        """Who owes the next message (None when nothing more is owed)."""
        if self.stage is Stage.DONE or self.status is not Status.RUNNING:
            return None
        if self.stage is Stage.PLAY:
            assert self.rules_state is not None
            if self._show_open is not None:
                rec = self._show_open
                return rec.refuter if self._complained else rec.suggester
            seat: int | None = self.rules_state.awaiting_seat
            return seat
        return self._round_order[self._round_pos]

    def due_soon(self) -> bool:
        """Whether this seat owes a message now or right after the seat that owes one.

        A scheduling hint for a runner, never a rule: the frame due next most likely
        comes from the seat due now, and the seat after it must check it before it can
        speak, so that seat's checking is worth doing first (see ``net.lanes``). In play
        the turn's player counts too: refutations come back to it.
        """
        due = self.expected_seat()
        if self.seat is None or due is None:
            return False
        if due == self.seat:
            return True
        if self.stage is Stage.PLAY:
            assert self.rules_state is not None
            return self.rules_state.current_seat == self.seat or (due + 1) % self.n == self.seat
        order, pos = self._round_order, self._round_pos + 1
        return order[pos % len(order)] == self.seat  # the round's last: the next one's first

    def knows(self, raw: bytes) -> bool:
        """Whether this exact frame was accepted or is held already (a copy costs nothing;
        a frame over the size limit is not even hashed)."""
        if len(raw) > MAX_ENTRY_BYTES:
            return False
        digest = sha256(raw)
        return digest in self._index_of or digest in self._held_digests

    @property
    def accuser(self) -> int | None:
        """The seat whose accusation is being checked right now (None outside a check)."""
        if self.stage is not Stage.PET or self.status is not Status.RUNNING:
            return None
        return self._state().current_seat

    # ---- driving ---------------------------------------------------------------------

    def _run(self, now: float, step: Callable[[], None]) -> list[ev.Event]:
        before = len(self.entries)
        self._now = now
        if self.status in (Status.RUNNING, Status.COMPLETE):
            # After completion frames are still checked, for a late equivocation on the
            # last messages (a relayed second version): it would split the transcripts.
            try:
                step()
                self._drain_held()
                self._pump()
            except RemoteProtocolError as exc:
                self._halt(exc)
        if len(self.entries) != before:
            self._deadline = now + self._timeout
            self._since = now
        out, self._events = self._events, []
        return out

    def _halt(self, exc: RemoteProtocolError) -> None:
        self.status = Status.HALTED
        self.blame = Blame.from_error(exc, len(self.entries))
        self._events.append(ev.Halted(self.blame))

    def _pump(self) -> None:
        """Send every message this peer owes that needs no decision."""
        while self.status is Status.RUNNING and self.seat is not None:
            if self.expected_seat() != self.seat or self.stage is Stage.DONE:
                return
            if self._leave_queued and self.stage is Stage.PLAY and self._show_open is None:
                self._leave_queued = False
                self._emit("leave", self._build_leave(len(self.entries)))
                continue
            auto = self._automatic_message()
            if auto is None:
                return
            self._emit(*auto)

    def _emit(self, msg_type: str, body: dict[str, Any]) -> None:
        """Sign, accept locally through the common path, then queue for broadcast."""
        assert self.seat is not None and self._identity is not None
        assert self.game_id is not None or msg_type == "join"
        header = Header(self._game_field(msg_type), self.seat, len(self._sent_by[self.seat]),
                        self._head, msg_type)
        raw = sign_frame(self._identity, header, body)
        self._building = True
        try:
            if self._verify_own:
                self._ingest(raw)  # raises (and sends nothing) if our own message is bad
            else:
                with own_points():  # computed here: no subgroup checks either
                    self._ingest(raw)
        finally:
            self._building = False
        self._outbox.append((raw, None))

    def _game_field(self, msg_type: str) -> bytes:
        """Every frame names the config digest: foreign frames are known on sight."""
        return self._config_digest

    # ---- ordering, authentication, equivocation ---------------------------------------

    def _drop(self, raw: bytes, reason: str) -> None:
        self.dropped_count += 1
        self.dropped.append((raw[:DROPPED_SAMPLE_BYTES], reason))

    def _ingest(self, raw: bytes) -> None:
        """Authenticate a frame; it costs its signer something only on signed evidence.

        The frame's identity is what its author signed: only the canonical outer encoding
        is read (a re-encoded copy is not a second message), the outer ``sender`` is only a
        hint of whose key to try, and the signed payload's own ``from`` and ``game`` decide
        whose message it is and whether it belongs here.
        """
        if len(raw) > MAX_ENTRY_BYTES:  # before any work: not even hashed
            self._drop(raw, f"unreadable frame: over {MAX_ENTRY_BYTES} bytes")
            return
        digest = sha256(raw)
        if digest in self._index_of or digest in self._held_digests:
            self.duplicate_count += 1
            return  # a duplicate delivery of an accepted or held frame: harmless, and free
        try:
            sender, payload, signature = split_frame(raw)
        except WireError as exc:
            self._drop(raw, f"unreadable frame: {exc}")
            return
        if sender >= self.n or not verify_signature(self._keys[sender], payload, signature):
            self._misaddressed(raw, sender, payload, signature)
            return
        if self.status is Status.COMPLETE:
            self._late(raw, sender, payload)
            return
        read = self._read(raw, sender, payload)
        if read is not None:
            self._place(raw, *read)

    def _read(self, raw: bytes, signer: int, payload: bytes
              ) -> tuple[Header, dict[str, Any]] | None:
        """The payload ``signer``'s key signed, if it is a message of this game (else None).

        Blames ``signer`` only for a payload provably signed for this game: naming this
        game's config digest (which covers the fresh session id) shows it was signed here,
        so a replay of something ``signer`` signed in another game costs it nothing.
        """
        try:
            header, body = read_payload(payload)
        except WireError as exc:
            if names_game(payload, self._config_digest):
                raise RemoteProtocolError(signer, Violation("message", str(exc)),
                                          (raw,)) from None
            self._drop(raw, f"a signed payload of no known game: {exc}")
            return None
        if self._foreign_game(header):
            # Anyone can replay a frame signed for another game: it proves nothing
            # against its signer here, so it is dropped, never blamed.
            self._drop(raw, "the frame belongs to another game")
            return None
        if header.sender != signer:
            raise RemoteProtocolError(signer, Violation(
                "signature", f"seat {signer} signed a message in seat {header.sender}'s name"),
                (raw,))
        return header, body

    def _misaddressed(self, raw: bytes, sender: int, payload: bytes, signature: bytes) -> None:
        """A frame the seat it names did not sign. The outer ``sender`` is not signed: anyone
        can rewrite it, so it is no evidence. If another seat's key signed the payload, what
        counts is that payload: a message of this game naming another seat as its author is
        signed evidence against the signer (the same verdict it gets under its own name); its
        own message in a rewritten envelope is dropped (the original travels on its own)."""
        for seat, key in enumerate(self._keys):
            if seat != sender and verify_signature(key, payload, signature):
                if self.status is Status.COMPLETE:
                    break
                if self._read(raw, seat, payload) is not None:
                    self._drop(raw, f"seat {seat}'s message with seat {sender} written outside")
                return
        self._drop(raw, f"no seat {sender}" if sender >= self.n else f"not signed by seat {sender}")

    def _late(self, raw: bytes, sender: int, payload: bytes) -> None:
        """After completion only a second version of an accepted message matters."""
        try:
            header, _ = read_payload(payload)
        except WireError:
            self._drop(raw, "unreadable, after the end")
            return
        sent = self._sent_by[sender]
        if header.game == self._config_digest and header.sender == sender \
                and header.seq < len(sent) and sent[header.seq] != raw:
            raise RemoteProtocolError(sender, Violation(
                "equivocation", f"two different messages with sequence number {header.seq}"),
                (sent[header.seq], raw))
        self._drop(raw, "after the end")

    def _place(self, raw: bytes, header: Header, body: dict[str, Any]) -> None:
        sender = header.sender
        sent = self._sent_by[sender]
        state = self.rules_state
        if header.type == "accuse" and state is not None and sender in state.eliminated:
            # Before the sequence and chain rules: any accuse an out seat signs for this game
            # is evidence (docs/protocol.md, "One speaker at a time", rule 3b).
            why = ("left the table" if sender in self.left_hands
                   else "already accused wrongly: one accusation per game")
            raise RemoteProtocolError(sender, Violation("R27", f"seat {sender} {why}"), (raw,))
        if header.seq < len(sent):
            raise RemoteProtocolError(sender, Violation(
                "equivocation", f"two different messages with sequence number {header.seq}"),
                (sent[header.seq], raw))
        for other, other_header, _ in self._held.get(sender, []):
            if other_header.seq == header.seq and other != raw:
                raise RemoteProtocolError(sender, Violation(
                    "equivocation", f"two different messages with sequence number {header.seq}"),
                    (other, raw))
        fits = header.seq == len(sent) and header.prev == self._head
        if not fits:
            older = self._index_of.get(header.prev)
            if older is not None and header.seq == len(sent):
                raise RemoteProtocolError(sender, Violation(
                    "chain", f"replayed or reordered: builds on entry {older}, "
                    f"not on the latest entry {len(self.entries) - 1}"), (raw,))
            held = self._held.setdefault(sender, [])
            self.unplaced_count += 1
            if header.seq < len(sent) + HOLD_WINDOW and all(h[0] != raw for h in held):
                held.append((raw, header, body))  # at most one per sequence number (above)
                self._held_digests.add(sha256(raw))
            return
        self._accept(raw, header, body)

    def _foreign_game(self, header: Header) -> bool:
        return header.game != self._config_digest

    def _drain_held(self) -> None:
        progress = True
        while progress and self.status is Status.RUNNING:
            progress = False
            for sender, held in list(self._held.items()):
                for item in held:
                    raw, header, body = item
                    if header.prev == self._head and header.seq == len(self._sent_by[sender]):
                        held.remove(item)
                        self._held_digests.discard(sha256(raw))
                        self._accept(raw, header, body)
                        progress = True
                        break

    def _accept(self, raw: bytes, header: Header, body: dict[str, Any]) -> None:
        sender = header.sender
        expected = self.expected_seat()
        if sender != expected:
            raise RemoteProtocolError(sender, Violation(
                "turn", f"seat {sender} sent {header.type!r} but seat {expected} is due"), (raw,))
        allowed = self._allowed_types()
        if header.type not in allowed:
            raise RemoteProtocolError(sender, Violation(
                "turn", f"{header.type!r} is not allowed now (expected {sorted(allowed)})"), (raw,))
        # The points read are owed their subgroup test (``crypto.group.Owed``): the proofs'
        # multiplications settle nearly all of them, and any fault is first checked against
        # those still owed, so the verdict is the one a test at reading would have given.
        owed = Owed()
        index = len(self.entries)
        with owing(owed):
            try:
                fields = decode_body(header.type, body)
                self._dispatch(index, sender, header.type, fields)
            except (WireError, RuleError, CryptoError, _Reject) as exc:
                violation = _owed_fault(owed, header.type) or _violation(header.type, exc)
                raise RemoteProtocolError(sender, violation, (raw,)) from None
        late = _owed_fault(owed, header.type)
        if late is not None:
            raise RemoteProtocolError(sender, late, (raw,))
        try:
            self._commit(raw, index, sender, header.type)  # ends a round: its checks run here
        except (RuleError, CryptoError, _Reject) as exc:
            raise RemoteProtocolError(sender, _violation(header.type, exc), (raw,)) from None

    def _commit(self, raw: bytes, index: int, sender: int, msg_type: str) -> None:
        self.entries.append(raw)
        self._index_of[sha256(raw)] = index
        self._sent_by[sender].append(raw)
        self._head = sha256(raw)
        self._votes.clear()  # votes are about one point of the game
        self._held_votes.clear()  # the awaited entry came first: the held votes lapse
        self._silent_at = None
        self._events.append(ev.Accepted(index, sender, msg_type))
        if self._relay and sender != self.seat:
            self._outbox.append((raw, None))
        self._flush_pending_events()

    def _allowed_types(self) -> frozenset[str]:
        if self.stage is Stage.PLAY:
            assert self.rules_state is not None
            if self._show_open is not None:
                return frozenset({"opening"} if self._complained else {"ack", "complain"})
            if self.rules_state.pending_suggestion is not None:
                return REFUTE_TYPES | {"leave"}
            return TURN_TYPES | {"leave"}
        return frozenset({ROUND_TYPES[self.stage]})

    def _ctx(self, index: int, sender: int, step: str) -> ProofContext:
        assert self.game_id is not None
        return ProofContext(self.game_id, f"{index}:{step}", sender)

    # ---- message handlers (every one verifies before it changes anything) --------------

    def _verify(self, check: Callable[..., None], *args: Any) -> None:
        """Run a proof check, unless the proof is this peer's own, just built (``verify_own``).

        A handler changes nothing before its checks pass, so the points the check was given
        and did not multiply (a show's commitment, say) are tested here, before any change:
        one that fails makes the message fail as read (``_accept`` names the first bad point)."""
        if self._building and not self._verify_own:
            return
        check(*args)
        owed = current_owed()
        if owed is not None and owed.points and not owed.test(_points_in(args)):
            raise InvalidPointError("point", "not in the main subgroup (the reader names it "
                                    "as read)")

    def _dispatch(self, index: int, sender: int, msg_type: str, f: dict[str, Any]) -> None:
        handler = getattr(self, f"_on_{msg_type}")
        handler(index, sender, f)

    def _next_in_round(self, on_complete: Callable[[], None]) -> None:
        self._round_pos += 1
        if self._round_pos == len(self._round_order):
            self._begin_round(0)
            self._after_message.append(on_complete)

    def _begin_round(self, first: int) -> None:
        """The next round goes through the seats still at the table, from ``first`` on."""
        self._round_pos = 0
        self._round_order = [(first + k) % self.n for k in range(self.n)
                             if (first + k) % self.n not in self.left_hands]

    def _flush_pending_events(self) -> None:
        pending, self._after_message = self._after_message, []
        for action in pending:
            action()

    def _on_join(self, index: int, sender: int, f: dict[str, Any]) -> None:
        self._nonces.append(f["nonce"])
        self._next_in_round(self._finish_join)

    def _finish_join(self) -> None:
        self.game_id = sha256(b"p2pclue/v1/game-id\x00" + self._config_digest
                              + b"".join(self._nonces))
        self.stage = Stage.KEYS

    def _on_keys(self, index: int, sender: int, f: dict[str, Any]) -> None:
        self._verify(P.verify_key, self._ctx(index, sender, "keys"), f["Y"], f["proof"])
        if f["Y"] in self.Y:
            raise _Reject("keys", "this group key is another player's")
        self.Y.append(f["Y"])
        self._chain_tip.append(f["chain"])
        self._chain_head.append(f["chain"])
        self._next_in_round(self._finish_keys)

    def _finish_keys(self) -> None:
        self.stage = Stage.ENVELOPE

    def _on_envelope(self, index: int, sender: int, f: dict[str, Any]) -> None:
        decks, proofs = f["decks"], f["proofs"]
        for d in range(3):
            if len(decks[d]) != len(self._decks[d]):
                raise _Reject("proof:shuffle", f"the {DECK_NAMES[d]} deck changed size")
            self._verify(P.verify_shuffle, self._ctx(index, sender, f"envelope:{DECK_NAMES[d]}"),
                         self._decks[d], decks[d], self.Y[sender], proofs[d])
        self._decks = decks
        self._next_in_round(self._finish_envelope)

    def _finish_envelope(self) -> None:
        self.envelope = [d[0] for d in self._decks]
        self._deal_deck = [p for d in self._decks for p in d[1:]]
        self.stage = Stage.DEAL

    def _on_deal(self, index: int, sender: int, f: dict[str, Any]) -> None:
        self._verify(P.verify_dleq, self._ctx(index, sender, "deal:link"), G, f["R"],
                     self.Y[sender], f["S"], f["link"])
        if len(f["deck"]) != len(self._deal_deck):
            raise _Reject("proof:shuffle", "the deal deck changed size")
        self._verify(P.verify_shuffle, self._ctx(index, sender, "deal:shuffle"),
                     self._deal_deck, f["deck"], f["R"], f["proof"])
        self.R.append(f["R"])
        self.S.append(f["S"])
        self._deal_deck = f["deck"]
        self._next_in_round(self._finish_deal)

    def _finish_deal(self) -> None:
        self.positions = list(self._deal_deck)
        self.stage = Stage.UNLAYER

    def _foreign_positions(self, seat: int) -> list[int]:
        return [p for p, o in enumerate(self.owners) if o != seat]

    def _on_unlayer(self, index: int, sender: int, f: dict[str, Any]) -> None:
        targets = self._foreign_positions(sender)
        if len(f["points"]) != len(targets):
            raise _Reject("proof:dleq-batch", f"expected {len(targets)} points")
        before = [self.positions[p] for p in targets]
        self._verify(P.verify_unlayer, self._ctx(index, sender, "unlayer"), before,
                     f["points"], self.S[sender], f["proof"])
        for p, point in zip(targets, f["points"], strict=True):
            self.positions[p] = point
        self._next_in_round(self._finish_unlayer)

    def _finish_unlayer(self) -> None:
        left = [p for p, o in enumerate(self.owners) if o is None]
        cards = [identify(self.positions[p]) for p in left]
        if any(c is None for c in cards):
            raise _Reject("open", "a leftover card did not open to a card")
        self.leftovers = tuple(c for c in cards if c is not None)
        if self.leftovers:
            self._events.append(ev.LeftoversShown(self.leftovers))
        if self.seat is not None:
            mine = [p for p, o in enumerate(self.owners) if o == self.seat]
            self._dealt = tuple(P.reveal_to_owner(self.positions[p], self._secrets.s)
                                for p in mine)
            self.hand = tuple(sorted(self._dealt))
            self._events.append(ev.HandDealt(self.hand))
        if self.config.rules.weapons_random:
            self._start_random(None)
        else:
            self._start_play(None)

    def _place_weapons(self, reveals: tuple[bytes, ...]) -> None:
        assert self.game_id is not None
        rooms = randomness.random_weapon_rooms(self.game_id, _event_name(self._event_id - 1),
                                               reveals)
        self._start_play(rooms)

    def _start_play(self, weapon_rooms: dict[int, int] | None) -> None:
        rules = self.config.rules
        sizes = [sum(1 for o in self.owners if o == s) for s in range(self.n)]
        self.rules_state = rg.new_game(
            rules, [p.suspect for p in self.config.players], hand_sizes=sizes,
            weapon_rooms=weapon_rooms, leftovers=self.leftovers)
        self.weapon_rooms = {6 + i: room for i, room in enumerate(self.rules_state.weapons)}
        self._events.append(ev.WeaponsPlaced(tuple(sorted(self.weapon_rooms.items()))))
        self.stage = Stage.PLAY

    # random events --------------------------------------------------------------------

    def _start_random(self, roller: int | None) -> None:
        self.stage = Stage.RANDOM
        self._reveals = []
        self._random_for = roller
        self._begin_round(0)

    def _on_reveal(self, index: int, sender: int, f: dict[str, Any]) -> None:
        if f["event"] != self._event_id:
            raise _Reject("randomness", f"reveal for event {f['event']}, not {self._event_id}")
        try:
            randomness.verify_reveal(self._chain_tip[sender], f["value"])
        except CryptoError:
            raise _Reject("randomness", "the value does not hash to the committed chain") from None
        used = self._chain_used[sender] + 1
        if (used == self._chain_length) != (f["renew"] is not None):
            raise _Reject("randomness", "a chain is renewed exactly when its last value is used")
        self._chain_used[sender] = 0 if f["renew"] is not None else used
        self._chain_tip[sender] = f["renew"] if f["renew"] is not None else f["value"]
        if f["renew"] is not None:
            self._chain_head[sender] = f["renew"]
        self._reveals.append(f["value"])
        self._next_in_round(self._finish_random)

    def _finish_random(self) -> None:
        reveals = tuple(self._reveals)
        self._event_id += 1
        if self._random_for is None:
            self._place_weapons(reveals)
        else:
            self.stage = Stage.PLAY
            self._rolled(self._random_for, reveals)

    # turns ----------------------------------------------------------------------------

    def _state(self) -> GameState:
        assert self.rules_state is not None
        return self.rules_state

    def _apply(self, action: Any) -> None:
        self.rules_state = rg.apply(self._state(), action)

    def _on_roll(self, index: int, sender: int, f: dict[str, Any]) -> None:
        rg.apply(self._state(), ra.Roll(sender, (1,) * self._n_dice()))  # legal now? (R11)
        self._start_random(sender)

    def _n_dice(self) -> int:
        return 2 if self.config.rules.two_dice else 1

    def _rolled(self, seat: int, reveals: tuple[bytes, ...]) -> None:
        assert self.game_id is not None
        n_dice = self._n_dice()
        dice = randomness.random_dice(self.game_id, _event_name(self._event_id - 1), reveals,
                                      n_dice)
        self._apply(ra.Roll(seat, dice))
        self.dice_log.append((seat, dice))
        self._events.append(ev.DiceRolled(seat, dice))

    def _on_passage(self, index: int, sender: int, f: dict[str, Any]) -> None:
        self._apply(ra.TakePassage(sender))
        room = self._state().token_of(sender)
        assert isinstance(room, int)
        self._events.append(ev.PassageTaken(sender, room))

    def _on_move(self, index: int, sender: int, f: dict[str, Any]) -> None:
        self._apply(ra.Move(sender, f["path"]))
        where = self._state().token_of(sender)
        self._events.append(ev.Moved(sender, f["path"], where if isinstance(where, int) else None))

    def _on_suggest(self, index: int, sender: int, f: dict[str, Any]) -> None:
        self._apply(ra.Suggest(sender, f["suspect"], f["weapon"]))
        s = self._state().pending_suggestion
        assert s is not None
        self._events.append(ev.Suggested(sender, *_triple(s)))

    def _hand_points(self, seat: int) -> list[Point]:
        return [self.positions[p] for p, o in enumerate(self.owners) if o == seat]

    def _on_show(self, index: int, sender: int, f: dict[str, Any]) -> None:
        """Everyone checks the proof; the card stays hidden in the commitment. The refuter
        sends the opening to the suggester alone, unsigned (docs/protocol.md, "Deniable
        refutation"); the suggester owes ``ack`` or ``complain`` next."""
        s = self._state().pending_suggestion
        assert s is not None
        suggester, triple = s.suggester, _triple(s)
        self._verify(P.verify_commit_show, self._ctx(index, sender, "show"), triple,
                     self._hand_points(sender), self.S[sender], self.Y[suggester], f["C"],
                     f["proof"])
        self._apply(ra.Refute(sender, None))
        rec = ShowRecord(index, suggester, sender, triple, f["C"])
        self.shows.append(rec)
        self._show_open, self._complained = rec, False
        self._opening_deadline = self._now + OPENING_WAIT
        self._opening_expired = False
        self._events.append(ev.Refuted(sender, suggester, triple))
        if sender == self.seat:
            self._send_opening(rec)

    def _on_ack(self, index: int, sender: int, f: dict[str, Any]) -> None:
        rec = self._show_open
        assert rec is not None
        self._show_open = None
        if self.seat == sender and rec.index in self._acked:
            self._learn(rec.refuter, self._acked[rec.index])

    def _on_complain(self, index: int, sender: int, f: dict[str, Any]) -> None:
        self._complained = True

    def _on_opening(self, index: int, sender: int, f: dict[str, Any]) -> None:
        """After a complaint the card becomes public: everybody checks the opening."""
        rec = self._show_open
        assert rec is not None
        card = P.check_opening(rec.triple, self.Y[rec.suggester], rec.commitment, f["opening"])
        self.opened[rec.index] = card
        self._show_open = None
        if self.seat == rec.suggester:
            self._learn(rec.refuter, card)

    def _learn(self, refuter: int, card: int) -> None:
        self.shown_to_me.append((refuter, card))
        self._events.append(ev.CardShownToMe(refuter, card))

    def _waiting_for_opening(self) -> bool:
        rec = self._show_open
        return (rec is not None and not self._complained and self.seat == rec.suggester
                and self.status is Status.RUNNING)

    def _my_opening(self, rec: ShowRecord) -> P.Opening:
        """This seat's opening of its own show, from its key (nothing stored)."""
        assert self._secrets.k is not None
        rho = P.show_rho(self._secrets.k, self._ctx(rec.index, rec.refuter, "show"))
        opening = P.find_opening(rec.triple, self.Y[rec.suggester], rec.commitment, rho)
        if opening is None:
            raise LocalProtocolError(N_("this seat cannot open its own show"))
        return opening

    def private_openings_for(self, seat: int) -> list[bytes]:
        """What this peer owes ``seat`` over their private link now: the opening of its
        show to ``seat`` while that show is unanswered (no ``ack``, no ``complain``). The
        runner sends it again whenever the link to ``seat`` comes up: an opening lost with
        a link, or with the suggester's crash, would otherwise end in a complaint that makes
        the card public (docs/protocol.md, "Deniable refutation")."""
        rec = self._show_open
        if rec is None or self._complained or self.status is not Status.RUNNING \
                or rec.refuter != self.seat or rec.suggester != seat:
            return []
        return [self._private_frame(rec)]

    def _send_opening(self, rec: ShowRecord) -> None:
        """Queue the private opening of this seat's show, for the suggester only."""
        self._outbox.append((self._private_frame(rec), rec.suggester))

    def _private_frame(self, rec: ShowRecord, opening: P.Opening | None = None) -> bytes:
        """``["opening", config digest, show index, {card, rho}]``: no signature, so that
        the suggester holds nothing a third party would take as the refuter's word."""
        opening = self._my_opening(rec) if opening is None else opening
        return pack([PRIVATE_OPENING, self._config_digest, rec.index, opening.to_wire()])

    def _private_opening(self, raw: bytes, via: int | None) -> bool:
        """A private opening from the seat whose link carried it (``via``: the link's
        authenticated peer). Kept, one per seat, until the suggester decides; anything odd
        is dropped. False: not a private opening (a frame, handled as such)."""
        if raw[:1] != b"\x94":  # a msgpack array of 4 (a frame is an array of 3)
            return False
        try:
            obj = unpack_canonical(raw, MAX_PRIVATE_BYTES)
            kind, digest, index, wire = obj
            if kind != PRIVATE_OPENING or digest != self._config_digest \
                    or not is_int(index) or via is None or not 0 <= via < self.n:
                raise WireError("not a private opening of this game", "private")
            opening = P.Opening.from_wire(wire)
            self._keep_opening(via, index, opening)
        except (WireError, CryptoError, ValueError, TypeError) as exc:
            # Not a frame sample: the bytes may be a real opening (a card and its rho).
            self.dropped_count += 1
            self.dropped.append((b"", f"private opening: {exc}"))
        return True

    def _keep_opening(self, via: int, index: int, opening: P.Opening) -> None:
        """Keep an opening this seat may be awaiting from ``via``; ``WireError`` (dropped,
        so the runner charges the link) for one it cannot await: this seat is an observer,
        or the show at ``index`` is chained and is not ``via``'s show to this seat, or
        ``via`` already has another opening kept for a show not yet here (a refuter has one
        unanswered show at a time). A copy of one already kept, or of one for an answered
        show of ``via``'s to this seat (a re-send that crossed the answer), is a duplicate."""
        kept = self._private.get(via)
        if kept == (index, opening) or any(
                rec.index == index and rec.refuter == via and rec.suggester == self.seat
                for rec in self.shows if rec is not self._show_open):
            self.duplicate_count += 1
            return
        rec = self._show_open
        awaited = rec is not None and (rec.index, rec.refuter, rec.suggester) == (
            index, via, self.seat)
        if self.seat is None or not (awaited or index >= len(self.entries)):
            raise WireError("no show of this seat's awaits that opening", "private")
        if kept is not None and kept[0] >= len(self.entries) and kept[0] != index:
            raise WireError("a second opening for a show not yet here", "private")
        self._private[via] = (index, opening)

    def _on_pass(self, index: int, sender: int, f: dict[str, Any]) -> None:
        s = self._state().pending_suggestion
        assert s is not None
        self._verify(P.verify_none, self._ctx(index, sender, "pass"), _triple(s),
                     self._hand_points(sender), self.S[sender], f["proof"])
        self._apply(ra.CannotRefute(sender))
        self._events.append(ev.Passed(sender, s.suggester, _triple(s)))

    def _on_end_turn(self, index: int, sender: int, f: dict[str, Any]) -> None:
        self._apply(ra.EndTurn(sender))
        self._events.append(ev.TurnEnded(sender))

    def _on_accuse(self, index: int, sender: int, f: dict[str, Any]) -> None:
        triple = (f["suspect"], f["weapon"], f["room"])
        self._apply(ra.Accuse(sender, *triple))
        self._events.append(ev.Accused(sender, triple))
        assert self.game_id is not None
        weights = P.pet_weights(self._ctx(index, sender, "accuse"), triple, self.envelope)
        self._pet_triple = triple
        self._pet_qp = P.pet_start(self.envelope, triple, weights)
        self.stage = Stage.PET
        # The chain starts left of the accuser and ends with the accuser: whoever steps last
        # can compute the verdict before sending its step and withhold it, and only the
        # accuser may know its own verdict early (docs/protocol.md, "Informed abort").
        self._begin_round(sender + 1)

    def _on_pet(self, index: int, sender: int, f: dict[str, Any]) -> None:
        assert self._pet_qp is not None
        q_prev, p_prev = self._pet_qp
        self._verify(P.verify_pet_step, self._ctx(index, sender, "pet"), q_prev, p_prev,
                     f["Q"], f["P"], self.Y[sender], f["proof"])
        self._pet_qp = (f["Q"], f["P"])
        self._next_in_round(self._finish_pet)

    def _finish_pet(self) -> None:
        assert self._pet_qp is not None and self._pet_triple is not None
        correct = P.pet_result(*self._pet_qp)
        seat = self._state().current_seat
        self._apply(ra.AccusationResult(seat, correct))
        self._events.append(ev.AccusationDecided(seat, self._pet_triple, correct))
        self._pet_qp = None
        self._begin_round(0)
        self.stage = Stage.OPEN if self._state().result is not None else Stage.PLAY

    def _on_leave(self, index: int, sender: int, f: dict[str, Any]) -> None:
        """The leaver's hand opened and its envelope layer removed, both proven; then it is
        out (rules: ``Leave``). Nothing else about it becomes public (docs/protocol.md,
        "Leaving the table")."""
        after = rg.apply(self._state(), ra.Leave(sender))
        mine = self._hand_points(sender)
        if len(f["hand"]) != len(mine) or len(f["envelope"]) != 3:
            raise _Reject("leave", f"a leave opens {len(mine)} hand points and 3 envelope points")
        self._verify(P.verify_unlayer, self._ctx(index, sender, "leave:hand"), mine,
                     f["hand"], self.S[sender], f["hand_proof"])
        self._verify(P.verify_unlayer, self._ctx(index, sender, "leave:envelope"),
                     self.envelope, f["envelope"], self.Y[sender], f["envelope_proof"])
        cards = [identify(p) for p in f["hand"]]
        if any(c is None for c in cards):
            raise _Reject("leave", "the opened hand is not made of cards")
        hand = tuple(sorted(c for c in cards if c is not None))
        self.rules_state = after
        self.envelope = f["envelope"]
        self.left_hands[sender] = hand
        self._events.append(ev.PlayerLeft(sender, hand))
        if after.result is not None:  # R29/R30: the game is decided; the reveal follows
            self._begin_round(0)
            self.stage = Stage.OPEN

    def _on_open(self, index: int, sender: int, f: dict[str, Any]) -> None:
        if len(f["points"]) != 3:
            raise _Reject("proof:dleq-batch", "the envelope has three cards")
        self._verify(P.verify_unlayer, self._ctx(index, sender, "open"), self.envelope,
                     f["points"], self.Y[sender], f["proof"])
        mine = self._shows_to_open(sender)
        if len(f["openings"]) != len(mine):
            raise _Reject("proof:opening", f"seat {sender} made {len(mine)} show(s) to open")
        cards = [P.check_opening(rec.triple, self.Y[rec.suggester], rec.commitment, o)
                 for rec, o in zip(mine, f["openings"], strict=True)]
        self.envelope = f["points"]
        for rec, card in zip(mine, cards, strict=True):
            self.opened[rec.index] = card
        self._next_in_round(self._finish_open)

    def _shows_to_open(self, refuter: int) -> list[ShowRecord]:
        """A seat's shows its ``open`` message opens: to seats still at the table (a card
        shown to a seat that left is not opened: see "Leaving the table"), in transcript order."""
        return [rec for rec in self.shows
                if rec.refuter == refuter and rec.suggester not in self.left_hands]

    def _finish_open(self) -> None:
        cards = [identify(p) for p in self.envelope]
        if any(c is None for c in cards):
            raise _Reject("open", "the envelope did not open to cards")
        self.envelope_cards = (cards[0], cards[1], cards[2])  # type: ignore[assignment]
        state = self._state()
        self._events.append(ev.GameOver(state.result or "nobody", state.winner,
                                        self.envelope_cards))  # type: ignore[arg-type]
        self.stage = Stage.SECRETS

    def _on_secrets(self, index: int, sender: int, f: dict[str, Any]) -> None:
        if base_mul(f["k"]) != self.Y[sender] or base_mul(f["r"]) != self.R[sender]:
            raise _Reject("secrets", "the revealed scalars do not match the public keys")
        self.revealed_k[sender] = f["k"]
        self.revealed_r[sender] = f["r"]
        self._next_in_round(self._finish_secrets)

    def _finish_secrets(self) -> None:
        self.stage = Stage.DONE
        self.status = Status.COMPLETE
        self._events.append(ev.Finished())

    # ---- building this peer's own messages ---------------------------------------------

    def _automatic_message(self) -> tuple[str, dict[str, Any]] | None:
        if self.stage is Stage.PLAY:
            return self._automatic_refutation()
        build = getattr(self, f"_build_{ROUND_TYPES[self.stage]}")
        body: dict[str, Any] = build(len(self.entries))
        return ROUND_TYPES[self.stage], body

    def _me(self) -> tuple[int, ScalarSource]:
        assert self.seat is not None and self._src is not None
        return self.seat, self._src

    def _build_join(self, index: int) -> dict[str, Any]:
        _, src = self._me()
        return {"nonce": src.random_bytes(32)}

    def _build_keys(self, index: int) -> dict[str, Any]:
        me, src = self._me()
        sec = self._secrets
        sec.k = random_scalar(src)
        sec.chain = randomness.HashChain.create(src, self._chain_length)
        sec.seeds.append(sec.chain.reveal(sec.chain.length))
        self.secrets_version += 1
        proof = prove_key(self._ctx(index, me, "keys"), sec.k, src)
        return {"Y": bytes(base_mul(sec.k)), "proof": proof.to_wire(), "chain": sec.chain.head}

    def _build_envelope(self, index: int) -> dict[str, Any]:
        me, src = self._me()
        assert self._secrets.k is not None
        decks, proofs = [], []
        for d in range(3):
            ctx = self._ctx(index, me, f"envelope:{DECK_NAMES[d]}")
            out, _perm, proof = P.shuffle(ctx, self._decks[d], self._secrets.k, src)
            decks.append([bytes(p) for p in out])
            proofs.append(proof.to_wire())
        return {"decks": decks, "proofs": proofs}

    def _build_deal(self, index: int) -> dict[str, Any]:
        me, src = self._me()
        sec = self._secrets
        sec.r = random_scalar(src)
        self.secrets_version += 1
        big_r, big_s = base_mul(sec.r), mul(sec.r, self.Y[me])
        link = P.prove_dleq(self._ctx(index, me, "deal:link"), sec.r, G, big_r, self.Y[me],
                            big_s, src)
        out, _perm, proof = P.shuffle(self._ctx(index, me, "deal:shuffle"), self._deal_deck,
                                      sec.r, src)
        return {"R": bytes(big_r), "S": bytes(big_s), "link": link.to_wire(),
                "deck": [bytes(p) for p in out], "proof": proof.to_wire()}

    def _build_unlayer(self, index: int) -> dict[str, Any]:
        me, src = self._me()
        points = [self.positions[p] for p in self._foreign_positions(me)]
        out, proof = P.unlayer(self._ctx(index, me, "unlayer"), points, self._secrets.s,
                               self.S[me], src)
        return {"points": [bytes(p) for p in out], "proof": proof.to_wire()}

    def _build_pet(self, index: int) -> dict[str, Any]:
        me, src = self._me()
        assert self._pet_qp is not None and self._secrets.k is not None
        q, p, proof = P.pet_step(self._ctx(index, me, "pet"), *self._pet_qp, self._secrets.k,
                                 self.Y[me], src)
        return {"Q": bytes(q), "P": bytes(p), "proof": proof.to_wire()}

    def _build_open(self, index: int) -> dict[str, Any]:
        me, src = self._me()
        assert self._secrets.k is not None
        out, proof = P.unlayer(self._ctx(index, me, "open"), self.envelope, self._secrets.k,
                               self.Y[me], src)
        return {"points": [bytes(p) for p in out], "proof": proof.to_wire(),
                "openings": [self._my_opening(rec).to_wire() for rec in self._shows_to_open(me)]}

    def _build_leave(self, index: int) -> dict[str, Any]:
        """Open the hand (remove s, never publish it) and remove k from the envelope, each
        with a batch DLEQ. Publishing k itself would open every card shown to this player."""
        me, src = self._me()
        assert self._secrets.k is not None
        hand, hand_proof = P.unlayer(self._ctx(index, me, "leave:hand"), self._hand_points(me),
                                     self._secrets.s, self.S[me], src)
        env, env_proof = P.unlayer(self._ctx(index, me, "leave:envelope"), self.envelope,
                                   self._secrets.k, self.Y[me], src)
        return {"hand": [bytes(p) for p in hand], "hand_proof": hand_proof.to_wire(),
                "envelope": [bytes(p) for p in env], "envelope_proof": env_proof.to_wire()}

    def _build_secrets(self, index: int) -> dict[str, Any]:
        sec = self._secrets
        assert sec.k is not None and sec.r is not None
        return {"k": bytes(sec.k), "r": bytes(sec.r)}

    def _automatic_refutation(self) -> tuple[str, dict[str, Any]] | None:
        if self._show_open is not None:
            return self._acknowledge(self._show_open)
        s = self._state().pending_suggestion
        if s is None:
            return None
        if any(c in _triple(s) for c in self.hand):
            return None  # the player chooses (see ``choice``)
        return "pass", self._pass_body(_triple(s))

    def _acknowledge(self, rec: ShowRecord) -> tuple[str, dict[str, Any]] | None:
        """The suggester: ``ack`` a valid private opening (keeping the card as a secret),
        ``complain`` about a wrong one or none in time; after a complaint the refuter
        publishes its opening."""
        if self._complained:
            return "opening", {"opening": self._my_opening(rec).to_wire()}
        if rec.index in self._acked:
            # Checked and saved before a crash that came before the ack was written: the
            # refuter will not send it again unasked, and a complaint would make it public.
            return "ack", {}
        got = self._private.get(rec.refuter)
        if got is not None and got[0] == rec.index:
            try:
                card = P.check_opening(rec.triple, self.Y[rec.suggester], rec.commitment, got[1])
            except CryptoError:
                return "complain", {}
            self._acked[rec.index] = card
            self.secrets_version += 1  # saved before the ack leaves (see ``secrets_version``)
            return "ack", {}
        if self._opening_expired:
            return "complain", {}
        return None  # wait for the private opening (``next_deadline``)

    def _build_reveal(self, index: int) -> dict[str, Any]:
        """The next chain value; the last one of a chain carries the head of a fresh chain."""
        sec = self._secrets
        assert sec.chain is not None and self._src is not None
        sec.used += 1
        value = sec.chain.reveal(sec.used)
        renew = None
        if sec.used == sec.chain.length:
            sec.chain = randomness.HashChain.create(self._src, self._chain_length)
            sec.seeds.append(sec.chain.reveal(sec.chain.length))
            self.secrets_version += 1
            sec.used = 0
            renew = sec.chain.head
        return {"event": self._event_id, "value": value, "renew": renew}

    def _pass_body(self, triple: tuple[int, int, int]) -> dict[str, Any]:
        assert self.seat is not None and self._src is not None
        me = self.seat
        proof = P.prove_none(self._ctx(len(self.entries), me, "pass"), triple,
                           self._hand_points(me), self._secrets.s, self.S[me], self._src)
        return {"proof": proof.to_wire()}

    def _show_body(self, triple: tuple[int, int, int], card: int, suggester: int
                   ) -> dict[str, Any]:
        assert self.seat is not None and self._src is not None
        me = self.seat
        points = self._hand_points(me)
        s = self._secrets.s
        position = self._dealt.index(card)
        ctx = self._ctx(len(self.entries), me, "show")
        assert self._secrets.k is not None
        c, proof, _ = P.prove_commit_show(ctx, triple, points, s, self.S[me], position, card,
                                          self.Y[suggester], self._src,
                                          P.show_rho(self._secrets.k, ctx))
        return {"C": bytes(c), "proof": proof.to_wire()}

    def _intent_message(self, intent: ev.Intent, choice: Choice) -> tuple[str, dict[str, Any]]:
        assert self.seat is not None
        me, state = self.seat, self._state()
        if choice.kind == "show":
            if not isinstance(intent, ev.ShowCard):
                raise LocalProtocolError(N_("a card must be shown now"), rule="R21")
            if intent.card not in choice.options:
                raise LocalProtocolError(N_("show one of the named cards you hold"), rule="R21")
            s = state.pending_suggestion
            assert s is not None
            return "show", self._show_body(_triple(s), intent.card, s.suggester)
        action, msg = _turn_intent(me, intent)
        try:
            if isinstance(intent, ev.RollDice):
                rg.apply(state, ra.Roll(me, (1,) * self._n_dice()))
            else:
                rg.apply(state, action)
        except RuleError as exc:
            raise LocalProtocolError.refusing(exc) from None
        return msg


def _turn_intent(me: int, intent: ev.Intent) -> tuple[Any, tuple[str, dict[str, Any]]]:
    if isinstance(intent, ev.RollDice):
        return None, ("roll", {})
    if isinstance(intent, ev.TakePassage):
        return ra.TakePassage(me), ("passage", {})
    if isinstance(intent, ev.MoveAlong):
        return ra.Move(me, intent.path), ("move", {"path": [list(sq) for sq in intent.path]})
    if isinstance(intent, ev.MakeSuggestion):
        return (ra.Suggest(me, intent.suspect, intent.weapon),
                ("suggest", {"suspect": intent.suspect, "weapon": intent.weapon}))
    if isinstance(intent, ev.MakeAccusation):
        return (ra.Accuse(me, intent.suspect, intent.weapon, intent.room),
                ("accuse", {"suspect": intent.suspect, "weapon": intent.weapon,
                            "room": intent.room}))
    if isinstance(intent, ev.EndTurn):
        return ra.EndTurn(me), ("end_turn", {})
    raise LocalProtocolError(N_("{intent} is not a turn action"), intent=type(intent).__name__)


def _event_name(event_id: int) -> str:
    return f"random/{event_id}"


def _triple(s: Suggestion) -> tuple[int, int, int]:
    return (s.suspect, s.weapon, s.room)


class _Reject(Exception):
    """A semantic check in a handler failed (turned into a RemoteProtocolError)."""

    def __init__(self, check: str, reason: str) -> None:
        self.violation = Violation(check, reason)
        super().__init__(reason)


def _points_in(value: Any) -> Iterator[Point]:
    """Every point in a check's arguments: lists, tuples and proof dataclasses searched."""
    if isinstance(value, Point):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _points_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _points_in(getattr(value, f.name))


def _owed_fault(owed: Owed, msg_type: str) -> Violation | None:
    """The first point read that fails its subgroup test, the points no multiplication has
    checked being checked now: the fault a test at reading would have found first."""
    bad = owed.first_bad()
    if bad is None:
        return None
    error, where = bad
    return _violation(msg_type, WireError(str(error), where))


def _violation(msg_type: str, exc: Exception) -> Violation:
    if isinstance(exc, WireError):
        return Violation(field_check(msg_type, exc.field), str(exc))
    if isinstance(exc, RuleError):
        return Violation(exc.rule, exc.detail)
    if isinstance(exc, CryptoError):
        return Violation(_crypto_check(exc), str(exc))
    assert isinstance(exc, _Reject)
    return exc.violation


def _crypto_check(exc: CryptoError) -> str:
    proof = getattr(exc, "proof", None)
    if isinstance(proof, str):
        return f"proof:{proof}"
    return "crypto"


def hands_from_secrets(peer: Peer) -> dict[int, tuple[int, ...]]:
    """After the secrets round: every seat's hand, decrypted with the revealed scalars."""
    hands: dict[int, list[int]] = {s: list(h) for s, h in peer.left_hands.items()}
    for p, owner in enumerate(peer.owners):
        if owner is None or owner in peer.left_hands:
            continue
        hands.setdefault(owner, [])
        s = peer.revealed_k[owner] * peer.revealed_r[owner]
        hands[owner].append(P.reveal_to_owner(peer.positions[p], s))
    return {seat: tuple(sorted(cards)) for seat, cards in sorted(hands.items())}


def shown_cards_from_secrets(peer: Peer) -> list[tuple[ShowRecord, int | None]]:
    """After the end-of-game reveal: every show with the card it showed, from the openings
    published (in ``open``, or after a complaint). A card shown to a seat that left, or by
    a seat that left, was never opened: None."""
    return [(rec, peer.opened.get(rec.index)) for rec in peer.shows]

