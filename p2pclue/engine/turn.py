"""Play: turns (roll, passage, move, suggestion, end) and their refutations.

The rules (``rules.game``) judge every turn action. A suggestion is answered by proofs:
a refuter proves it holds none of the named cards (``pass``), or commits to one of them for
the suggester alone (``show``) and opens that commitment to the suggester privately,
unsigned, so the suggester holds nothing a third party would take as the refuter's word
(docs/protocol.md, "Deniable refutation"). The suggester then owes ``ack``, or ``complain``
after which the refuter seals its opening to the suggester in a signed ``sealed`` that
every seat verifies and only the suggester can read (docs/protocol.md, 4d).

Play runs as one of three stage objects over one ``Play`` (``record.Play``), chosen again
from the rules state after every change (``play_stage``, which the peer runs for
``Host.resume_play``): a ``Turn`` (the current player's free choice), a ``Refutation``
(a suggestion awaits answers) or a ``ShowAnswer`` (a show awaits the suggester's answer).
Accusations (``accusation``) and leaving (``leave``) start from here and go back to play
through the host, so neither imports this module. Private openings: ``openings``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p2pclue.crypto import proofs as P
from p2pclue.crypto import randomness
from p2pclue.crypto.errors import CryptoError
from p2pclue.engine import accusation, leave
from p2pclue.engine import events as ev
from p2pclue.engine.errors import LocalProtocolError
from p2pclue.engine.record import PassRecord, Play, ShowRecord
from p2pclue.engine.reveals import start_random
from p2pclue.engine.stage import (
    Body,
    Choice,
    Fields,
    Host,
    Message,
    Player,
    Stage,
    StageState,
    my_opening,
    proof_context,
    triple_of,
)
from p2pclue.rules import actions as ra
from p2pclue.rules import game as rg
from p2pclue.rules.errors import N_, RuleError

TURN_TYPES = frozenset({"roll", "passage", "move", "suggest", "accuse", "end_turn"})
REFUTE_TYPES = frozenset({"show", "pass"})
_AT_TURN = TURN_TYPES | {"leave"}
_ASKED = REFUTE_TYPES | {"leave"}
_ANSWERS = frozenset({"ack", "complain"})
_SEALED = frozenset({"sealed"})
OPENING_WAIT = 10.0
"""How long the suggester waits for the private opening of a show before it complains."""


def start_play(peer: Host, game_id: bytes, weapon_rooms: dict[int, int] | None) -> None:
    """The cards are dealt: the rules' game begins (weapons where ``weapon_rooms`` puts
    them, else by the rules' fixed table)."""
    record = peer.record
    rules = record.config.rules
    sizes = [sum(1 for o in record.owners if o == s) for s in range(record.n)]
    state = rg.new_game(rules, [p.suspect for p in record.config.players], hand_sizes=sizes,
                        weapon_rooms=weapon_rooms, leftovers=record.leftovers)
    rooms = {6 + i: room for i, room in enumerate(state.weapons)}
    record.play = Play(game_id, state, rooms, 2 if rules.two_dice else 1)
    peer.announce(ev.WeaponsPlaced(tuple(sorted(rooms.items()))))
    peer.resume_play()


def play_stage(play: Play) -> PlayStage:
    """The play stage the rules state calls for now (``Host.resume_play``)."""
    s = play.state.pending_suggestion
    return Refutation(play, s.suggester, triple_of(s)) if s is not None else Turn(play)


def rolled(peer: Host, play: Play, seat: int, event: str, reveals: tuple[bytes, ...]) -> None:
    """The dice of ``seat``'s roll, from the random event it started."""
    peer.resume_play()
    dice = randomness.random_dice(play.game_id, event, reveals, play.n_dice)
    play.apply(ra.Roll(seat, dice))
    peer.record.dice_log.append((seat, dice))
    peer.announce(ev.DiceRolled(seat, dice))


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

    def automatic(self, peer: Host, me: Player) -> Message | None:
        return None

    def choice(self, peer: Host, me: Player) -> Choice | None:
        return Choice("turn") if self.play.state.awaiting_seat == me.seat else None

    def choose(self, peer: Host, me: Player, intent: ev.Intent, choice: Choice) -> Message:
        action, msg = _turn_intent(me.seat, intent)
        try:
            if isinstance(intent, ev.RollDice):
                rg.apply(self.play.state, ra.Roll(me.seat, (1,) * self.play.n_dice))
            else:
                rg.apply(self.play.state, action)
        except RuleError as exc:
            raise LocalProtocolError.refusing(exc) from None
        return msg

    def on_roll(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        rg.apply(self.play.state, ra.Roll(sender, (1,) * self.play.n_dice))  # legal now? (R11)
        play = self.play
        start_random(peer, lambda event, reveals: rolled(peer, play, sender, event, reveals))

    def on_passage(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        self.play.apply(ra.TakePassage(sender))
        room = self.play.state.token_of(sender)
        assert isinstance(room, int)  # a passage ends in a room (rules.game._passage)
        peer.announce(ev.PassageTaken(sender, room))

    def on_move(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        self.play.apply(ra.Move(sender, f["path"]))
        where = self.play.state.token_of(sender)
        peer.announce(ev.Moved(sender, f["path"], where if isinstance(where, int) else None))

    def on_suggest(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        self.play.apply(ra.Suggest(sender, f["suspect"], f["weapon"]))
        state = self.play.state
        # Answered by nobody when everybody else has left: the rules close it at once.
        made = state.pending_suggestion or state.last_suggestion
        assert made is not None  # rules.game._suggest leaves it in one of the two
        peer.announce(ev.Suggested(sender, *triple_of(made)))
        peer.resume_play()

    def on_end_turn(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        self.play.apply(ra.EndTurn(sender))
        peer.announce(ev.TurnEnded(sender))

    def on_accuse(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        accusation.on_accuse(peer, self.play, index, sender, f)

    def on_leave(self, peer: Host, index: int, sender: int, f: Fields) -> None:
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

    def automatic(self, peer: Host, me: Player) -> Message | None:
        if any(c in self.triple for c in me.hand):
            return None  # the player chooses (see ``choice``)
        return "pass", self._pass_body(peer, me)

    def choice(self, peer: Host, me: Player) -> Choice | None:
        if self.play.state.awaiting_seat != me.seat:
            return None
        # Asked even with one option, so that how long an answer takes does not tell
        # the table whether the refuter holds one named card or several.
        options = tuple(c for c in me.hand if c in self.triple)
        return Choice("show", options) if options else None

    def choose(self, peer: Host, me: Player, intent: ev.Intent, choice: Choice) -> Message:
        if not isinstance(intent, ev.ShowCard):
            raise LocalProtocolError(N_("a card must be shown now"), rule="R21")
        if intent.card not in choice.options:
            raise LocalProtocolError(N_("show one of the named cards you hold"), rule="R21")
        return "show", self._show_body(peer, me, intent.card)

    def on_show(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        """Everyone checks the proof; the card stays hidden in the commitment. The refuter
        sends the opening to the suggester alone, unsigned (docs/protocol.md, "Deniable
        refutation"); the suggester owes ``ack`` or ``complain`` next."""
        suggester, triple, record = self.suggester, self.triple, peer.record
        peer.verify(P.verify_commit_show, proof_context(self.play.game_id, index, sender, "show"),
                    triple, record.hand_points(sender), record.S[sender], record.Y[suggester],
                    f["C"], f["proof"])
        self.play.apply(ra.Refute(sender, None))
        rec = ShowRecord(index, suggester, sender, triple, f["C"])
        record.shows.append(rec)
        answer = ShowAnswer(self.play, rec, peer.now + OPENING_WAIT)
        peer.enter(answer)
        peer.announce(ev.Refuted(sender, suggester, triple))
        me = peer.player
        if me is not None and me.seat == sender:
            peer.send_opening(rec)

    def on_pass(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        record = peer.record
        peer.verify(P.verify_none, proof_context(self.play.game_id, index, sender, "pass"),
                    self.triple, record.hand_points(sender), record.S[sender], f["proof"])
        self.play.apply(ra.CannotRefute(sender))
        record.passes.append(PassRecord(index, self.suggester, sender, self.triple))
        peer.announce(ev.Passed(sender, self.suggester, self.triple))
        peer.resume_play()

    def on_leave(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        leave.on_leave(peer, self.play, index, sender, f)

    def _pass_body(self, peer: Host, me: Player) -> Body:
        record = peer.record
        index = len(record.entries)
        proof = P.prove_none(proof_context(self.play.game_id, index, me.seat, "pass"),
                             self.triple, record.hand_points(me.seat), me.secrets.hand_key(),
                             record.S[me.seat], me.src)
        return {"proof": proof.to_wire()}

    def _show_body(self, peer: Host, me: Player, card: int) -> Body:
        record = peer.record
        points = record.hand_points(me.seat)
        s = me.secrets.hand_key()
        position = me.dealt.index(card)
        index = len(record.entries)
        ctx = proof_context(self.play.game_id, index, me.seat, "show")
        c, proof, _ = P.prove_commit_show(ctx, self.triple, points, s, record.S[me.seat],
                                          position, card, record.Y[self.suggester], me.src,
                                          P.show_rho(me.secrets.key(), ctx))
        return {"C": bytes(c), "proof": proof.to_wire()}


@dataclass
class ShowAnswer(PlayStage):
    """A show awaits the suggester's answer: ``ack`` (it checked the private opening) or
    ``complain``; after a complaint the refuter owes ``sealed``, its opening sealed to the
    suggester."""

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
        return _SEALED if self.complained else _ANSWERS

    def automatic(self, peer: Host, me: Player) -> Message | None:
        """The suggester: ``ack`` a valid private opening (keeping the card as a secret),
        ``complain`` about a wrong one or none in time; after a complaint the refuter
        seals its opening to the suggester."""
        rec, sec = self.record, me.secrets
        if self.complained:
            index = len(peer.record.entries)
            ctx = proof_context(self.play.game_id, index, me.seat, "sealed")
            opening = my_opening(peer.record, me, self.play.game_id, rec)
            sealed = P.seal_opening(ctx, rec.triple, peer.record.Y[rec.suggester],
                                    rec.commitment, opening, me.src)
            return "sealed", {"sealed": sealed.to_wire()}
        if rec.index in sec.acked:
            # Checked and saved before a crash that came before the ack was written: the
            # refuter will not send it again unasked, and a complaint would cost it a sealed
            # opening that gives this seat transferable evidence of the card (4d).
            return "ack", {}
        got = me.openings.get(rec.refuter)
        if got is not None and got[0] == rec.index:
            try:
                card = P.check_opening(rec.triple, peer.record.Y[rec.suggester], rec.commitment,
                                       got[1])
            except CryptoError:
                return "complain", {}
            sec.acked[rec.index] = card
            sec.version += 1  # saved before the ack leaves (see ``SeatSecrets.version``)
            return "ack", {}
        if self.expired:
            return "complain", {}
        return None  # wait for the private opening (``Peer.next_deadline``)

    def on_ack(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        rec, me = self.record, peer.player
        peer.resume_play()
        if me is not None and me.seat == sender and rec.index in me.secrets.acked:
            _learn(peer, me, rec.refuter, me.secrets.acked[rec.index])

    def on_complain(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        self.complained = True

    def on_sealed(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        """After a complaint: everybody checks the sealed opening and keeps R with the show
        (the end-of-game ``open`` must repeat it); only the suggester decrypts the card."""
        rec, record, me = self.record, peer.record, peer.player
        sealed: P.SealedOpening = f["sealed"]
        ctx = proof_context(self.play.game_id, index, sender, "sealed")
        peer.verify(P.verify_sealed_opening, ctx, rec.triple, record.Y[rec.suggester],
                    rec.commitment, sealed)
        record.sealed[rec.index] = sealed.r
        peer.resume_play()
        if me is not None and me.seat == rec.suggester:
            card = P.open_sealed(rec.triple, rec.commitment, sealed, me.secrets.key())
            _learn(peer, me, rec.refuter, card)

    def awaits_opening(self, me: int | None) -> bool:
        """Whether seat ``me`` is the suggester, waiting for the private opening."""
        return not self.complained and me == self.record.suggester

    def owes_opening(self, me: int | None, seat: int) -> bool:
        """Whether seat ``me`` is the refuter and owes ``seat`` the private opening."""
        rec = self.record
        return not self.complained and rec.refuter == me and rec.suggester == seat


def _learn(peer: Host, me: Player, refuter: int, card: int) -> None:
    me.shown_to_me.append((refuter, card))
    peer.announce(ev.CardShownToMe(refuter, card))


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
