"""Peers that really cheat: for tests, ``simulate --cheat`` and sample transcripts.

A ``CheatingPeer`` plays honestly until its chosen kind of cheat becomes possible,
then signs and sends one bad message (with its own, valid identity key unless
the cheat is the signature itself) and falls silent. Nothing is mocked: the bad
message goes through the honest peers' normal verification, which must halt
the game and name this seat.

The cheat is tried before every message the peer could send and before every
choice its player makes, so it fires at its first opportunity. Where the peer can
create the opportunity itself it does: it rolls at the start of its first turn
(``illegal-move``) and accuses on its first turn (``accuse-twice``, ``bad-pet``).
A refutation cheat needs another seat's suggestion to reach it; ``simulate``
arranges that (``p2pclue.bots.stage``). ``cheated`` tells whether the cheat
happened; a run in which it never did must say so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from p2pclue.crypto import proofs as P
from p2pclue.crypto.commitshow import prove_commit_show_unchecked
from p2pclue.crypto.group import ONE, Point, mul
from p2pclue.crypto.heldopening import prove_held_unchecked
from p2pclue.crypto.holdnone import prove_none_unchecked
from p2pclue.crypto.pet import prove_pet_step
from p2pclue.crypto.rand import random_scalar
from p2pclue.crypto.sealedopening import seal_unchecked
from p2pclue.engine import events as ev
from p2pclue.engine.accusation import AccusationCheck
from p2pclue.engine.ending import shows_to_open
from p2pclue.engine.peer import Peer
from p2pclue.engine.record import ShowRecord
from p2pclue.engine.reveals import RandomRound
from p2pclue.engine.stage import Player, Stage, Status, proof_context
from p2pclue.engine.turn import PlayStage, Refutation
from p2pclue.engine.wire import Header, decode_payload, sign_frame, split_frame
from p2pclue.rules.cards import CARDS, Category
from p2pclue.rules.state import GameState, Phase
from p2pclue.rules.variants import Rules

Frames = list[tuple[bytes, int | None]]

CHEATS: dict[str, str] = {
    "bad-shuffle": "a shuffle whose output drops one card and duplicates another",
    "bad-decrypt": "a layer removal that changes a card instead of unwrapping it",
    "false-cannot-refute": "'cannot refute' while holding a named card",
    "show-unheld-card": "shows a named card that is not in the hand",
    "show-unnamed-card": "shows a card from the hand that was not named",
    "illegal-move": "moves through the wall into the cellar",
    "out-of-turn": "sends a message when another seat is due",
    "forged-signature": "sends a message in another seat's name",
    "equivocate": "sends two different versions of one message to different peers",
    "bias-dice": "reveals a made-up value instead of its hash-chain preimage (dice or weapons)",
    "accuse-twice": "accuses again after a wrong accusation",
    "replay": "sends an old message of its own again, re-signed, where a new one is due",
    "bad-pet": "skips the blinding in its step of the accusation check",
    "wrong-opening": "opens its show privately to another card, and seals that card to the "
                     "suggester when it complains",
    "no-opening": "sends the suggester no opening of its show, and when the suggester "
                  "complains seals one it made up",
    "bad-sealed": "sends the suggester no opening of its show, and when the suggester "
                  "complains seals the shown card with an R that is no point of the group",
    "bad-held": "opens a show of its own in the end-of-game open with a proof that the card "
                "is in its hand answered for a hand position that holds another card",
}

PHASED = {"bad-shuffle": ("envelope", "deal"), "bad-decrypt": ("unlayer", "open"),
          "out-of-turn": ("setup", "play"), "equivocate": ("setup", "play"),
          "forged-signature": ("setup", "play"), "bias-dice": ("dice", "weapons"),
          "replay": ("play", "setup")}
"""Cheats that can happen at more than one point, and the points ``phase`` may name."""

REFUTATION_CHEATS = frozenset({"false-cannot-refute", "show-unheld-card", "show-unnamed-card",
                               "wrong-opening", "no-opening", "bad-sealed", "bad-held"})
"""Cheats that need another seat's suggestion to reach the cheater."""
OPENING_CHEATS = frozenset({"wrong-opening", "no-opening", "bad-sealed", "bad-held"})
"""Refutation cheats that show a held named card honestly and lie about its opening."""
END_CHEATS = frozenset({"bad-held"})
"""Cheats at the end of the game: accusations are held only until the cheater has shown a
card, then the game must end (``bots.stage``)."""


def impossible(kind: str, phase: str | None, rules: Rules) -> str | None:
    """Why this cheat can never happen under these rules (None: it can)."""
    chosen = phase or PHASED.get(kind, ("",))[0]
    if kind == "bias-dice" and chosen == "weapons" and not rules.weapons_random:
        return "these rules place the weapons by a fixed table: no random event to bias"
    return None


class CheatingPeer(Peer):
    """An honest peer with one planned deviation."""

    def __init__(self, *args: Any, cheat: str, phase: str | None = None, **kwargs: Any) -> None:
        if cheat not in CHEATS:
            raise ValueError(f"unknown cheat {cheat!r}")
        if phase is not None and phase not in PHASED.get(cheat, ()):
            raise ValueError(f"cheat {cheat!r} has no phase {phase!r}")
        super().__init__(*args, **kwargs)
        self.cheat = cheat
        self.phase = phase or PHASED.get(cheat, ("",))[0]
        self.cheated = False
        self._accused = False

    # ---- the hook: consulted whenever the peer could send something -------------------

    def _pump(self) -> None:
        """The honest pump, one message at a time, trying the cheat before each."""
        me = self._player
        while me is not None and self.status is Status.RUNNING:
            if self._fire():
                return
            if self.expected_seat() != me.seat:
                return
            auto = self._automatic_message()
            if auto is None:
                if not self.cheated and self._make_chance(me):
                    continue
                return
            self._emit(me, *auto)

    def act(self, intent: ev.Intent, now: float) -> list[ev.Event]:
        """The player's choice, unless the cheat (or the way to it) comes first."""
        events: list[ev.Event] = []
        if not self.cheated and self.status is Status.RUNNING:
            before = len(self.entries)
            events = self._run(now, lambda: None)
            if self.cheated or len(self.entries) != before or self.choice() is None:
                return events
        return events + super().act(intent, now)

    def _fire(self) -> bool:
        if self.cheated or self.status is not Status.RUNNING:
            return False
        frames = self._try_cheat()
        if not frames:
            return False
        self._outbox.extend(frames)
        self.cheated = True
        self.status = Status.ABANDONED
        return True

    def _make_chance(self, me: Player) -> bool:
        """On its own turn, before its player decides: make the cheat's moment come."""
        state = self._play_state()
        if state is None or state.phase is not Phase.AWAIT_TURN_START:
            return False
        if self.cheat == "illegal-move":
            self._emit(me, "roll", {})
            return True
        if self.cheat in ("accuse-twice", "bad-pet"):
            return self._accuse_once(me, state)
        return False

    def _try_cheat(self) -> Frames | None:
        me = self._player
        if me is None:
            return None  # an observer has nothing to sign
        due = self.expected_seat() == me.seat
        plan: Callable[[Player], Frames | None] = getattr(
            self, "_cheat_" + self.cheat.replace("-", "_"))
        if self.cheat in ("out-of-turn", "accuse-twice"):
            return plan(me)
        return plan(me) if due else None

    # ---- helpers ----------------------------------------------------------------------

    def _frame(self, me: Player, msg_type: str, body: dict[str, Any], *, seq: int | None = None,
               prev: bytes | None = None, sender: int | None = None) -> bytes:
        who = me.seat if sender is None else sender
        header = Header(self._config_digest, who,
                        len(self._sent_by[who]) if seq is None else seq,
                        self._head if prev is None else prev, msg_type)
        return sign_frame(me.identity, header, body)

    def _play_state(self) -> GameState | None:
        """The rules state while play runs (None in a random event, a check, or the end)."""
        current = self._current
        return current.play.state if isinstance(current, PlayStage) else None

    def _refutation(self) -> Refutation | None:
        current = self._current
        return current if isinstance(current, Refutation) else None

    # ---- the cheats -------------------------------------------------------------------

    def _cheat_bad_shuffle(self, me: Player) -> Frames | None:
        want = Stage.ENVELOPE if self.phase == "envelope" else Stage.DEAL
        msg = self._automatic_message() if self.stage is want else None
        if msg is None:
            return None
        body = msg[1]
        deck = body["decks"][2] if want is Stage.ENVELOPE else body["deck"]
        deck[1] = deck[0]  # one card gone, another twice: the proof was for the honest deck
        return [(self._frame(me, msg[0], body), None)]

    def _cheat_bad_decrypt(self, me: Player) -> Frames | None:
        want = Stage.UNLAYER if self.phase == "unlayer" else Stage.OPEN
        msg = self._automatic_message() if self.stage is want else None
        if msg is None:
            return None
        body = msg[1]
        bad = mul(random_scalar(me.src), Point(body["points"][0]))
        body["points"][0] = bytes(bad)
        return [(self._frame(me, msg[0], body), None)]

    def _cheat_false_cannot_refute(self, me: Player) -> Frames | None:
        asked = self._refutation()
        if asked is None or not any(c in asked.triple for c in self.hand):
            return None
        index = len(self.entries)
        proof = prove_none_unchecked(proof_context(asked.play.game_id, index, me.seat, "pass"),
                                     asked.triple, self.record.hand_points(me.seat),
                                     me.secrets.hand_key(), self.S[me.seat], me.src)
        return [(self._frame(me, "pass", {"proof": proof.to_wire()}), None)]

    def _show_false_card(self, me: Player, asked: Refutation, card: int) -> Frames:
        triple = asked.triple
        suggester_pub = self.Y[asked.suggester]
        rho = random_scalar(me.src)
        c = P.commit_card(card, rho, suggester_pub)
        index = triple.index(card) if card in triple else 0
        entry = len(self.entries)
        proof = prove_commit_show_unchecked(
            proof_context(asked.play.game_id, entry, me.seat, "show"), triple,
            self.record.hand_points(me.seat), me.secrets.hand_key(), self.S[me.seat], 0, index, rho,
            suggester_pub, c, me.src)
        return [(self._frame(me, "show", {"C": bytes(c), "proof": proof.to_wire()}), None)]

    def _cheat_show_unheld_card(self, me: Player) -> Frames | None:
        asked = self._refutation()
        if asked is None:
            return None
        unheld = [c for c in asked.triple if c not in self.hand]
        return self._show_false_card(me, asked, unheld[0]) if unheld else None

    def _cheat_show_unnamed_card(self, me: Player) -> Frames | None:
        asked = self._refutation()
        if asked is None:
            return None
        unnamed = [c for c in self.hand if c not in asked.triple]
        return self._show_false_card(me, asked, unnamed[0]) if unnamed else None

    def send_opening(self, rec: ShowRecord) -> None:
        """The private opening, as the cheat has it: to another card, or none at all."""
        if self.cheat in ("no-opening", "bad-sealed"):
            return
        if self.cheat == "wrong-opening":
            self._outbox.append((self._private_frame(rec, self._wrong_card(rec)), rec.suggester))
            return
        super().send_opening(rec)

    def _wrong_card(self, rec: ShowRecord) -> P.Opening:
        """Another named card with this show's rho (``wrong-opening``)."""
        real = self._my_opening(rec)
        return P.Opening(next(c for c in rec.triple if c != real.card), real.rho)

    def _made_up_rho(self, me: Player, rec: ShowRecord) -> P.Opening:
        """The shown card with a made-up rho (``no-opening``)."""
        real = self._my_opening(rec)
        return P.Opening(real.card, random_scalar(me.src))

    def _cheat_opening(self, me: Player) -> Frames | None:
        answer = self._open_show()
        if answer is None or not answer.complained or answer.record.refuter != me.seat:
            return None
        rec = answer.record
        if self.cheat == "wrong-opening":
            opening = self._wrong_card(rec)
        elif self.cheat == "no-opening":
            opening = self._made_up_rho(me, rec)
        else:  # bad-sealed: the true opening, so that only the bad R can fail it
            opening = self._my_opening(rec)
        ctx = proof_context(answer.play.game_id, len(self.entries), me.seat, "sealed")
        sealed = seal_unchecked(ctx, rec.triple, self.Y[rec.suggester], rec.commitment,
                                opening.rho, rec.triple.index(opening.card), me.src).to_wire()
        if self.cheat == "bad-sealed":
            # 32 zero bytes decode to y = 0, a point of order 4: outside the prime-order group
            sealed["r"] = bytes(32)
        return [(self._frame(me, "sealed", {"sealed": sealed}), None)]

    _cheat_wrong_opening = _cheat_opening
    _cheat_no_opening = _cheat_opening
    _cheat_bad_sealed = _cheat_opening

    def _cheat_bad_held(self, me: Player) -> Frames | None:
        """Its ``open``, the first opening's proof 4c answered for a hand position that holds
        another card: the opening itself is true, only the held-card proof fails."""
        msg = self._automatic_message() if self.stage is Stage.OPEN else None
        if msg is None or msg[0] != "open" or not msg[1]["openings"]:
            return None
        rec = shows_to_open(self.record, me.seat)[0]
        opening = self._my_opening(rec)
        position = next(p for p, card in enumerate(me.dealt) if card != opening.card)
        assert self.game_id is not None
        ctx = proof_context(self.game_id, len(self.entries), me.seat, "open")
        held = prove_held_unchecked(ctx, rec.triple, self.record.hand_points(me.seat),
                                    me.secrets.hand_key(), self.S[me.seat],
                                    self.Y[rec.suggester], rec.commitment, opening, position,
                                    me.src)
        body = dict(msg[1])
        body["openings"] = [P.PublicOpening(opening, held).to_wire(), *body["openings"][1:]]
        return [(self._frame(me, "open", body), None)]

    def _cheat_illegal_move(self, me: Player) -> Frames | None:
        state = self._play_state()
        if state is None or state.phase is not Phase.AWAIT_MOVE:
            return None
        return [(self._frame(me, "move", {"path": [[12, 12]]}), None)]

    def _cheat_out_of_turn(self, me: Player) -> Frames | None:
        if self.expected_seat() == me.seat or self.expected_seat() is None:
            return None
        if self.phase == "setup" and self.stage is Stage.KEYS:
            return [(self._frame(me, "end_turn", {}), None)]
        if self.phase == "play" and self.stage is Stage.PLAY and self._refutation() is None:
            return [(self._frame(me, "end_turn", {}), None)]
        return None

    def _cheat_forged_signature(self, me: Player) -> Frames | None:
        in_phase = (self.stage is Stage.KEYS if self.phase == "setup"
                    else self.stage is Stage.RANDOM and self.rules_state is not None)
        # builders have side effects: only once the cheat is certain
        msg = self._automatic_message() if in_phase else None
        if msg is None:
            return None
        victim = (me.seat + 1) % self.n
        return [(self._frame(me, msg[0], msg[1], sender=victim), None)]

    def _cheat_equivocate(self, me: Player) -> Frames | None:
        state = self._play_state()
        first: tuple[str, dict[str, Any]] | None
        second: tuple[str, dict[str, Any]] | None
        if self.phase == "setup" and self.stage is Stage.JOIN:
            first, second = self._automatic_message(), self._automatic_message()  # two nonces
        elif (self.phase == "play" and state is not None
              and state.phase is Phase.AWAIT_TURN_START and me.seat not in state.eliminated):
            # Two different, equally legal starts of its turn: each honest peer accepts one
            # and must notice the other. (A re-encoding of one message is no second version:
            # only the canonical encoding is read.)
            first = ("roll", {})
            triple = _triple_with(self.hand[0])
            second = ("accuse", {"suspect": triple[0], "weapon": triple[1], "room": triple[2]})
        else:
            return None
        if first is None or second is None:
            return None
        victim = (me.seat + 1) % self.n
        frames: Frames = [(self._frame(me, *second), victim)]
        frames += [(self._frame(me, *first), j) for j in range(self.n)
                   if j not in (me.seat, victim)]
        return frames

    def _cheat_bias_dice(self, me: Player) -> Frames | None:
        draw = self._current
        if not isinstance(draw, RandomRound) or (self.rules_state is None) != (
                self.phase == "weapons"):
            return None
        body = {"event": draw.event, "value": b"\x66" * 32, "renew": None}
        return [(self._frame(me, "reveal", body), None)]

    def _cheat_replay(self, me: Player) -> Frames | None:
        if self.phase == "setup":
            if self.stage is not Stage.ENVELOPE:
                return None
            old = self._sent_by[me.seat][1]  # its keys message, again, where a shuffle is due
        elif self.stage is Stage.PLAY and self._refutation() is None:
            old = self._sent_by[me.seat][1]
        else:
            return None
        _, payload, _ = split_frame(old)
        header, body = decode_payload(me.seat, payload)
        return [(self._frame(me, header.type, body, prev=header.prev), None)]

    def _accuse_once(self, me: Player, state: GameState) -> bool:
        """Make a (legitimate, surely wrong) accusation on this seat's own turn."""
        if self._accused or me.seat in state.eliminated:
            return False
        self._accused = True
        triple = _triple_with(self.hand[0])
        self._emit(me, "accuse", {"suspect": triple[0], "weapon": triple[1], "room": triple[2]})
        return True

    def _cheat_accuse_twice(self, me: Player) -> Frames | None:
        state = self._play_state()
        if state is None or me.seat not in state.eliminated:
            return None
        if self.expected_seat() == me.seat or self.expected_seat() is None:
            return None
        triple = _triple_with(self.hand[0])
        body = {"suspect": triple[0], "weapon": triple[1], "room": triple[2]}
        return [(self._frame(me, "accuse", body), None)]

    def _cheat_bad_pet(self, me: Player) -> Frames | None:
        check = self._current
        if not isinstance(check, AccusationCheck):
            return None
        k = me.secrets.key()
        q_prev, p_prev = check.qp
        p = mul(k, p_prev)  # key applied, blinding skipped
        ctx = proof_context(check.play.game_id, len(self.entries), me.seat, "pet")
        proof = prove_pet_step(ctx, q_prev, p_prev, q_prev, p, self.Y[me.seat], ONE, k, me.src)
        body = {"Q": bytes(q_prev), "P": bytes(p), "proof": proof.to_wire()}
        return [(self._frame(me, "pet", body), None)]


def _triple_with(card: int) -> tuple[int, int, int]:
    """A suspect-weapon-room triple that includes ``card`` (so it is surely not the envelope)."""
    pick = {Category.SUSPECT: 0, Category.WEAPON: 6, Category.ROOM: 12}
    c = CARDS[card]
    pick[c.category] = card
    return pick[Category.SUSPECT], pick[Category.WEAPON], pick[Category.ROOM]
