"""Silence then a vote to abandon, and a peer rebuilt from its secrets and transcript."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from p2pclue.bots.protocol import BotSeat
from p2pclue.bots.random_bot import RandomBot
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.errors import LocalProtocolError
from p2pclue.engine.peer import Peer, Status
from p2pclue.engine.peer_secrets import PeerSecrets, SecretsError
from p2pclue.engine.transcript import parse
from p2pclue.engine.votes import Vote, sign_vote
from tests.engine.leave_games import make_peers


class Table:
    """Peers on the in-memory network, with bots choosing; any seat can be made silent."""

    def __init__(self, n: int = 4, seed: int = 21) -> None:
        self.peers, self.net = make_peers(n, "classic", seed)
        self.bots = [BotSeat(RandomBot(s, random.Random(seed * 7 + s), patience=30), n)
                     for s in range(n)]
        self.silent: set[int] = set()
        for p in self.peers:
            p.start(self.net.now)

    def feed(self, seat: int, e: ev.Event) -> None:
        self.bots[seat].feed(e)

    def run(self, until_entries: int | None = None) -> None:
        """Play until nothing moves (or a peer holds ``until_entries`` entries)."""
        while True:
            self.net.collect()
            self.net.queue = [d for d in self.net.queue if d.via not in self.silent
                              and d.to not in self.silent]
            moved = self.net.step(self.feed)
            if until_entries is not None and max(len(p.entries) for p in self.peers) \
                    >= until_entries:
                return
            if moved:
                continue
            acted = False
            for p in self.peers:
                assert p.seat is not None
                if p.seat in self.silent or p.status is not Status.RUNNING:
                    continue
                choice = p.choice()
                if choice is not None:
                    for e in p.act(self.bots[p.seat].choose(p, choice), self.net.now):
                        self.feed(p.seat, e)
                    acted = True
            if not acted:
                return


def _silence_at_play(table: Table) -> int:
    """Run to the play stage and make the seat owing the next turn message silent.

    Silencing drops the seat's frames for good (this table has no resync), so it happens
    only when nothing is in flight: every queued frame (a private opening too) delivered."""
    table.run(until_entries=60)
    while True:
        while table.net.step(table.feed):
            pass
        if table.peers[0].expected_seat() is not None and table.peers[0].stage.value == "play":
            break
        table.run(until_entries=len(table.peers[0].entries) + 1)
    silent = table.peers[0].expected_seat()
    assert silent is not None
    table.silent.add(silent)
    table.run()
    return silent


def test_silence_then_abandon_by_vote_audits_valid() -> None:
    table = Table(4)
    silent = _silence_at_play(table)
    present = [p for p in table.peers if p.seat != silent]
    late = 10_000.0
    for p in present:
        deadline = p.next_deadline()
        assert deadline is not None
        assert p.on_timeout(late) == [ev.PeerSilent(silent, deadline)]
    first, events = present[0].vote("abandon", late)
    assert isinstance(events[0], ev.VoteCounted) and events[0].needed == 2
    assert present[0].status is Status.RUNNING  # one vote of three is not a quorum
    second, _ = present[1].vote("abandon", late)
    for p in present:
        for raw in (first, second):
            p.receive_vote(raw, late)
        assert p.status is Status.ABANDONED, p.seat
    data = present[2].transcript().to_bytes()
    verdict = audit(parse(data), data)
    assert verdict.valid and verdict.result == "abandoned"
    assert any("abandoned by the vote of seats" in n for n in verdict.notes)
    assert len(parse(data).footer.votes) == 2


def test_votes_that_prove_nothing_change_nothing() -> None:
    table = Table(4, seed=22)
    silent = _silence_at_play(table)
    voter = next(p for p in table.peers if p.seat != silent)
    other = next(p for p in table.peers if p.seat not in (silent, voter.seat))
    with pytest.raises(LocalProtocolError):
        voter.vote("abandon", 0.0)  # no silence reported yet
    for p in (voter, other):
        p.on_timeout(10_000.0)
    raw, _ = voter.vote("abandon", 10_000.0)
    # a vote signed by one seat in another's name, a vote about an older point, junk
    assert voter.seat is not None and other.seat is not None
    forged = sign_vote(voter._identity,  # type: ignore[arg-type]
                       Vote(other.config.digest(), len(other.entries), other.head, silent,
                            other.seat, "abandon", 1, 1000, 1000))
    stale = sign_vote(voter._identity,  # type: ignore[arg-type]
                      Vote(other.config.digest(), len(other.entries) - 1, other.head, silent,
                           voter.seat, "abandon", 9, 1000, 1000))
    for bad in (forged, stale, b"\x93\x00\xc4\x00\xc4\x00", raw[:-1] + bytes([raw[-1] ^ 1])):
        assert other.receive_vote(bad, 10_000.0) == []
    assert other.status is Status.RUNNING and other.dropped_count >= 4
    # a footer that claims an abandon with too few votes is refused by the audit
    t = other.transcript()
    lone = replace(t, footer=replace(t.footer, votes=(raw,)))
    verdict = audit(parse(lone.to_bytes()))
    assert not verdict.valid and verdict.violation is not None
    assert verdict.violation.check == "votes" and verdict.blamed is None


def test_a_wait_majority_restarts_the_clock() -> None:
    table = Table(4, seed=23)
    silent = _silence_at_play(table)
    present = [p for p in table.peers if p.seat != silent]
    for p in present:
        p.on_timeout(10_000.0)
    votes = [present[0].vote("wait", 10_000.0)[0], present[1].vote("wait", 10_000.0)[0]]
    for raw in votes:
        present[2].receive_vote(raw, 10_000.0)
    assert present[2].status is Status.RUNNING
    assert present[2].next_deadline() == 10_000.0 + present[2]._silence.timeout
    # the silent seat comes back: the game simply goes on
    table.silent.clear()
    table.run()
    assert all(p.status is Status.COMPLETE for p in table.peers)


def _restore(table: Table, seat: int, *, drop_unsent: bool) -> list[ev.Event]:
    old = table.peers[seat]
    secrets = PeerSecrets.from_bytes(old.export_secrets().to_bytes())
    entries = list(old.entries)
    if drop_unsent:
        old.frames_to_send()  # the crash came before these left the machine
    fresh = Peer(old.config, seat, old._identity, SeededRandom(b"restored/%d" % seat))
    events = fresh.restore(secrets, entries, table.net.now)
    table.peers[seat] = fresh
    table.net.peers = table.peers
    table.net.queue = [d for d in table.net.queue if d.to != seat]  # lost in the crash
    # resync by index: every peer sends what the other lacks, as the stored bytes
    for p in table.peers:
        for q in table.peers:
            if p is not q and len(p.entries) > len(q.entries):
                for raw in p.entries_from(len(q.entries)):
                    for e in q.receive(raw, table.net.now):
                        assert q.seat is not None
                        table.feed(q.seat, e)
    return events


@pytest.mark.parametrize("drop_unsent", [False, True])
def test_a_restored_peer_plays_on_and_signs_nothing_twice(drop_unsent: bool) -> None:
    table = Table(4, seed=24)
    table.run(until_entries=45)
    seat = 2
    before = list(table.peers[seat].entries)
    events = _restore(table, seat, drop_unsent=drop_unsent)
    fresh = table.peers[seat]
    assert fresh.entries[:len(before)] == before
    assert fresh.hand and any(isinstance(e, ev.HandDealt) for e in events)
    table.run()
    assert all(p.status is Status.COMPLETE for p in table.peers), _debug_status(table)
    assert len({tuple(p.entries) for p in table.peers}) == 1
    assert audit(table.peers[0].transcript()).valid


def test_secrets_never_print_and_must_fit_the_transcript() -> None:
    table = Table(3, seed=25)
    table.run(until_entries=30)
    peer = table.peers[1]
    secrets = peer.export_secrets()
    assert secrets.k is not None
    text = repr(secrets) + str(secrets) + repr(peer._secrets)
    assert secrets.k.hex() not in text and "<hidden>" in text
    with pytest.raises(SecretsError) as info:
        PeerSecrets.from_bytes(secrets.to_bytes()[:-3])
    assert secrets.k.hex() not in str(info.value)
    wrong = replace(secrets, k=table.peers[0].export_secrets().k)
    fresh = Peer(peer.config, 1, peer._identity, SeededRandom(b"x"))
    with pytest.raises(SecretsError):
        fresh.restore(wrong, list(peer.entries), 0.0)


def _debug_status(table: Table) -> str:
    return " ".join(f"{p.seat}:{p.status.value}:{len(p.entries)}:{p.blame}" for p in table.peers)
