"""The twenty points an independent verifier had to guess (issue 19, point 6), each checked
against the code: the spec's words (quoted or parsed from docs/protocol.md) on one side, the
real engine, rules engine or audit on the other. Frames are forged with the sample games'
seeded identity keys and fed to a replaying observer, exactly as a live peer receives them.
"""

from __future__ import annotations

import dataclasses
import re
import struct
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pclue.bots.protocol import seeded_identity
from p2pclue.crypto.cards import card_point
from p2pclue.engine import events as ev
from p2pclue.engine.audit import Verdict, audit
from p2pclue.engine.errors import Blame, TranscriptError
from p2pclue.engine.peer import Peer, Stage, Status
from p2pclue.engine.transcript import MAGIC, Footer, Transcript, parse
from p2pclue.engine.votes import Vote, sign_vote
from p2pclue.engine.wire import (
    SIGNING_PREFIX,
    Header,
    names_game,
    pack,
    read_payload,
    sha256,
    sign_frame,
    split_frame,
)
from p2pclue.rules import actions as ra
from p2pclue.rules import game as rg
from p2pclue.rules.errors import RuleError
from p2pclue.rules.state import GameState, Phase
from p2pclue.rules.variants import CLASSIC, CZ
from tests.profiles import examples

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "protocol" / "samples"
SEEDS = {"classic-3p": 21, "cz-4p": 23, "halted-bias-dice": 23}
L = 2**252 + 27742317777372353535851937790883648493


@cache
def spec() -> str:
    """docs/protocol.md, read once when a test first needs it."""
    return (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


def flat(text: str) -> str:
    """Spec text with its line breaks undone, so a quoted sentence may span lines."""
    return re.sub(r"\s+", " ", text)


@cache
def flat_spec() -> str:
    return flat(spec())


def says(*phrases: str) -> None:
    for phrase in phrases:
        assert flat(phrase) in flat_spec(), f"docs/protocol.md no longer says: {phrase!r}"


@cache
def load(name: str) -> Transcript:
    return parse((SAMPLES / f"{name}.p2pclue").read_bytes())


def replay(name: str, stop: Callable[[Peer], bool] = lambda p: False,
           skip: int = 0) -> tuple[Peer, int]:
    """An observer fed the sample's entries until ``stop`` holds (after ``skip`` matches)."""
    t = load(name)
    peer = Peer(t.config, None, relay=False)
    for i, raw in enumerate(t.entries):
        if stop(peer):
            if skip == 0:
                return peer, i
            skip -= 1
        peer.receive(raw, float(i))
    return peer, len(t.entries)


def forge(peer: Peer, name: str, seat: int, msg_type: str, body: dict[str, Any], *,
          seq: int | None = None, prev: bytes | None = None, sender: int | None = None) -> bytes:
    """A frame seat ``seat`` signs (its seeded key); by default the next one that fits."""
    header = Header(peer.config.digest(), seat,
                    len(peer._sent_by[seat]) if seq is None else seq,
                    peer.head if prev is None else prev, msg_type)
    raw = sign_frame(seeded_identity(SEEDS[name], seat), header, body)
    if sender is None:
        return raw
    _, payload, signature = split_frame(raw)
    return pack([sender, payload, signature])


def blame_of(peer: Peer, raw: bytes) -> Blame | None:
    peer.receive(raw, 1e6)
    return peer.blame


def audited(t: Transcript) -> Verdict:
    raw = t.to_bytes()
    return audit(parse(raw), raw)


def eliminated_point(peer: Peer) -> bool:
    state = peer.rules_state
    return (peer.stage is Stage.PLAY and state is not None and bool(state.eliminated)
            and state.pending_suggestion is None)


# ---- 1. where R27 sits in the receive order -------------------------------------------------


@pytest.mark.parametrize("where", ["far ahead, prev unknown", "an old seq", "next seq"])
def test_point01_R27_comes_before_the_sequence_rules(where: str) -> None:
    says("3b. R27 comes next, before every sequence and chain rule",
         "whatever its `seq` and `prev` (it is not held, and not compared with earlier messages "
         "for equivocation)")
    peer, _ = replay("cz-4p", eliminated_point)
    state = peer.rules_state
    assert state is not None
    out = state.eliminated[0]
    nxt = len(peer._sent_by[out])
    seq, prev = {"far ahead, prev unknown": (nxt + 5, bytes(32)), "an old seq": (0, None),
                 "next seq": (None, None)}[where]
    raw = forge(peer, "cz-4p", out, "accuse", {"suspect": 0, "weapon": 6, "room": 12},
                seq=seq, prev=prev)
    blame = blame_of(peer, raw)
    assert blame is not None and (blame.culprit, blame.check) == (out, "R27")
    assert blame.evidence == (raw,)


def test_point01_an_out_seats_accuse_in_a_rewritten_envelope_is_dropped() -> None:
    peer, _ = replay("cz-4p", eliminated_point)
    state = peer.rules_state
    assert state is not None
    out = state.eliminated[0]
    other = next(s for s in range(4) if s != out)
    raw = forge(peer, "cz-4p", out, "accuse", {"suspect": 0, "weapon": 6, "room": 12},
                sender=other)
    before = peer.dropped_count
    assert blame_of(peer, raw) is None and peer.dropped_count == before + 1


def test_point01_a_seat_that_left_and_accuses_is_R27() -> None:
    from tests.engine.leave_games import play_with_leave

    game = play_with_leave(4, "classic", 3, leaver=1, after_turn=2)
    entries = game.peers[0].entries
    peer = Peer(game.peers[0].config, None, relay=False)
    for i, raw in enumerate(entries):
        peer.receive(raw, float(i))
        if 1 in peer.left_hands:
            break
    header = Header(peer.config.digest(), 1, len(peer._sent_by[1]), peer.head, "accuse")
    raw = sign_frame(seeded_identity(3, 1), header, {"suspect": 0, "weapon": 6, "room": 12})
    blame = blame_of(peer, raw)
    assert blame is not None and (blame.culprit, blame.check) == (1, "R27")
    assert "left the table" in blame.reason


# ---- 2. the blame reason strings ----------------------------------------------------------


def test_point02_the_reason_is_prose_and_never_compared() -> None:
    says("the audit never compares them", "The `reason` is not compared (it is prose")
    t = load("halted-bias-dice")
    assert t.footer.blame is not None
    honest = audited(t)
    for prose in ("", "any prose at all", "seat 0 cheated (it did not)"):
        blame = dataclasses.replace(t.footer.blame, reason=prose)
        v = audited(dataclasses.replace(t, footer=dataclasses.replace(t.footer, blame=blame)))
        assert (v.valid, v.result, v.blamed) == (False, "halted", 1)
        assert v.violation is not None and v.violation.check == "randomness"
        assert honest.violation is not None and v.violation.reason == honest.violation.reason


# ---- 3. empty evidence lists; 4. blame index vs entry count ---------------------------------


@pytest.mark.parametrize("change", ["no evidence", "index - 1", "index + 1", "index -1"])
def test_point03_04_empty_evidence_or_another_index_is_a_footer_violation(change: str) -> None:
    says("An empty `evidence` list, or an `index` other than the entry count, is readable but "
         "is a `footer` violation with no culprit: result `invalid`.")
    t = load("halted-bias-dice")
    b = t.footer.blame
    assert b is not None and b.index == len(t.entries)
    blame = {"no evidence": dataclasses.replace(b, evidence=()),
             "index - 1": dataclasses.replace(b, index=b.index - 1),
             "index + 1": dataclasses.replace(b, index=b.index + 1),
             "index -1": dataclasses.replace(b, index=-1)}[change]
    v = audited(dataclasses.replace(t, footer=dataclasses.replace(t.footer, blame=blame)))
    assert v.violation is not None and v.violation.check == "footer"
    assert (v.valid, v.result, v.blamed, v.winner) == (False, "invalid", None, None)


# ---- 5. result / blamed / winner of a false-blame verdict ---------------------------------


def _false_blame_rows() -> list[list[str]]:
    start = spec().index("| what the replayed evidence does |")
    rows = spec()[start:].split("\n\n", 1)[0].splitlines()[2:]
    return [[c.strip() for c in row.strip("|").split("|")] for row in rows]


def _sample_verdict(name: str) -> Verdict:
    raw = (SAMPLES / f"{name}.p2pclue").read_bytes()
    return audit(parse(raw), raw)


def test_point05_false_blame_verdicts_are_the_spec_table() -> None:
    rows = _false_blame_rows()
    assert [r[0].split(" ")[:2] for r in rows] == [["makes", "nobody"], ["halts", "with"]]
    nothing, wrong_seat = (_sample_verdict("false-blame-nothing"),
                           _sample_verdict("false-blame-wrong-seat"))
    for row, v, entries in ((rows[0], nothing, len(load("classic-3p").entries)),
                            (rows[1], wrong_seat, len(load("halted-bias-dice").entries))):
        _, valid, result, blamed, winner, violation = row
        assert valid == "false" and not v.valid
        assert result == f"`{v.result}`"
        assert v.violation is not None and v.violation.check == "false-blame"
        assert v.violation.index == entries and "index = entry count" in violation
        if blamed == "null":
            assert v.blamed is None and v.violation.culprit is None and "culprit null" in violation
            assert winner == "null" and v.winner is None  # although seat 0 won classic-3p
        else:
            assert v.blamed == 1 == v.violation.culprit and "culprit = that seat" in violation
    assert audited(load("classic-3p")).winner == 0


def test_point05_a_false_blame_in_a_decided_game_keeps_the_winner() -> None:
    """Second row: the winner stays when the entries had decided the game (a finished game
    whose footer blames the wrong seat for a late second version)."""
    t = load("classic-3p")
    last = t.entries[-1]
    sender, payload, _ = split_frame(last)
    header, body = read_payload(payload)
    twin = sign_frame(seeded_identity(21, sender),
                      Header(header.game, sender, header.seq, bytes(32), header.type), body)
    wrong = (sender + 1) % 3
    blame = Blame(wrong, "equivocation", "prose", len(t.entries), (last, twin))
    v = audited(Transcript(t.config, t.entries, Footer("halted", len(t.entries), blame)))
    assert v.violation is not None and v.violation.check == "false-blame"
    assert (v.result, v.blamed, v.winner) == ("halted", sender, audited(t).winner)
    assert v.winner is not None


# ---- 6. votes past the quorum; 7. `withheld` on invalid verdicts ---------------------------


def _votes(peer: Peer, voters: list[int]) -> list[bytes]:
    silent = peer.expected_seat()
    assert silent is not None
    return [sign_vote(seeded_identity(23, v), Vote(peer.config.digest(), len(peer.entries),
                                                  peer.head, silent, v, "abandon", 1,
                                                  120_000, 120_000))
            for v in voters]


def _own_step(peer: Peer) -> bool:
    return peer.accuser is not None and peer.accuser == peer.expected_seat()


def _other_step(peer: Peer) -> bool:
    """Inside a check, a step owed by a seat other than the accuser (no forfeit there)."""
    return peer.accuser is not None and peer.expected_seat() not in (None, peer.accuser)


def test_point06_votes_past_the_quorum_are_ignored_live() -> None:
    says("every vote that reaches it afterwards, of either choice and from any seat, is "
         "ignored: not counted, not stored")
    peer, _ = replay("cz-4p", _other_step)
    others = [s for s in range(4) if s != peer.expected_seat()]
    votes = _votes(peer, others)
    peer.on_timeout(1e9)
    assert peer.abandon_quorum() == 2
    events = [peer.receive_vote(v, 1e9) for v in votes]
    assert any(isinstance(e, ev.Abandoned) for e in events[1])
    assert events[2] == [] and peer.status is Status.ABANDONED
    assert peer.abandon_votes == tuple(votes[:2])
    assert peer.transcript().footer.votes == tuple(votes[:2])


def test_point06_a_footer_with_votes_past_the_quorum_audits_and_names_the_quorum() -> None:
    says("`forfeit.voters` names the seats whose votes, counted in voter order, reached the "
         "quorum")
    t = load("cz-4p")
    peer, k = replay("cz-4p", _other_step)
    others = [s for s in range(4) if s != peer.expected_seat()]
    votes = tuple(_votes(peer, others))
    v = audited(Transcript(t.config, t.entries[:k], Footer("abandoned", k, None, votes)))
    assert v.valid and v.violation is None and v.forfeit is None
    assert any(f"abandoned by the vote of seats {others}" in n for n in v.notes)
    bad = (*votes[:2], votes[2][:-1] + bytes([votes[2][-1] ^ 1]))
    v = audited(Transcript(t.config, t.entries[:k], Footer("abandoned", k, None, bad)))
    assert v.violation is not None and v.violation.check == "votes"
    # at a forfeit point the quorum is every seat but the accuser: all of them are named
    peer, k = replay("cz-4p", _own_step)
    others = [s for s in range(4) if s != peer.expected_seat()]
    votes = tuple(_votes(peer, others))
    v = audited(Transcript(t.config, t.entries[:k], Footer("abandoned", k, None, votes)))
    assert v.valid and v.forfeit == {"seat": peer.expected_seat(), "voters": others}
    v = audited(Transcript(t.config, t.entries[:k], Footer("abandoned", k, None, votes[:2])))
    assert v.violation is not None and v.violation.check == "votes"


def test_point07_withheld_is_null_in_a_verdict_with_a_violation() -> None:
    says("`withheld` (like `forfeit`) is set only in a verdict without a violation")
    t = load("cz-4p")
    _, k = replay("cz-4p", _own_step)
    cut = t.entries[:k]
    fine = audited(Transcript(t.config, cut, Footer("abandoned", k)))
    assert fine.valid and fine.withheld is not None and fine.withheld["counts_as_wrong"]
    for footer in (Footer("complete", k), Footer("abandoned", k + 1)):
        v = audited(Transcript(t.config, cut, footer))
        assert v.violation is not None and v.result == "invalid"
        assert v.withheld is None and v.forfeit is None


# ---- 8. leave check names and seat order after a leave ------------------------------------


def _awaited_in_play(peer: Peer) -> bool:
    state = peer.rules_state
    return peer.stage is Stage.PLAY and state is not None and state.turn_number >= 2 \
        and state.phase is Phase.AWAIT_TURN_START


def _leave_body(hand: int, env: int, proof: Any = None) -> dict[str, Any]:
    point = bytes(card_point(0))
    proof = {"c": (1).to_bytes(32, "little"), "s": (1).to_bytes(32, "little")} \
        if proof is None else proof
    return {"hand": [point] * hand, "hand_proof": proof, "envelope": [point] * env,
            "envelope_proof": proof}


@pytest.mark.parametrize(("body", "check"), [
    (_leave_body(2, 3), "leave"),
    (_leave_body(6, 2), "leave"),
    (_leave_body(6, 3), "proof:dleq-batch"),
    (_leave_body(6, 3, proof={"c": b"x"}), "proof:dleq-batch"),
    (dict(_leave_body(6, 3), hand=[b"not a point"]), "message"),
])
def test_point08_leave_check_names(body: dict[str, Any], check: str) -> None:
    says("a proof that does not decode is `proof:dleq-batch`")
    assert "proof:dleq_batch" not in spec()  # the field kind, never a check name
    peer, _ = replay("classic-3p", _awaited_in_play)
    seat = peer.expected_seat()
    assert seat is not None and len(peer.record.hand_points(seat)) == 6
    blame = blame_of(peer, forge(peer, "classic-3p", seat, "leave", body))
    assert blame is not None and (blame.culprit, blame.check) == (seat, check)


def test_point08_a_leave_not_awaited_is_turn() -> None:
    peer, _ = replay("classic-3p", _awaited_in_play)
    seat = next(s for s in range(3) if s != peer.expected_seat())
    blame = blame_of(peer, forge(peer, "classic-3p", seat, "leave", _leave_body(6, 3)))
    assert blame is not None and (blame.culprit, blame.check) == (seat, "turn")


def test_point08_rounds_after_a_leave_skip_the_leaver_in_seat_order() -> None:
    says("Every later round skips the seats that left and keeps the others in seat order")
    from tests.engine.leave_games import play_with_leave

    game = play_with_leave(4, "classic", 3, leaver=1, after_turn=2)
    entries = game.peers[0].entries
    kinds = [(split_frame(r)[0], read_payload(split_frame(r)[1])[0].type) for r in entries]
    at = next(i for i, (_, t) in enumerate(kinds) if t == "leave")
    assert kinds[at][0] == 1
    rounds: dict[str, list[int]] = {}
    for seat, t in kinds[at + 1:]:
        if t in ("reveal", "open", "secrets", "pet"):
            rounds.setdefault(t, []).append(seat)
    assert rounds.get("reveal"), "no random round after the leave"
    for t, seats in rounds.items():
        assert 1 not in seats, t
    for t in ("reveal", "open", "secrets"):
        seats = rounds.get(t, [])
        for k in range(0, len(seats), 3):
            assert seats[k:k + 3] == [0, 2, 3], (t, seats)


# ---- 9. which footer shape errors make a file unreadable ------------------------------------


def _with_footer(footer: Any, extra: bytes = b"") -> bytes:
    t = load("halted-bias-dice")
    head = t.to_bytes()
    body = head[:len(head) - len(pack(t.footer.to_wire())) - 4]
    raw = footer if isinstance(footer, bytes) else pack(footer)
    return body + struct.pack(">I", len(raw)) + raw + extra


def _footer_wire() -> dict[str, Any]:
    t = load("halted-bias-dice")
    return t.footer.to_wire()


def _blame_wire(**change: Any) -> dict[str, Any]:
    f = _footer_wire()
    f["blame"] = dict(f["blame"], **change)
    return f


UNREADABLE = {
    "not msgpack": b"\xc1",
    "not a map": [1, 2],
    "a missing key": {"status": "halted", "entries": 20},
    "an unknown key": dict(_footer_wire(), extra=1),
    "unknown status": dict(_footer_wire(), status="won"),
    "negative entries": dict(_footer_wire(), entries=-1),
    "bool entries": dict(_footer_wire(), entries=True),
    "halted without blame": dict(_footer_wire(), blame=None),
    "blame without halted": dict(_footer_wire(), status="abandoned"),
    "votes not abandoned": dict(_footer_wire(), votes=[b"v"]),
    "blame keys": _blame_wire(extra=1),
    "culprit a string": _blame_wire(culprit="1"),
    "index a string": _blame_wire(index="20"),
    "check not a string": _blame_wire(check=3),
    "reason not a string": _blame_wire(reason=None),
    "evidence not bin": _blame_wire(evidence=["x"]),
    "five evidence frames": _blame_wire(evidence=[b"x"] * 5),
    "culprit not a seat": _blame_wire(culprit=3),
}


@pytest.mark.parametrize("case", sorted(UNREADABLE))
def test_point09_footer_shapes_that_make_the_file_unreadable(case: str) -> None:
    says("The complete list of what makes a footer (so the file) unreadable")
    with pytest.raises(TranscriptError):
        parse(_with_footer(UNREADABLE[case]))


def test_point09_stray_bytes_and_non_canonical_footers_are_unreadable() -> None:
    with pytest.raises(TranscriptError):
        parse(_with_footer(_footer_wire(), b"\x00"))
    wire = _footer_wire()
    longer = msgpack.packb(dict(reversed(list(wire.items()))), use_bin_type=True)
    assert longer != pack(wire)
    with pytest.raises(TranscriptError):
        parse(_with_footer(longer))


@pytest.mark.parametrize("blame", [_blame_wire(evidence=[]), _blame_wire(index=-1),
                                   _blame_wire(evidence=[b"not a frame"])])
def test_point09_readable_footers_are_weighed_by_the_audit(blame: dict[str, Any]) -> None:
    raw = _with_footer(blame)
    v = audit(parse(raw), raw)
    assert v.violation is not None and v.violation.check in ("footer", "false-blame")


# ---- 10. the outer sender range -------------------------------------------------------------


def _fresh_play_point() -> Peer:
    peer, _ = replay("classic-3p", _awaited_in_play)
    return peer


@pytest.mark.parametrize("sender", [64, 127])
def test_point10_an_outer_sender_of_64_to_127_is_unreadable(sender: int) -> None:
    says("64-127 (still a positive fixint) or any other value makes the frame unreadable")
    peer = _fresh_play_point()
    seat = peer.expected_seat()
    assert seat is not None
    raw = forge(peer, "classic-3p", seat, "end_turn", {}, sender=sender)
    before = peer.dropped_count
    assert blame_of(peer, raw) is None and peer.dropped_count == before + 1
    assert "unreadable frame" in peer.dropped[-1][1]


def test_point10_an_outer_sender_naming_no_seat_tries_every_key() -> None:
    says("A `sender` in n..63 names no seat")
    peer = _fresh_play_point()
    seat = peer.expected_seat()
    assert seat is not None
    own = forge(peer, "classic-3p", seat, "roll", {}, sender=5)
    before = peer.dropped_count
    assert blame_of(peer, own) is None and peer.dropped_count == before + 1
    # A payload in another seat's name, signed by ``seat``: blamed on the signer.
    header = Header(peer.config.digest(), 5, 0, peer.head, "roll")
    forged = sign_frame(seeded_identity(21, seat), header, {})
    _, payload, sig = split_frame(forged)
    blame = blame_of(peer, pack([5, payload, sig]))
    assert blame is not None and (blame.culprit, blame.check) == (seat, "signature")


# ---- 11. unknown message types ------------------------------------------------------------


@pytest.mark.parametrize("due", [True, False])
def test_point11_an_unknown_type_is_turn(due: bool) -> None:
    says("A `type` string that names no message type at all (`\"hello\"`, `\"\"`) is never "
         "allowed, so it is `turn` too")
    peer = _fresh_play_point()
    seat = peer.expected_seat()
    assert seat is not None
    if not due:
        seat = (seat + 1) % 3
    blame = blame_of(peer, forge(peer, "classic-3p", seat, "hello", {"junk": 1}))
    assert blame is not None and (blame.culprit, blame.check) == (seat, "turn")


def test_point11_an_unknown_type_with_an_unknown_prev_is_held() -> None:
    peer = _fresh_play_point()
    seat = peer.expected_seat()
    assert seat is not None
    assert blame_of(peer, forge(peer, "classic-3p", seat, "hello", {}, prev=bytes(32))) is None
    assert len(peer._held[seat]) == 1


# ---- 12. seq / prev edge cases -----------------------------------------------------------


def test_point12_seq_and_prev_edge_cases() -> None:
    says("Sequence numbers and `prev`, precisely")
    peer = _fresh_play_point()
    seat = peer.expected_seat()
    assert seat is not None
    nxt = len(peer._sent_by[seat])
    # Above the next number, prev = the head: held, not accepted, not blamed.
    ahead = forge(peer, "classic-3p", seat, "roll", {}, seq=nxt + 1)
    assert blame_of(peer, ahead) is None and len(peer._held[seat]) == 1
    # Beyond the hold window: ignored (neither held nor blamed).
    far = forge(peer, "classic-3p", seat, "roll", {}, seq=nxt + 32)
    assert blame_of(peer, far) is None and len(peer._held[seat]) == 1
    # The chain start is not an entry: held like any unknown prev.
    start = forge(peer, "classic-3p", seat, "roll", {},
                  prev=sha256(b"p2pclue/v1/chain-start\x00" + peer.config.digest()))
    assert blame_of(peer, start) is None and len(peer._held[seat]) == 2
    # Another held frame with the same seq and other bytes: equivocation (held first).
    twin = forge(peer, "classic-3p", seat, "passage", {}, seq=nxt + 1)
    blame = blame_of(peer, twin)
    assert blame is not None and blame.check == "equivocation" and blame.evidence == (ahead, twin)


def test_point12_next_seq_on_an_older_entry_is_chain_and_a_held_twin_beats_a_fit() -> None:
    peer = _fresh_play_point()
    seat = peer.expected_seat()
    assert seat is not None
    replayed = forge(peer, "classic-3p", seat, "roll", {}, prev=sha256(peer.entries[-2]))
    blame = blame_of(peer, replayed)
    assert blame is not None and (blame.culprit, blame.check) == (seat, "chain")
    peer = _fresh_play_point()
    held = forge(peer, "classic-3p", seat, "passage", {}, prev=bytes(32))
    fits = forge(peer, "classic-3p", seat, "roll", {})
    assert blame_of(peer, held) is None
    blame = blame_of(peer, fits)
    assert blame is not None and blame.check == "equivocation" and blame.evidence == (held, fits)


# ---- 13. frames after the end -------------------------------------------------------------


def test_point13_after_the_end_only_a_second_version_halts() -> None:
    says("Frames after the end, precisely")
    peer, _ = replay("classic-3p")
    assert peer.status is Status.COMPLETE
    seat = 0
    dropped = peer.dropped_count
    _, payload, sig = split_frame(sign_frame(seeded_identity(21, seat), Header(
        peer.config.digest(), 2, 0, peer.head, "roll"), {}))
    for raw in (
        forge(peer, "classic-3p", seat, "roll", {}),  # a new message
        forge(peer, "classic-3p", seat, "accuse", {"suspect": 0, "weapon": 6, "room": 12}),
        forge(peer, "classic-3p", seat, "roll", {}, sender=1),  # rewritten envelope
        pack([seat, payload, sig]),  # signed by seat 0 in seat 2's name: not `signature` now
    ):
        assert blame_of(peer, raw) is None and peer.status is Status.COMPLETE
    assert peer.dropped_count == dropped + 4
    last = peer.entries[-1]
    sender, payload, _ = split_frame(last)
    header, body = read_payload(payload)
    twin = forge(peer, "classic-3p", sender, header.type, body, seq=header.seq,
                 prev=bytes(32))
    blame = blame_of(peer, twin)
    assert blame is not None and blame.check == "equivocation"
    assert (blame.index, blame.evidence) == (len(peer.entries), (last, twin))


# ---- 14. an equivocating frame inside the entries -----------------------------------------


def test_point14_an_equivocation_inside_the_entries_halts_the_replay_there() -> None:
    says("`protocol/samples/equivocation-inside.p2pclue`")
    raw = (SAMPLES / "equivocation-inside.p2pclue").read_bytes()
    v = audit(parse(raw), raw)
    assert v.violation is not None and (v.violation.index, v.violation.check) == (
        11, "equivocation")
    assert (v.result, v.blamed) == ("halted", 1)


# ---- 15. rule ids of a second roll, a move without a roll, a second suggestion ----------------


def _table_row(action: str) -> list[str]:
    line = next(ln for ln in spec().splitlines() if ln.startswith(f"  | `{action}` |"))
    return [c.strip() for c in line.strip().strip("|").split("|")][1:]


def _start() -> GameState:
    return rg.new_game(CLASSIC, [0, 1, 2], hand_sizes=(6, 6, 6),
                       weapon_rooms={6 + i: 12 + i for i in range(6)})


def _rolled(state: GameState) -> GameState:
    return rg.apply(state, ra.Roll(state.current_seat, (4,)))


def _moved(state: GameState) -> GameState:
    dest = rg.legal_destinations(state)
    path = next(p for sq, p in dest.items() if len(p) == state.roll)
    return rg.apply(state, ra.Move(state.current_seat, path))


def _in_room(state: GameState, room: int) -> GameState:
    """The current player's movement just ended in ``room`` (entered by a door)."""
    tokens = list(state.tokens)
    tokens[state.seats[state.current_seat]] = room
    return dataclasses.replace(state, tokens=tuple(tokens), phase=Phase.AWAIT_SUGGESTION_OR_END,
                               entered_room=room, entry_allows_suggestion=True, roll=None)


def _suggest_all_pass(state: GameState, suspect: int, weapon: int) -> GameState:
    state = rg.apply(state, ra.Suggest(state.current_seat, suspect, weapon))
    while state.pending_suggestion is not None:
        state = rg.apply(state, ra.CannotRefute(state.awaiting_seat))  # type: ignore[arg-type]
    return state


def _rule(state: GameState, action: ra.Action) -> str:
    try:
        rg.apply(state, action)
    except RuleError as exc:
        return f"`{exc.rule}`"
    return "legal"


def test_point15_turn_rule_ids_are_the_spec_table() -> None:
    s0 = _start()
    me = s0.current_seat
    s1 = _rolled(s0)
    s2 = _moved(s1)
    in_room = _in_room(s2, 12)
    suggested = _suggest_all_pass(in_room, 1, 6)
    again = dataclasses.replace(in_room, entry_allows_suggestion=False)
    cases: list[tuple[str, int, GameState, ra.Action, str]] = [
        ("roll", 0, s0, ra.Roll(me, (3,)), "legal"), ("roll", 1, s1, ra.Roll(me, (3,)), "`R11`"),
        ("roll", 2, s2, ra.Roll(me, (3,)), "`R11`"),
        ("move", 0, s0, ra.Move(me, ((5, 7),)), "`R11`"),
        ("move", 2, s2, ra.Move(me, ((5, 7),)), "`R11`"),
        ("passage", 0, s0, ra.TakePassage(me), "`R18`"),
        ("passage", 0, dataclasses.replace(_in_room(s0, 12), phase=Phase.AWAIT_TURN_START),
         ra.TakePassage(me), "legal"),
        ("passage", 1, s1, ra.TakePassage(me), "`R18`"),
        ("passage", 2, s2, ra.TakePassage(me), "`R18`"),
        ("suggest", 0, s0, ra.Suggest(me, 1, 6), "`R19`"),
        ("suggest", 0, dataclasses.replace(_in_room(s0, 12), phase=Phase.AWAIT_TURN_START),
         ra.Suggest(me, 1, 6), "`R23`"),
        ("suggest", 1, s1, ra.Suggest(me, 1, 6), "`R19`"),
        ("suggest", 2, s2, ra.Suggest(me, 1, 6), "`R19`"),
        ("suggest", 2, in_room, ra.Suggest(me, 1, 6), "legal"),
        ("suggest", 2, suggested, ra.Suggest(me, 1, 6), "`R19`"),
        ("suggest", 2, again, ra.Suggest(me, 1, 6), "`R23`"),
        ("accuse", 0, s0, ra.Accuse(me, 1, 6, 12), "legal"),
        ("accuse", 1, s1, ra.Accuse(me, 1, 6, 12), "legal"),
        ("accuse", 2, s2, ra.Accuse(me, 1, 6, 12), "legal"),
        ("end_turn", 0, s0, ra.EndTurn(me), "`R11`"),
        ("end_turn", 1, s1, ra.EndTurn(me), "`R12`"),
        ("end_turn", 2, s2, ra.EndTurn(me), "legal"),
    ]
    for action, column, state, act, expected in cases:
        got = _rule(state, act)
        assert got == expected, (action, column)
        assert expected in _table_row(action)[column], (action, column, expected)
    # CZ: a summoned suggestion refused by summon_restricted, and R24.
    cz = rg.new_game(CZ, [0, 1, 2], hand_sizes=(6, 6, 6), weapon_rooms=None,
                     leftovers=())
    seat = cz.current_seat
    summoned = dataclasses.replace(
        _in_room(cz, 13), phase=Phase.AWAIT_TURN_START,
        summoned=tuple(13 if s == seat else None for s in range(3)),
        suggested_in=tuple((13,) if s == seat else () for s in range(3)))
    assert _rule(summoned, ra.Suggest(seat, 1, 6)) == "`R22`"
    assert "`R22`" in _table_row("suggest")[0]
    in_room_start = dataclasses.replace(_in_room(cz, 13), phase=Phase.AWAIT_TURN_START,
                                        turn_start=13)
    assert _rule(_rolled(in_room_start), ra.EndTurn(seat)) == "`R24`"
    assert "`R24`" in _table_row("end_turn")[1]
    assert _rule(in_room, ra.Suggest(me, 7, 6)) == "`R19`"
    assert _rule(s0, ra.Accuse(me, 7, 6, 12)) == "`R25`"


@pytest.mark.parametrize(("msg_type", "body", "rule"), [
    ("move", {"path": [[5, 7]]}, "R11"),  # a move without a roll
    ("end_turn", {}, "R11"),
])
def test_point15_over_the_wire_the_check_is_the_rule_id(msg_type: str, body: dict[str, Any],
                                                        rule: str) -> None:
    peer = _fresh_play_point()
    seat = peer.expected_seat()
    assert seat is not None
    blame = blame_of(peer, forge(peer, "classic-3p", seat, msg_type, body))
    assert blame is not None and (blame.culprit, blame.check) == (seat, rule)


def test_point15_a_second_roll_over_the_wire_is_R11() -> None:
    peer, _ = replay("classic-3p", lambda p: p.rules_state is not None
                     and p.rules_state.phase is Phase.AWAIT_MOVE and p.stage is Stage.PLAY)
    seat = peer.expected_seat()
    assert seat is not None
    blame = blame_of(peer, forge(peer, "classic-3p", seat, "roll", {}))
    assert blame is not None and (blame.culprit, blame.check) == (seat, "R11")


# ---- 16. whether the path-length check comes first ----------------------------------------


def test_point16_the_length_check_comes_first() -> None:
    says("(1) the length against the roll, for the whole path, before any square is looked at")
    s1 = _rolled(_start())  # roll 4
    me = s1.current_seat
    jumpy = ((0, 0), (9, 9), (3, 3), (20, 20), (1, 1))  # five steps, all bad
    assert _rule(s1, ra.Move(me, jumpy)) == "`R12`"
    assert _rule(s1, ra.Move(me, jumpy[:4])) == "`R13`"
    assert _rule(s1, ra.Move(me, ())) == "`R12`"


@pytest.mark.parametrize(("path", "check"), [
    ([], "message"), ([[5, 7]] * 14, "message"), ([[32, 0]], "message"), ([[30, 0]], "R13"),
])
def test_point16_wire_limits_of_a_path(path: list[list[int]], check: str) -> None:
    says("so an empty path and one of 14 or more squares are `message`, not `R12`")
    peer, _ = replay("classic-3p", lambda p: p.rules_state is not None
                     and p.rules_state.phase is Phase.AWAIT_MOVE and p.stage is Stage.PLAY
                     and (p.rules_state.roll or 0) >= 1)
    seat = peer.expected_seat()
    assert seat is not None
    blame = blame_of(peer, forge(peer, "classic-3p", seat, "move", {"path": path}))
    assert blame is not None and blame.check == check


# ---- 17. weak or duplicate keys in a config ------------------------------------------------


def _file_with_players(change: Callable[[list[dict[str, Any]]], None]) -> bytes:
    t = load("classic-3p")
    wire = t.config.to_wire()
    change(wire["players"])
    header = pack({"config": wire})
    return (MAGIC + struct.pack(">H", 1) + struct.pack(">I", len(header)) + header
            + struct.pack(">I", 0) + struct.pack(">I", len(f := pack(Footer("abandoned", 0)
                                                                     .to_wire()))) + f)


@pytest.mark.parametrize("case", ["duplicate", "identity point", "small order", "non-canonical"])
def test_point17_weak_or_repeated_keys_make_the_file_unreadable(case: str) -> None:
    says("a transcript whose header holds a weak or repeated key is unreadable")
    keys = {
        "identity point": (1).to_bytes(32, "little"),
        "small order": bytes.fromhex(
            "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa"),
        "non-canonical": (2**255 - 19 + 1).to_bytes(32, "little"),
    }

    def change(players: list[dict[str, Any]]) -> None:
        players[1]["identity"] = players[0]["identity"] if case == "duplicate" else keys[case]

    with pytest.raises(TranscriptError):
        parse(_file_with_players(change))
    parse(_file_with_players(lambda p: None))  # the unchanged file is readable


# ---- 18. what "decode leniently" means ---------------------------------------------------


def _nested(depth: int) -> bytes:
    """A map naming the game whose ``x`` value is enclosed by ``depth`` containers in all."""
    return bytes(b"\x82" + msgpack.packb("game") + msgpack.packb(GAME) + msgpack.packb("x")
                 + b"\x91" * (depth - 1) + b"\xc0")


GAME = bytes(range(32))


@pytest.mark.parametrize(("payload", "named"), [
    (msgpack.packb({"v": 1.5, "game": GAME}), True),  # floats, keys out of order
    (msgpack.packb({"game": GAME}) + b"trailing", True),
    (b"\xde\x00\x01" + msgpack.packb("game") + msgpack.packb(GAME), True),  # map16 for 1 entry
    (b"\x82" + msgpack.packb("game") + msgpack.packb(b"x" * 32) + msgpack.packb("game")
     + msgpack.packb(GAME), True),  # a repeated key, one of them matches
    (msgpack.packb({1: 2, "game": GAME}), True),  # a key that is not a string
    (_nested(8), True), (_nested(9), False),  # the depth limit of strict decoding
    (msgpack.packb({"game": GAME.decode("latin-1")}), False),  # str, not bin
    (msgpack.packb({b"game": GAME}, use_bin_type=True), False),  # bin key, not str
    (msgpack.packb([GAME]), False), (msgpack.packb({"game": GAME})[:-1], False),
    (b"\x82" + msgpack.packb("game") + msgpack.packb(GAME) + b"\xa1\xff" + b"\xc0", False),
    (b"\x82" + msgpack.packb("game") + msgpack.packb(GAME) + b"\xa1x" + b"\xd4\x01\x00", False),
], ids=["float, key order", "trailing bytes", "map16", "repeated key", "int key", "depth 8",
        "depth 9", "str value", "bin key", "array", "truncated", "bad utf-8", "ext type"])
def test_point18_decode_leniently(payload: bytes, named: bool) -> None:
    says("*Decoding leniently* means: read the first msgpack object of the payload")
    assert names_game(payload, GAME) is named


def test_point18_the_lenient_vectors() -> None:
    """protocol/vectors/lenient-game-v1.json: the cases an implementation checks itself on."""
    says("`protocol/vectors/lenient-game-v1.json`")
    import json

    doc = json.loads((ROOT / "protocol" / "vectors" / "lenient-game-v1.json").read_text())
    game = bytes.fromhex(doc["game"])
    cases = doc["cases"]
    assert len(cases) >= 20 and {c["names_game"] for c in cases} == {True, False}
    for case in cases:
        assert names_game(bytes.fromhex(case["payload"]), game) is case["names_game"], \
            case["name"]


def test_point18_a_lenient_payload_of_this_game_is_blamed_a_deeper_one_dropped() -> None:
    peer = _fresh_play_point()
    seat = peer.expected_seat()
    assert seat is not None
    key = seeded_identity(21, seat)

    def signed(payload: bytes) -> bytes:
        return pack([seat, payload, key.sign(SIGNING_PREFIX + payload)])

    game = peer.config.digest()
    deep = b"\x82" + msgpack.packb("game") + msgpack.packb(game) + msgpack.packb("x") \
        + b"\x91" * 8 + b"\xc0"
    assert blame_of(peer, signed(deep)) is None and peer.status is Status.RUNNING
    shallow = msgpack.packb({"x": 1.5, "game": game})
    blame = blame_of(peer, signed(shallow))
    assert blame is not None and (blame.culprit, blame.check) == (seat, "message")


# ---- 19. malformed k / r --------------------------------------------------------------------


@pytest.mark.parametrize(("k", "r", "check"), [
    (L.to_bytes(32, "little"), None, "message"),  # not canonical
    (bytes(32), None, "message"),  # zero
    (b"\x01" * 31, None, "message"),  # short
    (None, (L + 1).to_bytes(32, "little"), "message"),
    ((5).to_bytes(32, "little"), None, "secrets"),  # a scalar, but not this seat's k
])
def test_point19_malformed_k_or_r_is_message(k: bytes | None, r: bytes | None,
                                            check: str) -> None:
    says("a malformed one is check `message` (a body field outside any proof)")
    peer, i = replay("classic-3p", lambda p: p.stage is Stage.SECRETS)
    t = load("classic-3p")
    seat = peer.expected_seat()
    assert seat is not None
    honest = read_payload(split_frame(t.entries[i])[1])[1]
    body = {"k": honest["k"] if k is None else k, "r": honest["r"] if r is None else r}
    blame = blame_of(peer, forge(peer, "classic-3p", seat, "secrets", body))
    assert blame is not None and (blame.culprit, blame.check) == (seat, check)


# ---- 20. whether an R22 summon persists ---------------------------------------------------


def _three_seats() -> GameState:
    return rg.new_game(CLASSIC, [0, 1, 2], hand_sizes=(6, 6, 6),
                       weapon_rooms={6 + i: 12 + i for i in range(6)})


def _end(state: GameState) -> GameState:
    return rg.apply(state, ra.EndTurn(state.current_seat))


def test_point20_an_unused_summon_lapses_when_that_turn_ends() -> None:
    says("it lapses when that player's next turn ends, whether it used the right or not")
    s = _suggest_all_pass(_in_room(_three_seats(), 12), 1, 6)  # seat 0 summons seat 1 (Mustard)
    s = _end(s)
    assert s.current_seat == 1 and s.summoned[1] == 12 and rg.can_summoned_suggest(s)
    s = _end(rg.apply(s, ra.Roll(1, (2,))))  # seat 1 rolls and stays in the room (classic)
    assert s.summoned[1] is None
    s = _end(_moved(_rolled(s)))  # seat 2
    s = _end(_moved(_rolled(s)))  # seat 0
    assert s.current_seat == 1 and s.token_of(1) == 12
    assert not rg.can_summoned_suggest(s)
    assert _rule(s, ra.Suggest(1, 0, 6)) == "`R23`"


def test_point20_a_later_summon_replaces_and_naming_in_place_keeps() -> None:
    says("A later suggestion that moves the token again, before that turn, replaces it with "
         "the new room; one that names the suspect where its token already stands changes "
         "nothing")
    s = _three_seats()
    s = _end(_moved(_rolled(s)))  # seat 0's turn passes
    s = _end(_suggest_all_pass(_in_room(s, 12), 0, 6))  # seat 1 summons seat 0 to 12
    assert s.summoned[0] == 12
    s2 = _suggest_all_pass(_in_room(s, 13), 0, 7)  # seat 2 summons seat 0 to 13
    assert s2.summoned[0] == 13
    s3 = _suggest_all_pass(_in_room(s, 12), 0, 7)  # seat 2 names seat 0 where it stands
    assert s3.summoned[0] == 12 and s3.token_of(0) == 12
    s2 = _end(s2)
    assert s2.current_seat == 0 and rg.can_summoned_suggest(s2) and s2.token_of(0) == 13


def test_point20_R12_as_clarified_cz_rolls_one_die() -> None:
    says("| `two_dice` | R12 TWO-DICE vs ONE-DIE | false | false (text C throws one die;")
    assert CZ.two_dice is False and CLASSIC.two_dice is False


def test_point08_the_spec_lists_every_proof_step_the_engine_uses() -> None:
    """The leave's two steps were missing from the list an implementer builds contexts from."""
    text = flat(spec()[spec().index("The step names are exactly:"):])
    listed = set(re.findall(r"`([a-z]+(?::[a-z]+)?)`", text.split(". For example")[0]))
    source = "".join(p.read_text(encoding="utf-8")
                     for p in sorted((ROOT / "p2pclue" / "engine").glob("*.py")))
    used = set(re.findall(r'(?:_ctx|proof_context)\([^)]*?"([a-z:]+)"\)', source))
    used |= {f"envelope:{d}" for d in ("suspects", "weapons", "rooms")}
    used |= set(re.findall(r'_ctx\(len\(self\.entries\), me, "([a-z:]+)"\)', source))
    assert {"leave:hand", "leave:envelope", "accuse", "pass", "show"} <= used
    assert used <= listed, used - listed


def test_point20_R22_a_token_already_in_the_room_gains_nothing() -> None:
    """rules.md R22 as clarified: naming a suspect whose token already stands in the room
    does not move it, so no right; R23 still forbids suggesting there again."""
    says("A token that was already in that room when named is not moved, gains nothing")
    s = _end(_moved(_rolled(_three_seats())))  # seat 0's turn passes
    tokens = list(s.tokens)
    tokens[0] = 12  # seat 0 (Scarlett) already stands in the Kitchen
    s = _suggest_all_pass(_in_room(dataclasses.replace(s, tokens=tuple(tokens)), 12), 0, 6)
    assert s.summoned[0] is None
    s = _end(_moved(_rolled(_end(s))))  # seat 2's turn passes
    assert s.current_seat == 0 and s.token_of(0) == 12 and not rg.can_summoned_suggest(s)
    assert _rule(s, ra.Suggest(0, 1, 6)) == "`R23`"


# ---- clean room: the seq/prev rules as the spec words them, against the engine -------------


def _spec_decision(seq_offset: int, prev: str, due: bool) -> str:
    """What "Sequence numbers and `prev`, precisely" says happens to a fresh frame (no copy
    chained or held) with ``seq`` = next number + ``seq_offset``: the check, "held" or
    "ignored". At this point the due seat owes a turn start, so an `end_turn` is `R11`."""
    if seq_offset < 0:
        return "equivocation"
    if seq_offset == 0 and prev == "head":
        return "R11" if due else "turn"
    if seq_offset == 0 and prev == "older entry":
        return "chain"
    return "held" if seq_offset < 32 else "ignored"


@pytest.mark.parametrize("due", [True, False])
@pytest.mark.parametrize("prev", ["head", "older entry", "unknown", "chain start"])
@pytest.mark.parametrize("seq_offset", [-1, 0, 1, 31, 32])
def test_clean_room_seq_and_prev(seq_offset: int, prev: str, due: bool) -> None:
    peer = _fresh_play_point()
    expected = peer.expected_seat()
    assert expected is not None
    seat = expected if due else (expected + 1) % 3
    nxt = len(peer._sent_by[seat])
    prev_hash = {"head": peer.head, "older entry": sha256(peer.entries[-3]),
                 "unknown": bytes(32),
                 "chain start": sha256(b"p2pclue/v1/chain-start\x00" + peer.config.digest())}
    raw = forge(peer, "classic-3p", seat, "end_turn", {}, seq=nxt + seq_offset,
                prev=prev_hash[prev])
    held_before = len(peer._held.get(seat, []))
    blame = blame_of(peer, raw)
    if blame is not None:
        got = blame.check
        assert blame.culprit == seat
    elif len(peer._held.get(seat, [])) == held_before + 1:
        got = "held"
    else:
        got = "ignored"
        assert peer.status is Status.RUNNING and len(peer.entries) == 24
    assert got == _spec_decision(seq_offset, prev, due)


# ---- clean room: the footer readability list as the spec words it, against ``parse`` -------

_ABSENT = object()
_BLAMES = st.one_of(
    st.none(), st.integers(0, 3),
    st.fixed_dictionaries({
        "culprit": st.sampled_from([None, 0, 2, 3, -1, "1", True]),
        "check": st.sampled_from(["randomness", 3, None]),
        "reason": st.sampled_from(["prose", b"bin", None]),
        "index": st.sampled_from([20, -1, "20", None]),
        "evidence": st.sampled_from([[], [b"x"], [b"x"] * 4, [b"x"] * 5, ["x"], b"x"]),
    }, optional={"extra": st.just(1)}))


def _spec_says_readable(footer: dict[str, Any], n_players: int) -> bool:
    """The list under "Transcript file", item by item."""
    if set(footer) not in ({"status", "entries", "blame"}, {"status", "entries", "blame",
                                                             "votes"}):
        return False
    status, entries, blame = footer["status"], footer["entries"], footer["blame"]
    if status not in ("complete", "halted", "abandoned"):
        return False
    if not isinstance(entries, int) or isinstance(entries, bool) or entries < 0:
        return False
    if (status == "halted") != (blame is not None):
        return False
    if "votes" in footer:
        votes = footer["votes"]
        if status != "abandoned" or not isinstance(votes, list) or not 1 <= len(votes) <= 6 \
                or not all(isinstance(v, bytes) for v in votes):
            return False
    if blame is None:
        return True

    def is_int(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    if not isinstance(blame, dict) or set(blame) != {"culprit", "check", "reason", "index",
                                                     "evidence"}:
        return False
    evidence = blame["evidence"]
    if not (blame["culprit"] is None or is_int(blame["culprit"])) or not is_int(blame["index"]) \
            or not isinstance(blame["check"], str) or not isinstance(blame["reason"], str) \
            or not isinstance(evidence, list) or len(evidence) > 4 \
            or not all(isinstance(e, bytes) for e in evidence):
        return False
    return blame["culprit"] is None or 0 <= blame["culprit"] < n_players


@settings(max_examples=examples(300))
@given(status=st.sampled_from(["complete", "halted", "abandoned", "won", 1]),
       entries=st.sampled_from([0, 20, -1, True, "3"]), blame=_BLAMES,
       votes=st.sampled_from([_ABSENT, [], [b"v"], [b"v"] * 6, [b"v"] * 7, ["x"], 3]))
def test_clean_room_footer_readability(status: Any, entries: Any, blame: Any,
                                       votes: Any) -> None:
    footer: dict[str, Any] = {"status": status, "entries": entries, "blame": blame}
    if votes is not _ABSENT:
        footer["votes"] = votes
    try:
        parse(_with_footer(footer))
        readable = True
    except TranscriptError:
        readable = False
    assert readable is _spec_says_readable(footer, 3), footer


def test_point08_no_leave_while_a_show_awaits_its_answer_or_opening() -> None:
    """"Leaving the table": neither the suggester (owing `ack`/`complain`) nor, after a
    complaint, the refuter (owing `sealed`) may leave then: `turn`."""
    says("nor while a `show` awaits the suggester's `ack` or `complain` or, after a complaint, "
         "the refuter's `sealed` (check `turn`)")
    payloads = [msgpack.unpackb(split_frame(e)[1]) for e in load("classic-3p").entries]
    show = [p["type"] for p in payloads].index("show")
    refuter = payloads[show]["from"]
    peer, _ = replay("classic-3p", lambda p: len(p.transcript().entries) == show + 1)
    suggester = peer.expected_seat()
    assert suggester is not None and suggester != refuter
    blame = blame_of(peer, forge(peer, "classic-3p", suggester, "leave", _leave_body(6, 3)))
    assert blame is not None and (blame.culprit, blame.check) == (suggester, "turn")
    peer, _ = replay("classic-3p", lambda p: len(p.transcript().entries) == show + 1)
    peer.receive(forge(peer, "classic-3p", suggester, "complain", {}), 1e6)
    assert peer.blame is None and peer.expected_seat() == refuter
    blame = blame_of(peer, forge(peer, "classic-3p", refuter, "leave", _leave_body(6, 3)))
    assert blame is not None and (blame.culprit, blame.check) == (refuter, "turn")
