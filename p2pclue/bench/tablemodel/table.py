"""One example's table: real session cores, real keys and proofs, seeded bots, one fake
clock, and what the model knows that no core does (who cheats, who crashed and what it
was then, which links it made break their stream contract).

Every seat is a ``SessionCore`` with its engine peer on ``net.memory``; one seat may be a
``CheatingPeer`` (``engine.cheats``) and one a person's (its automatic "cannot refute"
paced). A stranger (a key of no seat) holds a spectator's core: it follows the game
honestly, and the model sends junk in its name. Everything is seeded, so an example
replays byte for byte, which is what lets Hypothesis shrink a failure.
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.bots.protocol import BotSeat, make_config
from p2pclue.bots.random_bot import RandomBot
from p2pclue.bots.stage import StagedBot
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine import events as ev
from p2pclue.engine.cheats import CheatingPeer
from p2pclue.engine.peer import Choice, Peer, Stage, Status
from p2pclue.engine.peer_secrets import PeerSecrets
from p2pclue.net import api
from p2pclue.net.actions import Action, Send
from p2pclue.net.core import SessionCore, Settings
from p2pclue.net.lobby import Address, Start
from p2pclue.net.memory import InFlight, Member, MemoryTable
from p2pclue.net.meta import TAG_FRAME, TAG_SYNC, decode_meta
from p2pclue.rules.variants import preset

TIMEOUT = 30.0
"""Seconds of silence before a seat is reported (short: the clock is fake anyway)."""
GIVE_UP_AFTER = 2
PACE = (1.0, 3.0)
NEAR = 5.0
"""How far the clock moves by itself while the table just plays: re-dials, a held pass and
the linger come due; a silence deadline does not (that is the ``delay`` fault)."""
HEAL_PATIENCE = 40 * TIMEOUT
"""How far the clock may move while the healed table plays to its end."""
HEAL_STEPS = 200_000


@dataclass(frozen=True)
class Plan:
    """What one example's table is made of."""

    players: int
    seed: int
    patience: int
    """Random bots accuse whatever they have from this turn on (short games)."""
    cheat: str | None = None
    cheater: int = 0
    phase: str | None = None
    paced: int | None = None
    """A person's seat: its automatic pass is held 1-3 s (``Settings.pass_delay``)."""
    dealt: bool = False
    """The faults begin at the first turn (the deal was played without any): the turns,
    refutations, leaves and accusations get as many faults as the deal."""


@dataclass(frozen=True)
class Snapshot:
    """A seat as it was when the model crashed it."""

    entries: tuple[bytes, ...]
    hand: tuple[int, ...]
    head: bytes
    secrets: PeerSecrets
    between_batches: bool
    """Crashed between two batches (every action of its last input executed), not in the
    middle of one."""


@dataclass
class Crash:
    snapshot: Snapshot
    src: SeededRandom
    """Its secret randomness as it stood: the resumed seat draws what it would have."""
    power: bool


def address(seat: int) -> tuple[str, int]:
    return f"10.0.0.{seat + 1}", 7000 + seat


class PeersView(Sequence[Peer]):
    """Each seat's current engine peer (the last one, while crashed), for ``StagedBot``,
    which reads the hands to steer a refutation cheat to the cheater."""

    def __init__(self, table: ModelTable) -> None:
        self._table = table

    def __len__(self) -> int:
        return self._table.plan.players

    def __getitem__(self, seat: int) -> Peer:  # type: ignore[override]
        return self._table.last_peer[seat]


class ModelTable:
    """The table of one example and the model's own knowledge of it."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        config, keys = make_config(preset("classic"), plan.players, plan.seed)
        self.config = config
        self.keys = keys
        addresses = tuple(Address(self.key(s), "player", *address(s))
                          for s in range(plan.players))
        self.start = Start(config, tuple(bytes(32) for _ in keys),
                           tuple(bytes(64) for _ in keys), addresses)
        self.table = MemoryTable()
        self.sources = [SeededRandom(b"p2pclue/model/%d/%d" % (plan.seed, s))
                        for s in range(plan.players)]
        self.bots: dict[bytes, BotSeat] = {}
        self._fed: dict[bytes, int] = {}
        self._bot_rng = random.Random(plan.seed)
        self.last_peer: list[Peer] = []
        self.crashed: dict[int, Crash] = {}
        self.broken: set[frozenset[bytes]] = set()
        """Links the model made break a stream link's contract (in order, exactly once)."""
        self.armed: tuple[bytes, int] | None = None
        """A crash waiting for this member's n-th next action (mid-batch)."""
        self.cheat_frames: set[bytes] = set()
        """The frames the cheater sent once it had cheated (its relays of accepted entries
        aside): the cheat itself."""
        self.cheat_seen: dict[int, set[bytes]] = {}
        """Per honest seat: the cheat frames delivered to it while it played on."""
        self.votes: dict[tuple[bytes, bytes], int] = {}
        """Votes sent, per (voter, receiver) key pair: the spec charges a receiver at another
        point of the game one junk unit for each (docs/protocol.md, "Junk budget")."""
        self.resumes = 0
        self.ended_before_heal: dict[int, Status] = {}
        """Seats (any) that had ended when the network healed: the others cannot complete
        without them."""
        self.votes_before_heal = 0
        """Votes sent before the heal: an abandon quorum they make may end the healed table."""
        for seat in range(plan.players):
            core = self._new_core(seat, self.sources[seat])
            self.last_peer.append(core.peer)
            self._new_bot(seat)
            self.table.add(core, address(seat))
        stranger = Ed25519PrivateKey.from_private_bytes(
            hashlib.sha256(b"p2pclue/model/stranger/%d" % plan.seed).digest())
        self.stranger = SessionCore(self.start, stranger, Settings("stranger", TIMEOUT),
                                    self.table.now, src=None, rng=random.Random(0))
        self.table.add(self.stranger)
        for a, b in self.pairs():
            self.table.link(a, b)
        self.table.kill = self._before
        self.table.lose = self._tap

    # ---- who is who ------------------------------------------------------------------

    def key(self, seat: int) -> bytes:
        return self.keys[seat].public_key().public_bytes_raw()

    def seat_of(self, key: bytes) -> int | None:
        return next((s for s in range(self.plan.players) if self.key(s) == key), None)

    def honest(self) -> list[int]:
        return [s for s in range(self.plan.players)
                if self.plan.cheat is None or s != self.plan.cheater]

    def member(self, seat: int) -> Member:
        return self.table.members[self.key(seat)]

    def core(self, seat: int) -> SessionCore | None:
        return self.member(seat).core

    def pairs(self) -> list[tuple[bytes, bytes]]:
        return [(self.key(a), self.key(b)) for a, b in combinations(range(self.plan.players), 2)]

    @property
    def cheated(self) -> bool:
        if self.plan.cheat is None:
            return False
        return bool(getattr(self.last_peer[self.plan.cheater], "cheated", False))

    def transcripts(self) -> Iterator[tuple[str, list[bytes]]]:
        """Every honest member's entries: a live seat's accepted ones, a crashed seat's on
        its disk, the stranger's (a spectator follows honestly)."""
        for seat in self.honest():
            core = self.core(seat)
            yield (f"seat {seat}",
                   core.peer.entries if core is not None else self.member(seat).disk.entries)
        yield "the spectator", self.stranger.peer.entries

    # ---- building cores and bots -------------------------------------------------------

    def _settings(self, seat: int) -> Settings:
        pace = PACE if seat == self.plan.paced else (0.0, 0.0)
        return Settings(f"seat {seat}", TIMEOUT, GIVE_UP_AFTER, pace, game_files=True)

    def _new_core(self, seat: int, src: SeededRandom) -> SessionCore:
        core = SessionCore(self.start, self.keys[seat], self._settings(seat), self.table.now,
                           src=src, rng=random.Random(self.plan.seed * 10 + seat))
        plan = self.plan
        if plan.cheat is not None and seat == plan.cheater:
            core.peer = CheatingPeer(self.config, seat, self.keys[seat], src, cheat=plan.cheat,
                                     phase=plan.phase, now=self.table.now, timeout=TIMEOUT)
        return core

    def _new_bot(self, seat: int) -> None:
        plan = self.plan
        bot = RandomBot(seat, random.Random(self._bot_rng.getrandbits(64)),
                        patience=plan.patience)
        inner = bot if plan.cheat is None else StagedBot(
            bot, PeersView(self), plan.cheater, plan.cheat, plan.phase)
        self.bots[self.key(seat)] = BotSeat(inner, plan.players)
        self._fed[self.key(seat)] = 0

    def choose(self, member: Member, choice: Choice) -> ev.Intent | None:
        """A bot's intent, after feeding it the events its core emitted since last time."""
        bot, core = self.bots.get(member.key), member.core
        if bot is None or core is None:
            return None
        for event in member.events[self._fed[member.key]:]:
            if isinstance(event, api.Engine):
                bot.feed(event.event)
        self._fed[member.key] = len(member.events)
        return bot.choose(core.peer, choice)

    # ---- the table plays -----------------------------------------------------------------

    def progress(self, steps: int) -> int:
        """Deliver in order, let the bots choose, and let the clock reach what is due soon."""
        return self.table.run(self.choose, max_steps=steps, patience=NEAR)

    def deal(self) -> None:
        """Play without faults until an honest seat is at its first turn (or the game ended:
        a deal cheat halts it)."""
        def dealt() -> bool:
            return any((core := self.core(s)) is not None
                       and (core.peer.stage is Stage.PLAY or core.ended is not None)
                       for s in self.honest())
        self.table.run(self.choose, until=dealt, max_steps=HEAL_STEPS, patience=HEAL_PATIENCE)

    def _tap(self, msg: InFlight) -> bool:
        """Sees every delivery (never loses one): which honest seats a cheat reached."""
        if msg.tag == TAG_FRAME and msg.body in self.cheat_frames:
            seat = self.seat_of(msg.dst)
            core = self.core(seat) if seat is not None else None
            if seat is not None and core is not None and core.ended is None:
                self.cheat_seen.setdefault(seat, set()).add(msg.body)
        return False

    # ---- crash and resume ----------------------------------------------------------------

    def snapshot(self, seat: int, between_batches: bool) -> Snapshot:
        core = self.core(seat)
        assert core is not None
        peer = core.peer
        return Snapshot(tuple(peer.entries), peer.hand, peer.head, peer.export_secrets(),
                        between_batches)

    def crash(self, seat: int, power: bool) -> None:
        """Kill a seat between two batches (``power``: its unsynced writes are lost too)."""
        snapshot = self.snapshot(seat, True)
        src = copy.copy(self.sources[seat])
        self.table.crash(self.key(seat), power=power)
        self.crashed[seat] = Crash(snapshot, src, power)

    def arm(self, seat: int, after: int) -> None:
        """Kill a seat at its ``after``-th next action: in the middle of a batch."""
        self.armed = (self.key(seat), after)

    def _before(self, member: Member, action: Action) -> bool:
        """Sees every action before the table executes it: notes the cheat's frames, and
        crashes an armed seat when its count comes (True: the table crashes it here)."""
        if self.cheated and member.key == self.key(self.plan.cheater) \
                and isinstance(action, Send) and action.tag == TAG_FRAME \
                and action.body not in self.last_peer[self.plan.cheater].entries:
            self.cheat_frames.add(action.body)
        if isinstance(action, Send) and action.tag == TAG_SYNC \
                and (decode_meta(action.body) or {}).get("t") == "vote":
            for to in action.to:
                pair = (member.key, to)
                self.votes[pair] = self.votes.get(pair, 0) + 1
        if self.armed is None or self.armed[0] != member.key:
            return False
        key, left = self.armed
        if left > 1:
            self.armed = (key, left - 1)
            return False
        self.armed = None
        seat = self.seat_of(key)
        assert seat is not None
        self.crashed[seat] = Crash(self.snapshot(seat, False), copy.copy(self.sources[seat]),
                                   False)
        return True

    def resume(self, seat: int) -> tuple[Crash, SessionCore]:
        """A new core for ``seat`` from its disk, a new bot that relearns the game from the
        replayed events (as a front end does), back at the table."""
        crash = self.crashed.pop(seat)
        member = self.member(seat)
        disk = member.disk
        assert disk.secrets is not None, "a seat persists its secrets before anything else"
        self.sources[seat] = crash.src
        core = self._new_core(seat, crash.src)
        core.restore(disk.secrets, list(disk.entries), self.table.now)
        self.last_peer[seat] = core.peer
        self._new_bot(seat)
        for event in core.resumed_events:
            self.bots[self.key(seat)].feed(event)
        member.events = []
        self.resumes += 1
        self.table.revive(core)
        return crash, core

    # ---- the end -----------------------------------------------------------------------

    def heal(self) -> None:
        """The network heals and every crashed seat comes back: no partition, no pending
        crash, every link made afresh (what a lossy link lost comes back by catch-up)."""
        table = self.table
        self.armed = None
        self.votes_before_heal = sum(self.votes.values())
        for seat in range(self.plan.players):  # a cheater that never cheated ends honestly
            core = self.core(seat)
            if core is not None and core.ended is not None:
                self.ended_before_heal[seat] = core.peer.status
        table.unreachable.clear()
        for seat in sorted(self.crashed):
            self.resume(seat)
        for pair in list(table.links):
            table.unlink(*pair)
        for a, b in self.pairs():
            table.link(a, b)
        for seat in range(self.plan.players):
            table.link(self.stranger.me, self.key(seat))
        self.broken.clear()

    def finish(self) -> int:
        return self.table.run(self.choose, max_steps=HEAL_STEPS, patience=HEAL_PATIENCE)


@dataclass
class Tally:
    """What the model explored, across examples (the bench's figures)."""

    examples: int = 0
    steps: int = 0
    rules: dict[str, int] = field(default_factory=dict)
    ends: dict[str, int] = field(default_factory=dict)
    """Each honest seat's status at the end of an example."""
    cheats: int = 0
    cheats_fired: int = 0
    cheats_blamed: int = 0
    """Examples whose cheat fired and every honest seat that saw it halted blaming it."""
    audits: int = 0
    entries: int = 0
    resumes: int = 0

    def ran(self, name: str) -> None:
        self.steps += 1
        self.rules[name] = self.rules.get(name, 0) + 1
