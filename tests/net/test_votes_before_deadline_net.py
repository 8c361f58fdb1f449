"""Issue 19.1 over real loopback links: early abandon votes cannot forfeit a live accuser.

Four ``NetSession`` players on 127.0.0.1 (real links, real engine, real cryptography).
Seat 0 accuses right at its first turn (a test-only oracle bot reads every seat's keys to
know the envelope). The check runs 1, 2, 3, then 0. Seats 2 and 3 collude: the moment
seat 3's own step leaves (the accuser now owes its last step) seat 3 sends the honest
seat 1, on the same link right behind that step, two signed abandon votes naming the
accuser: its own and seat 2's (seat 2 signs it in advance; both windows claim the
deadline long past). They reach seat 1 before the accuser's step can.

Before the fix seat 1 counted them at once (2 of 3, a quorum) and closed its game
"abandoned" with the accuser's right accusation forfeited, while the accuser's copy said
"won"; both audited valid. Now seat 1 holds them until its own deadline (seconds away),
the accuser's step arrives first and wins: every copy says the accuser won.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from p2pclue.bots.random_bot import RandomBot
from p2pclue.engine.audit import audit
from p2pclue.engine.peer import Peer, Stage
from p2pclue.engine.transcript import parse
from p2pclue.engine.votes import Vote, sign_vote, window_ms
from p2pclue.net import api
from p2pclue.net.botplay import drive_bot
from p2pclue.net.mesh import TAG_FRAME, TAG_SYNC
from p2pclue.net.play import Seat
from p2pclue.net.profile import load
from p2pclue.net.session import NetSession
from tests.engine.conftest import OracleBot
from tests.net.procs import HANG_GUARD
from tests.net.test_abandon_vote import four_seated

TIMEOUT = 10.0
"""Every player's silence timeout: the honest seat's deadline is this far away."""
ACCUSER, HONEST, COLLUDERS = 0, 1, (2, 3)


def seat(home: Path, name: str) -> Seat:
    return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, interfaces=["127.0.0.1"],
                timeout=TIMEOUT)


async def _table(home: Path) -> list[NetSession]:
    """Four seated sessions, in seat order."""
    sessions = await four_seated(home, seat)
    return sorted(sessions, key=lambda s: s.seat if s.seat is not None else -1)


def _collude(sessions: list[NetSession], sent: list[bytes]) -> None:
    """Seat 3's runner, changed: right behind its own step that leaves the accuser owing
    its last one, it sends the honest seat its own and seat 2's abandon votes."""
    last = sessions[COLLUDERS[1]]
    mesh = last._mesh
    honest = last.config.players[HONEST].identity
    plain_broadcast = mesh.broadcast

    def broadcast(tag: int, body: bytes | dict[str, Any],
                  exclude: set[bytes] | None = None) -> None:
        plain_broadcast(tag, body, exclude)
        peer = last.peer
        if tag != TAG_FRAME or sent or body != peer.entries[-1] \
                or peer.stage is not Stage.PET or peer.expected_seat() != ACCUSER \
                or peer.accuser != ACCUSER:  # only right behind its own step
            return
        for s in COLLUDERS:
            sent.append(_vote(sessions[s].peer, last.peer))
            mesh.send(honest, TAG_SYNC, {"t": "vote", "v": sent[-1]})

    mesh.broadcast = broadcast  # type: ignore[method-assign]


def _vote(voter: Peer, at: Peer) -> bytes:
    """``voter``'s abandon vote about the point ``at`` stands at, its window a lie."""
    assert voter.seat is not None and voter._identity is not None
    lie = window_ms(TIMEOUT) * 10
    return sign_vote(voter._identity, Vote(at.config.digest(), len(at.entries), at.head,
                                           ACCUSER, voter.seat, "abandon", 1,
                                           window_ms(TIMEOUT), lie))


def _bot(sessions: list[NetSession]) -> Any:
    peers = [s.peer for s in sessions]

    def factory(s: int, rng: random.Random) -> RandomBot:
        return OracleBot(s, rng, peers) if s == ACCUSER else RandomBot(s, rng, patience=10**6)

    return factory


async def _play(home: Path) -> tuple[list[NetSession], list[api.Ended], list[bytes]]:
    sessions = await _table(home)
    assert [s.seat for s in sessions] == [0, 1, 2, 3]
    sent: list[bytes] = []
    _collude(sessions, sent)
    runs = [asyncio.ensure_future(s.run()) for s in sessions]
    bots = [asyncio.ensure_future(drive_bot(s, _bot(sessions), random.Random(i)))
            for i, s in enumerate(sessions)]
    ended = await asyncio.wait_for(asyncio.gather(*bots), HANG_GUARD)
    await asyncio.gather(*runs, return_exceptions=True)
    return sessions, list(ended), sent


def test_early_abandon_votes_over_links_lose_to_the_accusers_step(tmp_path: Path) -> None:
    sessions, ended, sent = asyncio.run(_play(tmp_path))
    assert len(sent) == 2, "the colluders never got to vote (no accusation check reached)"
    # both votes fit the point the honest seat stood at (none dropped): held, then lapsed
    assert sessions[HONEST].peer.dropped_count == 0
    assert ended[HONEST].status == "complete", ended[HONEST]
    files = [s.transcript_path.read_bytes() for s in sessions]
    honest = audit(parse(files[HONEST]), files[HONEST])
    assert honest.valid and (honest.result, honest.winner) == ("won", ACCUSER), honest.notes
    assert honest.forfeit is None and honest.blamed is None
    assert files[HONEST] == files[ACCUSER]  # the same story as the accuser's own copy
    accuser = audit(parse(files[ACCUSER]), files[ACCUSER])
    assert (accuser.result, accuser.winner) == ("won", ACCUSER)
