"""A link partner that floods junk is cut off; nobody is blamed and the game goes on.

Real sessions on 127.0.0.1. One seated player's process (its bot still plays honestly)
also pours junk down its authenticated links: frames with a broken signature, random
bytes, and frames its own key signed for another game. And a stranger who knows the code
links to the host as a spectator and floods junk frames and junk sync messages. Each honest
peer charges what its engine dropped to the link it came on, cuts that link when the budget
is spent, refuses a second offender for a while, and the game still ends with the same
transcript everywhere, valid, with nobody blamed.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Callable
from functools import partial
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import Header, pack, sign_frame, split_frame
from p2pclue.net import api, links
from p2pclue.net.junk import JUNK_BURST
from p2pclue.net.mesh import TAG_FRAME, TAG_SYNC, encode
from p2pclue.net.play import table_id
from p2pclue.net.session import NetSession
from tests.net.procs import HANG_GUARD
from tests.net.test_session import table

CODE = "515151"
FLOOD = int(JUNK_BURST) + 150
"""Junk frames per burst: more than one budget's worth."""


def _junk(villain: NetSession, rng: random.Random, count: int) -> list[bytes]:
    """Bad signatures, random bytes and the villain's own frames of another game, mixed."""
    seat = villain.seat
    assert seat is not None
    real = villain.peer.entries[-1]
    sender, payload, signature = split_frame(real)
    out: list[bytes] = []
    for i in range(count):
        kind = i % 3
        if kind == 0:  # the real frame, one signature byte flipped
            bad = bytearray(signature)
            bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
            out.append(pack([sender, payload, bytes(bad)]))
        elif kind == 1:
            out.append(os.urandom(rng.randrange(1, 400)))
        else:  # really signed by the villain, but for a game that is not this one
            header = Header(os.urandom(32), seat, i, os.urandom(32), "end_turn")
            out.append(sign_frame(villain._mesh.identity, header, {}))
    return out


async def _stranger_floods(host: NetSession, port: int) -> list[str]:
    """A spectator link (a key of no seat, the right code) that floods; what each of its
    three links saw: "cut" (closed after the flood) or "refused" (closed before anything)."""
    stranger = Ed25519PrivateKey.generate()
    seen: list[str] = []
    for _ in range(3):
        try:
            link = await links.dial("127.0.0.1", port, identity=stranger,
                                    table_id=table_id("Kitchen"), code=CODE)
        except links.LinkClosed:  # closed before its handshake even finished on this side
            seen.append("refused")
            continue
        got_first = False
        try:
            async with asyncio.timeout(HANG_GUARD):
                await link.recv()  # its "have", or a frame it relays: we were let in
                got_first = True
                for i in range(FLOOD):  # junk frames, junk sync messages, "have" again
                    junk = [encode(TAG_FRAME, os.urandom(64)),
                            encode(TAG_SYNC, b"\xc1 not msgpack"),
                            encode(TAG_SYNC, {"t": "have", "n": 0, "name": "x",
                                              "role": "spectator"})]
                    await link.send(junk[i % 3])
                while True:  # what the host still sends, until it cuts us
                    await link.recv()
        except links.LinkClosed:
            seen.append("cut" if got_first else "refused")
        finally:
            await link.close()
    return seen


async def _until(done: Callable[[], bool], what: Callable[[], str],
                 seconds: float = HANG_GUARD) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not done():
        if loop.time() > end:
            raise AssertionError(f"not within {seconds} s: {what()}")
        await asyncio.sleep(0.01)


def ended_well(sessions: list[NetSession], ended: list[api.Ended]) -> None:
    """The game ended complete for everyone, with one valid transcript, nobody blamed."""
    assert all(e.status == "complete" and e.audit_ok for e in ended), ended
    files = {s.transcript_path.read_bytes() for s in sessions}
    assert len(files) == 1, "every player has the same transcript"
    verdict = audit(parse(files.pop()))
    assert verdict.valid and verdict.blamed is None and verdict.result in ("won", "nobody")
    assert all(s.peer.blame is None for s in sessions), "nobody is blamed"


def _cuts(honest: list[NetSession], ident: bytes) -> list[int]:
    return [s.junk.cuts(ident) for s in honest]


def _cut_at_least(honest: list[NetSession], ident: bytes, least: int) -> bool:
    return min(_cuts(honest, ident)) >= least


def _cuts_text(honest: list[NetSession], ident: bytes, least: int) -> str:
    return f"both honest players cut the villain {least} times: {_cuts(honest, ident)}"


def test_a_junk_flood_cuts_the_link_blames_nobody_and_the_game_ends(tmp_path: Path) -> None:
    rng = random.Random(7)
    stranger_seen: list[str] = []
    failed: list[BaseException] = []

    async def flood(sessions: list[NetSession]) -> None:
        try:
            await attack(sessions)
        except Exception as exc:  # reported after the game, which must end either way
            failed.append(exc)

    async def attack(sessions: list[NetSession]) -> None:
        host, villain = sessions[0], sessions[1]
        while len(villain.peer.entries) < 12:  # the deal is under way
            await asyncio.sleep(0.01)
        port = host._mesh._listeners[0].port
        stranger = asyncio.ensure_future(_stranger_floods(host, port))  # at the same time
        players = {p.identity for p in villain.config.players} - {villain._mesh.public}
        honest = [s for s in sessions if s is not villain]
        # The bots only start after this hook: meanwhile the game runs its automatic
        # messages (the deal), which the cuts interrupt and the catch-up resumes.
        ident = villain._mesh.public
        for burst in (1, 2):  # after the second cut it is refused for a while
            await _until(lambda: villain._mesh.linked() == players,
                         lambda: f"the villain back on both links, {_cuts(honest, ident)} cuts")
            # Under heavy load a burst once failed to bring both second cuts within 20 s
            # (CI with other jobs): the villain floods again until both honest cut it.
            for tries in range(1, 6):
                for raw in _junk(villain, rng, FLOOD):
                    villain._mesh.broadcast(TAG_FRAME, raw)
                try:
                    await _until(partial(_cut_at_least, honest, ident, burst),
                                 partial(_cuts_text, honest, ident, burst), 10)
                    break
                except AssertionError:
                    if tries == 5:
                        raise
        stranger_seen.extend(await stranger)

    sessions, ended = asyncio.run(table(tmp_path, 3, CODE, during=flood))
    assert not failed, failed
    ended_well(sessions, ended)
    villain = sessions[1].config.players[sessions[1].seat or 0].identity
    honest = [s for i, s in enumerate(sessions) if i != 1]
    for s in sessions:
        assert s.peer.blame is None
    for s in honest:
        assert s.junk.cuts(villain) == 2, "every honest player cut the flooding link twice"
        others = [p.identity for p in s.config.players if p.identity != villain]
        assert all(s.junk.cuts(o) == 0 for o in others), "no honest player was ever cut"
        assert s.peer.dropped_count >= JUNK_BURST
    reasons = {why.split(":")[0].rstrip("0123456789") for _raw, why in sessions[2].peer.dropped}
    assert {"not signed by seat ", "unreadable frame",
            "the frame belongs to another game"} <= reasons, reasons
    assert sessions[1].junk_charged == 0, "honest traffic (catch-up included) is never charged"
    # The stranger: let in and cut, let in again (first offence) and cut, then refused.
    assert stranger_seen == ["cut", "cut", "refused"], stranger_seen
    assert sessions[0].junk_cuts >= 2 + 1
