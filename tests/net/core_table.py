"""A table of session cores on the in-memory transport (``net.memory``), for tests.

Every seat is a real ``SessionCore`` with a real engine peer, real keys and seeded secret
randomness (so a game replays byte for byte); bots choose for the seats through the
events their cores emitted, as a front end would. The clock is the table's: nothing here
sleeps.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Collection
from dataclasses import dataclass, field, replace

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.bots.protocol import BotSeat, make_config
from p2pclue.bots.random_bot import RandomBot
from p2pclue.bots.registry import BOTS
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.config import GameConfig
from p2pclue.engine.peer import Choice, Status
from p2pclue.engine.transcript import Transcript, parse
from p2pclue.engine.wire import split_frame
from p2pclue.net import api
from p2pclue.net.actions import Append, End, Send
from p2pclue.net.core import SessionCore, Settings
from p2pclue.net.lobby import Address, Start
from p2pclue.net.memory import Disk, Member, MemoryTable
from p2pclue.net.meta import TAG_FRAME
from p2pclue.rules.variants import preset

TIMEOUT = 30.0


def address(seat: int) -> tuple[str, int]:
    return f"10.0.0.{seat + 1}", 7000 + seat


@dataclass
class CoreTable:
    """The table, its start, each seat's identity, source of secrets and bot."""

    table: MemoryTable
    start: Start
    keys: list[Ed25519PrivateKey]
    seed: int
    settings: Settings
    sources: list[SeededRandom] = field(default_factory=list)
    bots: dict[bytes, BotSeat] = field(default_factory=dict)
    fed: dict[bytes, int] = field(default_factory=dict)
    paced: frozenset[int] | None = None
    """The seats of people (their automatic pass is held, ``Settings.pass_delay``); None:
    every seat as ``settings`` says."""

    @property
    def members(self) -> list[Member]:
        return [self.table.members[self.key(s)] for s in range(len(self.keys))]

    def key(self, seat: int) -> bytes:
        return self.keys[seat].public_key().public_bytes_raw()

    def core(self, seat: int) -> SessionCore:
        core = self.members[seat].core
        assert core is not None, f"seat {seat} is crashed"
        return core

    def new_core(self, seat: int, src: SeededRandom | None = None) -> SessionCore:
        settings = self.settings
        if self.paced is not None and seat not in self.paced:
            settings = replace(settings, pass_delay=(0.0, 0.0))
        return SessionCore(self.start, self.keys[seat], settings, self.table.now,
                           src=src or self.sources[seat], rng=random.Random(seat),
                           host_addr=None)

    def choose(self, member: Member, choice: Choice) -> ev.Intent | None:
        """A bot's intent, after feeding it the events its core emitted since last time."""
        bot = self.bots.get(member.key)
        core = member.core
        if bot is None or core is None:
            return None
        start = self.fed.get(member.key, 0)
        for event in member.events[start:]:
            if isinstance(event, api.Engine):
                bot.feed(event.event)
        self.fed[member.key] = len(member.events)
        return bot.choose(core.peer, choice)

    def run(self, **kwargs: object) -> int:
        return self.table.run(self.choose, **kwargs)  # type: ignore[arg-type]

    def resume(self, seat: int, disk: Disk, src: SeededRandom) -> SessionCore:
        """A new core for ``seat`` from what it persisted (and a new bot that relearns the
        game from the replayed events, as a front end does)."""
        assert disk.secrets is not None
        core = self.new_core(seat, src)
        core.restore(disk.secrets, list(disk.entries), self.table.now)
        key = self.key(seat)
        self.bots[key] = _bot(seat, len(self.keys), self.seed)
        for event in core.resumed_events:
            self.bots[key].feed(event)
        member = self.table.members[key]
        member.events = []
        self.fed[key] = 0
        self.table.revive(core)
        return core


def _bot(seat: int, n: int, seed: int, name: str = "random") -> BotSeat:
    return BotSeat(BOTS[name](seat, random.Random(seed * 10 + seat)), n)


def make_table(n: int, seed: int = 1, *, timeout: float = TIMEOUT, give_up_after: int = 2,
               pass_delay: tuple[float, float] = (0.0, 0.0), bot: str = "random",
               link: bool = True, rules: str = "classic", like_simulate: bool = False,
               patience: int = 150, paced: Collection[int] | None = None,
               session: bytes | None = None) -> CoreTable:
    """``n`` seats, started and (``link``) fully linked; nothing delivered yet.
    ``paced``: the seats that hold their automatic pass for ``pass_delay`` (None: all);
    ``session``: another session id for the same seats and keys (a new game of theirs).

    ``like_simulate``: the keys, secret randomness and random bots of
    ``bots.protocol.play`` for this seed (``patience``: the bots accuse from that turn),
    so the game is the one ``p2pclue simulate --seed`` plays."""
    config, keys = make_config(preset(rules), n, seed)
    if session is not None:
        config = replace(config, session=session)
    addresses = tuple(Address(k.public_key().public_bytes_raw(), "player", *address(i))
                      for i, k in enumerate(keys))
    start = Start(config, tuple(bytes(32) for _ in keys), tuple(bytes(64) for _ in keys),
                  addresses)
    settings = Settings("seat", timeout, give_up_after, pass_delay, game_files=True)
    ct = CoreTable(MemoryTable(), start, keys, seed, settings,
                   paced=None if paced is None else frozenset(paced))
    label = b"p2pclue/simulate" if like_simulate else b"core-test"
    ct.sources = [SeededRandom(label + b"/%d/%d" % (seed, s)) for s in range(n)]
    rng = random.Random(seed)
    for seat in range(n):
        if like_simulate:
            ct.bots[ct.key(seat)] = BotSeat(RandomBot(seat, random.Random(rng.getrandbits(64)),
                                                      patience=patience), n)
        else:
            ct.bots[ct.key(seat)] = _bot(seat, n, seed, bot)
        ct.table.add(ct.new_core(seat), address(seat))
    if link:
        ct.table.mesh()
    return ct


def fork_source(src: SeededRandom) -> SeededRandom:
    """The same secret randomness from here on (a resumed seat that must draw exactly what
    its crashed self would have drawn)."""
    return copy.copy(src)


def own_frames_persisted_first(member: Member, seat: int) -> bool:
    """Every frame this seat signed was in an fsynced append before any link got it."""
    synced: set[bytes] = set()
    pending: list[bytes] = []
    for action in member.log:
        if isinstance(action, Append):
            pending += action.entries
            if action.sync:
                synced.update(pending)
                pending = []
        elif isinstance(action, Send) and action.tag == TAG_FRAME:
            try:
                signer = split_frame(action.body)[0]
            except Exception:
                continue
            if signer == seat and action.body not in synced and _chained(member, action.body):
                return False
    return True


def _chained(member: Member, raw: bytes) -> bool:
    return raw in member.disk.entries


def finished(ct: CoreTable) -> bool:
    return all(m.core is not None and m.core.peer.status is not Status.RUNNING
               for m in ct.members)


def transcript_bytes(member: Member, config: GameConfig) -> bytes:
    """The transcript file this member's disk would hold: its entries and closing footer."""
    assert member.disk.footer is not None, "the transcript is closed"
    return Transcript(config, tuple(member.disk.entries), member.disk.footer).to_bytes()


def ended_well(ct: CoreTable) -> None:
    """Every seat ended complete with the same transcript, which the audit finds valid, and
    nobody is blamed."""
    members = ct.members
    assert all(m.ended == End("complete") for m in members), [m.ended for m in members]
    files = {transcript_bytes(m, ct.start.config) for m in members}
    assert len(files) == 1, "every seat has the same transcript"
    data = files.pop()
    verdict = audit(parse(data), data)
    assert verdict.valid and verdict.blamed is None and verdict.result in ("won", "nobody")
    assert all(m.core is not None and m.core.peer.blame is None for m in members)


class Clock:
    """When each member's events came out, on the table's clock: pass it as ``run``'s
    ``until`` (it stops nothing) and call it once more after the run."""

    def __init__(self, ct: CoreTable) -> None:
        self.ct = ct
        self.times: dict[bytes, list[tuple[float, api.SessionEvent]]] = {}

    def __call__(self) -> bool:
        now = self.ct.table.now
        for member in self.ct.table.members.values():
            seen = self.times.setdefault(member.key, [])
            seen += [(now, e) for e in member.events[len(seen):]]
        return False
