"""The end of a decided game: the envelope opened, the shows opened, every secret revealed.

Two rounds, every seat at the table once (docs/protocol.md, "Stages and messages"): ``open``
(each removes its key from the envelope, proven, and opens every show it made to a seat
still at the table), then ``secrets`` (each publishes ``k`` and ``r``, checked against its
public keys), after which anyone can recompute every hand and check every step of the
game (``p2pclue audit``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from p2pclue.crypto import proofs as P
from p2pclue.crypto.cards import identify
from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.group import base_mul
from p2pclue.engine import events as ev
from p2pclue.engine.errors import Reject
from p2pclue.engine.record import Play, PublicRecord, ShowRecord
from p2pclue.engine.reveal_checks import check_own_reveal
from p2pclue.engine.stage import (
    Body,
    Fields,
    Host,
    Message,
    Player,
    RoundStage,
    SeatRound,
    Stage,
    StageState,
    my_opening,
    proof_context,
)
from p2pclue.engine.wire import MAX_OPENINGS


def shows_to_open(record: PublicRecord, refuter: int) -> list[ShowRecord]:
    """A seat's shows its ``open`` message opens: to seats still at the table (a card
    shown to a seat that left is not opened: see "Leaving the table"), in transcript order."""
    return [rec for rec in record.shows
            if rec.refuter == refuter and rec.suggester not in record.left_hands]


def public_opening(record: PublicRecord, me: Player, ctx: ProofContext,
                   rec: ShowRecord) -> P.PublicOpening:
    """This seat's public opening of its own show ``rec``, with proof 4c under ``ctx`` (the
    entry that carries it); the card's hand position is looked up, never searched for."""
    opening = my_opening(record, me, ctx.game_id, rec)
    return P.prove_public_opening(
        ctx, rec.triple, record.hand_points(me.seat), me.secrets.hand_key(), record.S[me.seat],
        record.Y[rec.suggester], rec.commitment, opening, me.dealt.index(opening.card), me.src)


def check_public_openings(peer: Host, game_id: bytes, index: int, step: str, sender: int,
                          part: list[ShowRecord], openings: list[Any]) -> list[int]:
    """Every seat's check of one part of a seat's end-of-game openings, in transcript order:
    the count the part owes, then each opening (4c, with the show's sealed R if a complaint
    settled it). Returns the cards; changes nothing."""
    if len(openings) != len(part):
        raise Reject("proof:opening", f"seat {sender} owes {len(part)} opening(s) in this entry")
    record = peer.record
    ctx = proof_context(game_id, index, sender, step)
    return [P.verify_public_opening(ctx, rec.triple, record.hand_points(sender), record.S[sender],
                                    record.Y[rec.suggester], rec.commitment, o,
                                    record.sealed.get(rec.index))
            for rec, o in zip(part, openings, strict=True)]


@dataclass
class OpenRound(RoundStage):
    """Every seat unlayers the envelope and opens its shows: the envelope's cards and every
    card shown become public. A seat with more shows than one entry carries
    (``MAX_OPENINGS``) sends the rest in ``openings`` entries right after its ``open``."""

    stage = Stage.OPEN
    message_type = "open"

    round: SeatRound
    play: Play
    rest: list[ShowRecord] = field(default_factory=list)
    """The due seat's shows still to open, after its ``open`` (empty: its ``open`` is due)."""

    def allowed(self) -> frozenset[str]:
        return frozenset({"openings" if self.rest else "open"})

    def due_soon(self, due: int, seat: int, n: int) -> bool:
        return not self.rest and self.round.due_after() == seat

    def automatic(self, peer: Host, me: Player) -> Message | None:
        index = len(peer.record.entries)
        if not self.rest:
            return "open", self.build(peer, me, index)
        return "openings", {"openings": self._opened(peer, me, self.rest[:MAX_OPENINGS], index)}

    def on_open(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        if len(f["points"]) != 3:
            raise Reject("proof:dleq-batch", "the envelope has three cards")
        record = peer.record
        peer.verify(P.verify_unlayer, proof_context(self.play.game_id, index, sender, "open"),
                    record.envelope, f["points"], record.Y[sender], f["proof"])
        mine = shows_to_open(record, sender)
        self._take(peer, index, "open", sender, mine, f["openings"])
        record.envelope = f["points"]

    def on_openings(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        self._take(peer, index, "openings", sender, self.rest, f["openings"])

    def _take(self, peer: Host, index: int, step: str, sender: int, mine: list[ShowRecord],
              openings: list[Any]) -> None:
        """Check and keep one part: the first ``MAX_OPENINGS`` of ``mine``; the next seat's
        turn comes once the last part is in."""
        part = mine[:MAX_OPENINGS]
        cards = check_public_openings(peer, self.play.game_id, index, step, sender, part,
                                      openings)
        for rec, card in zip(part, cards, strict=True):
            peer.record.opened[rec.index] = card
        self.rest = mine[MAX_OPENINGS:]
        if not self.rest:
            self.next_in_round(peer)

    def finish(self, peer: Host) -> None:
        record = peer.record
        suspect, weapon, room = (identify(p) for p in record.envelope)
        if suspect is None or weapon is None or room is None:
            raise Reject("open", "the envelope did not open to cards")
        cards = (suspect, weapon, room)
        record.envelope_cards = cards
        state = self.play.state
        peer.announce(ev.GameOver(state.result or "nobody", state.winner, cards))
        peer.enter(SecretsRound(SeatRound.starting(record.n, 0, record.left_hands)))

    def build(self, peer: Host, me: Player, index: int) -> Body:
        game_id, record = self.play.game_id, peer.record
        out, proof = P.unlayer(proof_context(game_id, index, me.seat, "open"), record.envelope,
                               me.secrets.key(), record.Y[me.seat], me.src)
        first = shows_to_open(record, me.seat)[:MAX_OPENINGS]
        return {"points": [bytes(p) for p in out], "proof": proof.to_wire(),
                "openings": self._opened(peer, me, first, index, "open")}

    def _opened(self, peer: Host, me: Player, part: list[ShowRecord], index: int,
                step: str = "openings") -> list[dict[str, Any]]:
        game_id, record = self.play.game_id, peer.record
        ctx = proof_context(game_id, index, me.seat, step)
        return [public_opening(record, me, ctx, rec).to_wire() for rec in part]


@dataclass
class SecretsRound(RoundStage):
    """Every seat reveals its key and hand secret: the whole game becomes checkable."""

    stage = Stage.SECRETS
    message_type = "secrets"

    round: SeatRound

    def on_secrets(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        record = peer.record
        if base_mul(f["k"]) != record.Y[sender] or base_mul(f["r"]) != record.R[sender]:
            raise Reject("secrets", "the revealed scalars do not match the public keys")
        check_own_reveal(record, sender, f["k"], f["r"])  # against its passes and shows
        record.revealed_k[sender] = f["k"]
        record.revealed_r[sender] = f["r"]
        self.next_in_round(peer)

    def finish(self, peer: Host) -> None:
        peer.enter(Done())
        peer.announce(ev.Finished())

    def build(self, peer: Host, me: Player, index: int) -> Body:
        sec = me.secrets
        return {"k": bytes(sec.key()), "r": bytes(sec.hand_secret())}


class Done(StageState):
    """The game is over and fully revealed: nobody owes anything more."""

    stage = Stage.DONE

    def due(self) -> int | None:
        return None

    def due_soon(self, due: int, seat: int, n: int) -> bool:
        return False

    def allowed(self) -> frozenset[str]:
        return frozenset()

    def automatic(self, peer: Host, me: Player) -> Message | None:
        return None


def hands_from_secrets(record: PublicRecord) -> dict[int, tuple[int, ...]]:
    """After the secrets round: every seat's hand, decrypted with the revealed scalars."""
    hands: dict[int, list[int]] = {s: list(h) for s, h in record.left_hands.items()}
    for p, owner in enumerate(record.owners):
        if owner is None or owner in record.left_hands:
            continue
        hands.setdefault(owner, [])
        s = record.revealed_k[owner] * record.revealed_r[owner]
        hands[owner].append(P.reveal_to_owner(record.positions[p], s))
    return {seat: tuple(sorted(cards)) for seat, cards in sorted(hands.items())}


def shown_cards_from_secrets(record: PublicRecord) -> list[tuple[ShowRecord, int | None]]:
    """After the end-of-game reveal: every show with the card it showed, from the openings
    published in ``open`` (a complaint publishes none). A card shown to a seat that left, or by
    a seat that left, was never opened: None."""
    return [(rec, record.opened.get(rec.index)) for rec in record.shows]
