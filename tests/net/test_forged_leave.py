"""A forged ``leave`` sent over the links is blamed on its signer, and only on it.

Three session cores on the in-memory transport (real keys, real cryptography, real
frames; the table's clock). The seat that plays first cheats on its first turn: it builds
its real ``leave`` (hand opened, envelope layer removed, both proven), then changes one
opened card (or swaps two envelope points) so the proof no longer fits, signs the frame
with its own key and sends its bytes down its links, bypassing its own engine (its bot
never answers again). The two honest seats must halt blaming the cheat, never each other,
and their saved transcripts must say so when audited. (The engine-level cases, a leave
out of turn included, are in tests/engine/test_leave.py.)
"""

from __future__ import annotations

import pytest

from p2pclue.crypto.cards import card_point
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.peer import Choice, Peer, Stage, Status
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import Header, sign_frame
from p2pclue.net.actions import End
from p2pclue.net.memory import Member
from p2pclue.net.meta import TAG_FRAME
from tests.net.core_table import CoreTable, make_table, transcript_bytes

TIMEOUT = 600.0
"""A long silence timeout: the table waits for the cheat's step, it does not vote it out."""


def _forged_leave(peer: Peer, corrupt: str) -> bytes:
    """The cheat's leave, built and signed outside its engine; ``corrupt`` "" keeps it true."""
    body = peer._build_leave(len(peer.entries))
    if corrupt == "hand":
        other = 20 if body["hand"][0] != bytes(card_point(20)) else 19
        body["hand"][0] = bytes(card_point(other))
    elif corrupt == "envelope":
        body["envelope"][0], body["envelope"][1] = body["envelope"][1], body["envelope"][0]
    assert peer.seat is not None and peer._identity is not None
    header = Header(peer.config.digest(), peer.seat, len(peer._sent_by[peer.seat]),
                    peer.head, "leave")
    return sign_frame(peer._identity, header, body)


def _attack(corrupt: str) -> tuple[CoreTable, list[Member], int]:
    ct = make_table(3, seed=21, bot="detective", timeout=TIMEOUT)
    first = ct.core(0)
    ct.run(until=lambda: first.peer.stage is Stage.PLAY)
    state = first.state
    assert state is not None and state.awaiting_seat is not None
    cheat = state.awaiting_seat
    honest = [ct.members[s] for s in range(3) if s != cheat]

    def choose(member: Member, choice: Choice) -> ev.Intent | None:
        return None if member.key == ct.key(cheat) else ct.choose(member, choice)

    ct.run(until=lambda: ct.core(cheat).peer.choice() is not None)  # its first turn came
    peer = ct.core(cheat).peer
    assert peer.rules_state is not None and peer.rules_state.awaiting_seat == cheat
    raw = _forged_leave(peer, corrupt)
    for member in honest:  # down both of its links
        ct.table.inject(ct.key(cheat), member.key, TAG_FRAME, raw)
    ct.table.run(choose, until=lambda: all(m.ended is not None for m in honest))
    return ct, honest, cheat


@pytest.mark.parametrize("corrupt", ["hand", "envelope"])
def test_a_forged_leave_over_the_network_is_blamed_on_its_signer(corrupt: str) -> None:
    ct, honest, cheat = _attack(corrupt)
    assert [m.ended for m in honest] == [End("halted"), End("halted")]
    for member in honest:
        assert member.core is not None
        assert member.core.peer.status is Status.HALTED
        blame = member.core.peer.blame
        assert blame is not None and blame.culprit == cheat, blame
        assert blame.check.startswith("proof:"), blame
        data = transcript_bytes(member, ct.start.config)
        verdict = audit(parse(data), data)
        assert verdict.result == "halted" and verdict.blamed == cheat, verdict.violation
        assert verdict.violation is not None and verdict.violation.culprit == cheat


def test_the_same_leave_untouched_is_taken_and_the_game_goes_on() -> None:
    """The control: the very path of the attack, with a true leave, costs nobody anything."""
    ct, honest, cheat = _attack("")
    assert [m.ended for m in honest] == [End("complete"), End("complete")]
    data = transcript_bytes(honest[0], ct.start.config)
    assert transcript_bytes(honest[1], ct.start.config) == data
    verdict = audit(parse(data), data)
    assert verdict.valid and verdict.blamed is None
    assert [e.seat for e in verdict.events if isinstance(e, ev.PlayerLeft)] == [cheat]
