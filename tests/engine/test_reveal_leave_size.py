"""Where docs/protocol.md answers what an implementer had to guess about the end-of-game
reveal, a ``leave`` out of place and an entry over the size limit: signed bad bytes from a
seat, the check, index and culprit the engine finds (nobody honest blamed), and the
verdict of the checker written from the spec alone (``cleanroom_checker``) agreeing with
``p2pclue audit``."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from p2pclue.crypto import proofs as P
from p2pclue.crypto.holdnone import prove_none_unchecked
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine import events as ev
from p2pclue.engine.peer import Peer, Status
from p2pclue.engine.reveal_checks import reveal_contradiction
from p2pclue.engine.stage import proof_context
from p2pclue.engine.transcript import Footer, Transcript
from p2pclue.engine.wire import MAX_ENTRY_BYTES, Header, read_payload, sign_frame, split_frame
from tests.engine.conftest import finished_game
from tests.engine.test_cleanroom import judged_alike

Typed = list[tuple[Header, dict[str, Any]]]


def _typed(entries: list[bytes]) -> Typed:
    return [read_payload(split_frame(raw)[1]) for raw in entries]


def _replay(peers: list[Peer], entries: list[bytes], extra: bytes | None = None) -> Peer:
    """An observer fed ``entries`` then ``extra``: what every honest peer and the audit do."""
    watcher = Peer(peers[0].config, None, relay=False)
    for raw in entries:
        watcher.receive(raw, 0.0)
    if extra is not None:
        watcher.receive(extra, 0.0)
    return watcher


def _signed(peers: list[Peer], entries: list[bytes], seat: int, kind: str,
            body: dict[str, Any]) -> bytes:
    """``seat``'s next message after ``entries`` (its next ``seq``, the head as ``prev``)."""
    import hashlib
    key = peers[seat]._identity
    assert key is not None
    seq = sum(1 for h, _ in _typed(entries) if h.sender == seat)
    header = Header(peers[0].config.digest(), seat, seq, hashlib.sha256(entries[-1]).digest(),
                    kind)
    return sign_frame(key, header, body)


# --- a leave out of place ("Leaving the table") -------------------------------------------

def _leave_cases() -> dict[str, tuple[int, int]]:
    """name -> (entries kept, seat that signs the leave) in the shared 3-seat game."""
    game = finished_game(3, "classic", 1)
    typed = _typed(game.peers[0].entries)
    kinds = [h.type for h, _ in typed]
    show = kinds.index("show")
    suggester = typed[show - 1][0].sender if kinds[show - 1] == "suggest" else next(
        typed[i][0].sender for i in range(show, -1, -1) if kinds[i] == "suggest")
    roll = kinds.index("roll")
    first_open = kinds.index("open")
    turn_seat = typed[roll][0].sender
    return {
        "the suggester while it owes ack or complain": (show + 1, suggester),
        "the seat that owes its reveal in a dice round": (roll + 1, typed[roll + 1][0].sender),
        "a seat whose turn it is not": (roll, (turn_seat + 1) % 3),
        "the seat that owes its open": (first_open, typed[first_open][0].sender),
        "the seat that owes its secrets": (kinds.index("secrets"),
                                           typed[kinds.index("secrets")][0].sender),
    }


@pytest.mark.parametrize("case", sorted(_leave_cases()))
def test_a_leave_out_of_place_is_turn_on_its_signer_before_its_body_is_read(
        case: str, tmp_path: Path) -> None:
    game = finished_game(3, "classic", 1)
    kept, seat = _leave_cases()[case]
    entries = game.peers[0].entries[:kept]
    bad = _signed(game.peers, entries, seat, "leave", {})  # not even a leave body
    watcher = _replay(game.peers, entries, bad)
    assert watcher.blame is not None
    assert (watcher.blame.check, watcher.blame.culprit, watcher.blame.index) == \
        ("turn", seat, kept)
    assert watcher.blame.evidence == (bad,)
    judged_alike(watcher.transcript().to_bytes(), tmp_path,
                 {"valid": False, "result": "halted", "blamed": seat, "check": "turn"})


def test_a_leave_in_place_with_a_bad_body_is_message(tmp_path: Path) -> None:
    """At the start of its turn a seat may leave; then the body is read (`message`)."""
    game = finished_game(3, "classic", 1)
    typed = _typed(game.peers[0].entries)
    roll = [h.type for h, _ in typed].index("roll")
    seat = typed[roll][0].sender
    entries = game.peers[0].entries[:roll]
    watcher = _replay(game.peers, entries, _signed(game.peers, entries, seat, "leave", {}))
    assert watcher.blame is not None
    assert (watcher.blame.check, watcher.blame.culprit, watcher.blame.index) == \
        ("message", seat, roll)


# --- an entry over 32 KiB ("Frames", rule 2) ------------------------------------------------

def _oversize(peers: list[Peer], entries: list[bytes], seat: int, kind: str,
              body: dict[str, Any]) -> bytes:
    padded = dict(body, pad=[bytes(64)] * 600)  # signed by the seat, past the entry limit
    raw = _signed(peers, entries, seat, kind, padded)
    assert MAX_ENTRY_BYTES < len(raw) < 256 * 1024
    return raw


def test_an_open_over_the_entry_limit_is_dropped_unblamed_and_the_seat_still_owes() -> None:
    game = finished_game(3, "classic", 1)
    entries = game.peers[0].entries
    typed = _typed(entries)
    at = next(i for i, (h, b) in enumerate(typed) if h.type == "open" and b["openings"])
    header, body = typed[at]
    big = _oversize(game.peers, entries[:at], header.sender, "open", body)
    watcher = _replay(game.peers, entries[:at], big)
    assert watcher.blame is None and watcher.dropped_count == 1
    assert watcher.expected_seat() == header.sender  # still owed: silence, not blame
    for raw in entries[at:]:
        watcher.receive(raw, 0.0)
    assert watcher.status is Status.COMPLETE and watcher.entries == entries


def test_an_entry_over_the_limit_in_a_file_is_not_chained_and_blames_nobody(
        tmp_path: Path) -> None:
    game = finished_game(3, "classic", 1)
    peer = game.peers[0]
    entries = peer.entries
    typed = _typed(entries)
    at = [h.type for h, _ in typed].index("open")
    big = _oversize(game.peers, entries[:at], typed[at][0].sender, "open", typed[at][1])
    inside = Transcript(peer.config, (*entries[:at], big), Footer("abandoned", at + 1))
    judged_alike(inside.to_bytes(), tmp_path,
                 {"valid": False, "result": "invalid", "blamed": None, "check": "chain"})
    from p2pclue.engine.errors import Blame
    record = Blame(typed[at][0].sender, "message", "", at, (big,))
    as_evidence = Transcript(peer.config, tuple(entries[:at]), Footer("halted", at, record))
    judged_alike(as_evidence.to_bytes(), tmp_path,
                 {"valid": False, "result": "invalid", "blamed": None, "check": "false-blame"})


def test_a_seat_whose_own_message_comes_out_over_the_limit_sends_nothing_and_falls_silent(
        ) -> None:
    """Honest entries stay under the limit (the end-of-game openings are split over entries
    of at most 48: ``test_open_parts.py``); a message that comes out over it anyway is not
    signed and sent as a frame every peer would drop: its sender stops, and the table sees it
    silent (no loop building it again, no junk on its links)."""
    from tests.engine.leave_games import make_peers
    peers, net = make_peers(3, "classic", 1)
    for peer in peers:
        peer.start(net.now)
    while net.step():
        pass  # the set-up runs by itself up to the first turn's choice
    seat = peers[0].expected_seat()
    assert seat is not None
    fresh = peers[seat]
    at = len(fresh.entries)
    assert fresh.choice() is not None and fresh.unsendable is None
    me = fresh._player
    assert me is not None
    fresh._emit(me, "end_turn", {"pad": [bytes(64)] * 600})
    assert fresh.unsendable == "end_turn" and fresh.frames_to_send() == []
    assert len(fresh.entries) == at and fresh.blame is None and fresh.dropped_count == 0
    assert fresh.choice() is None  # the player is offered nothing more
    for peer in peers:  # the others see the seat silent at its deadline, nobody blamed
        if peer is not fresh:
            assert any(isinstance(e, ev.PeerSilent) and e.seat == seat
                       for e in peer.on_timeout(1e9))
            assert peer.blame is None


# --- the end-of-game reveal ("The end-of-game reveal") --------------------------------------

@cache
def _leaver_game() -> tuple[list[Peer], list[bytes], int]:
    """A 3-seat game where seat 1 shows seat 0 a card (entry 63), seat 0 then leaves, and
    the game ends with every reveal: (peers, entries, the show's index)."""
    from tests.engine.leave_games import play_with_leave
    game = play_with_leave(3, "classic", 1, leaver=0, after_turn=8)
    peer = game.peers[1]
    assert peer.status is Status.COMPLETE
    show = next(r for r in peer.shows if r.suggester == 0 and r.refuter == 1)
    return game.peers, list(peer.entries), show.index


def _rechained(peers: list[Peer], entries: list[bytes], at: int, frame: bytes) -> list[bytes]:
    """``entries`` with ``frame`` at ``at`` and every later entry re-signed by its own seat
    on the new chain (the proofs name indexes, not hashes: they stay valid)."""
    import hashlib
    out = [*entries[:at], frame]
    for raw in entries[at + 1:]:
        header, body = read_payload(split_frame(raw)[1])
        key = peers[header.sender]._identity
        assert key is not None
        out.append(sign_frame(key, replace(header, prev=hashlib.sha256(out[-1]).digest()), body))
    return out


def test_a_show_to_a_leaver_whose_derived_rho_opens_no_card_is_blamed_at_the_refuters_secrets(
        tmp_path: Path) -> None:
    """Seat 1 commits its show to the (future) leaver with a rho of its own choosing, not
    the one its key derives: every proof verifies, the leaver acks, nobody opens that show
    in ``open``; seat 1's ``secrets`` then derive a rho that opens no named card."""
    peers, entries, at = _leaver_game()
    header, _ = read_payload(split_frame(entries[at])[1])
    refuter = peers[1]
    me = refuter._player
    assert me is not None and header.sender == 1
    watcher = _replay(peers, entries[:at + 1])
    show = watcher.shows[-1]
    assert show.index == at
    triple = show.triple
    ctx = proof_context(watcher.game_id or b"", at, 1, "show")
    honest = P.find_opening(triple, watcher.Y[0], show.commitment,
                            P.show_rho(me.secrets.key(), ctx))
    assert honest is not None
    c, proof, _ = P.prove_commit_show(
        ctx, triple, watcher.record.hand_points(1), me.secrets.hand_key(), watcher.S[1],
        me.dealt.index(honest.card), honest.card, watcher.Y[0], SeededRandom(b"cheat"),
        P.show_rho(me.secrets.key(), proof_context(b"another game", at, 1, "show")))
    assert refuter._identity is not None
    cheat = sign_frame(refuter._identity, header, {"C": bytes(c), "proof": proof.to_wire()})
    forged = _rechained(peers, entries, at, cheat)
    secrets_at = next(i for i, (h, _) in enumerate(_typed(forged))
                      if h.type == "secrets" and h.sender == 1)
    watcher = _replay(peers, forged)
    assert watcher.blame is not None
    assert (watcher.blame.check, watcher.blame.culprit, watcher.blame.index) == \
        ("secrets", 1, secrets_at)
    assert len(watcher.entries) == secrets_at  # everything before it verified
    full = Transcript(peers[1].config, tuple(forged), Footer("complete", len(forged)))
    judged_alike(full.to_bytes(), tmp_path,
                 {"valid": False, "result": "halted", "blamed": 1, "check": "secrets"})
    # the honest game: the same check passes, and the audit and the checker say valid
    honest_file = Transcript(peers[1].config, tuple(entries), Footer("complete", len(entries)))
    judged_alike(honest_file.to_bytes(), tmp_path, {"valid": True})


def test_a_pass_while_holding_a_named_card_is_refused_at_the_pass() -> None:
    """The lie a reveal would expose never gets that far: ``none`` proven from the witness
    of a hand that holds a named card fails (proof 5), blamed on the passer at the pass."""
    game = finished_game(3, "classic", 1)
    entries = game.peers[0].entries
    typed = _typed(entries)
    at = next(i for i, (h, _) in enumerate(typed) if h.type == "show")
    seat = typed[at][0].sender
    watcher = _replay(game.peers, entries[:at])
    s = watcher.rules_state
    assert s is not None and s.pending_suggestion is not None
    triple = (s.pending_suggestion.suspect, s.pending_suggestion.weapon,
              s.pending_suggestion.room)
    me = game.peers[seat]._player
    assert me is not None and set(me.hand) & set(triple)
    proof = prove_none_unchecked(proof_context(watcher.game_id or b"", at, seat, "pass"), triple,
                         watcher.record.hand_points(seat), me.secrets.hand_key(),
                         watcher.S[seat], SeededRandom(b"liar"))
    watcher.receive(_signed(game.peers, entries[:at], seat, "pass",
                            {"proof": proof.to_wire()}), 0.0)
    assert watcher.blame is not None
    assert (watcher.blame.check, watcher.blame.culprit, watcher.blame.index) == \
        ("proof:none", seat, at)


def _complete_record() -> tuple[Peer, list[tuple[tuple[int, int, int], bool]]]:
    from p2pclue.engine import events as ev
    game = finished_game(3, "classic", 1)
    watcher = Peer(game.peers[0].config, None, relay=False)
    events: list[ev.Event] = []
    for raw in game.peers[0].entries:
        events += watcher.receive(raw, 0.0)
    assert watcher.status is Status.COMPLETE
    return watcher, [(e.triple, e.correct) for e in events if isinstance(e, ev.AccusationDecided)]


def test_the_whole_reveal_check_holds_for_a_real_game_and_fails_on_each_contradiction() -> None:
    """No signed message can make these fail (each is caught at its own proof first), so
    the check that the audit makes after the last entry is shown failing on a copy of the
    public record with one fact changed, as a verifier with a broken proof would see it."""
    watcher, verdicts = _complete_record()
    record = watcher.record
    assert reveal_contradiction(record, verdicts) is None
    assert verdicts  # two wrong accusations (the last seat standing won, R29)
    mine = [p for p, o in enumerate(record.owners) if o == 0]
    saved = list(record.positions)
    record.positions[mine[0]] = record.S[0]  # a point that is no card under seat 0's key
    assert "decrypts to no card" in (reveal_contradiction(record, verdicts) or "")
    record.positions[:] = saved
    record.positions[mine[0]] = saved[mine[1]]  # one card twice, another missing
    assert "not the 21 cards" in (reveal_contradiction(record, verdicts) or "")
    record.positions[:] = saved
    flipped = [(t, not right) for t, right in verdicts]
    assert "against the envelope" in (reveal_contradiction(record, flipped) or "")


# --- decoding before the counts ("Stages and messages", body decoding) ----------------------

def _resigned(kind: str, change: dict[str, Any]) -> tuple[str, int, int] | None:
    """The first ``kind`` entry of the shared game, re-signed by its seat with ``change``
    applied to its body: (check, culprit, index) of the halt, or None."""
    game = finished_game(3, "classic", 1)
    entries = game.peers[0].entries
    typed = _typed(entries)
    at = next(i for i, (h, b) in enumerate(typed) if h.type == kind
              and (kind != "open" or b["openings"]))
    header, body = typed[at]
    key = game.peers[header.sender]._identity
    assert key is not None
    watcher = _replay(game.peers, entries[:at], sign_frame(key, header, {**body, **change}))
    b = watcher.blame
    return None if b is None else (b.check, b.culprit if b.culprit is not None else -1, b.index)


def test_an_open_decodes_every_field_before_its_point_count_is_weighed() -> None:
    game = finished_game(3, "classic", 1)
    typed = _typed(game.peers[0].entries)
    at, (header, body) = next((i, t) for i, t in enumerate(typed)
                              if t[0].type == "open" and t[1]["openings"])
    two = body["points"][:2]
    assert _resigned("open", {"points": two, "openings": [{"card": 1}]}) == \
        ("proof:opening", header.sender, at)
    assert _resigned("open", {"points": two}) == ("proof:dleq-batch", header.sender, at)


def test_a_leave_decodes_its_proofs_before_its_point_counts_are_weighed() -> None:
    """A leave in place (the seat that starts its turn), its body built for real."""
    from p2pclue.engine.leave import build_leave
    game = finished_game(3, "classic", 1)
    entries = game.peers[0].entries
    typed = _typed(entries)
    at = [h.type for h, _ in typed].index("roll")
    seat = typed[at][0].sender
    watcher = _replay(game.peers, entries[:at])
    me, play = game.peers[seat]._player, watcher.record.play
    assert me is not None and play is not None
    body = build_leave(watcher.record, play, me, at)
    short = dict(body, envelope=body["envelope"][:2])
    for change, check in (({}, None),  # the real leave: accepted
                          ({"envelope_proof": {"c": 1}}, "proof:dleq-batch"),
                          ({"envelope_proof": body["envelope_proof"]}, "leave")):
        watcher = _replay(game.peers, entries[:at],
                          _signed(game.peers, entries[:at], seat, "leave",
                                  body if check is None else {**short, **change}))
        got = None if watcher.blame is None else (watcher.blame.check, watcher.blame.culprit,
                                                  watcher.blame.index)
        assert got == (None if check is None else (check, seat, at)), change


def test_the_clean_room_checker_makes_the_same_whole_reveal_checks() -> None:
    """The checker written from the spec (its own hash-to-group, position tracking and
    decryption) finds the real game's reveal sound, and each changed fact a contradiction."""
    from tests.engine.cleanroom_checker import Receiver
    game = finished_game(3, "classic", 1)
    rx = Receiver(game.peers[0].config.to_wire())
    for raw in game.peers[0].entries:
        assert rx.receive(raw) == "chained"
    g = rx.game
    assert g.stage == "complete" and not g.reveal_contradiction()
    assert g.accusations and len(g.passes) == len(_complete_record()[0].record.passes)
    saved = list(g.positions)
    mine = [p for p in range(18) if g.owner(p) == 0]
    g.positions[mine[0]] = saved[mine[1]]
    assert g.reveal_contradiction()  # a card twice
    g.positions[:] = saved
    g.accusations[0] = (g.accusations[0][0], not g.accusations[0][1])
    assert g.reveal_contradiction()  # a verdict against the envelope



def test_a_leave_from_a_seat_that_left_is_turn(tmp_path: Path) -> None:
    peers, entries, _ = _leaver_game()
    typed = _typed(entries)
    left_at = next(i for i, (h, _) in enumerate(typed) if h.type == "leave")
    assert typed[left_at][0].sender == 0
    kept = left_at + 2
    again = _signed(peers, entries[:kept], 0, "leave", {})
    watcher = _replay(peers, entries[:kept], again)
    assert watcher.blame is not None
    assert (watcher.blame.check, watcher.blame.culprit, watcher.blame.index) == ("turn", 0, kept)
    judged_alike(watcher.transcript().to_bytes(), tmp_path,
                 {"valid": False, "result": "halted", "blamed": 0, "check": "turn"})
