"""Setup and deal: from the players' nonces to a hand only its owner can read.

Five rounds, every seat once in seat order (docs/protocol.md, "Stages and messages"; the
cryptography in "Keys and the deal"):
``join`` (a fresh nonce each: together they fix the game id every proof is bound to),
``keys`` (a group key each, proven, with the head of its hash chain), ``envelope`` (each
shuffles and re-encrypts the three category decks; the top card of each is the envelope),
``deal`` (each shuffles the remaining cards under a fresh hand secret), ``unlayer`` (each
removes its layer from every position but its own). No seat alone knows a permutation or
can read a card it does not own. Then the leftovers open publicly, each player reads its
own hand, and the weapons are placed (by a random event under the rules that say so), which
starts play.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pclue.crypto import proofs as P
from p2pclue.crypto import randomness
from p2pclue.crypto.cards import card_point, identify
from p2pclue.crypto.group import G, Point, base_mul, mul
from p2pclue.crypto.keys import prove_key
from p2pclue.crypto.rand import random_scalar
from p2pclue.engine import events as ev
from p2pclue.engine.errors import Reject
from p2pclue.engine.reveals import start_random
from p2pclue.engine.stage import (
    Body,
    Fields,
    Host,
    Player,
    RoundStage,
    SeatRound,
    Stage,
    proof_context,
)
from p2pclue.engine.turn import start_play
from p2pclue.engine.wire import sha256
from p2pclue.rules.cards import ROOMS, SUSPECTS, WEAPONS

CATEGORY_DECKS = (
    tuple(c.index for c in SUSPECTS),
    tuple(c.index for c in WEAPONS),
    tuple(c.index for c in ROOMS),
)
DECK_NAMES = ("suspects", "weapons", "rooms")


def deal_owners(n_players: int, deal_equal: bool, n_cards: int = 18) -> tuple[int | None, ...]:
    """Owner seat of each dealt position (None: a public leftover).

    Position p goes to seat p mod n, one card at a time clockwise from seat 0 (R7);
    under DEAL-EQUAL the positions past the last full round are leftovers.
    """
    dealt = n_cards - n_cards % n_players if deal_equal else n_cards
    return tuple(p % n_players if p < dealt else None for p in range(n_cards))


def foreign_positions(owners: tuple[int | None, ...], seat: int) -> list[int]:
    """The dealt positions ``seat`` unlayers: every one but its own (leftovers included)."""
    return [p for p, o in enumerate(owners) if o != seat]


def _next_round(peer: Host) -> SeatRound:
    record = peer.record
    return SeatRound.starting(record.n, 0, record.left_hands)


@dataclass
class JoinRound(RoundStage):
    """Every seat's nonce: the game id is the hash of the config and all of them, so no
    proof made for one game fits another."""

    stage = Stage.JOIN
    message_type = "join"

    round: SeatRound
    nonces: list[bytes] = field(default_factory=list)

    def on_join(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        self.nonces.append(f["nonce"])
        self.next_in_round(peer)

    def finish(self, peer: Host) -> None:
        game_id = sha256(b"p2pclue/v1/game-id\x00" + peer.record.config_digest
                         + b"".join(self.nonces))
        peer.record.game_id = game_id
        peer.enter(KeysRound(_next_round(peer), game_id))

    def build(self, peer: Host, me: Player, index: int) -> Body:
        return {"nonce": me.src.random_bytes(32)}


@dataclass
class KeysRound(RoundStage):
    """Every seat's group key ``Y = k*G`` (proven known, and distinct) and the head of the
    hash chain its random values will come from."""

    stage = Stage.KEYS
    message_type = "keys"

    round: SeatRound
    game_id: bytes

    def on_keys(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        record = peer.record
        peer.verify(P.verify_key, proof_context(self.game_id, index, sender, "keys"), f["Y"],
                    f["proof"])
        if f["Y"] in record.Y:
            raise Reject("keys", "this group key is another player's")
        record.Y.append(f["Y"])
        record.chains.commit(f["chain"])
        self.next_in_round(peer)

    def finish(self, peer: Host) -> None:
        decks = [[card_point(c) for c in d] for d in CATEGORY_DECKS]
        peer.enter(EnvelopeRound(_next_round(peer), self.game_id, decks))

    def build(self, peer: Host, me: Player, index: int) -> Body:
        sec = me.secrets
        k = random_scalar(me.src)
        chain = randomness.HashChain.create(me.src, peer.record.chains.length)
        sec.k, sec.chain = k, chain
        sec.seeds.append(chain.reveal(chain.length))
        sec.version += 1
        proof = prove_key(proof_context(self.game_id, index, me.seat, "keys"), k, me.src)
        return {"Y": bytes(base_mul(k)), "proof": proof.to_wire(), "chain": chain.head}


@dataclass
class EnvelopeRound(RoundStage):
    """Each seat shuffles and re-encrypts the three category decks (proven): after the last,
    the top card of each deck is the envelope and nobody knows which cards they are."""

    stage = Stage.ENVELOPE
    message_type = "envelope"

    round: SeatRound
    game_id: bytes
    decks: list[list[Point]]
    """The suspect, weapon and room decks as the last seat left them."""

    def on_envelope(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        decks, proofs = f["decks"], f["proofs"]
        for d in range(3):
            if len(decks[d]) != len(self.decks[d]):
                raise Reject("proof:shuffle", f"the {DECK_NAMES[d]} deck changed size")
            peer.verify(P.verify_shuffle,
                        proof_context(self.game_id, index, sender, f"envelope:{DECK_NAMES[d]}"),
                        self.decks[d], decks[d], peer.record.Y[sender], proofs[d])
        self.decks = decks
        self.next_in_round(peer)

    def finish(self, peer: Host) -> None:
        peer.record.envelope = [d[0] for d in self.decks]
        deck = [p for d in self.decks for p in d[1:]]
        peer.enter(DealRound(_next_round(peer), self.game_id, deck))

    def build(self, peer: Host, me: Player, index: int) -> Body:
        k = me.secrets.key()
        decks, proofs = [], []
        for d in range(3):
            ctx = proof_context(self.game_id, index, me.seat, f"envelope:{DECK_NAMES[d]}")
            out, _perm, proof = P.shuffle(ctx, self.decks[d], k, me.src)
            decks.append([bytes(p) for p in out])
            proofs.append(proof.to_wire())
        return {"decks": decks, "proofs": proofs}


@dataclass
class DealRound(RoundStage):
    """Each seat adds a layer under a fresh hand secret ``r`` and shuffles the cards left
    after the envelope; ``S = r*Y`` (linked to ``R = r*G``) lets every seat check later
    steps on the hands without learning ``r``."""

    stage = Stage.DEAL
    message_type = "deal"

    round: SeatRound
    game_id: bytes
    deck: list[Point]
    """The cards to deal, as the last seat shuffled them."""

    def on_deal(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        record = peer.record
        peer.verify(P.verify_dleq, proof_context(self.game_id, index, sender, "deal:link"), G,
                    f["R"], record.Y[sender], f["S"], f["link"])
        if len(f["deck"]) != len(self.deck):
            raise Reject("proof:shuffle", "the deal deck changed size")
        peer.verify(P.verify_shuffle, proof_context(self.game_id, index, sender, "deal:shuffle"),
                    self.deck, f["deck"], f["R"], f["proof"])
        record.R.append(f["R"])
        record.S.append(f["S"])
        self.deck = f["deck"]
        self.next_in_round(peer)

    def finish(self, peer: Host) -> None:
        peer.record.positions = list(self.deck)
        peer.enter(UnlayerRound(_next_round(peer), self.game_id))

    def build(self, peer: Host, me: Player, index: int) -> Body:
        sec = me.secrets
        r = random_scalar(me.src)
        sec.r = r
        sec.version += 1
        y = peer.record.Y[me.seat]
        big_r, big_s = base_mul(r), mul(r, y)
        link = P.prove_dleq(proof_context(self.game_id, index, me.seat, "deal:link"), r, G,
                            big_r, y, big_s, me.src)
        out, _perm, proof = P.shuffle(proof_context(self.game_id, index, me.seat, "deal:shuffle"),
                                      self.deck, r, me.src)
        return {"R": bytes(big_r), "S": bytes(big_s), "link": link.to_wire(),
                "deck": [bytes(p) for p in out], "proof": proof.to_wire()}


@dataclass
class UnlayerRound(RoundStage):
    """Each seat removes its layer ``s = k*r`` from every dealt position but its own
    (proven); after the last, each position is left under its owner's layer alone."""

    stage = Stage.UNLAYER
    message_type = "unlayer"

    round: SeatRound
    game_id: bytes

    def on_unlayer(self, peer: Host, index: int, sender: int, f: Fields) -> None:
        record = peer.record
        targets = foreign_positions(record.owners, sender)
        if len(f["points"]) != len(targets):
            raise Reject("proof:dleq-batch", f"expected {len(targets)} points")
        before = [record.positions[p] for p in targets]
        peer.verify(P.verify_unlayer, proof_context(self.game_id, index, sender, "unlayer"),
                    before, f["points"], record.S[sender], f["proof"])
        for p, point in zip(targets, f["points"], strict=True):
            record.positions[p] = point
        self.next_in_round(peer)

    def finish(self, peer: Host) -> None:
        record = peer.record
        left = [p for p, o in enumerate(record.owners) if o is None]
        cards = [identify(record.positions[p]) for p in left]
        if any(c is None for c in cards):
            raise Reject("open", "a leftover card did not open to a card")
        record.leftovers = tuple(c for c in cards if c is not None)
        if record.leftovers:
            peer.announce(ev.LeftoversShown(record.leftovers))
        me = peer.player
        if me is not None:
            mine = [p for p, o in enumerate(record.owners) if o == me.seat]
            s = me.secrets.hand_key()
            me.dealt = tuple(P.reveal_to_owner(record.positions[p], s) for p in mine)
            me.hand = tuple(sorted(me.dealt))
            peer.announce(ev.HandDealt(me.hand))
        game_id = self.game_id
        if record.config.rules.weapons_random:
            start_random(peer, lambda event, reveals: start_play(
                peer, game_id, randomness.random_weapon_rooms(game_id, event, reveals)))
        else:
            start_play(peer, game_id, None)

    def build(self, peer: Host, me: Player, index: int) -> Body:
        record = peer.record
        points = [record.positions[p] for p in foreign_positions(record.owners, me.seat)]
        out, proof = P.unlayer(proof_context(self.game_id, index, me.seat, "unlayer"), points,
                               me.secrets.hand_key(), record.S[me.seat], me.src)
        return {"points": [bytes(p) for p in out], "proof": proof.to_wire()}
