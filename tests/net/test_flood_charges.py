"""Floods that cost work are charged to the link that carried them (issue 19, point 4).

Real sessions on 127.0.0.1. A seated player's process (its bot still plays honestly) signs
frames for this very game with sequence numbers far beyond the hold window, and pours
them down its authenticated links; then it sends lobby messages in the middle of play. A
stranger with the code links as a spectator and floods lobby messages. Each honest peer
charges that work to the link it came on and cuts it; nobody is blamed, honest traffic
(catch-up included) is never charged, and the game ends with one valid transcript.
"""

from __future__ import annotations

import asyncio
import os
from functools import partial
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.engine.wire import Header, sign_frame
from p2pclue.net import links
from p2pclue.net.junk import JUNK_BURST
from p2pclue.net.mesh import TAG_FRAME, TAG_LOBBY, encode
from p2pclue.net.play import table_id
from p2pclue.net.session import NetSession
from tests.net.procs import HANG_GUARD
from tests.net.test_junk_flood import _until, ended_well
from tests.net.test_session import table

CODE = "626262"
FLOOD = int(JUNK_BURST) + 150


def _ahead(villain: NetSession, count: int) -> list[bytes]:
    """Frames the villain's own key signs for this game, 1000 numbers past its next one."""
    seat = villain.seat
    assert seat is not None
    game = villain.config.digest()
    return [sign_frame(villain._mesh.identity,
                       Header(game, seat, 1000 + i, os.urandom(32), "end_turn"),
                       {"pad": [os.urandom(32) for _ in range(60)]}) for i in range(count)]


def _lobby_chatter(count: int, hello: bool) -> list[bytes]:
    """Lobby messages in the middle of play: picks, 60 KiB of empty maps, and (``hello``)
    spectators' hellos (the first is answered, with the start: a seat's own chatter leaves
    them out, so that honest answers to it are not counted as its victims' junk)."""
    wide = b"\xdd" + (60_000).to_bytes(4, "big") + b"\x80" * 60_000
    kinds = [encode(TAG_LOBBY, {"t": "pick", "suspect": 3}), bytes([TAG_LOBBY]) + wide]
    if hello:
        kinds.append(encode(TAG_LOBBY, {"t": "hello", "role": "spectator", "name": "x"}))
    return [kinds[i % len(kinds)] for i in range(count)]


async def _send_all(villain: NetSession, messages: list[bytes]) -> None:
    """Down every link of the villain, without overrunning its own queues."""
    for i, data in enumerate(messages):
        for ident in villain._mesh.linked():
            villain._mesh._send_raw(ident, data)
        if i % 50 == 49:
            await asyncio.sleep(0.01)


async def _stranger_chatters(port: int) -> str:
    """A spectator's key with the right code floods lobby messages; "cut" if it is."""
    link = await links.dial("127.0.0.1", port, identity=Ed25519PrivateKey.generate(),
                            table_id=table_id("Kitchen"), code=CODE)
    try:
        async with asyncio.timeout(HANG_GUARD):
            await link.recv()  # let in
            for data in _lobby_chatter(FLOOD, hello=True):
                await link.send(data)
            while True:
                await link.recv()
    except links.LinkClosed:
        return "cut"
    except TimeoutError:
        return "still linked"
    finally:
        await link.close()
    return "unreachable"


def _play_through(tmp_path: Path, floods: list[str]) -> list[str]:
    """A 3-seat game in which seat 1 floods (``"ahead"``: frames far ahead; ``"chatter"``:
    lobby messages; each until both honest players cut it once more) and then
    (``"stranger"``) a stranger chatters; checks the end. Returns what the stranger saw."""
    failed: list[BaseException] = []
    stranger_seen: list[str] = []

    async def flood(sessions: list[NetSession]) -> None:
        task = asyncio.ensure_future(attack(sessions))
        await asyncio.wait([task])
        error = task.exception()
        if error is not None:  # reported after the game, which must end anyway
            failed.append(error)

    async def attack(sessions: list[NetSession]) -> None:
        host, villain = sessions[0], sessions[1]
        honest = [sessions[0], sessions[2]]
        ident = villain._mesh.public
        players = {p.identity for p in villain.config.players} - {ident}

        def cuts() -> list[int]:
            return [s.junk.cuts(ident) for s in honest]

        def cut_at_least(n: int) -> bool:
            return min(cuts()) >= n

        def cut_nobody(kind: str) -> str:
            return f"{kind}: the flooder's cuts are only {cuts()}"

        while len(villain.peer.entries) < 12:  # the deal is under way
            await asyncio.sleep(0.01)
        for n, kind in enumerate(floods, 1):
            await _until(lambda: villain._mesh.linked() == players,
                         lambda: f"the villain on both links after {cuts()} cuts")
            if kind == "ahead":
                await _send_all(villain, [encode(TAG_FRAME, raw)
                                          for raw in _ahead(villain, FLOOD)])
            elif kind == "chatter":
                await _send_all(villain, _lobby_chatter(FLOOD, hello=False))
            else:
                stranger_seen.append(await _stranger_chatters(host._mesh._listeners[0].port))
                continue
            await _until(partial(cut_at_least, n), partial(cut_nobody, kind))

    sessions, ended = asyncio.run(table(tmp_path, 3, CODE, during=flood))
    assert not failed, failed
    ended_well(sessions, ended)
    villain = sessions[1].config.players[1].identity
    cuts = len([f for f in floods if f != "stranger"])
    for s in (sessions[0], sessions[2]):
        assert s.junk.cuts(villain) >= cuts, "each honest player cut the flooder's link"
        others = [p.identity for p in s.config.players if p.identity != villain]
        assert all(s.junk.cuts(o) == 0 for o in others), "no honest player was ever cut"
        assert all(s.junk.charged(o) == 0 for o in others), "nor charged anything"
    honest = [p.identity for p in sessions[1].config.players if p.identity != villain]
    assert all(sessions[1].junk.charged(o) == 0 for o in honest), \
        "honest traffic (catch-up included) is never charged"
    return stranger_seen


def test_a_seats_frames_far_beyond_the_hold_window_are_charged_and_cut(tmp_path: Path) -> None:
    assert _play_through(tmp_path, ["ahead"]) == []


def test_lobby_chatter_during_play_is_charged_and_cut(tmp_path: Path) -> None:
    assert _play_through(tmp_path, ["chatter", "stranger"]) == ["cut"]
