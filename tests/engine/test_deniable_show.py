"""Deniable refutations through the real engine (issue 22).

A whole game on the in-memory network: the shown card travels only as a private, unsigned
opening to the suggester; the transcript holds a commitment that the suggester can open to
any named card, so nothing it shows a third party pins the card. A lost (or withheld)
opening ends in a public one after a complaint; at the end every opening is published
before any key, and the audit names every shown card.
"""

from __future__ import annotations

from p2pclue.crypto import proofs as P
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.harness import Delivery, Network
from p2pclue.engine.peer import Peer, ShowRecord, Status
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import decode_payload, pack, split_frame, unpack_canonical
from tests.engine.conftest import finished_game
from tests.engine.leave_games import make_peers
from tests.engine.lossy import is_private, lost_openings_game, play_bots


def _types(peer: Peer) -> list[str]:
    out = []
    for raw in peer.entries:
        sender, payload, _ = split_frame(raw)
        out.append(decode_payload(sender, payload)[0].type)
    return out


def _first_acked_show(peers: list[Peer]) -> tuple[ShowRecord, Peer]:
    observer = peers[0]
    for rec in observer.shows:
        suggester = peers[rec.suggester]
        if rec.index in suggester._secrets.acked:
            return rec, suggester
    raise AssertionError("no acknowledged show in this game")


def test_deniability_the_suggester_opens_a_real_show_to_every_named_card() -> None:
    """From a played game: the suggester's private opening, and the openings it forges with
    its key, pass the very same public check; the one it forges for the real card is the
    refuter's opening bit for bit. Nothing in the transcript is signed by the refuter about
    the card, so a third party has nothing else to weigh."""
    game = finished_game()
    rec, suggester = _first_acked_show(game.peers)
    real = game.peers[rec.refuter]._my_opening(rec)  # what the refuter sent privately
    assert real.card == suggester._secrets.acked[rec.index]
    key = suggester._secrets.k
    assert key is not None
    y = game.peers[0].Y[rec.suggester]  # public
    for card in rec.triple:
        forged = P.equivocate(real, key, card)
        assert P.check_opening(rec.triple, y, rec.commitment, forged) == card
        if card == real.card:
            assert forged == real
    # The show entry itself: a commitment and a proof, nothing a decryption could open.
    sender, payload, _ = split_frame(game.peers[0].entries[rec.index])
    header, body = decode_payload(sender, payload)
    assert header.type == "show" and set(body) == {"C", "proof"}


def test_private_openings_travel_unsigned_to_the_suggester_only() -> None:
    peers, _ = make_peers(3, "classic", 5)
    seen: list[tuple[int, int, bytes]] = []

    class Watch(Network):
        def collect(self) -> None:
            before = len(self.queue)
            super().collect()
            seen.extend((d.to, d.via, d.frame) for d in self.queue[before:]
                        if is_private(d.frame))

    watched = Watch(peers)
    play_bots(watched, peers, 5)
    assert all(p.status is Status.COMPLETE for p in peers)
    shows = peers[0].shows
    assert shows and len(seen) == len(shows)
    for (to, via, frame), rec in zip(seen, shows, strict=True):
        assert (to, via) == (rec.suggester, rec.refuter)
        assert len(frame) < 100  # card and rho: no room for a 64-byte signature
    # Fed to anyone else (an observer, or through the wrong link) it is dropped, not used.
    other = next(p for p in peers if p.seat not in (shows[0].suggester, shows[0].refuter))
    before = other.dropped_count
    other.receive(seen[0][2], 0.0, via=None)
    assert other.dropped_count == before + 1 and other.status is Status.COMPLETE


def test_a_lost_opening_ends_in_a_complaint_and_a_sealed_opening_nobody_blamed() -> None:
    peers, net = lost_openings_game(5)
    assert net.lost > 0
    assert all(p.status is Status.COMPLETE and p.blame is None for p in peers)
    types = _types(peers[0])
    assert types.count("complain") == types.count("show") == types.count("sealed") > 0
    assert "ack" not in types and "opening" not in types
    # Each suggester learned its card from the sealed opening; every seat kept R, and the
    # card became public only in the end-of-game ``open``.
    for rec in peers[0].shows:
        card = peers[0].opened[rec.index]
        assert all(p.opened[rec.index] == card and rec.index in p.record.sealed for p in peers)
        assert (rec.refuter, card) in peers[rec.suggester].shown_to_me
        assert all((rec.refuter, card) not in p.shown_to_me
                   for p in peers if p.seat != rec.suggester)
        assert card in peers[rec.refuter].hand and card in rec.triple
    raw = peers[0].transcript().to_bytes()
    verdict = audit(parse(raw), raw)
    assert verdict.valid and verdict.result in ("won", "nobody")


def test_the_audit_names_every_shown_card_only_after_the_end() -> None:
    game = finished_game()
    peers = game.peers
    raw = peers[0].transcript().to_bytes()
    verdict = audit(parse(raw), raw)
    assert verdict.valid and verdict.shown is not None and verdict.hands is not None
    assert [rec.index for rec, _ in verdict.shown] == [rec.index for rec in peers[0].shows]
    for rec, card in verdict.shown:
        assert card in verdict.hands[rec.refuter] and card in rec.triple
        suggester = peers[rec.suggester]
        assert (rec.refuter, card) in suggester.shown_to_me
    # Before the end (the transcript cut before the first open): who refuted, not which card.
    types = _types(peers[0])
    first_open = types.index("open")
    observer = Peer(peers[0].config, None)
    for entry in peers[0].entries[:first_open]:
        observer.receive(entry, 0.0)
    assert len(observer.shows) == len(peers[0].shows)
    assert observer.opened == {}
    assert observer.status is Status.RUNNING


def test_a_resumed_suggester_still_knows_the_cards_it_acknowledged() -> None:
    game = finished_game()
    rec, suggester = _first_acked_show(game.peers)
    secrets = suggester.export_secrets()
    assert dict(secrets.shown) == suggester._secrets.acked
    restored = type(secrets).from_bytes(secrets.to_bytes())
    assert restored.shown == secrets.shown
    cut = rec.index + 2  # the show and its ack
    fresh = Peer(suggester.config, suggester.seat, suggester._identity, suggester._src)
    events = fresh.restore(restored, suggester.entries[:cut], 0.0)
    card = suggester._secrets.acked[rec.index]
    assert ev.CardShownToMe(rec.refuter, card) in events
    assert (rec.refuter, card) in fresh.shown_to_me


def test_a_third_seat_cannot_spoil_a_show_with_a_wrong_private_opening() -> None:
    """Seat T sends the suggester, over its own link and before the refuter's, a wrong
    opening of the refuter's show (to force a complaint, so the card becomes public). The
    engine keys private openings by the link they came on: T's is never the refuter's, so
    the suggester acknowledges the real one and nobody complains."""
    peers, _ = make_peers(3, "classic", 5)
    injected: list[int] = []

    class Meddler(Network):
        def collect(self) -> None:
            before = len(self.queue)
            super().collect()
            for d in list(self.queue[before:]):
                if not is_private(d.frame):
                    continue
                kind, digest, index, wire = unpack_canonical(d.frame)
                third = next(s for s in range(3) if s not in (d.to, d.via))
                wrong = {**wire, "card": (wire["card"] + 1) % 21}
                forged = pack([kind, digest, index, wrong])
                self.queue.insert(self.queue.index(d), Delivery(d.to, forged, third))
                injected.append(index)

    play_bots(Meddler(peers), peers, 5)
    assert injected
    assert all(p.status is Status.COMPLETE and p.blame is None for p in peers)
    types = _types(peers[0])
    assert "complain" not in types and types.count("ack") == types.count("show")
