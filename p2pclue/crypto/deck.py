"""A whole two-phase deal for N players in one process (tests and benchmark).

Each simulated player keeps its own secrets and its own randomness source; every
proof goes through its wire form and is decoded and verified separately by every
other player, so nothing is verified once on behalf of several players and the
benchmark figure is the real cost of a deal on one machine.

Steps (context step ids in quotes):
1. keys: ``Y_j = k_j*G`` with a Schnorr proof ("setup/key");
2. phase 1, per category deck: every player in seat order shuffles and applies k_j
   ("deal/envelope/<category>"); position 0 of each deck is the envelope;
3. phase 2: ``R_j = r_j*G``, ``S_j = r_j*Y_j`` with DLEQ(G, R_j, Y_j, S_j) ("deal/link");
   the 18 other points are merged and every player shuffles them under r_j
   ("deal/hand"), so that a hand point carries the layers ``s_j = k_j*r_j``;
4. opening: every player removes its ``s_j`` from every position it does not own,
   with a batched DLEQ ("deal/open"); owners strip their own layer privately.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from p2pclue.crypto.cards import card_point
from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.dleq import (
    DleqBatchProof,
    DleqProof,
    open_public,
    prove_dleq,
    reveal_to_owner,
    unlayer,
    verify_dleq,
    verify_unlayer,
)
from p2pclue.crypto.errors import CryptoUsageError
from p2pclue.crypto.group import G, Point, Scalar, base_mul, mul
from p2pclue.crypto.keys import KeyProof, prove_key, verify_key
from p2pclue.crypto.rand import ScalarSource, random_scalar
from p2pclue.crypto.shuffleproof import ShuffleProof, shuffle, verify_shuffle
from p2pclue.crypto.wire import points_from_wire, points_to_wire
from p2pclue.rules.cards import ROOMS, SUSPECTS, WEAPONS

CATEGORY_DECKS: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("suspect", tuple(c.index for c in SUSPECTS)),
    ("weapon", tuple(c.index for c in WEAPONS)),
    ("room", tuple(c.index for c in ROOMS)),
)


class _Wire(Protocol):
    def to_wire(self) -> Any: ...


class DealPlayer:
    """One simulated player: its seat, randomness and secrets (never shared)."""

    def __init__(self, seat: int, src: ScalarSource) -> None:
        self.seat = seat
        self.src = src
        self.k = random_scalar(src)
        self.public_key = base_mul(self.k)
        self.r = random_scalar(src)
        self.r_pub = base_mul(self.r)
        self.s = self.k * self.r
        self.deal_key = mul(self.r, self.public_key)

    def __repr__(self) -> str:
        return f"DealPlayer(seat={self.seat})"


@dataclass(frozen=True, slots=True)
class DealResult:
    """Public outcome of a deal, plus what each owner recognised privately."""

    public_keys: tuple[Point, ...]  # Y_j
    deal_keys: tuple[Point, ...]  # S_j
    envelope: tuple[Point, Point, Point]  # K * C for suspect, weapon, room
    owners: tuple[int | None, ...]  # owner seat of each of the 18 positions (None: leftover)
    hand_points: dict[int, tuple[Point, ...]]  # seat -> X_p = s_seat * C, position order
    hands: dict[int, tuple[int, ...]]  # seat -> card indices (each owner's private view)
    leftovers: tuple[int, ...]  # card indices opened publicly
    envelope_cards: tuple[int, int, int]  # for tests only: what the envelope holds
    verifications: int = field(default=0)


def deal_owners(n_players: int, equal: bool = False) -> tuple[int | None, ...]:
    """Owner of each of the 18 dealt positions: round robin (DEAL-ALL) or equal shares."""
    if not 3 <= n_players <= 6:
        raise CryptoUsageError("3 to 6 players")
    dealt = 18 - (18 % n_players if equal else 0)
    return tuple(p % n_players if p < dealt else None for p in range(18))


_P = TypeVar("_P", bound=_Wire)


def _roundtrip(proof: _P, cls: Callable[[Any], _P]) -> _P:
    return cls(proof.to_wire())


def _relay(points: Sequence[Point], where: str) -> list[Point]:
    return points_from_wire(points_to_wire(points), where)


def run_deal(
    n_players: int, game_id: bytes, sources: Sequence[ScalarSource],
    owners: Sequence[int | None] | None = None, wire: bool = True,
) -> tuple[DealResult, list[DealPlayer]]:
    """Run the whole deal; every player verifies every other player's proofs."""
    if len(sources) != n_players:
        raise CryptoUsageError("one randomness source per player")
    own = tuple(owners) if owners is not None else deal_owners(n_players)
    if len(own) != 18:
        raise CryptoUsageError("18 dealt positions")
    players = [DealPlayer(j, sources[j]) for j in range(n_players)]
    ctx0 = ProofContext(game_id, "setup/key", 0)
    count = 0

    def verifiers(prover: DealPlayer) -> list[DealPlayer]:
        nonlocal count
        others = [v for v in players if v.seat != prover.seat]
        count += len(others)
        return others

    def receive(points: Sequence[Point], where: str) -> list[Point]:
        return _relay(points, where) if wire else list(points)

    def receive_proof(proof: _P, cls: Callable[[Any], _P]) -> _P:
        return _roundtrip(proof, cls) if wire else proof

    for p in players:
        ctx = ctx0.at("setup/key", p.seat)
        kp = prove_key(ctx, p.k, p.src)
        for _ in verifiers(p):
            verify_key(ctx, receive([p.public_key], "Y")[0], receive_proof(kp, KeyProof.from_wire))

    def shuffle_round(step: str, deck: list[Point], secret_of: Callable[[DealPlayer], Scalar],
                      pub_of: Callable[[DealPlayer], Point]) -> list[Point]:
        for p in players:
            ctx = ctx0.at(step, p.seat)
            out, _, proof = shuffle(ctx, deck, secret_of(p), p.src)
            for _ in verifiers(p):
                verify_shuffle(ctx, deck, receive(out, "deck"), pub_of(p),
                               receive_proof(proof, ShuffleProof.from_wire))
            deck = out
        return deck

    envelope: list[Point] = []
    rest: list[Point] = []
    for name, indices in CATEGORY_DECKS:
        deck = shuffle_round(f"deal/envelope/{name}", [card_point(i) for i in indices],
                             lambda p: p.k, lambda p: p.public_key)
        envelope.append(deck[0])
        rest += deck[1:]

    for p in players:
        ctx = ctx0.at("deal/link", p.seat)
        link = prove_dleq(ctx, p.r, G, p.r_pub, p.public_key, p.deal_key, p.src)
        for _ in verifiers(p):
            r_pub, deal_key = receive([p.r_pub, p.deal_key], "link")
            verify_dleq(ctx, G, r_pub, p.public_key, deal_key,
                        receive_proof(link, DleqProof.from_wire))

    current = shuffle_round("deal/hand", rest, lambda p: p.r, lambda p: p.r_pub)

    for p in players:
        ctx = ctx0.at("deal/open", p.seat)
        positions = [i for i in range(18) if own[i] != p.seat]
        given = [current[i] for i in positions]
        stripped, opening = unlayer(ctx, given, p.s, p.deal_key, p.src)
        for _ in verifiers(p):
            verify_unlayer(ctx, given, receive(stripped, "opened"), p.deal_key,
                           receive_proof(opening, DleqBatchProof.from_wire))
        for i, x in zip(positions, stripped, strict=True):
            current[i] = x

    hand_points = {p.seat: tuple(current[i] for i in range(18) if own[i] == p.seat)
                   for p in players}
    hands = {p.seat: tuple(reveal_to_owner(x, p.s) for x in hand_points[p.seat])
             for p in players}
    leftovers = tuple(open_public([current[i] for i in range(18) if own[i] is None]))
    held = {c for h in hands.values() for c in h} | set(leftovers)
    env_cards = tuple(next(i for i in idx if i not in held) for _, idx in CATEGORY_DECKS)
    result = DealResult(
        public_keys=tuple(p.public_key for p in players),
        deal_keys=tuple(p.deal_key for p in players),
        envelope=(envelope[0], envelope[1], envelope[2]),
        owners=own,
        hand_points=hand_points,
        hands=hands,
        leftovers=leftovers,
        envelope_cards=(env_cards[0], env_cards[1], env_cards[2]),
        verifications=count,
    )
    return result, players

