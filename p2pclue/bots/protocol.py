"""Bots playing through the real protocol: one engine peer per seat, no trusted dealer.

``BotSeat`` turns a peer's events into the bot's observations (it sees only what
its own peer learned) and the bot's decisions into the peer's intents. ``play``
wires N of them through the in-memory network, optionally with one cheating seat.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.bots import (
    AccusationMade,
    Bot,
    CardShown,
    HandDealt,
    HandOpened,
    LeftoversShown,
    RollIntent,
    SuggestionAnswered,
    ThinksAhead,
)
from p2pclue.bots.stage import StagedBot
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine import events as ev
from p2pclue.engine.cheats import CheatingPeer
from p2pclue.engine.config import DEFAULT_CHAIN_LENGTH, GameConfig, PlayerInfo
from p2pclue.engine.harness import Network, run_game
from p2pclue.engine.peer import Choice, Peer, verify_own_from
from p2pclue.rules import actions as ra
from p2pclue.rules.cards import SUSPECTS
from p2pclue.rules.state import GameState
from p2pclue.rules.variants import Rules

BotFactory = Callable[[int, random.Random], Bot]


class BotSeat:
    """One bot attached to one peer."""

    def __init__(self, bot: Bot, n_players: int) -> None:
        self.bot = bot
        self.n = n_players
        self._pending: tuple[int, int, int, int] | None = None
        self._passed: list[int] = []
        self._left: set[int] = set()
        """Seats that left the table: refutation skips them."""

    def feed(self, event: ev.Event) -> None:
        bot, me = self.bot, self.bot.seat
        if isinstance(event, ev.HandDealt):
            bot.observe(HandDealt(me, event.cards))
        elif isinstance(event, ev.LeftoversShown):
            bot.observe(LeftoversShown(event.cards))
        elif isinstance(event, ev.Suggested):
            self._pending = (event.seat, event.suspect, event.weapon, event.room)
            self._passed = []
        elif isinstance(event, ev.Passed):
            self._passed.append(event.seat)
            self._maybe_nobody_showed()
        elif isinstance(event, ev.PlayerLeft):
            self._left.add(event.seat)
            if event.seat != me:  # its hand is public (not shown for any suggestion)
                bot.observe(HandOpened(event.seat, event.hand))
            self._maybe_nobody_showed()
        elif isinstance(event, ev.Refuted):
            self._answered(event.refuter)
        elif isinstance(event, ev.CardShownToMe):
            bot.observe(CardShown(me, event.refuter, event.card))
        elif isinstance(event, ev.AccusationDecided):
            bot.observe(AccusationMade(event.seat, *event.triple, event.correct))

    def _maybe_nobody_showed(self) -> None:
        if self._pending is not None and all(
                s in self._passed or s in self._left
                for s in range(self.n) if s != self._pending[0]):
            self._answered(None)

    def _answered(self, shower: int | None) -> None:
        assert self._pending is not None
        self.bot.observe(SuggestionAnswered(*self._pending, tuple(self._passed), shower))
        self._pending = None

    def think_ahead(self, state: GameState | None) -> Callable[[], Callable[[], None]] | None:
        """The bot's work to do before it is asked, if it has any (``ThinksAhead``)."""
        if state is None or not isinstance(self.bot, ThinksAhead):
            return None
        return self.bot.think_ahead(state)

    def choose(self, peer: Peer, choice: Choice) -> ev.Intent:
        assert peer.rules_state is not None
        decision = self.bot.decide(peer.rules_state)
        return to_intent(decision)


def to_intent(decision: ra.Action | RollIntent) -> ev.Intent:
    """A bot's rules-level decision as the engine's intent."""
    match decision:
        case RollIntent():
            return ev.RollDice()
        case ra.Move(path=path):
            return ev.MoveAlong(path)
        case ra.TakePassage():
            return ev.TakePassage()
        case ra.Suggest(suspect=s, weapon=w):
            return ev.MakeSuggestion(s, w)
        case ra.Accuse(suspect=s, weapon=w, room=r):
            return ev.MakeAccusation(s, w, r)
        case ra.EndTurn():
            return ev.EndTurn()
        case ra.Refute(card=card) if card is not None:
            return ev.ShowCard(card)
    raise ValueError(f"a bot cannot ask the engine for {decision!r}")


@dataclass
class ProtocolGame:
    config: GameConfig
    peers: list[Peer]
    net: Network
    log: list[ev.Event] = field(default_factory=list)
    """The public events, as seat ``watch`` saw them (private ones excluded)."""


PRIVATE = (ev.HandDealt, ev.CardShownToMe, ev.Accepted)
BOT_NAMES = ("Ada", "Bruno", "Chiara", "Dmitri", "Emma", "Farah")


def seeded_identity(seed: int, seat: int) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(
        hashlib.sha256(b"p2pclue/simulate/identity/%d/%d" % (seed, seat)).digest())


def make_config(
    rules: Rules, n_players: int, seed: int, chain_length: int = DEFAULT_CHAIN_LENGTH
) -> tuple[GameConfig, list[Ed25519PrivateKey]]:
    """A lobby's result for a seeded simulation: names, suspects, keys, session id."""
    rng = random.Random(seed)
    suspects = sorted(rng.sample([c.index for c in SUSPECTS], n_players))
    keys = [seeded_identity(seed, s) for s in range(n_players)]
    players = tuple(
        PlayerInfo(name, sus, k.public_key().public_bytes_raw())
        for name, sus, k in zip(BOT_NAMES, suspects, keys, strict=False))
    session = hashlib.sha256(b"p2pclue/simulate/session/%d" % seed).digest()
    return GameConfig(players, rules, session, chain_length), keys


def play(
    rules: Rules,
    n_players: int,
    seed: int,
    bot_factory: BotFactory,
    *,
    cheat: str | None = None,
    cheater: int | None = None,
    cheat_phase: str | None = None,
    delivery_seed: int | None = None,
    watch: int = 0,
    on_event: Callable[[int, ev.Event], None] | None = None,
    on_peers: Callable[[list[Peer]], None] | None = None,
    chain_length: int = DEFAULT_CHAIN_LENGTH,
) -> ProtocolGame:
    """A whole seeded game through the engine and the real cryptography.

    With ``delivery_seed`` the network reorders and duplicates frames at random;
    the transcript must come out the same as with in-order delivery.
    """
    config, keys = make_config(rules, n_players, seed, chain_length)
    rng = random.Random(seed)
    peers: list[Peer] = []
    for seat in range(n_players):
        src = SeededRandom(b"p2pclue/simulate/%d/%d" % (seed, seat))
        if cheat is not None and seat == cheater:
            peers.append(CheatingPeer(config, seat, keys[seat], src, cheat=cheat,
                                      phase=cheat_phase))
        else:
            peers.append(Peer(config, seat, keys[seat], src,
                              verify_own=verify_own_from(os.environ)))
    if on_peers is not None:
        on_peers(peers)
    bots = [bot_factory(s, random.Random(rng.getrandbits(64))) for s in range(n_players)]
    if cheat is not None and cheater is not None:
        # The cheater must get its chance: hold accusations, steer suggestions (stage.py).
        bots = [StagedBot(b, peers, cheater, cheat, cheat_phase) for b in bots]
    seats = [BotSeat(bot, n_players) for bot in bots]
    adversarial = delivery_seed is not None
    net = Network(peers, rng=random.Random(delivery_seed) if adversarial else None,
                  duplicate=0.1 if adversarial else 0.0)
    game = ProtocolGame(config, peers, net)

    def sink(seat: int, event: ev.Event) -> None:
        seats[seat].feed(event)
        if seat == watch and not isinstance(event, PRIVATE):
            game.log.append(event)
        if on_event is not None:
            on_event(seat, event)

    run_game(net, lambda peer, choice: seats[peer.seat or 0].choose(peer, choice), sink=sink)
    return game
