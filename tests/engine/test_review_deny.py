"""Review of the deniable refutation (issue 22): attacks and failure cases, each through
the real engine and cryptography.

- A suggester that saved the card (its secrets go to disk before the ``ack`` leaves) but
  crashed before the ``ack`` was written must acknowledge after its resume, not complain:
  a complaint would make the honest refuter's card public.
- An opening lost with a link (or with the suggester's crash) is sent again when the link
  to the suggester comes back (``Peer.private_openings_for``, which the runner calls on
  every link-up), so a hiccup does not cost the refuter that card's deniability.
- After the end-of-game reveal the card shown to a seat that left is computable by anybody
  from the refuter's revealed key: the audit must not call it secret.
"""

from __future__ import annotations

from p2pclue.crypto import proofs as P
from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.group import scalar
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.peer import OPENING_WAIT, Peer, ShowRecord, Status
from p2pclue.engine.peer_secrets import PeerSecrets
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import decode_payload, pack, split_frame
from tests.engine.conftest import finished_game
from tests.engine.leave_games import play_with_leave
from tests.engine.lossy import is_private


def _type(raw: bytes) -> str:
    sender, payload, _ = split_frame(raw)
    return decode_payload(sender, payload)[0].type


def _first_acked_show(peers: list[Peer]) -> tuple[ShowRecord, Peer]:
    for rec in peers[0].shows:
        if rec.index in dict(peers[rec.suggester].export_secrets().shown):
            return rec, peers[rec.suggester]
    raise AssertionError("no acknowledged show in this game")


def _fresh(peer: Peer) -> Peer:
    return Peer(peer.config, peer.seat, peer._identity, peer._src)


def test_a_suggester_resumed_between_its_saved_card_and_its_ack_acknowledges() -> None:
    """The card is in the suggester's secrets file, the ``ack`` never reached the
    transcript (a crash, or a full disk, between the two writes). Resumed, the suggester
    holds a valid opening already: it acknowledges at once. Before the fix it waited for a
    private opening the refuter never sends again, then complained: the honest refuter's
    card went public."""
    game = finished_game()
    rec, suggester = _first_acked_show(game.peers)
    assert _type(suggester.entries[rec.index + 1]) == "ack"
    secrets = PeerSecrets.from_bytes(suggester.export_secrets().to_bytes())
    fresh = _fresh(suggester)
    fresh.restore(secrets, suggester.entries[:rec.index + 1], 0.0)  # up to the show
    fresh.on_timeout(OPENING_WAIT + 1.0)  # the refuter's opening never comes again
    sent = [_type(raw) for raw, _ in fresh.frames_to_send() if not is_private(raw)]
    assert "complain" not in sent
    assert sent == ["ack"] and fresh.entries[-1] == suggester.entries[rec.index + 1]
    assert (rec.refuter, suggester._secrets.acked[rec.index]) in fresh.shown_to_me
    assert fresh.status is Status.RUNNING and fresh.blame is None


def test_an_opening_lost_with_a_link_is_sent_again_when_the_link_comes_back() -> None:
    """The refuter's private opening is lost (the link to the suggester was down, or the
    suggester crashed before it arrived). When the link is up again the runner asks the
    refuter's peer what it owes that seat privately: the opening again, for the suggester
    alone, so the suggester acknowledges instead of complaining."""
    game = finished_game()
    rec, suggester = _first_acked_show(game.peers)
    refuter = game.peers[rec.refuter]
    secrets = refuter.export_secrets()
    fresh = _fresh(refuter)
    fresh.restore(secrets, refuter.entries[:rec.index + 1], 0.0)
    fresh.frames_to_send()  # the re-send of the restore itself: lost too
    assert fresh.private_openings_for(rec.refuter) == []  # nothing for itself
    others = [s for s in range(fresh.n) if s not in (rec.suggester, rec.refuter)]
    assert all(fresh.private_openings_for(s) == [] for s in others)
    again = fresh.private_openings_for(rec.suggester)
    assert len(again) == 1 and is_private(again[0])
    # The suggester, resumed with nothing of the first opening, takes it and acknowledges.
    s_secrets = suggester.export_secrets()
    s_fresh = _fresh(suggester)
    s_fresh.restore(PeerSecrets(s_secrets.seat, s_secrets.k, s_secrets.r, s_secrets.seeds),
                    suggester.entries[:rec.index + 1], 0.0)
    s_fresh.receive(again[0], 1.0, via=rec.refuter)
    assert [_type(raw) for raw, _ in s_fresh.frames_to_send()] == ["ack"]
    # Once answered, nothing is owed privately any more.
    fresh.receive(suggester.entries[rec.index + 1], 2.0, via=rec.suggester)
    assert fresh.private_openings_for(rec.suggester) == []


def test_a_card_shown_to_a_seat_that_left_is_not_claimed_secret_after_the_reveal() -> None:
    """After ``secrets`` the refuter's k is public, and ``rho = show_rho(k, ctx)``: anybody
    opens the show to the leaver. The audit used to say those cards "stay secret"."""
    game = play_with_leave(4, "classic", 3, leaver=1,
                           when=lambda s, e: s == 1 and isinstance(e, ev.CardShownToMe))
    obs = game.peers[0]
    assert obs.status is Status.COMPLETE and 1 in obs.left_hands
    to_leaver = [rec for rec in obs.shows if rec.suggester == 1]
    assert to_leaver
    for rec in to_leaver:
        assert rec.index not in obs.opened  # never published in an open
        k = obs.revealed_k[rec.refuter]
        rho = P.show_rho(k, ProofContext(obs.game_id or b"", f"{rec.index}:show", rec.refuter))
        opening = P.find_opening(rec.triple, obs.Y[rec.suggester], rec.commitment, rho)
        assert opening is not None
        assert (rec.refuter, opening.card) in game.peers[1].shown_to_me
    raw = obs.transcript().to_bytes()
    verdict = audit(parse(raw), raw)
    assert verdict.valid
    assert not any("stay secret" in note for note in verdict.notes)


def test_private_openings_nobody_awaits_are_dropped_so_the_link_is_charged() -> None:
    """A seat floods another with well-formed private openings (no signature, so they
    cost their sender nothing unless the engine counts them dropped for the runner to
    charge): for shows long chained, or a stream of different ones for shows "not yet
    here". Before, every one was kept silently (dropped count unchanged). A real opening
    still gets through, and its copies are duplicates, not junk; a dropped one keeps no
    bytes (it may hold a card)."""
    game = finished_game()
    rec, suggester = _first_acked_show(game.peers)
    refuter = game.peers[rec.refuter]
    flooder = next(s for s in range(suggester.n) if s not in (rec.suggester, rec.refuter))
    fresh = _fresh(suggester)
    saved = suggester.export_secrets()
    fresh.restore(PeerSecrets(saved.seat, saved.k, saved.r, saved.seeds),
                  suggester.entries[:rec.index], 0.0)  # the show is not here yet
    base = fresh.dropped_count
    real = refuter._private_frame(rec)
    past = [pack(["opening", fresh._config_digest, i, {"card": i % 21,
                                                      "rho": bytes(scalar(i + 1))}])
            for i in range(1, 40)]
    future = [pack(["opening", fresh._config_digest, 10**6 + i,
                    {"card": 3, "rho": bytes(scalar(i + 7))}]) for i in range(40)]
    for raw in past + future:
        fresh.receive(raw, 1.0, via=flooder)
    assert fresh.dropped_count - base >= len(past) + len(future) - 1
    assert all(sample == b"" for sample, _ in list(fresh.dropped)[-8:])
    # The refuter's real opening, early (its show is not here yet), twice: kept, one copy.
    dup = fresh.duplicate_count
    fresh.receive(real, 2.0, via=rec.refuter)
    fresh.receive(real, 2.0, via=rec.refuter)
    assert fresh.duplicate_count == dup + 1
    fresh.receive(suggester.entries[rec.index], 3.0, via=rec.refuter)  # the show
    assert fresh.entries[-1] == suggester.entries[rec.index + 1]  # acknowledged
    assert fresh.status is Status.RUNNING and fresh.blame is None
