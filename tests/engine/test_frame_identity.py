"""Issue 9: a frame is what its author signed; nothing unsigned costs anybody anything.

Every test here sends real, honestly signed frames that a stranger rewrote in flight
(no key needed) to live peers or to the audit, and checks that nobody is blamed, that
finished games stay finished, and that the audit reaches the live peers' verdict.
"""

from __future__ import annotations

import dataclasses
import random
import struct
from collections.abc import Callable
from typing import Any

import pytest

from p2pclue.bots.protocol import make_config, seeded_identity
from p2pclue.crypto.group import L
from p2pclue.engine.audit import audit
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import Blame
from p2pclue.engine.harness import Network
from p2pclue.engine.peer import Peer, Status
from p2pclue.engine.transcript import Footer, Transcript, parse
from p2pclue.engine.wire import Header, pack, read_payload, sign_frame, split_frame
from p2pclue.rules.variants import CLASSIC
from tests.engine.conftest import finished_game, run

# ---- what a stranger can do to a frame without any key ------------------------------


def outer(sender: bytes, payload: bytes, signature: bytes, head: bytes = b"\x93") -> bytes:
    return head + sender + payload + signature


def _bin32(data: bytes) -> bytes:
    return b"\xc6" + struct.pack(">I", len(data)) + data


def _bin16(data: bytes) -> bytes:
    return b"\xc5" + struct.pack(">H", len(data)) + data


def reencodings(raw: bytes) -> list[bytes]:
    """The same [sender, payload, signature] in other valid msgpack spellings."""
    sender, payload, signature = split_frame(raw)
    canon_sender = pack(sender)
    canon_payload = pack(payload)
    canon_sig = pack(signature)
    return [
        outer(canon_sender, canon_payload, canon_sig, b"\xdc\x00\x03"),  # array16
        outer(canon_sender, canon_payload, canon_sig, b"\xdd\x00\x00\x00\x03"),  # array32
        outer(b"\xcd" + struct.pack(">H", sender), canon_payload, canon_sig),  # uint16
        outer(b"\xcc" + bytes([sender]), canon_payload, canon_sig),  # uint8
        outer(b"\xcf" + struct.pack(">Q", sender), canon_payload, canon_sig),  # uint64
        outer(canon_sender, _bin32(payload), canon_sig),  # bin32 payload
        outer(canon_sender, canon_payload, _bin16(signature)),  # bin16 signature
        outer(b"\xd0" + bytes([sender]), _bin32(payload), _bin32(signature), b"\xdc\x00\x03"),
    ]


def resent(raw: bytes, n: int) -> list[bytes]:
    """The canonical frame with the unsigned outer sender rewritten to every other seat."""
    sender, payload, signature = split_frame(raw)
    return [pack([s, payload, signature]) for s in range(n) if s != sender]


def malleated(raw: bytes) -> bytes:
    """The signature's S + L: the same group element, a second spelling (non-canonical S)."""
    sender, payload, signature = split_frame(raw)
    s = int.from_bytes(signature[32:], "little") + L
    return pack([sender, payload, signature[:32] + s.to_bytes(32, "little")])


def every_rewrite(raw: bytes, n: int) -> list[bytes]:
    return reencodings(raw) + resent(raw, n) + [malleated(raw)]


class Tampering(Network):
    """A LAN where a stranger rewrites every frame in flight and delivers both copies."""

    def __init__(self, peers: list[Peer], rewrite: Callable[[bytes], list[bytes]]) -> None:
        super().__init__(peers)
        self.rewrite = rewrite
        self.tampered = 0

    def collect(self) -> None:
        before = len(self.queue)
        super().collect()
        for d in list(self.queue[before:]):
            if d.frame[:1] == b"\x94":
                continue  # a private opening: it travels only on the authenticated link
            for bad in self.rewrite(d.frame):
                self.queue.append(dataclasses.replace(d, frame=bad))
                self.tampered += 1


def tampered_game(rewrite: Callable[[bytes], list[bytes]], seed: int = 4) -> list[Peer]:
    from p2pclue.bots.protocol import BotSeat
    from p2pclue.bots.random_bot import RandomBot
    from p2pclue.crypto.rand import SeededRandom
    from p2pclue.engine.harness import run_game

    config, keys = make_config(CLASSIC, 3, seed)
    peers = [Peer(config, s, keys[s], SeededRandom(b"tamper/%d" % s)) for s in range(3)]
    seats = [BotSeat(RandomBot(s, random.Random(s), patience=12), 3) for s in range(3)]
    net = Tampering(peers, rewrite)
    run_game(net, lambda peer, choice: seats[peer.seat or 0].choose(peer, choice),
             sink=lambda seat, event: seats[seat].feed(event))
    assert net.tampered > 100
    return peers


def assert_nobody_blamed_and_audit_agrees(peers: list[Peer]) -> None:
    assert [p.status for p in peers] == [Status.COMPLETE] * len(peers)
    assert all(p.blame is None for p in peers)
    raw = peers[0].transcript().to_bytes()
    assert all(p.transcript().to_bytes() == raw for p in peers)
    verdict = audit(parse(raw), raw)
    assert verdict.valid and verdict.blamed is None and verdict.result in ("won", "nobody")


# ---- (a) a re-encoded outer array is not a second message ---------------------------


def test_reencoded_frames_in_flight_blame_nobody() -> None:
    peers = tampered_game(reencodings)
    assert_nobody_blamed_and_audit_agrees(peers)
    assert all(p.dropped_count > 0 for p in peers)


def test_reencoded_frames_after_the_end_leave_the_game_won() -> None:
    game = run(3, "classic", seed=1)
    for peer in game.peers:
        for raw in peer.entries:
            for bad in reencodings(raw):
                peer.receive(bad, 1e6)
    assert_nobody_blamed_and_audit_agrees(game.peers)


# ---- (b) the outer sender is not signed: rewriting it costs its author nothing --------


def test_rewritten_sender_in_flight_blames_nobody() -> None:
    peers = tampered_game(lambda raw: resent(raw, 3))
    assert_nobody_blamed_and_audit_agrees(peers)


def test_rewritten_sender_and_malleated_signature_after_the_end() -> None:
    game = run(3, "classic", seed=1)
    for peer in game.peers:
        for raw in peer.entries:
            for bad in [*resent(raw, 3), malleated(raw)]:
                peer.receive(bad, 1e6)
    assert_nobody_blamed_and_audit_agrees(game.peers)


def test_frames_of_another_seating_replayed_under_any_sender_blame_nobody() -> None:
    """Old game: key K at seat 0. New game: the same people, K at seat 1. Before the fix,
    an old frame under sender 0 verified under K (now seat 1) and K was blamed for forging."""
    old = finished_game(3, "classic", 1)
    players = old.config.players
    swapped = GameConfig((players[1], players[0], players[2]), old.config.rules,
                         bytes(range(32)), old.config.chain_length)
    fresh = Peer(swapped, None, relay=False)
    for raw in old.peers[0].entries:
        for bad in [raw, *resent(raw, 3)]:
            fresh.receive(bad, 0.0)
    assert fresh.status is Status.RUNNING and fresh.blame is None and not fresh.entries


# ---- what is signed still counts, under any outer sender ---------------------------


def test_a_message_signed_in_another_seats_name_blames_its_signer_whatever_the_envelope(
) -> None:
    game = finished_game(3, "classic", 1)
    entries = game.peers[0].entries
    index = 10
    target, payload, _ = split_frame(entries[index])
    header, body = read_payload(payload)
    forger = (target + 1) % 3
    bad = sign_frame(seeded_identity(1, forger), header, body)  # from = target, key = forger
    _, bad_payload, bad_sig = split_frame(bad)
    verdicts = set()
    for claimed in (0, 1, 2, 5, 63):
        observer = Peer(game.config, None, relay=False)
        for i, raw in enumerate(entries[:index]):
            observer.receive(raw, float(i))
        observer.receive(pack([claimed, bad_payload, bad_sig]), float(index))
        assert observer.status is Status.HALTED and observer.blame is not None
        b = observer.blame
        verdicts.add((b.culprit, b.check, b.reason))
        # The audit of that peer's own file reaches the same verdict.
        raw_t = observer.transcript().to_bytes()
        v = audit(parse(raw_t), raw_t)
        assert v.violation is not None
        assert (v.blamed, v.violation.check, v.violation.reason) == (b.culprit, b.check, b.reason)
    assert verdicts == {(forger, "signature",
                         f"seat {forger} signed a message in seat {target}'s name")}


# ---- the audit: canonical entries, and a blame is confirmed only word for word -------


def test_a_transcript_with_a_reencoded_entry_is_invalid_and_blames_nobody() -> None:
    t = finished_game(3, "classic", 1).peers[0].transcript()
    for bad in every_rewrite(t.entries[7], 3):
        entries = list(t.entries)
        entries[7] = bad
        raw = Transcript(t.config, tuple(entries), t.footer).to_bytes()
        v = audit(parse(raw), raw)
        assert not v.valid and v.blamed is None and v.result == "invalid"
        assert v.violation is not None and v.violation.index == 7


def test_the_old_false_equivocation_footer_is_a_false_blame() -> None:
    """What an unfixed peer wrote after a re-encoded copy arrived: the audit must say the
    blame is false, not confirm it."""
    t = finished_game(3, "classic", 1).peers[0].transcript()
    victim = t.entries[-1]
    sender = split_frame(victim)[0]
    for twin in every_rewrite(victim, 3):
        blame = Blame(sender, "equivocation", "two different messages with sequence number 7",
                      len(t.entries), (victim, twin))
        raw = Transcript(t.config, t.entries, Footer("halted", len(t.entries), blame)).to_bytes()
        v = audit(parse(raw), raw)
        assert not v.valid and v.violation is not None
        assert v.violation.check == "false-blame" and v.blamed is None


@pytest.mark.parametrize("field", ["check", "culprit"])
def test_a_footer_whose_check_or_culprit_the_evidence_does_not_show_is_a_false_blame(
    field: str,
) -> None:
    """(The prose ``reason`` is not compared: tests/engine/test_spec_points.py.)"""
    game = run(3, "classic", seed=7, cheat="bad-shuffle", cheater=2, phase="deal")
    t = game.peers[0].transcript()
    assert t.footer.blame is not None and t.footer.blame.check == "proof:shuffle"
    raw = t.to_bytes()
    honest = audit(parse(raw), raw)
    assert honest.violation is not None and honest.violation.check == "proof:shuffle"
    change: dict[str, Any] = {field: "R13" if field == "check" else 0}
    changed = dataclasses.replace(t.footer.blame, **change)
    raw = Transcript(t.config, t.entries, dataclasses.replace(t.footer, blame=changed)).to_bytes()
    v = audit(parse(raw), raw)
    assert not v.valid and v.violation is not None
    assert v.violation.check == "false-blame" and v.blamed == 2  # the evidence still shows 2


def test_a_late_equivocation_is_confirmed_by_the_audit() -> None:
    """A finished peer that halts on a real second version writes a file the audit agrees
    with (it used to call the halted footer of a complete game a footer error)."""
    game = run(3, "classic", seed=1)
    peer = game.peers[0]
    last = peer.entries[-1]
    sender, payload, _ = split_frame(last)
    header, body = read_payload(payload)
    other = Header(header.game, sender, header.seq, bytes(32), header.type)
    peer.receive(sign_frame(seeded_identity(1, sender), other, body), 1e6)
    assert peer.status is Status.HALTED and peer.blame is not None
    raw = peer.transcript().to_bytes()
    v = audit(parse(raw), raw)
    assert v.violation is not None and v.result == "halted"
    assert (v.blamed, v.violation.check) == (sender, "equivocation")


def test_evidence_that_extends_the_chain_does_not_confirm_a_blame() -> None:
    """A file cut one entry early, whose 'evidence' first supplies the missing entry: the
    blame the audit recomputes sits at another index, so the footer's is false."""
    game = run(3, "classic", seed=1)
    peer = game.peers[0]
    last = peer.entries[-1]
    sender, payload, _ = split_frame(last)
    header, body = read_payload(payload)
    other = Header(header.game, sender, header.seq, bytes(32), header.type)
    twin = sign_frame(seeded_identity(1, sender), other, body)
    peer.receive(twin, 1e6)
    t = peer.transcript()
    assert t.footer.blame is not None and t.footer.blame.evidence == (last, twin)
    cut = t.entries[:-1]
    early = dataclasses.replace(t.footer.blame, index=len(cut))
    raw = Transcript(t.config, cut, Footer("halted", len(cut), early)).to_bytes()
    v = audit(parse(raw), raw)
    assert not v.valid and v.violation is not None and v.violation.check == "false-blame"
