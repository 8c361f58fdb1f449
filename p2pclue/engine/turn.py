"""Play: turns (roll, passage, move, suggestion, end) and their refutations.

The rules (``rules.game``) judge every turn action. A suggestion is answered by proofs:
a refuter proves it holds none of the named cards (``pass``), or commits to one of them for
the suggester alone (``show``) and opens that commitment to the suggester privately,
unsigned, so the suggester holds nothing a third party would take as the refuter's word
(docs/protocol.md, "Deniable refutation"). The suggester then owes ``ack``, or ``complain``
after which the refuter opens the show publicly.

Play runs as one of three stage objects over one ``Play``, chosen again from the rules state
after every change (``Play.resume``): a ``Turn`` (the current player's free choice), a
``Refutation`` (a suggestion awaits answers) or a ``ShowAnswer`` (a show awaits the
suggester's answer). Accusations (``accusation``) and leaving (``leave``) start from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from p2pclue.crypto import proofs as P
from p2pclue.crypto import randomness
from p2pclue.crypto.errors import CryptoError
from p2pclue.engine import accusation, leave
from p2pclue.engine import events as ev
from p2pclue.engine.errors import LocalProtocolError, WireError
from p2pclue.engine.reveals import start_random
from p2pclue.engine.stage import (
    Body,
    Choice,
    Fields,
    Message,
    Player,
    ShowRecord,
    Stage,
    StageState,
    my_opening,
    proof_context,
    triple_of,
)
from p2pclue.engine.wire import is_int, pack, unpack_canonical
from p2pclue.rules import actions as ra
from p2pclue.rules import game as rg
from p2pclue.rules.errors import N_, RuleError
from p2pclue.rules.state import GameState

if TYPE_CHECKING:
    from p2pclue.engine.peer import Peer

TURN_TYPES = frozenset({"roll", "passage", "move", "suggest", "accuse", "end_turn"})
REFUTE_TYPES = frozenset({"show", "pass"})
_AT_TURN = TURN_TYPES | {"leave"}
_ASKED = REFUTE_TYPES | {"leave"}
_ANSWERS = frozenset({"ack", "complain"})
_OPENING = frozenset({"opening"})
OPENING_WAIT = 10.0
"""How long the suggester waits for the private opening of a show before it complains."""
PRIVATE_OPENING = "opening"
"""First element of a private opening (never signed, never chained: see ``private_frame``)."""
MAX_PRIVATE_BYTES = 256


@dataclass
class Play:
    """The game of Clue itself, from the weapons' placement to the end: the rules state
    every play stage, random event and accusation check reads and advances."""

    game_id: bytes
    state: GameState
    weapon_rooms: dict[int, int]
    """Weapon card -> the room it started in."""
    n_dice: int

    def apply(self, action: Any) -> None:
        self.state = rg.apply(self.state, action)

    def resume(self, peer: Peer) -> None:
        """Enter the play stage the rules state calls for now."""
        s = self.state.pending_suggestion
        peer._enter(Refutation(self, s.suggester, triple_of(s)) if s is not None
                    else Turn(self))

    def rolled(self, peer: Peer, seat: int, event: str, reveals: tuple[bytes, ...]) -> None:
        """The dice of ``seat``'s roll, from the random event it started."""
        self.resume(peer)
        dice = randomness.random_dice(self.game_id, event, reveals, self.n_dice)
        self.apply(ra.Roll(seat, dice))
        peer.dice_log.append((seat, dice))
        peer._events.append(ev.DiceRolled(seat, dice))


def start_play(peer: Peer, game_id: bytes, weapon_rooms: dict[int, int] | None) -> None:
    """The cards are dealt: the rules' game begins (weapons where ``weapon_rooms`` puts
    them, else by the rules' fixed table)."""
    rules = peer.config.rules
    sizes = [sum(1 for o in peer.owners if o == s) for s in range(peer.n)]
    state = rg.new_game(rules, [p.suspect for p in peer.config.players], hand_sizes=sizes,
                        weapon_rooms=weapon_rooms, leftovers=peer.leftovers)
    rooms = {6 + i: room for i, room in enumerate(state.weapons)}
    play = Play(game_id, state, rooms, 2 if rules.two_dice else 1)
    peer._play = play
    peer._events.append(ev.WeaponsPlaced(tuple(sorted(rooms.items()))))
    play.resume(peer)


class PlayStage(StageState):
    """What the play stages share: whose turn it is decides who speaks soon."""

    stage = Stage.PLAY
    play: Play

    def due_soon(self, due: int, seat: int, n: int) -> bool:
        # refutations come back to the turn's player
        return self.play.state.current_seat == seat or (due + 1) % n == seat


@dataclass
class Turn(PlayStage):
    """The current player's free choice: a turn action, an accusation or leaving."""

    play: Play

    def due(self) -> int | None:
        return self.play.state.awaiting_seat

    def allowed(self) -> frozenset[str]:
        return _AT_TURN

    def automatic(self, peer: Peer, me: Player) -> Message | None:
        return None

    def choice(self, peer: Peer, me: Player) -> Choice | None:
        return Choice("turn") if self.play.state.awaiting_seat == me.seat else None

    def choose(self, peer: Peer, me: Player, intent: ev.Intent, choice: Choice) -> Message:
        action, msg = _turn_intent(me.seat, intent)
        try:
            if isinstance(intent, ev.RollDice):
                rg.apply(self.play.state, ra.Roll(me.seat, (1,) * self.play.n_dice))
            else:
                rg.apply(self.play.state, action)
        except RuleError as exc:
            raise LocalProtocolError.refusing(exc) from None
        return msg

    def on_roll(self, peer: Peer, index: int, sender: int, f: Fields) -> None:
        rg.apply(self.play.state, ra.Roll(sender, (1,) * self.play.n_dice))  # legal now? (R11)
        play = self.play
        start_random(peer, lambda event, reveals: play.rolled(peer, sender, event, reveals))

    def on_passage(self, peer: Peer, index: int, sender: int, f: Fields) -> None:
        self.play.apply(ra.TakePassage(sender))
        room = self.play.state.token_of(sender)
        assert isinstance(room, int)  # a passage ends in a room (rules.game._passage)
        peer._events.append(ev.PassageTaken(sender, room))

    def on_move(self, peer: Peer, index: int, sender: int, f: Fields) -> None:
        self.play.apply(ra.Move(sender, f["path"]))
        where = self.play.state.token_of(sender)
        peer._events.append(ev.Moved(sender, f["path"], where if isinstance(where, int) else None))

    def on_suggest(self, peer: Peer, index: int, sender: int, f: Fields) -> None:
        self.play.apply(ra.Suggest(sender, f["suspect"], f["weapon"]))
        state = self.play.state
        # Answered by nobody when everybody else has left: the rules close it at once.
        made = state.pending_suggestion or state.last_suggestion
        assert made is not None  # rules.game._suggest leaves it in one of the two
        peer._events.append(ev.Suggested(sender, *triple_of(made)))
        self.play.resume(peer)

    def on_end_turn(self, peer: Peer, index: int, sender: int, f: Fields) -> None:
        self.play.apply(ra.EndTurn(sender))
        peer._events.append(ev.TurnEnded(sender))

    def on_accuse(self, peer: Peer, index: int, sender: int, f: Fields) -> None:
        accusation.on_accuse(peer, self.play, index, sender, f)

    def on_leave(self, peer: Peer, index: int, sender: int, f: Fields) -> None:
        leave.on_leave(peer, self.play, index, sender, f)


@dataclass
class Refutation(PlayStage):
    """A suggestion awaits answers: each seat in turn shows a named card or proves it holds
    none, until one shows or all have passed."""

    play: Play
    suggester: int
    triple: tuple[int, int, int]

    def due(self) -> int | None:
        return self.play.state.awaiting_seat

    def allowed(self) -> frozenset[str]:
        return _ASKED

    def automatic(self, peer: Peer, me: Player) -> Message | None:
        if any(c in self.triple for c in peer.hand):
            return None  # the player chooses (see ``choice``)
        return "pass", self._pass_body(peer, me)

    def choice(self, peer: Peer, me: Player) -> Choice | None:
        if self.play.state.awaiting_seat != me.seat:
            return None
        # Asked even with one option, so that how long an answer takes does not tell
        # the table whether the refuter holds one named card or several.
        options = tuple(c for c in peer.hand if c in self.triple)
        return Choice("show", options) if options else None

    def choose(self, peer: Peer, me: Player, intent: ev.Intent, choice: Choice) -> Message:
        if not isinstance(intent, ev.ShowCard):
            raise LocalProtocolError(N_("a card must be shown now"), rule="R21")
        if intent.card not in choice.options:
            raise LocalProtocolError(N_("show one of the named cards you hold"), rule="R21")
        return "show", self._show_body(peer, me, intent.card)

    def on_show(self, peer: Peer, index: int, sender: int, f: Fields) -> None:
        """Everyone checks the proof; the card stays hidden in the commitment. The refuter
        sends the opening to the suggester alone, unsigned (docs/protocol.md, "Deniable
        refutation"); the suggester owes ``ack`` or ``complain`` next."""
        suggester, triple = self.suggester, self.triple
        peer._verify(P.verify_commit_show, proof_context(self.play.game_id, index, sender, "show"),
                     triple, peer._hand_points(sender), peer.S[sender], peer.Y[suggester], f["C"],
                     f["proof"])
        self.play.apply(ra.Refute(sender, None))
        rec = ShowRecord(index, suggester, sender, triple, f["C"])
        peer.shows.append(rec)
        answer = ShowAnswer(self.play, rec, peer._now + OPENING_WAIT)
        peer._enter(answer)
        peer._events.append(ev.Refuted(sender, suggester, triple))
        if sender == peer.seat:
            peer._send_opening(rec)

    def on_pass(self, peer: Peer, index: int, sender: int, f: Fields) -> None:
        peer._verify(P.verify_none, proof_context(self.play.game_id, index, sender, "pass"),
                     self.triple, peer._hand_points(sender), peer.S[sender], f["proof"])
        self.play.apply(ra.CannotRefute(sender))
        peer._events.append(ev.Passed(sender, self.suggester, self.triple))
        self.play.resume(peer)

    def on_leave(self, peer: Peer, index: int, sender: int, f: Fields) -> None:
        leave.on_leave(peer, self.play, index, sender, f)

    def _pass_body(self, peer: Peer, me: Player) -> Body:
        index = len(peer.entries)
        proof = P.prove_none(proof_context(self.play.game_id, index, me.seat, "pass"),
                             self.triple, peer._hand_points(me.seat), me.secrets.hand_key(),
                             peer.S[me.seat], me.src)
        return {"proof": proof.to_wire()}

    def _show_body(self, peer: Peer, me: Player, card: int) -> Body:
        points = peer._hand_points(me.seat)
        s = me.secrets.hand_key()
        position = peer._dealt.index(card)
        index = len(peer.entries)
        ctx = proof_context(self.play.game_id, index, me.seat, "show")
        c, proof, _ = P.prove_commit_show(ctx, self.triple, points, s, peer.S[me.seat], position,
                                          card, peer.Y[self.suggester], me.src,
                                          P.show_rho(me.secrets.key(), ctx))
        return {"C": bytes(c), "proof": proof.to_wire()}


@dataclass
class ShowAnswer(PlayStage):
    """A show awaits the suggester's answer: ``ack`` (it checked the private opening) or
    ``complain``; after a complaint the refuter owes the public ``opening``."""

    play: Play
    record: ShowRecord
    deadline: float
    """When the suggester stops waiting for the private opening and complains."""
    complained: bool = False
    expired: bool = False
    """Set by ``Peer.on_timeout`` at the deadline: only the clock makes a suggester complain
    about a missing opening (never the arrival of some other frame)."""

    def due(self) -> int | None:
        return self.record.refuter if self.complained else self.record.suggester

    def allowed(self) -> frozenset[str]:
        return _OPENING if self.complained else _ANSWERS

    def automatic(self, peer: Peer, me: Player) -> Message | None:
        """The suggester: ``ack`` a valid private opening (keeping the card as a secret),
        ``complain`` about a wrong one or none in time; after a complaint the refuter
        publishes its opening."""
        rec = self.record
        if self.complained:
            return "opening", {"opening": my_opening(peer, me, self.play.game_id, rec).to_wire()}
        if rec.index in peer._acked:
            # Checked and saved before a crash that came before the ack was written: the
            # refuter will not send it again unasked, and a complaint would make it public.
            return "ack", {}
        got = peer._private.get(rec.refuter)
        if got is not None and got[0] == rec.index:
            try:
                card = P.check_opening(rec.triple, peer.Y[rec.suggester], rec.commitment, got[1])
            except CryptoError:
                return "complain", {}
            peer._acked[rec.index] = card
            peer.secrets_version += 1  # saved before the ack leaves (see ``secrets_version``)
            return "ack", {}
        if self.expired:
            return "complain", {}
        return None  # wait for the private opening (``Peer.next_deadline``)

    def on_ack(self, peer: Peer, index: int, sender: int, f: Fields) -> None:
        rec = self.record
        self.play.resume(peer)
        if peer.seat == sender and rec.index in peer._acked:
            _learn(peer, rec.refuter, peer._acked[rec.index])

    def on_complain(self, peer: Peer, index: int, sender: int, f: Fields) -> None:
        self.complained = True

    def on_opening(self, peer: Peer, index: int, sender: int, f: Fields) -> None:
        """After a complaint the card becomes public: everybody checks the opening."""
        rec = self.record
        card = P.check_opening(rec.triple, peer.Y[rec.suggester], rec.commitment, f["opening"])
        peer.opened[rec.index] = card
        self.play.resume(peer)
        if peer.seat == rec.suggester:
            _learn(peer, rec.refuter, card)

    def awaits_opening(self, peer: Peer) -> bool:
        """Whether this peer is the suggester, waiting for the private opening."""
        return not self.complained and peer.seat == self.record.suggester

    def owes_opening(self, peer: Peer, seat: int) -> bool:
        """Whether this peer is the refuter and owes ``seat`` the private opening."""
        rec = self.record
        return not self.complained and rec.refuter == peer.seat and rec.suggester == seat


def _learn(peer: Peer, refuter: int, card: int) -> None:
    peer.shown_to_me.append((refuter, card))
    peer._events.append(ev.CardShownToMe(refuter, card))


def private_frame(config_digest: bytes, rec: ShowRecord, opening: P.Opening) -> bytes:
    """``["opening", config digest, show index, {card, rho}]``: no signature, so that
    the suggester holds nothing a third party would take as the refuter's word."""
    return pack([PRIVATE_OPENING, config_digest, rec.index, opening.to_wire()])


def read_private_opening(peer: Peer, raw: bytes, via: int | None) -> bool:
    """A private opening from the seat whose link carried it (``via``: the link's
    authenticated peer). Kept, one per seat, until the suggester decides; anything odd
    is dropped. False: not a private opening (a frame, handled as such)."""
    if raw[:1] != b"\x94":  # a msgpack array of 4 (a frame is an array of 3)
        return False
    try:
        obj = unpack_canonical(raw, MAX_PRIVATE_BYTES)
        kind, digest, index, wire = obj
        if kind != PRIVATE_OPENING or digest != peer._config_digest \
                or not is_int(index) or via is None or not 0 <= via < peer.n:
            raise WireError("not a private opening of this game", "private")
        opening = P.Opening.from_wire(wire)
        _keep_opening(peer, via, index, opening)
    except (WireError, CryptoError, ValueError, TypeError) as exc:
        # Not a frame sample: the bytes may be a real opening (a card and its rho).
        peer.dropped_count += 1
        peer.dropped.append((b"", f"private opening: {exc}"))
    return True


def _keep_opening(peer: Peer, via: int, index: int, opening: P.Opening) -> None:
    """Keep an opening this seat may be awaiting from ``via``; ``WireError`` (dropped,
    so the runner charges the link) for one it cannot await: this seat is an observer,
    or the show at ``index`` is chained and is not ``via``'s show to this seat, or
    ``via`` already has another opening kept for a show not yet here (a refuter has one
    unanswered show at a time). A copy of one already kept, or of one for an answered
    show of ``via``'s to this seat (a re-send that crossed the answer), is a duplicate."""
    kept = peer._private.get(via)
    answer = peer._open_show()
    open_rec = None if answer is None else answer.record
    if kept == (index, opening) or any(
            rec.index == index and rec.refuter == via and rec.suggester == peer.seat
            for rec in peer.shows if rec is not open_rec):
        peer.duplicate_count += 1
        return
    awaited = open_rec is not None and (open_rec.index, open_rec.refuter,
                                        open_rec.suggester) == (index, via, peer.seat)
    if peer.seat is None or not (awaited or index >= len(peer.entries)):
        raise WireError("no show of this seat's awaits that opening", "private")
    if kept is not None and kept[0] >= len(peer.entries) and kept[0] != index:
        raise WireError("a second opening for a show not yet here", "private")
    peer._private[via] = (index, opening)


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
