"""The rule-based state machine: a table of 3-6 session cores and every fault at once.

Hypothesis draws a table (``Plan``: seats, seed, bots' patience, maybe a cheater and a
person's paced seat), then a sequence of rules: the table plays on, or a message is
reordered, copied or lost, time passes a deadline, a link is cut or restored, a seat
crashes (between two batches, or in the middle of one) and resumes from its disk, a seat
leaves, a stranger sends junk. After every rule the invariants of ``checks`` hold; at the
end the network heals, the table plays to its end, and the end state and the audit of
every honest transcript are checked. A failure shrinks to a short program of rules.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from p2pclue.bench.tablemodel import checks
from p2pclue.bench.tablemodel.table import TIMEOUT, ModelTable, Plan, Tally
from p2pclue.engine import events as ev
from p2pclue.engine.cheats import CHEATS, PHASED
from p2pclue.engine.errors import LocalProtocolError
from p2pclue.engine.peer import Stage
from p2pclue.engine.wire import pack
from p2pclue.net.meta import TAG_FRAME, TAG_LOBBY, TAG_SYNC, TAGS

SEATS = (3, 3, 3, 3, 3, 3, 4, 5, 6)
"""Mostly three seats (the cheapest table), sometimes more: shrinking goes to three."""


@st.composite
def plans(draw: st.DrawFn) -> Plan:
    players = draw(st.sampled_from(SEATS))
    seed = draw(st.integers(0, 2**16))
    patience = draw(st.integers(2, 12))
    paced = draw(st.one_of(st.none(), st.integers(0, players - 1)))
    dealt = draw(st.booleans())
    if draw(st.integers(0, 2)) != 2:  # a cheater in a third of the tables
        return Plan(players, seed, patience, paced=paced, dealt=dealt)
    kind = draw(st.sampled_from(sorted(CHEATS)))
    phase = draw(st.sampled_from(PHASED[kind])) if kind in PHASED else None
    cheater = draw(st.integers(0, players - 1))
    return Plan(players, seed, patience, kind, cheater, phase, paced, dealt)


@dataclass(frozen=True)
class Junk:
    """What a stranger sends: raw bytes, a meta message nobody needs, or a real entry
    copied (``flip`` < 0) or with one byte flipped."""

    tag: int
    body: bytes = b""
    entry: int | None = None
    flip: int = -1


META_JUNK: tuple[tuple[int, dict[str, Any]], ...] = (
    (TAG_SYNC, {"t": "have", "n": -1}),
    (TAG_SYNC, {"t": "have", "n": 0, "name": "stranger", "role": "spectator"}),
    (TAG_SYNC, {"t": "have", "n": 10**9}),
    (TAG_SYNC, {"t": "done", "n": 0}),
    (TAG_SYNC, {"t": "vote", "v": b"\x00" * 40}),
    (TAG_SYNC, {"t": "vote", "v": "abandon"}),
    (TAG_SYNC, {"t": "attempts", "n": 10**6}),
    (TAG_SYNC, {"t": "gossip"}),
    (TAG_LOBBY, {"t": "hello", "role": "player", "name": "stranger"}),
    (TAG_LOBBY, {"t": "hello", "role": "spectator", "name": "stranger"}),
    (TAG_LOBBY, {"t": "ready"}),
)

junk = st.one_of(
    st.builds(Junk, st.sampled_from(TAGS), st.binary(max_size=48)),
    st.sampled_from(META_JUNK).map(lambda m: Junk(m[0], pack(m[1]))),
    st.builds(Junk, st.just(TAG_FRAME), st.just(b""), st.integers(0, 10**4),
              st.integers(-1, 10**4)),
)


class TableModel(RuleBasedStateMachine):
    """One table per example; ``tally`` (set by ``machine``) counts what was explored."""

    tally = Tally()

    def __init__(self) -> None:
        super().__init__()
        self.mt: ModelTable | None = None
        self.audits = checks.Audits()

    @property
    def t(self) -> ModelTable:
        assert self.mt is not None
        return self.mt

    def _ran(self, name: str) -> None:
        self.tally.ran(name)

    # ---- the table ---------------------------------------------------------------------

    @initialize(plan=plans())
    def open_table(self, plan: Plan) -> None:
        self.mt = ModelTable(plan)
        self.tally.examples += 1
        self.tally.cheats += plan.cheat is not None
        if plan.dealt:
            self.mt.deal()

    @rule(steps=st.integers(1, 400))
    def play(self, steps: int) -> None:
        """Deliver in order, let the bots choose, let the clock reach what is due soon."""
        self._ran("play")
        self.t.progress(steps)

    # ---- the wire ----------------------------------------------------------------------

    @precondition(lambda self: self.mt is not None and len(self.mt.table.wire) > 1)
    @rule(pick=st.integers(0, 10**6), within_link=st.booleans())
    def reorder(self, pick: int, within_link: bool) -> None:
        """Deliver a message out of turn: another link's oldest (links are independent),
        or (``within_link``) any message, breaking its link's order."""
        self._ran("reorder")
        table = self.t.table
        heads = table.heads() if not within_link else list(range(len(table.wire)))
        index = heads[pick % len(heads)]
        msg = table.wire[index]
        if index not in table.heads():
            self.t.broken.add(frozenset((msg.src, msg.dst)))
        table.deliver(index)

    @precondition(lambda self: self.mt is not None and bool(self.mt.table.wire))
    @rule(pick=st.integers(0, 10**6))
    def duplicate(self, pick: int) -> None:
        """The network delivers a message twice."""
        self._ran("duplicate")
        table = self.t.table
        index = pick % len(table.wire)
        msg = table.wire[index]
        self.t.broken.add(frozenset((msg.src, msg.dst)))
        table.copy(index)

    @precondition(lambda self: self.mt is not None and bool(self.mt.table.wire))
    @rule(pick=st.integers(0, 10**6), link_stays=st.booleans())
    def drop(self, pick: int, link_stays: bool) -> None:
        """A message is lost: its stream link breaks (what TCP does when it cannot
        deliver), or (``link_stays``) the link stays up with a hole in it."""
        self._ran("drop")
        table = self.t.table
        msg = table.drop(pick % len(table.wire))
        if link_stays:
            self.t.broken.add(frozenset((msg.src, msg.dst)))
        else:
            table.unlink(msg.src, msg.dst)

    @rule(past=st.integers(0, 90))
    def delay(self, past: int) -> None:
        """Time passes the next deadline (by ``past`` seconds) with messages in flight."""
        self._ran("delay")
        table = self.t.table
        deadline = table.next_deadline()
        table.advance_to((table.now if deadline is None else deadline) + past)

    # ---- links -------------------------------------------------------------------------

    @rule(pick=st.integers(0, 14))
    def cut(self, pick: int) -> None:
        """Cut the link of two seats; no dial joins them until ``restore``."""
        self._ran("cut")
        a, b = self.t.pairs()[pick % len(self.t.pairs())]
        self.t.table.unreachable.add(frozenset((a, b)))
        self.t.table.unlink(a, b)

    @precondition(lambda self: self.mt is not None and bool(self.mt.table.unreachable))
    @rule(pick=st.integers(0, 14))
    def restore(self, pick: int) -> None:
        """A cut pair can be dialled again (the re-dials join it as the clock runs)."""
        self._ran("restore")
        cut = sorted(self.t.table.unreachable, key=sorted)
        self.t.table.unreachable.discard(cut[pick % len(cut)])

    # ---- seats -------------------------------------------------------------------------

    def _crashable(self) -> list[int]:
        t = self.t
        out = []
        for seat in t.honest():
            core = t.core(seat)
            if core is not None and core.ended is None and not t.member(seat).disk.left:
                out.append(seat)
        return out

    @precondition(lambda self: self.mt is not None and self.mt.armed is None
                  and bool(self._crashable()))
    @rule(pick=st.integers(0, 5), power=st.booleans(), after=st.integers(0, 40))
    def crash(self, pick: int, power: bool, after: int) -> None:
        """An honest seat dies: now (``power``: with its unsynced writes), or at its
        ``after``-th next action, in the middle of a batch."""
        self._ran("crash")
        seats = self._crashable()
        seat = seats[pick % len(seats)]
        if after:
            self.t.arm(seat, after)
        else:
            self.t.crash(seat, power)

    @precondition(lambda self: self.mt is not None and bool(self.mt.crashed))
    @rule(pick=st.integers(0, 5))
    def resume(self, pick: int) -> None:
        """A crashed seat comes back from its disk: it is what it persisted, and, crashed
        between two batches on an intact disk, exactly its pre-crash self."""
        self._ran("resume")
        seats = sorted(self.t.crashed)
        seat = seats[pick % len(seats)]
        disk = list(self.t.member(seat).disk.entries)
        crash, core = self.t.resume(seat)
        checks.resumed_as_before(seat, crash.snapshot, disk, crash.power, core)

    @precondition(lambda self: self.mt is not None and any(
        (c := self.mt.core(s)) is not None and c.peer.stage is Stage.PLAY
        for s in self.mt.honest()))
    @rule(pick=st.integers(0, 5))
    def leave(self, pick: int) -> None:
        """An honest seat leaves the table for good (when the engine lets it)."""
        self._ran("leave")
        t = self.t
        seats = [s for s in t.honest() if (c := t.core(s)) is not None and c.ended is None]
        if not seats:
            return
        seat = seats[pick % len(seats)]
        core = t.core(seat)
        assert core is not None
        try:
            actions = core.submit(ev.Leave(), t.table.now)
        except LocalProtocolError:
            return  # decided, or left already: the front end says so and nothing happens
        t.table.execute(t.member(seat), actions)

    @rule(pick=st.integers(0, 5), what=junk)
    def stranger_junk(self, pick: int, what: Junk) -> None:
        """The stranger (linked like a spectator) sends a seat junk in its own name."""
        self._ran("stranger_junk")
        t = self.t
        target = t.key(pick % t.plan.players)
        pair = frozenset((t.stranger.me, target))
        if pair not in t.table.links:
            t.table.link(t.stranger.me, target)
        if pair not in t.table.links:
            return  # refused (junk ban), the seat is down, or it crashed as the link came
        body = what.body
        if what.entry is not None:
            entries = t.stranger.peer.entries or t.last_peer[0].entries
            if not entries:
                return
            raw = bytearray(entries[what.entry % len(entries)])
            if what.flip >= 0:
                raw[what.flip % len(raw)] ^= 0x01
            body = bytes(raw)
        t.table.inject(t.stranger.me, target, what.tag, body)

    # ---- invariants --------------------------------------------------------------------

    @invariant()
    def transcripts_agree(self) -> None:
        if self.mt is not None:
            checks.transcripts_agree(self.mt)

    @invariant()
    def nobody_honest_blamed(self) -> None:
        if self.mt is not None:
            checks.nobody_honest_blamed(self.mt)
            checks.halted_is_confirmed(self.mt, self.audits)

    @invariant()
    def persisted_is_accepted(self) -> None:
        if self.mt is not None:
            checks.persisted_is_accepted(self.mt)

    @invariant()
    def honest_links_uncharged(self) -> None:
        if self.mt is not None:
            checks.honest_links_uncharged(self.mt)

    # ---- the end -----------------------------------------------------------------------

    def teardown(self) -> None:
        """Heal everything, play to the end, check the end and every honest transcript
        (skipped when a rule or invariant already failed: that failure is the report)."""
        if self.mt is None or sys.exc_info()[0] is not None:
            return
        t = self.t
        t.heal()
        t.finish()
        checks.transcripts_agree(t)
        checks.nobody_honest_blamed(t)
        ends = checks.ended(t, self.audits)
        checks.spectator_agrees(t)
        tally = self.tally
        for status in ends.values():
            tally.ends[status] = tally.ends.get(status, 0) + 1
        fired = t.cheated
        tally.cheats_fired += fired
        tally.cheats_blamed += fired and any(s == "halted" for s in ends.values())
        tally.audits += self.audits.count
        tally.resumes += t.resumes
        tally.entries += max(len(t.member(s).disk.entries) for s in t.honest())


def machine(tally: Tally) -> type[TableModel]:
    """The state machine, counting into ``tally``."""
    return type("TableModel", (TableModel,), {"tally": tally})


__all__ = ["TIMEOUT", "TableModel", "machine"]
