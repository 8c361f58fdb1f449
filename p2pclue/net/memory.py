"""A whole table of session cores in one process: links, a clock and a disk per member.

The in-memory transport for the sans-IO session core (``net.core``), deterministic and
without asyncio: messages wait on the wire in the order they were sent until the caller
delivers them (first in first out, or any one it picks: reordering), and can be dropped or
copied; links are made and cut at will; the clock moves only when the caller advances it,
and every member whose ``next_deadline`` has come is ticked. Each member's persist actions
go to its own ``Disk`` (what a crash keeps), its events to a list, its dials to the member
listening at that address. So whole games, crashes and resumes, cut and healed links,
floods and strangers run in one process, in the same order every time.

It is a driver like ``net.session``: it executes each batch in order and stops a batch at
a persist that fails (``Disk.fail``), exactly as the real one does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from p2pclue.engine import events as ev
from p2pclue.engine.peer import Choice
from p2pclue.engine.peer_secrets import PeerSecrets
from p2pclue.engine.transcript import Footer
from p2pclue.net import api, redial
from p2pclue.net.actions import (
    Action,
    Append,
    CloseTranscript,
    CodeUsedUp,
    Cut,
    Dial,
    Emit,
    End,
    MarkLeft,
    RecordTranscript,
    SaveSecrets,
    Send,
)
from p2pclue.net.core import SessionCore


@dataclass
class Disk:
    """What one member persisted, as its game folder and transcript file would hold it."""

    entries: list[bytes] = field(default_factory=list)
    synced: int = 0
    """Entries covered by an fsync (a power cut keeps these; a killed process keeps all)."""
    secrets: PeerSecrets | None = None
    transcript_recorded: bool = False
    left: bool = False
    footer: Footer | None = None
    fail: str | None = None
    """Set: the next persist fails with this error text (a full disk), once."""
    writes: int = 0


@dataclass(frozen=True)
class InFlight:
    """A message on the wire from ``src`` to ``dst`` over link number ``link``."""

    src: bytes
    dst: bytes
    tag: int
    body: bytes
    link: int


@dataclass
class Member:
    key: bytes
    address: tuple[str, int] | None
    core: SessionCore | None
    """None while crashed."""
    disk: Disk = field(default_factory=Disk)
    events: list[api.SessionEvent] = field(default_factory=list)
    log: list[Action] = field(default_factory=list)
    """Every action executed, in order (what a test checks the order of)."""
    dials: list[tuple[float, Dial]] = field(default_factory=list)
    """Every dial this member asked for, with the table's time."""
    code_used_up: bool = False

    @property
    def ended(self) -> End | None:
        return self.core.ended if self.core is not None else None


Chooser = Callable[[Member, Choice], ev.Intent | None]
"""A front end: the intent for a member's choice (None: not now)."""


class MemoryTable:
    """The members of one table, the links between them, and the clock."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now
        self.members: dict[bytes, Member] = {}
        self.links: dict[frozenset[bytes], int] = {}
        """The links that are up, each with its number (a new link gets a new one)."""
        self.wire: list[InFlight] = []
        self.unreachable: set[frozenset[bytes]] = set()
        """Pairs no dial can join (a partition) until removed."""
        self.lose: Callable[[InFlight], bool] | None = None
        """Asked for every message delivered: True loses it on the way (the link stays)."""
        self.kill: Callable[[Member, Action], bool] | None = None
        """Asked before every action a member executes: True kills that member there (its
        process dies mid-batch: what it persisted stays, the rest of the batch is lost)."""
        self._numbers = 0
        self._dials: list[tuple[bytes, Dial]] = []

    # ---- members ---------------------------------------------------------------------

    def add(self, core: SessionCore, address: tuple[str, int] | None = None) -> Member:
        """A member whose core has not started yet; ``address``: where it can be dialled."""
        member = Member(core.me, address, core)
        self.members[core.me] = member
        self.execute(member, core.created())
        self.execute(member, core.start(self.now))
        return member

    def crash(self, key: bytes, *, power: bool = False) -> Disk:
        """Kill a member: its links go down (the others see it), what it had on the wire
        is lost, and only its disk stays (``power``: without the entries not fsynced)."""
        member = self.members[key]
        member.core = None
        for pair in [p for p in self.links if key in p]:
            self.unlink(*pair)
        if power:
            del member.disk.entries[member.disk.synced:]
        return member.disk

    def revive(self, core: SessionCore) -> Member:
        """A crashed member back with a new core (built from its disk by the caller)."""
        member = self.members[core.me]
        member.core = core
        self.execute(member, core.start(self.now))
        self.execute(member, core.redial_all(self.now))
        return member

    def alive(self) -> list[Member]:
        return [m for m in self.members.values() if m.core is not None]

    # ---- links -----------------------------------------------------------------------

    def link(self, a: bytes, b: bytes) -> bool:
        """Join ``a`` and ``b`` (each must admit the other); both see the link come up."""
        pair = frozenset((a, b))
        ma, mb = self.members[a], self.members[b]
        if pair in self.links or ma.core is None or mb.core is None or a == b:
            return False
        for me, other in ((ma, b), (mb, a)):
            assert me.core is not None
            if not me.core.admits(other, self.now, self.linked(me.key)):
                return False
        self._numbers += 1
        self.links[pair] = self._numbers
        for me, other in ((ma, b), (mb, a)):
            if me.core is not None:
                self.execute(me, me.core.link_up(other, self.now))
        return True

    def unlink(self, a: bytes, b: bytes) -> None:
        """Cut the link between ``a`` and ``b``: what was on its wire is lost."""
        number = self.links.pop(frozenset((a, b)), None)
        if number is None:
            return
        self.wire = [m for m in self.wire if m.link != number]
        for me, other in ((a, b), (b, a)):
            member = self.members[me]
            if member.core is not None:
                self.execute(member, member.core.link_down(other, self.now))

    def linked(self, key: bytes) -> list[bytes]:
        return [k for pair in self.links if key in pair for k in pair if k != key]

    def mesh(self) -> None:
        """Link every pair of live members (the start's full mesh)."""
        keys = [m.key for m in self.alive()]
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                self.link(a, b)

    # ---- the wire and the clock --------------------------------------------------------

    def deliver(self, index: int = 0) -> InFlight:
        """Hand the message at ``index`` of the wire to its receiver."""
        msg = self.wire.pop(index)
        member = self.members[msg.dst]
        if member.core is not None and (self.lose is None or not self.lose(msg)):
            self.execute(member, member.core.receive(msg.src, msg.tag, msg.body, self.now))
        return msg

    def drop(self, index: int) -> InFlight:
        """Lose the message at ``index`` on the way (its link stays up: whether it breaks
        too, as a stream link that cannot deliver does, is the caller's to say)."""
        return self.wire.pop(index)

    def heads(self) -> list[int]:
        """The wire's indices that each hold the oldest message of one direction of one
        link: delivering any of these reorders across links and keeps every link in
        order, as independent stream links do."""
        seen: set[tuple[int, bytes]] = set()
        out = []
        for i, msg in enumerate(self.wire):
            if (msg.link, msg.src) not in seen:
                seen.add((msg.link, msg.src))
                out.append(i)
        return out

    def copy(self, index: int) -> None:
        """Put a second copy of the message at ``index`` at the end of the wire."""
        self.wire.append(self.wire[index])

    def inject(self, src: bytes, dst: bytes, tag: int, body: bytes) -> None:
        """Put a message on the wire of an existing link, as ``src`` (a cheater, a
        stranger: anyone at the end of an authenticated link can send anything)."""
        self.wire.append(InFlight(src, dst, tag, body, self.links[frozenset((src, dst))]))

    def advance(self, seconds: float) -> None:
        self.advance_to(self.now + seconds)

    def advance_to(self, when: float) -> None:
        """Move the clock (never back) and tick every member whose deadline came."""
        self.now = max(self.now, when)
        for member in self.alive():
            deadline = member.core.next_deadline() if member.core is not None else None
            if member.core is not None and deadline is not None and deadline <= self.now:
                self.execute(member, member.core.tick(self.now))

    def next_deadline(self) -> float | None:
        times = [d for m in self.alive() if m.core is not None
                 and (d := m.core.next_deadline()) is not None]
        return min(times) if times else None

    def run(self, choose: Chooser, *, until: Callable[[], bool] = lambda: False,
            max_steps: int = 1_000_000, patience: float | None = None) -> int:
        """Deliver, let the front ends choose, else let time pass, until ``until()``, or
        every live member ended, or nothing can happen (``patience``: how far the clock
        may move in all). Returns the steps taken."""
        limit = None if patience is None else self.now + patience
        for step in range(max_steps):
            if until() or all(m.ended is not None for m in self.alive()):
                return step
            if self.wire:
                self.deliver()
                continue
            if self._choose(choose):
                continue
            deadline = self.next_deadline()
            if deadline is None or (limit is not None and deadline > limit):
                return step
            self.advance_to(deadline)
        return max_steps

    def _choose(self, choose: Chooser) -> bool:
        for member in self.alive():
            core = member.core
            assert core is not None
            choice = core.peer.choice() if core.ended is None else None
            if choice is None:
                continue
            intent = choose(member, choice)
            if intent is not None:
                self.execute(member, core.submit(intent, self.now))
                return True
        return False

    # ---- the driver: actions in order --------------------------------------------------

    def execute(self, member: Member, actions: list[Action]) -> None:
        for action in actions:
            if member.core is None:
                return  # killed by an earlier action of this batch
            if self.kill is not None and self.kill(member, action):
                self.crash(member.key)
                return
            member.log.append(action)
            if isinstance(action, Send):
                for to in action.to:
                    number = self.links.get(frozenset((member.key, to)))
                    if number is not None:
                        self.wire.append(InFlight(member.key, to, action.tag, action.body,
                                                  number))
            elif isinstance(action, Emit):
                member.events.append(action.event)
            elif isinstance(action, Cut):
                self.unlink(member.key, action.key)
            elif isinstance(action, Dial):
                member.dials.append((self.now, action))
                self._dials.append((member.key, action))
            elif isinstance(action, CodeUsedUp):
                member.code_used_up = True
            elif isinstance(action, End):
                pass
            elif not self._persist(member, action):
                assert member.core is not None
                failed = member.core.persist_failed(action, member.disk.fail or "",
                                                    self.now)
                member.disk.fail = None
                self.execute(member, failed)
                return
        self._run_dials()

    def _persist(self, member: Member, action: Action) -> bool:
        disk = member.disk
        if disk.fail is not None:
            return False
        disk.writes += 1
        if isinstance(action, Append):
            disk.entries += action.entries
            if action.sync:
                disk.synced = len(disk.entries)
        elif isinstance(action, SaveSecrets):
            disk.secrets = action.secrets
        elif isinstance(action, RecordTranscript):
            disk.transcript_recorded = True
        elif isinstance(action, MarkLeft):
            disk.left = True
        elif isinstance(action, CloseTranscript):
            disk.footer = action.footer
            disk.synced = len(disk.entries)
        return True

    def _run_dials(self) -> None:
        """Dials complete at once: a live member listening there, reachable, links."""
        while self._dials:
            key, dial = self._dials.pop(0)
            member = self.members[key]
            if member.core is None:
                continue
            target = next((m for m in self.members.values()
                           if m.address == (dial.host, dial.port)), None)
            outcome = redial.NOBODY
            if target is not None and target.core is not None \
                    and frozenset((key, target.key)) not in self.unreachable:
                if target.key != dial.key:
                    outcome = redial.STRANGER
                elif self.link(key, target.key) or frozenset((key, target.key)) in self.links:
                    outcome = redial.LINKED
            if member.core is not None:
                self.execute(member, member.core.dialled(dial.key, outcome, self.now))
