"""Attack: a suggester that complains about every correct private opening.

The hostile suggester throws away each private opening it receives (the bytes reached it;
it acts as if they had not), waits out the deadline and complains. A complaint used to be
answered by a public, signed ``opening``, which made every card shown to that suggester
known to every seat before the end. The refuter now answers with ``sealed``
(docs/protocol.md, 4d "Message-level use"): every seat checks it, only the suggester can
read the card, and nobody is blamed for a complaint.
"""

from __future__ import annotations

import random

import msgpack

from p2pclue.bots.protocol import BotSeat
from p2pclue.bots.random_bot import RandomBot
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.harness import Network, run_game
from p2pclue.engine.openings import is_private_opening
from p2pclue.engine.peer import Peer, Status
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import decode_payload, split_frame
from tests.engine.leave_games import make_peers

HOSTILE = 0


class ComplainAlways(Peer):
    """Drops every private opening it is sent, so that it complains about each show."""

    dropped_openings: set[int]

    def receive(self, raw: bytes, now: float, via: int | None = None) -> list[ev.Event]:
        if is_private_opening(raw):
            self.dropped_openings.add(int(msgpack.unpackb(raw)[2]))  # the show's index
            return []
        return super().receive(raw, now, via)


def play_complaining(seed: int) -> tuple[list[Peer], dict[int, list[ev.Event]]]:
    """A 4-player classic game in which seat ``HOSTILE`` drops every private opening sent to
    it and so complains about every show made to it: (peers, each seat's events)."""
    peers, _ = make_peers(4, "classic", seed)
    hostile = peers[HOSTILE]
    hostile.__class__ = ComplainAlways  # same state, hostile receive
    assert isinstance(hostile, ComplainAlways)
    hostile.dropped_openings = set()
    seen: dict[int, list[ev.Event]] = {s: [] for s in range(len(peers))}
    seats = [BotSeat(RandomBot(s, random.Random(seed * 11 + s), patience=12), len(peers))
             for s in range(len(peers))]

    def sink(i: int, e: ev.Event) -> None:
        seen[i].append(e)
        seats[i].feed(e)

    net = Network(peers)
    run_game(net, lambda p, c: seats[p.seat or 0].choose(p, c), sink=sink)
    return peers, seen


def _types_before_end(peer: Peer) -> list[str]:
    """Entry types up to (not including) the end-of-game ``open``."""
    out: list[str] = []
    for raw in peer.entries:
        sender, payload, _ = split_frame(raw)
        kind = decode_payload(sender, payload)[0].type
        if kind == "open":
            break
        out.append(kind)
    return out


def _observer_before_open(peer: Peer) -> Peer:
    """A seatless peer fed ``peer``'s signed entries up to (not including) the first
    ``open``: what anyone holding the transcript before the end can check and learn."""
    observer = Peer(peer.config, None, relay=False)
    for i, raw in enumerate(peer.entries):
        sender, payload, _ = split_frame(raw)
        if decode_payload(sender, payload)[0].type == "open":
            break
        observer.receive(raw, float(i))
    return observer


def test_a_complaint_reveals_the_card_to_nobody_but_the_suggester() -> None:
    peers, seen = play_complaining(seed=5)
    assert all(p.status is Status.COMPLETE for p in peers)
    hostile_shows = [rec for rec in peers[1].shows if rec.suggester == HOSTILE]
    assert hostile_shows, "the hostile seat was never shown a card in this game"
    types = _types_before_end(peers[1])
    # Every show to the hostile seat was complained about and settled by ``sealed``; no
    # card was published before the end.
    assert types.count("complain") == len(hostile_shows) == types.count("sealed")
    assert "opening" not in types
    assert all(set(p.record.sealed) == {r.index for r in hostile_shows} for p in peers)
    # Nobody is halted or blamed over the complaints.
    assert not any(isinstance(e, ev.Halted) for s in seen for e in seen[s])
    # The hostile seat learns exactly the cards shown to it, each from its refuter ...
    shown = [(e.refuter, e.card) for e in seen[HOSTILE] if isinstance(e, ev.CardShownToMe)]
    truth = []
    for rec in hostile_shows:
        truth.append((rec.refuter, peers[rec.refuter]._my_opening(rec).card))
    assert shown == truth
    # ... and no other seat learns any card of those shows before the end of the game.
    for s in range(1, len(peers)):
        learned = [(e.refuter, e.card) for e in seen[s] if isinstance(e, ev.CardShownToMe)]
        mine = [(r.refuter, peers[r.refuter]._my_opening(r).card)
                for r in peers[s].shows if r.suggester == s]
        assert learned == mine  # only the cards shown to that seat itself
        assert peers[s].shown_to_me == mine
    assert peers[HOSTILE].shown_to_me == truth
    # A stranger replaying the signed transcript up to the end-of-game ``open`` has every
    # sealed opening verified and R kept, and no card opened.
    observer = _observer_before_open(peers[1])
    assert observer.status is Status.RUNNING and observer.blame is None
    assert set(observer.record.sealed) == {r.index for r in hostile_shows}
    assert observer.record.opened == {}
    # The audit of every seat's transcript agrees: valid, the same result, nobody blamed.
    verdicts = set()
    for p in peers:
        raw = p.transcript().to_bytes()
        verdict = audit(parse(raw), raw)
        assert verdict.valid and verdict.blamed is None and verdict.violation is None
        verdicts.add((verdict.result, verdict.winner))
    assert len(verdicts) == 1


def test_the_hostile_suggester_really_complains_about_delivered_openings() -> None:
    """The attack is really made: each show to the hostile seat had its private opening
    delivered, and still ends in a complaint (which the old wire answered in public)."""
    peers, _ = play_complaining(seed=5)
    hostile_shows = [rec for rec in peers[1].shows if rec.suggester == HOSTILE]
    types = _types_before_end(peers[1])
    assert hostile_shows and types.count("complain") >= len(hostile_shows)
    hostile = peers[HOSTILE]
    assert isinstance(hostile, ComplainAlways)
    assert {rec.index for rec in hostile_shows} <= hostile.dropped_openings
