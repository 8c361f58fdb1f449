"""A forged ``leave`` sent over real links is blamed on its signer, and only on it.

Three ``NetSession`` seats on loopback links. Chiara (Miss Scarlett, first to play)
cheats on her first turn: she builds her real ``leave`` (hand opened, envelope layer
removed, both proven), then changes one opened card (or swaps two envelope points) so
the proof no longer fits, signs the frame with her own key and sends its bytes down her
links, bypassing her own engine. Pat and Bruno must halt blaming Chiara, never each
other, and their saved transcripts must say so when audited. (The engine-level cases,
a leave out of turn included, are in tests/engine/test_leave.py.)
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from p2pclue.bots.registry import BOTS
from p2pclue.crypto.cards import card_point
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.peer import Status
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import Header, sign_frame
from p2pclue.net import api
from p2pclue.net.botplay import drive_bot
from p2pclue.net.mesh import TAG_FRAME
from p2pclue.net.session import NetSession
from tests.net.procs import HANG_GUARD
from tests.net.three_seats import Hanging, three_seats


def _forged_leave(cheat: NetSession, corrupt: str) -> bytes:
    """Chiara's leave, built and signed outside her engine; ``corrupt`` "" keeps it true."""
    peer = cheat.peer
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


async def _attack(home: Path, corrupt: str) -> tuple[list[NetSession], int, list[api.Ended]]:
    # a long silence timeout: the table waits for Chiara's step, it does not vote her out
    pat, bruno, chiara = await three_seats(home, first="Chiara", timeout=HANG_GUARD)
    cheat = Hanging(chiara)
    cheat.hang.set()  # her bot stops before its first decision: her first turn
    runs = [asyncio.ensure_future(s.run()) for s in (pat, bruno, chiara)]
    seats: list[api.Session] = [pat, bruno, cheat]
    bots = [asyncio.ensure_future(drive_bot(s, BOTS["detective"], random.Random(k)))
            for k, s in enumerate(seats)]
    try:
        await asyncio.wait_for(cheat.blocked.wait(), HANG_GUARD)  # her first turn came
        state = chiara.state
        assert state is not None and state.awaiting_seat == chiara.seat
        chiara._mesh.broadcast(TAG_FRAME, _forged_leave(chiara, corrupt))
        ended = await asyncio.wait_for(asyncio.gather(bots[0], bots[1]), HANG_GUARD)
    finally:
        for task in bots:
            task.cancel()
        await asyncio.gather(*bots, return_exceptions=True)
        for s in (pat, bruno, chiara):
            await s.close()
        await asyncio.gather(*runs, return_exceptions=True)
    assert chiara.seat is not None
    return [pat, bruno], chiara.seat, list(ended)


@pytest.mark.parametrize("corrupt", ["hand", "envelope"])
def test_a_forged_leave_over_the_network_is_blamed_on_its_signer(
        tmp_path: Path, corrupt: str) -> None:
    honest, cheat, ended = asyncio.run(_attack(tmp_path, corrupt))
    assert [e.status for e in ended] == ["halted", "halted"]
    for s in honest:
        assert s.peer.status is Status.HALTED
        blame = s.peer.blame
        assert blame is not None and blame.culprit == cheat, blame
        assert blame.check.startswith("proof:"), blame
        data = s.transcript_path.read_bytes()
        verdict = audit(parse(data), data)
        assert verdict.result == "halted" and verdict.blamed == cheat, verdict.violation
        assert verdict.violation is not None and verdict.violation.culprit == cheat


def test_the_same_leave_untouched_is_taken_and_the_game_goes_on(tmp_path: Path) -> None:
    """The control: the very path of the attack, with a true leave, costs nobody anything."""
    honest, cheat, ended = asyncio.run(_attack(tmp_path, ""))
    assert [e.status for e in ended] == ["complete", "complete"]
    data = honest[0].transcript_path.read_bytes()
    assert honest[1].transcript_path.read_bytes() == data
    verdict = audit(parse(data), data)
    assert verdict.valid and verdict.blamed is None
    assert [e.seat for e in verdict.events if isinstance(e, ev.PlayerLeft)] == [cheat]
