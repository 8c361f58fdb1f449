"""The protocol peer: ordering, authentication and blame around the game's stages.

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
done. ``docs/protocol.md`` specifies each message. Each stage is an object of its own
(``engine/stage.py``): the peer asks the current one who is due and what fits, and
hands it each accepted message (``_dispatch``); the stages keep their own state and
write the public record (``engine/record.py``: keys, points, shows, hands), which the
peer owns and shows under its own names. The peer is the stages' ``Host``: it alone
verifies with blame, reports events and moves from stage to stage.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Container, Mapping
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.crypto import proofs as P
from p2pclue.crypto.errors import CryptoError, InvalidPointError
from p2pclue.crypto.group import Owed, current_owed, owing, own_points
from p2pclue.crypto.rand import ScalarSource
from p2pclue.engine import events as ev
from p2pclue.engine.accusation import AccusationCheck
from p2pclue.engine.certificate import Certificates
from p2pclue.engine.chains import ChainCommitments
from p2pclue.engine.config import GameConfig
from p2pclue.engine.deal import JoinRound, deal_owners
from p2pclue.engine.ending import hands_from_secrets, shown_cards_from_secrets
from p2pclue.engine.errors import (
    Blame,
    LocalProtocolError,
    Reject,
    RemoteProtocolError,
    ReusedSessionError,
    Violation,
    WireError,
)
from p2pclue.engine.leave import build_leave
from p2pclue.engine.messages import decode_body
from p2pclue.engine.openings import is_private_opening, private_frame, take_private_opening
from p2pclue.engine.peer_secrets import PeerSecrets, SeatSecrets
from p2pclue.engine.record import PublicRecord, RecordView, ShowRecord
from p2pclue.engine.signed import late, misaddressed, read_signed
from p2pclue.engine.silence import At, Silence
from p2pclue.engine.stage import (
    Body,
    Choice,
    Message,
    Player,
    SeatRound,
    Stage,
    StageState,
    Status,
    my_opening,
)
from p2pclue.engine.transcript import Transcript
from p2pclue.engine.transcript import build as build_transcript
from p2pclue.engine.turn import OPENING_WAIT, Refutation, ShowAnswer, Turn, play_stage
from p2pclue.engine.verdicts import owed_fault, points_in, violation
from p2pclue.engine.votes import Vote
from p2pclue.engine.wire import (
    MAX_ENTRY_BYTES,
    Header,
    sha256,
    sign_frame,
    split_frame,
    verify_signature,
)
from p2pclue.rules.errors import N_, RuleError, SeatNo

__all__ = [  # with the names the stage modules define that callers know from here
    "DEFAULT_TIMEOUT", "DROPPED_SAMPLE", "DROPPED_SAMPLE_BYTES", "HOLD_WINDOW", "OPENING_WAIT",
    "VERIFY_OWN_ENV", "Choice", "Peer", "ShowRecord", "Stage", "Status", "deal_owners",
    "hands_from_secrets", "shown_cards_from_secrets", "verify_own_from",
]

HOLD_WINDOW = 32
"""How far ahead of a sender's next sequence number a frame may be held (one per number)."""
DEFAULT_TIMEOUT = 120.0
DROPPED_SAMPLE = 16
"""How many dropped frames a peer keeps (the latest ones) for diagnosis; it counts them all."""
DROPPED_SAMPLE_BYTES = 512
"""How much of each kept dropped frame is kept."""
VERIFY_OWN_ENV = "P2PCLUE_VERIFY_OWN"
"""Set to 1, every peer a front end makes also verifies its own proofs (``verify_own``)."""


def verify_own_from(environ: Mapping[str, str]) -> bool:
    """The ``verify_own`` debug switch as an environment sets it (the tests set it)."""
    return environ.get(VERIFY_OWN_ENV, "") == "1"


class Peer(RecordView):
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
        self._secrets = SeatSecrets()
        self._player: Player | None = None
        """The local seat, for a playing peer (None: an observer)."""
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
            self._player = Player(seat, identity, src, self._secrets)
        self.config = config
        self.seat = seat
        self._identity = identity
        self._src = src
        self._relay = relay
        self._verify_own = verify_own
        self._building = False
        """True while this peer accepts a frame it has just built itself (``_emit``)."""
        n = config.n_players
        self.n = n
        self._keys = [p.public_key() for p in config.players]
        self.status = Status.RUNNING
        self.blame: Blame | None = None
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
        self._silence = Silence(self._config_digest, self._keys, timeout, now)
        self._certificates = Certificates(self._config_digest, self._keys, lambda: Peer(
            config, None, relay=False, timeout=timeout))
        """Abandon votes about points this peer has passed: a quorum of them is final."""
        self._now = now
        # the stages
        self._current: StageState = JoinRound(SeatRound.starting(n, 0, ()))
        """The stage running now; it decides who is due and handles each message."""
        self._on_chained: list[Callable[[], None]] = []
        self.record = PublicRecord(config, self._config_digest,
                                   ChainCommitments(config.chain_length, [0] * n),
                                   deal_owners(n, config.rules.deal_equal))
        """The public record of the game, written by the stages."""
        self._leave_queued = False
        self.unsendable: str | None = None
        """The type of this seat's own message that came out over ``MAX_ENTRY_BYTES``: it
        was not sent (every peer drops such a frame unread), and this seat sends nothing
        more: the table sees it silent (docs/protocol.md, "Frames")."""
        self.abandon_votes: tuple[bytes, ...] = ()

    # ---- public API ------------------------------------------------------------------

    @property
    def stage(self) -> Stage:
        return self._current.stage

    @property
    def hand(self) -> tuple[int, ...]:
        """This player's cards, sorted (none before the deal, or for an observer)."""
        return () if self._player is None else self._player.hand

    @property
    def shown_to_me(self) -> list[tuple[int, int]]:
        """(refuter, card) for every card shown to this player."""
        return [] if self._player is None else self._player.shown_to_me

    @property
    def secrets_version(self) -> int:
        """Bumped whenever this peer draws or learns a new secret: a caller that persists
        secrets (``export_secrets``) writes them before it sends any frame queued after the
        bump."""
        return self._secrets.version

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
        if is_private_opening(raw):
            answer = self._open_show()
            try:
                if not take_private_opening(raw, via, self.record, self._player,
                                            None if answer is None else answer.record):
                    self.duplicate_count += 1
            except WireError as exc:  # not a frame sample: the bytes may be a real opening
                self.dropped_count += 1
                self.dropped.append((b"", f"private opening: {exc}"))
            return self._run(now, lambda: None)
        return self._run(now, lambda: self._ingest(raw))

    def act(self, intent: ev.Intent, now: float) -> list[ev.Event]:
        """The local player's choice; ``LocalProtocolError`` if it is not theirs to make now."""
        if self.status is not Status.RUNNING:
            raise LocalProtocolError(N_("the game is over ({status})"), status=self.status.value)
        if isinstance(intent, ev.Leave):
            return self._queue_leave(now)
        me, choice = self._player, self.choice()
        if me is None or choice is None:
            raise LocalProtocolError(N_("nothing is awaiting this player's choice"))
        msg_type, body = self._current.choose(self, me, intent, choice)
        return self._run(now, lambda: self._emit(me, msg_type, body))

    def frames_to_send(self) -> list[tuple[bytes, int | None]]:
        """Frames to deliver, each with its destination seat (None: everyone)."""
        out, self._outbox = self._outbox, []
        return out

    def next_deadline(self) -> float | None:
        if self.status is not Status.RUNNING:
            return None
        current = self._current  # (a runner asks after every step: kept to the point)
        if isinstance(current, ShowAnswer) and current.awaits_opening(self.seat):
            return min(self._silence.deadline, current.deadline)
        return self._silence.deadline

    def opening_deadline(self) -> float | None:
        """When this suggester stops waiting for a private opening and complains (None:
        it waits for none). ``on_timeout`` at or after it sends the complaint."""
        answer = self._awaited_show()
        return None if answer is None else answer.deadline

    def on_timeout(self, now: float) -> list[ev.Event]:
        """Report who owes a message past its deadline; blames nobody. From then on, until
        the silent seat speaks, the players present may vote (``vote``), and the votes this
        peer held because they came before its own deadline are counted. A suggester past
        its opening deadline complains instead (``ShowAnswer.automatic``)."""
        if self.status is not Status.RUNNING:
            return []
        answer = self._awaited_show()
        if answer is not None and now >= answer.deadline:
            answer.expired = True
            return self._run(now, lambda: None)
        deadline = self._silence.overdue(now)
        seat = self.expected_seat()
        if deadline is None or seat is None:
            return []
        out: list[ev.Event] = [ev.PeerSilent(seat, deadline)]
        for checked, raw in self._silence.report(self._at()):
            if self.status is Status.RUNNING:
                out += self._count_vote(checked, raw, now)
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
        return self._secrets.export(self.seat)

    def restore(self, secrets: PeerSecrets, entries: list[bytes], now: float) -> list[ev.Event]:
        """Rebuild a fresh peer's state after a crash: load the stored secrets, replay the
        stored transcript (this peer's own frames included, so it never signs a second
        message for a step it already signed: the caller re-sends the stored frames), then
        send whatever is owed and was never signed. Returns every event of the replay, for
        the front end to rebuild its view. ``SecretsError`` if the secrets do not fit the
        transcript, ``LocalProtocolError`` if the stored transcript does not replay."""
        me = self._player
        if me is None or self.entries or secrets.seat != me.seat:
            raise LocalProtocolError(
                N_("restore a fresh playing peer, with its own seat's secrets"))
        self._secrets.load(secrets)
        events: list[ev.Event] = []
        for i, raw in enumerate(entries):
            try:
                self._ingest(raw)
                self._drain_held()
                # before a wrong secret could fail a later step:
                me.secrets.check_fits(me.seat, self.Y, self.R, self.record.chains)
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
        me.secrets.check_fits(me.seat, self.Y, self.R, self.record.chains)
        self._silence.restart(now)  # it observes from now on
        answer = self._open_show()
        if answer is not None and answer.record.refuter == me.seat and not answer.complained:
            self.send_opening(answer.record)  # it may have been lost in the crash
        return events + self._run(now, lambda: None)

    # ---- silence and votes (engine/silence.py), certificates (engine/certificate.py) ---

    def vote(self, choice: str, now: float) -> tuple[bytes, list[ev.Event]]:
        """Sign this player's vote about the seat that is silent now (after ``PeerSilent``);
        the caller sends the returned bytes to every peer, which feed it to ``receive_vote``.
        ``LocalProtocolError`` if no silence was reported at this point or this player is
        the silent one or has left."""
        me = self._player
        if self.status is not Status.RUNNING or me is None:
            raise LocalProtocolError(N_("only a player of a running game votes"))
        raw = self._silence.sign(me, choice, self._at(), now)
        return raw, self.receive_vote(raw, now)

    def receive_vote(self, raw: bytes, now: float) -> list[ev.Event]:
        """Count a signed vote; one that does not verify, or is about a point this peer has
        not reached, is ignored: votes cost nobody anything. It is held until this peer's own
        deadline for the silent seat passes (``on_timeout``). If the awaited entry is chained
        first, a wait vote lapses and an abandon vote is kept, like one about a passed point,
        for a quorum of them is final (``certificate``). A quorum of abandon votes ends the
        game as abandoned (at a forfeit point: every other seat, and the accusation counts as
        wrong); of wait votes, restarts the silence clock."""
        if self.status is not Status.RUNNING:
            return []
        try:
            if self._certificates.passed(raw, self.entries):
                if not self._certificates.take(raw, self.entries):
                    self.duplicate_count += 1
                return self._settle(now)
            checked = self._silence.check(raw, self._at())
        except WireError as exc:
            self._drop(raw, str(exc))
            return []
        return [] if checked is None else self._count_vote(checked, raw, now)

    def certificate(self) -> tuple[int, tuple[bytes, ...]] | None:
        """The point this peer's game was abandoned at by a quorum of votes, with every
        abandon vote it holds about that point (None: not abandoned by vote). A runner sends
        them to every seat that plays on, so the certificate ends the game there too."""
        if self.status is not Status.ABANDONED or not self.abandon_votes:
            return None
        return len(self.entries), self._certificates.certificate(self.entries, self.abandon_votes)

    def _settle(self, now: float) -> list[ev.Event]:
        """If the kept abandon votes about a passed point make a quorum, this peer's game
        becomes the one they end there (``Certificates.settle``)."""
        found = None if self.status is not Status.RUNNING else self._certificates.settle(
            self.entries, self.n, self.left_hands, now)
        if found is None:
            return []
        observer, events = found
        self.record, self._current, self._head = observer.record, observer._current, observer._head
        self._index_of, self._sent_by = observer._index_of, observer._sent_by
        self._held, self._held_digests = {}, set()
        self.status, self.abandon_votes = Status.ABANDONED, observer.abandon_votes
        return events

    def abandon_quorum(self) -> int:
        """Abandon votes that end the game now: a strict majority of the seats still at the
        table other than the silent one."""
        return self._silence.quorum(self._at(), self.n)

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
        me = self._player
        if self.status is not Status.RUNNING or me is None or self.unsendable is not None:
            return None
        return self._current.choice(self, me)

    def expected_seat(self) -> int | None:
        """Who owes the next message (None when nothing more is owed)."""
        if self.status is not Status.RUNNING:
            return None
        return self._current.due()

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
        return self._current.due_soon(due, self.seat, self.n)

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
        check = self._current
        if not isinstance(check, AccusationCheck) or self.status is not Status.RUNNING:
            return None
        return check.accuser

    def private_openings_for(self, seat: int) -> list[bytes]:
        """What this peer owes ``seat`` over their private link now: the opening of its
        show to ``seat`` while that show is unanswered (no ``ack``, no ``complain``). The
        runner sends it again whenever the link to ``seat`` comes up: an opening lost with
        a link, or with the suggester's crash, would otherwise end in a complaint that makes
        the card public (docs/protocol.md, "Deniable refutation")."""
        answer = self._open_show()
        if answer is None or self.status is not Status.RUNNING \
                or not answer.owes_opening(self.seat, seat):
            return []
        return [self._private_frame(answer.record)]

    # ---- the stages' host (``stage.Host``) ------------------------------------------

    @property
    def player(self) -> Player | None:
        """The local seat (None: an observer)."""
        return self._player

    @property
    def now(self) -> float:
        """The time of the step being run (as the driver gave it)."""
        return self._now

    def announce(self, event: ev.Event) -> None:
        """Hand ``event`` back to the caller with the others of the step being run."""
        self._events.append(event)

    def enter(self, stage: StageState) -> None:
        """Make ``stage`` the running one; the last one, ``Done``, completes the game."""
        self._current = stage
        if stage.stage is Stage.DONE:
            self.status = Status.COMPLETE

    def resume_play(self) -> None:
        """Enter the play stage the rules state calls for now (``turn.play_stage``)."""
        play = self.record.play
        assert play is not None, "only a stage of play goes back to play"
        self._current = play_stage(play)

    def when_chained(self, action: Callable[[], None]) -> None:
        """Run ``action`` once the message being handled is chained (``_commit``): a round's
        end, whose checks can still fail that message."""
        self._on_chained.append(action)

    def verify(self, check: Callable[..., None], *args: Any) -> None:
        """Run a proof check, unless the proof is this peer's own, just built (``verify_own``).

        A handler changes nothing before its checks pass, so the points the check was given
        and did not multiply (a show's commitment, say) are tested here, before any change:
        one that fails makes the message fail as read (``_accept`` names the first bad point)."""
        if self._building and not self._verify_own:
            return
        check(*args)
        owed = current_owed()
        if owed is not None and owed.points and not owed.test(points_in(args)):
            raise InvalidPointError("point", "not in the main subgroup (the reader names it "
                                    "as read)")

    def send_opening(self, rec: ShowRecord) -> None:
        """Queue the private opening of this seat's show, for the suggester only."""
        self._outbox.append((self._private_frame(rec), rec.suggester))

    # ---- what the stages leave to the peer -------------------------------------------

    def _at(self) -> At:
        """Where the game stands, as votes name it."""
        current, silent = self._current, self.expected_seat()
        forfeit = isinstance(current, AccusationCheck) and silent == current.accuser
        return At(len(self.entries), self._head, silent, self.left_hands, forfeit)

    def _count_vote(self, checked: Vote, raw: bytes, now: float) -> list[ev.Event]:
        """Count a checked vote (``Silence.count``); a quorum to abandon ends the game."""
        out, votes = self._silence.count(checked, raw, self._at(), self.n, self._current, now)
        if votes is not None:
            self.status, self.abandon_votes = Status.ABANDONED, votes
        return out

    def _queue_leave(self, now: float) -> list[ev.Event]:
        """The player asked to leave: its ``leave`` goes out the next time the table awaits
        it in play, never in the middle of a step it owes."""
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

    def _open_show(self) -> ShowAnswer | None:
        """The show awaiting its answer, if one does."""
        current = self._current
        return current if isinstance(current, ShowAnswer) else None

    def _awaited_show(self) -> ShowAnswer | None:
        """The show whose private opening this suggester is waiting for, if any."""
        answer = self._open_show()
        running = self.status is Status.RUNNING
        return answer if answer is not None and running and answer.awaits_opening(self.seat) \
            else None

    def _private_frame(self, rec: ShowRecord, opening: P.Opening | None = None) -> bytes:
        """This seat's private opening of its show ``rec`` (``turn.private_frame``)."""
        opening = self._my_opening(rec) if opening is None else opening
        return private_frame(self._config_digest, rec, opening)

    def _my_opening(self, rec: ShowRecord) -> P.Opening:
        """This seat's opening of its own show, from its key (nothing stored)."""
        me, game_id = self._player, self.game_id
        if me is None or game_id is None:
            raise LocalProtocolError(N_("this seat cannot open its own show"))
        return my_opening(self.record, me, game_id, rec)

    def _build_leave(self, index: int) -> Body:
        """This seat's ``leave`` (``leave.build_leave``), to be the entry at ``index``."""
        me, play = self._player, self.record.play
        if me is None or play is None:
            raise LocalProtocolError(N_("this player is not at the table"))
        return build_leave(self.record, play, me, index)

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
        self._events += self._settle(now)
        if len(self.entries) != before:
            self._silence.restart(now)
        out, self._events = self._events, []
        return out

    def _halt(self, exc: RemoteProtocolError) -> None:
        self.status = Status.HALTED
        self.blame = Blame.from_error(exc, len(self.entries))
        self._events.append(ev.Halted(self.blame))

    def _pump(self) -> None:
        """Send every message this peer owes that needs no decision."""
        me = self._player
        while me is not None and self.status is Status.RUNNING and self.unsendable is None:
            if self.expected_seat() != me.seat:
                return
            if self._leave_queued and isinstance(self._current, Turn | Refutation):
                self._leave_queued = False
                self._emit(me, "leave", self._build_leave(len(self.entries)))
                continue
            auto = self._automatic_message()
            if auto is None:
                return
            self._emit(me, *auto)

    def _automatic_message(self) -> Message | None:
        """What this seat sends now without a decision (None: it decides or waits, or it
        is an observer)."""
        me = self._player
        return None if me is None else self._current.automatic(self, me)

    def _emit(self, me: Player, msg_type: str, body: Body) -> None:
        """Sign, accept locally through the common path, then queue for broadcast."""
        # Every frame names the config digest: foreign frames are known on sight.
        header = Header(self._config_digest, me.seat, len(self._sent_by[me.seat]), self._head,
                        msg_type)
        raw = sign_frame(me.identity, header, body)
        if len(raw) > MAX_ENTRY_BYTES or self.unsendable is not None:
            # Every receiver would drop it unread (rule 2), this peer too, and build it
            # again for ever; the link would be charged junk. The seat falls silent.
            self.unsendable = self.unsendable or msg_type
            return
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
        if self.knows(raw):
            self.duplicate_count += 1
            return  # a duplicate delivery of an accepted or held frame: harmless, and free
        try:
            sender, payload, signature = split_frame(raw)
        except WireError as exc:
            self._drop(raw, f"unreadable frame: {exc}")
            return
        game, complete = self._config_digest, self.status is Status.COMPLETE
        if sender >= self.n or not verify_signature(self._keys[sender], payload, signature):
            self._drop(raw, misaddressed(raw, sender, payload, signature, self._keys, game,
                                         complete))
        elif complete:
            self._drop(raw, late(raw, sender, payload, self._sent_by[sender], game))
        elif isinstance(read := read_signed(raw, sender, payload, game), str):
            self._drop(raw, read)
        else:
            self._place(raw, *read)

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
        allowed = self._current.allowed()
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
            except (WireError, RuleError, CryptoError, Reject) as exc:
                found = owed_fault(owed, header.type) or violation(header.type, exc)
                raise RemoteProtocolError(sender, found, (raw,)) from None
        late = owed_fault(owed, header.type)
        if late is not None:
            raise RemoteProtocolError(sender, late, (raw,))
        try:
            self._commit(raw, index, sender, header.type)  # ends a round: its checks run here
        except (RuleError, CryptoError, Reject) as exc:
            raise RemoteProtocolError(sender, violation(header.type, exc), (raw,)) from None

    def _dispatch(self, index: int, sender: int, msg_type: str, fields: dict[str, Any]) -> None:
        """Hand an accepted message to the running stage's handler for its type (``_accept``
        has checked the type is one the stage allows now)."""
        handler = getattr(self._current, f"on_{msg_type}")
        handler(self, index, sender, fields)

    def _commit(self, raw: bytes, index: int, sender: int, msg_type: str) -> None:
        self.entries.append(raw)
        self._index_of[sha256(raw)] = index
        self._sent_by[sender].append(raw)
        self._head = sha256(raw)
        # Votes about the point passed lapse, but for the abandon votes: those are kept.
        self._certificates.keep(self._silence.lapse())
        self._events.append(ev.Accepted(index, sender, msg_type))
        if self._relay and sender != self.seat:
            self._outbox.append((raw, None))
        pending, self._on_chained = self._on_chained, []
        for action in pending:
            action()

