"""The session core under faults, on the in-memory transport with a fake clock: silence and
votes, cut and healed links, a crash and its resume, copies and junk, a full disk."""

from __future__ import annotations

import itertools
import random

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.engine import events as ev
from p2pclue.engine.peer import Stage, Status
from p2pclue.engine.wire import split_frame
from p2pclue.net import api
from p2pclue.net.actions import Action, Append, End, Send
from p2pclue.net.core import COPIES_FREE, COPIES_PER_ENTRY, LINGER, SessionCore
from p2pclue.net.memory import InFlight, Member
from p2pclue.net.meta import TAG_FRAME, TAG_SYNC, decode_meta
from tests.net.core_table import TIMEOUT, CoreTable, finished, fork_source, make_table


def _entries(ct: CoreTable, seat: int = 0) -> int:
    return len(ct.core(seat).peer.entries)


def _drain(ct: CoreTable) -> None:
    """Deliver what is on the wire (and what that makes), choosing nothing."""
    while ct.table.wire:
        ct.table.deliver()


# ---- silence, votes, abandon ------------------------------------------------------------


def test_a_silent_seat_is_reported_then_voted_out() -> None:
    """Seat 1 never gets a link: the others report it silent at their deadline, vote after
    ``give_up_after`` silences, and the quorum ends the game as abandoned, with the votes."""
    ct = make_table(3, link=False)
    ct.table.link(ct.key(0), ct.key(2))
    ct.table.unreachable.update({frozenset((ct.key(1), ct.key(s))) for s in (0, 2)})
    ct.run(patience=10 * TIMEOUT)
    for seat in (0, 2):
        core, member = ct.core(seat), ct.members[seat]
        assert core.peer.status is Status.ABANDONED and core.peer.blame is None
        waiting = [e for e in member.events if isinstance(e, api.Waiting)]
        assert [w.seat for w in waiting] == [1, 1]  # give_up_after=2 silences, then votes
        counted = [e.event for e in member.events
                   if isinstance(e, api.Engine) and isinstance(e.event, ev.VoteCounted)]
        assert {(v.seat, v.choice) for v in counted} == {(0, "abandon"), (2, "abandon")}
        assert member.disk.footer is not None and member.disk.footer.status == "abandoned"
        assert len(member.disk.footer.votes) == 2
        assert member.ended == End("abandoned")
    assert ct.table.now >= 1000.0 + 2 * TIMEOUT  # nobody was voted out before its deadline


def test_nobody_is_voted_out_while_the_seat_answers_late() -> None:
    """The silent seat comes back after one silence: the game goes on, no vote is cast."""
    ct = make_table(3, link=False)
    ct.table.link(ct.key(0), ct.key(2))
    ct.run(patience=TIMEOUT + 1)
    assert all(ct.core(s).peer.status is Status.RUNNING for s in range(3))
    ct.table.mesh()
    ct.run(until=lambda: ct.core(0).peer.stage is not Stage.JOIN)
    for seat in range(3):
        assert ct.core(seat).peer.status is Status.RUNNING
        assert not any(isinstance(a, Send) and a.tag == TAG_SYNC and b'"vote"' in a.body
                       for a in ct.members[seat].log)


# ---- cut and healed links ---------------------------------------------------------------


def test_an_isolated_seat_is_redialled_with_back_off_and_catches_up() -> None:
    """The seat with the largest key loses every link mid-deal and cannot be reached: the
    others (smaller keys: they dial) re-dial it from 50 ms, doubling to 1 s; once it is
    reachable, the next dial links, both sides send ``have`` and it gets exactly the
    entries it lacks. Nobody is charged anything."""
    ct = make_table(3, seed=5)
    ct.run(until=lambda: _entries(ct) >= 4)
    far = max(range(3), key=ct.key)
    key = ct.key(far)
    cut = {frozenset((key, ct.key(s))) for s in range(3) if s != far}
    ct.table.unreachable.update(cut)
    for pair in cut:
        ct.table.unlink(*pair)
    before = _entries(ct, far)
    ct.run(patience=5.0)  # the others wait for it; the clock runs through the re-dials
    assert _entries(ct, far) == before
    assert not ct.members[far].dials  # the larger key waits to be dialled
    for seat in range(3):
        if seat == far:
            continue
        times = [t for t, a in ct.members[seat].dials if a.key == key]
        gaps = [round(b - a, 3) for a, b in itertools.pairwise(times)]
        assert gaps[:5] == [0.05, 0.1, 0.2, 0.4, 0.8] and set(gaps[5:]) == {1.0}, gaps
    ct.table.unreachable.clear()
    ct.run(until=lambda: ct.core(far).peer.stage is Stage.PLAY)
    assert ct.core(far).peer.entries == ct.core(0 if far else 1).peer.entries[
        :_entries(ct, far)]
    assert sum(ct.core(s).resent for s in range(3)) > 0
    assert all(ct.core(s).junk_charged == 0 for s in range(3))


def test_a_cut_link_heals_and_nothing_is_lost_or_charged() -> None:
    """One link is cut twice mid-deal; the other links relay meanwhile; the re-dial heals
    it at once (the target is reachable) and the table plays on to the same entries."""
    ct = make_table(3, seed=6)
    a, b = ct.key(0), ct.key(1)
    for target in (3, 7):
        ct.run(until=lambda t=target: _entries(ct) >= t)
        ct.table.unlink(a, b)
        assert frozenset((a, b)) not in ct.table.links
        ct.table.advance(0.0)  # the smaller key's first re-dial is due at once
        assert frozenset((a, b)) in ct.table.links
    ct.run(until=lambda: ct.core(0).peer.stage is Stage.PLAY)
    _drain(ct)
    assert len({tuple(ct.core(s).peer.entries) for s in range(3)}) == 1
    assert all(ct.core(s).junk_charged == 0 and ct.core(s).peer.blame is None
               for s in range(3))


# ---- crash and resume -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def reference() -> list[bytes]:
    """The first 90 entries of a seeded game nobody crashed in (into play)."""
    ct = make_table(3, seed=8)
    ct.run(until=lambda: _entries(ct) >= 90)
    return ct.core(0).peer.entries[:90]


def test_a_seat_killed_between_its_write_and_its_send_resumes_to_the_same_frames(
        reference: list[bytes]) -> None:
    """Seat 1 dies after fsyncing its own frame and before any link saw it. Rebuilt from
    its disk (start, entries, secrets) with the same randomness, it holds the same peer
    state, re-sends that exact frame by catch-up, and signs exactly the frames it would
    have signed: the game's entries are the uncrashed game's, byte for byte."""
    ct = make_table(3, seed=8)
    one = ct.key(1)
    state: dict[str, object] = {}

    def kill(member: Member, action: Action) -> bool:
        if member.key != one or state or not isinstance(action, Send) \
                or action.tag != TAG_FRAME or len(member.disk.entries) < 40:
            return False
        if split_frame(action.body)[0] != 1 or action.body not in member.disk.entries:
            return False
        state["frame"] = action.body
        state["peer"] = (list(ct.core(1).peer.entries), ct.core(1).peer.hand,
                         ct.core(1).peer.head)
        return True

    ct.table.kill = kill
    ct.run(until=lambda: bool(state))
    assert ct.members[1].core is None
    lost = state["frame"]
    assert isinstance(lost, bytes)
    assert all(lost not in ct.core(s).peer.entries for s in (0, 2)), "nobody got it"
    ct.table.kill = None
    disk = ct.members[1].disk
    resumed = ct.resume(1, disk, fork_source(ct.sources[1]))
    assert (resumed.peer.entries, resumed.peer.hand, resumed.peer.head) == state["peer"]
    ct.run(until=lambda: min(_entries(ct, s) for s in range(3)) >= 90)
    for seat in range(3):
        assert ct.core(seat).peer.entries[:90] == reference
        assert ct.core(seat).peer.blame is None
    resent = [a for a in ct.members[1].log if isinstance(a, Send) and a.body == lost]
    assert resent, "the stored frame went out again, unchanged"


def test_a_seat_killed_before_its_write_signs_that_step_afresh_and_nobody_is_blamed() -> None:
    """Killed after saving a new secret but before its frame reached the disk: the frame was
    never sent, so the resumed seat builds it again (fresh proofs), and the table takes it."""
    ct = make_table(3, seed=9)
    one = ct.key(1)
    done: list[Action] = []

    def kill(member: Member, action: Action) -> bool:
        if member.key == one and not done and isinstance(action, Append) and action.sync \
                and len(member.disk.entries) >= 3:
            done.append(action)
            return True
        return False

    ct.table.kill = kill
    ct.run(until=lambda: bool(done))
    ct.table.kill = None
    unsent = done[0]
    assert isinstance(unsent, Append)
    ct.resume(1, ct.members[1].disk, fork_source(ct.sources[1]))
    ct.run(until=lambda: ct.core(0).peer.stage is Stage.PLAY
           and _entries(ct, 1) == _entries(ct, 0))
    assert {tuple(ct.core(s).peer.entries) for s in range(3)} == {
        tuple(ct.core(0).peer.entries)}
    assert all(ct.core(s).peer.blame is None for s in range(3))


# ---- copies and junk ----------------------------------------------------------------------


def test_copies_are_free_up_to_the_bound_then_charged_to_their_link() -> None:
    ct = make_table(3, seed=10)
    ct.run(until=lambda: _entries(ct) >= 6)
    _drain(ct)
    zero, two = ct.key(0), ct.key(2)
    frame = ct.core(2).peer.entries[2]
    core = ct.core(0)
    free = COPIES_FREE + COPIES_PER_ENTRY * _entries(ct) - core.copies(two)
    assert free > 0
    ct.table.inject(two, zero, TAG_FRAME, frame)
    for _ in range(free + 4):
        ct.table.copy(0)  # the network copies it
    while ct.table.wire:
        ct.table.deliver()
    assert core.junk.charged(two) == 5 and core.junk.charged(ct.key(1)) == 0
    assert core.peer.blame is None and core.peer.status is Status.RUNNING


def test_junk_is_charged_to_the_link_that_carried_it_and_cuts_it_over_budget() -> None:
    """Seat 2 floods seat 0 with frames nobody signed and sync messages nobody needs: each
    is charged to seat 2's link only; over the budget the link is cut (no blame, nothing in
    the transcript), re-dialled, and the game goes on with every honest seat uncharged."""
    ct = make_table(3, seed=11)
    ct.run(until=lambda: _entries(ct) >= 6)
    zero, one, two = ct.key(0), ct.key(1), ct.key(2)
    raw = ct.core(2).peer.entries[2]
    forged = raw[:-1] + bytes([raw[-1] ^ 1])  # the signature no longer verifies
    for i in range(150):
        ct.table.inject(two, zero, TAG_FRAME, forged)
        ct.table.inject(two, zero, TAG_SYNC, b"\x81\xa1t\xa4junk" if i % 2 else b"\xc1")
    while ct.table.wire and frozenset((zero, two)) in ct.table.links:
        ct.table.deliver()
    core = ct.core(0)
    assert core.junk_cuts == 1 and core.junk.charged(two) > 200
    assert core.junk.charged(one) == 0
    assert all(ct.core(s).peer.blame is None for s in range(3))
    ct.run(until=lambda: ct.core(0).peer.stage is Stage.PLAY)
    _drain(ct)
    assert len({tuple(ct.core(s).peer.entries) for s in range(3)}) == 1
    assert ct.core(1).junk_charged == 0 and ct.core(2).junk_charged == 0


def test_a_strangers_frames_and_a_spectators_vote_are_junk_charged_to_the_stranger() -> None:
    ct = make_table(3, seed=12)
    watcher = _spectator(ct)
    ct.table.link(watcher.me, ct.key(0))
    ct.run(until=lambda: _entries(ct) >= 3)
    for _ in range(3):
        ct.table.inject(watcher.me, ct.key(0), TAG_FRAME, ct.core(0).peer.entries[0])
    ct.table.inject(watcher.me, ct.key(0), TAG_SYNC, b"\x82\xa1t\xa4vote\xa1v\xc4\x01x")
    while ct.table.wire:
        ct.table.deliver()
    core = ct.core(0)
    assert core.junk.charged(watcher.me) == 4 and core.junk_charged == 4
    assert core.peer.blame is None


# ---- a spectator, a graceful leave, a full disk ----------------------------------------


def _spectator(ct: CoreTable) -> SessionCore:
    """A spectator's core (a key of no seat): it only receives."""
    core = SessionCore(ct.start, Ed25519PrivateKey.generate(), ct.settings, ct.table.now,
                       src=None, rng=random.Random(0))
    ct.table.add(core)
    return core


def test_a_late_spectator_catches_up_and_follows_to_the_end() -> None:
    ct = make_table(3, seed=13, bot="detective")
    ct.run(until=lambda: ct.core(0).peer.stage is Stage.PLAY)
    watcher = _spectator(ct)
    for seat in range(3):
        ct.table.link(watcher.me, ct.key(seat))
    ct.run()
    assert finished(ct)
    assert watcher.peer.entries == ct.core(0).peer.entries
    assert watcher.ended == End("complete")
    assert ct.core(0).spectators == {watcher.me: "seat"}
    assert ct.core(0).junk_charged == 0


def test_a_graceful_leave_is_persisted_and_the_table_plays_on() -> None:
    ct = make_table(4, seed=14, bot="detective")
    ct.run(until=lambda: ct.core(0).peer.stage is Stage.PLAY)
    ct.table.execute(ct.members[3], ct.core(3).submit(ev.Leave(), ct.table.now))
    ct.run()
    assert finished(ct)
    assert ct.members[3].disk.left and ct.core(3).left_table
    gone = [e.event for e in ct.members[0].events
            if isinstance(e, api.Engine) and isinstance(e.event, ev.PlayerLeft)]
    assert [g.seat for g in gone] == [3]
    assert {m.disk.footer.status for m in ct.members if m.disk.footer} == {"complete"}


def test_a_full_disk_stops_the_seat_before_it_sends_what_it_could_not_write() -> None:
    ct = make_table(3, seed=15)
    ct.run(until=lambda: _entries(ct) >= 4)
    member = ct.members[1]
    member.disk.fail = "the disk is full"
    sent_before = len([a for a in member.log if isinstance(a, Send)])
    ct.run(until=lambda: member.ended is not None)
    assert member.ended is not None and member.ended.status == "abandoned"
    assert member.ended.failure is not None and "join --resume" in member.ended.failure
    after = [a for a in member.log if isinstance(a, Send)][sent_before:]
    assert not any(a.tag == TAG_FRAME and split_frame(a.body)[0] == 1 for a in after)
    assert member.disk.footer is None  # unfinished: resumable


def test_the_linger_waits_for_every_linked_player_then_ends_at_most_linger_later() -> None:
    """Seat 2's "done" never reaches seat 0 (its link stays up): seat 0 answers catch-up
    for ``LINGER`` seconds of the table's clock, then ends; seat 1, which heard everyone's
    "done", ends at once."""
    ct = make_table(3, seed=3, bot="detective")
    zero, two = ct.key(0), ct.key(2)

    def lost_done(msg: InFlight) -> bool:
        return msg.src == two and msg.dst == zero and msg.tag == TAG_SYNC \
            and decode_meta(msg.body) == {"t": "done", "n": len(ct.core(2).peer.entries)}

    ct.table.lose = lost_done
    ct.run(until=lambda: ct.core(1).ended is not None and not ct.table.wire)
    assert ct.core(0).ended is None and ct.core(1).ended == End("complete")
    over = ct.core(0).peer.status
    assert over is Status.COMPLETE
    ended_at = ct.core(0).next_deadline()
    assert ended_at is not None and ended_at <= ct.table.now + LINGER
    ct.table.advance_to(ended_at)
    assert ct.core(0).ended == End("complete")


# ---- pacing a person's automatic pass ----------------------------------------------------


def test_a_persons_automatic_pass_is_held_for_the_drawn_delay_and_shown_to_nobody() -> None:
    """Every seat is a person's (paced 1-3 s): the first automatic "cannot refute" is on
    disk at once but held; catch-up from a link that comes back meanwhile stops before it;
    the table's clock must reach the delay drawn from the seat's injected RNG before any
    link gets it."""
    ct = make_table(3, seed=16, pass_delay=(1.0, 3.0))
    ct.run(until=lambda: any(ct.core(s).held is not None for s in range(3)))
    passer = next(s for s in range(3) if ct.core(s).held is not None)
    core, member = ct.core(passer), ct.members[passer]
    release = core.release_at
    assert release is not None and 1.0 <= release - ct.table.now <= 3.0
    held_from = core.visible()
    assert held_from < len(core.peer.entries)  # its pass is accepted and persisted...
    held_frame = core.peer.entries[held_from]
    assert held_frame in member.disk.entries and split_frame(held_frame)[0] == passer
    other = (passer + 1) % 3
    ct.table.unlink(ct.key(passer), ct.key(other))  # ...and a link comes back meanwhile
    ct.table.link(ct.key(passer), ct.key(other))
    _drain(ct)
    assert all(held_frame not in ct.core(s).peer.entries for s in range(3) if s != passer)
    assert not any(isinstance(a, Send) and a.body == held_frame for a in member.log)
    ct.table.advance_to(release - 0.001)
    assert core.held is not None
    ct.table.advance_to(release)
    assert core.held is None
    _drain(ct)
    assert all(held_frame in ct.core(s).peer.entries for s in range(3))
