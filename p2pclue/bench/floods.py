"""Bench section "floods": the peak memory of real player processes under every flood.

For each flood a fresh 3-seat table on 127.0.0.1: two ``p2pclue join --bot random``
processes (the opener and one joiner, each with its own keys, links and transcript) and a
third seat played in this process by a random bot whose session also floods the other two
down its authenticated links once the deal is done (``FLOODS``), as fast as its links
take it, for a few seconds; then it stops, and the game must still end. Read from
``/proc/<pid>/status`` (``VmHWM``) every 0.1 s until the process ends: the peak resident
memory of each player process (goal: under 80 MB; not the processes' own ``ru_maxrss``,
which on Linux starts from this process's size when it forked them), what its
junk budget charged and how often it cut a link, and whether anyone was blamed (nobody
may be: the flooder is cut, never blamed, and its honest play goes on).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.bench import Emit
from p2pclue.bench.lan import LOOPBACK, player_env
from p2pclue.bots.registry import BOTS
from p2pclue.engine.wire import SIGNING_PREFIX, Header, pack, sign_frame
from p2pclue.net import links
from p2pclue.net.botplay import drive_bot
from p2pclue.net.mesh import TAG_FRAME, TAG_LOBBY, TAG_SYNC, encode
from p2pclue.net.play import Seat, join_table, table_id
from p2pclue.net.profile import load
from p2pclue.net.session import NetSession

GOAL_MB = 80.0
BIG = 250 * 1024
"""Bytes of the largest messages sent (a link carries at most 256 KiB)."""
QUEUED = 64
"""Messages the flooder keeps queued per link (its own link must not drop them)."""


def _wide(size: int) -> bytes:
    """A msgpack array of ``size`` empty maps: the most objects per byte decoded."""
    return b"\xdd" + size.to_bytes(4, "big") + b"\x80" * size


def _ahead(villain: NetSession, i: int, pad: int) -> bytes:
    """A frame the villain's own key signs for this game, far beyond the hold window."""
    seat = villain.seat
    assert seat is not None
    seq = len(villain.peer.entries) + 1000 + i
    header = Header(villain.config.digest(), seat, seq % 2**32, os.urandom(32), "end_turn")
    chunk = [os.urandom(32)] * 64  # short values in short lists: it decodes strictly
    return sign_frame(villain._mesh.identity, header, {"pad": [chunk] * (pad // 2200)})


def _bad_signature(villain: NetSession, i: int) -> bytes:
    seat = villain.seat
    assert seat is not None
    payload = pack({"body": {"pad": os.urandom(16) + bytes(BIG - 200)}, "from": seat,
                    "game": villain.config.digest(), "prev": bytes(32), "seq": i,
                    "type": "end_turn", "v": 1})
    return pack([seat, payload, os.urandom(64)])


def _wide_signed(villain: NetSession, i: int) -> bytes:
    """A payload of empty maps the seat really signed (it decodes, then fails)."""
    seat = villain.seat
    assert seat is not None
    payload = _wide(BIG - 240) + i.to_bytes(8, "big")
    return pack([seat, payload, villain._mesh.identity.sign(SIGNING_PREFIX + payload)])


Maker = Callable[[NetSession, int], bytes]
FLOODS: dict[str, tuple[str, Maker | None]] = {
    "none": ("no flood (reference)", None),
    "bad-signature": ("250 KiB frames with a broken signature",
                      lambda v, i: encode(TAG_FRAME, _bad_signature(v, i))),
    "ahead": ("frames the seat signed for this game far beyond the hold window (250 KiB "
              "and 20 KiB)",
              lambda v, i: encode(TAG_FRAME, _ahead(v, i, BIG - 400 if i % 2 else 20_000))),
    "wide": ("250 KiB frames of 256 000 empty maps", lambda v, i: encode(TAG_FRAME,
                                                                          _wide_signed(v, i))),
    "lobby": ("lobby messages during play: 64 KiB of empty maps, and hellos",
              lambda v, i: bytes([TAG_LOBBY]) + _wide(64 * 1024 - 8) if i % 2 else
              encode(TAG_LOBBY, {"t": "hello", "role": "spectator", "name": "x"})),
    "sync": ("sync messages: 64 KiB of empty maps, and have from 0",
             lambda v, i: bytes([TAG_SYNC]) + _wide(64 * 1024 - 8) if i % 2 else
             encode(TAG_SYNC, {"t": "have", "n": 0, "name": "x", "role": "player"})),
    "stranger": ("a stranger's link (no seat): 250 KiB frames, lobby and sync messages", None),
}


def _status_kb(pid: int, field: str) -> int:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


async def _port(proc: asyncio.subprocess.Process) -> int:
    assert proc.stderr is not None
    async with asyncio.timeout(60):
        while line := (await proc.stderr.readline()).decode():
            m = re.search(r"open at [\d.]+:(\d+)", line)
            if m:
                return int(m.group(1))
    raise RuntimeError("the opener did not say where it listens")


async def _drain(stream: asyncio.StreamReader | None, sink: list[str]) -> None:
    if stream is not None:
        while line := await stream.readline():
            sink.append(line.decode())


async def _send_paced(villain: NetSession, ident: bytes, data: bytes, until: float) -> bool:
    """Queue ``data`` for ``ident`` once its link has room; False if there is no link."""
    links_now = villain._mesh._links
    handle = links_now.get(ident)
    while handle is not None and handle.outbox.qsize() > QUEUED and time.monotonic() < until:
        await asyncio.sleep(0.001)
        if links_now.get(ident) is not handle:  # cut meanwhile
            handle = None
    if handle is None:
        await asyncio.sleep(0.01)
        return False
    villain._mesh._send_raw(ident, data)
    return True


async def _seat_flood(villain: NetSession, make: Maker, until: float) -> int:
    sent = 0
    targets = [p.identity for p in villain.config.players if p.identity != villain._mesh.public]
    while time.monotonic() < until:
        for ident in targets:
            sent += await _send_paced(villain, ident, make(villain, sent), until)
    return sent


async def _stranger_flood(port: int, table: str, until: float) -> int:
    """A key of no seat links (a --no-code table lets anyone in) and floods; re-links."""
    key = Ed25519PrivateKey.generate()
    junk = [encode(TAG_FRAME, os.urandom(BIG)), bytes([TAG_LOBBY]) + _wide(64 * 1024 - 8),
            bytes([TAG_SYNC]) + _wide(64 * 1024 - 8),
            encode(TAG_SYNC, {"t": "have", "n": 0, "name": "x", "role": "spectator"})]
    sent = 0
    while time.monotonic() < until:
        try:
            link = await links.dial(LOOPBACK, port, identity=key, table_id=table_id(table),
                                    code=None, timeout=2.0)
        except (links.LinkError, OSError, TimeoutError):
            await asyncio.sleep(0.2)
            continue
        try:
            while time.monotonic() < until:  # it never reads: what it asks for piles up
                await link.send(junk[sent % len(junk)])
                sent += 1
        except links.LinkError:
            await asyncio.sleep(0.05)
        finally:
            await link.close()
    return sent


async def _one(home: Path, kind: str, seconds: float) -> dict[str, Any]:
    env = player_env(home)
    table = f"flood-{uuid.uuid4().hex[:6]}"
    timings = [home / "t0.json", home / "t1.json"]
    common = ["--bot", "random", "--bot-think", "0.05", "--json"]
    procs = [await asyncio.create_subprocess_exec(
        sys.executable, "-m", "p2pclue", "join", "--create", "--table", table, "--no-code",
        "--players", "3", "--profile", "p0", "--timing", str(timings[0]), *common, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)]
    outs: list[list[str]] = [[], []]
    drains: list[asyncio.Task[None]] = []
    peaks = [0, 0]
    try:
        port = await _port(procs[0])
        procs.append(await asyncio.create_subprocess_exec(
            sys.executable, "-m", "p2pclue", "join", "--peer", f"{LOOPBACK}:{port}", "--table",
            table, "--profile", "p1", "--timing", str(timings[1]), *common, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE))
        drains = [asyncio.ensure_future(_drain(p.stdout, outs[i])) for i, p in enumerate(procs)]
        drains += [asyncio.ensure_future(_drain(p.stderr, [])) for p in procs[1:]]
        drains.append(asyncio.ensure_future(_drain(procs[0].stderr, [])))
        villain = await join_table(Seat(load("v", {"P2PCLUE_HOME": str(home)}), "Flooder",
                                        interfaces=[LOOPBACK]), table, LOOPBACK, port, None,
                                   on_view=lambda v: None, wait=30.0)
        run = asyncio.ensure_future(villain.run())
        bot = asyncio.ensure_future(drive_bot(villain, BOTS["random"], random.Random(1)))
        async with asyncio.timeout(120):
            while villain.state is None:
                await asyncio.sleep(0.05)

        async def sample() -> None:
            while True:
                for i, p in enumerate(procs):
                    peaks[i] = max(peaks[i], _status_kb(p.pid, "VmHWM"))
                await asyncio.sleep(0.1)

        sampler = asyncio.ensure_future(sample())
        entries_before = len(villain.peer.entries)
        began = time.monotonic()
        until = began + seconds
        make = FLOODS[kind][1]
        sent = 0
        if make is not None:
            sent = await _seat_flood(villain, make, until)
        elif kind == "stranger":
            sent = await _stranger_flood(port, table, until)
        else:
            await asyncio.sleep(seconds)
        entries_during = len(villain.peer.entries) - entries_before
        async with asyncio.timeout(300):
            ended = await bot
            await run
            for p in procs:
                await p.wait()
        sampler.cancel()
        await asyncio.gather(*drains, sampler, return_exceptions=True)
        marks = [json.loads(t.read_text()) for t in timings]
        results = [json.loads(o[-1]) for o in outs]
    finally:
        for p in procs:
            if p.returncode is None:
                p.kill()
                await p.wait()
        for task in drains:
            task.cancel()
    rss = [p / 1024 for p in peaks]
    return {"kind": kind, "sent": sent, "rss_mb": [round(r, 1) for r in rss],
            "junk": [m.get("junk") for m in marks], "cuts": [m.get("junk_cuts") for m in marks],
            "blamed": [r["blamed"] for r in results] + [villain.peer.blame.culprit
                                                         if villain.peer.blame else None],
            "results": [r["result"] for r in results] + [ended.status],
            "same": len({r["transcript_sha256"] for r in results}) == 1,
            "entries_during_flood": entries_during, "took_s": round(time.monotonic() - began, 1)}


def section(emit: Emit, quick: bool) -> dict[str, Any]:
    seconds = 4.0 if quick else 10.0
    emit(f"floods: 3-seat tables on {LOOPBACK}, two `join --bot random` processes; the third "
         f"seat (this process, also a random bot) floods them for {seconds:g} s after the deal")
    rows: list[dict[str, Any]] = []
    for kind, (what, _make) in FLOODS.items():
        with tempfile.TemporaryDirectory(prefix="p2pclue-floods-") as tmp:
            row = asyncio.run(_one(Path(tmp), kind, seconds))
        rows.append(row)
        ok = all(r <= GOAL_MB for r in row["rss_mb"])
        emit(f"  {kind}: {what}: {row['sent']} sent; peak RSS of the player processes "
             f"{' / '.join(f'{r:.1f}' for r in row['rss_mb'])} MB "
             f"({'under' if ok else 'OVER'} {GOAL_MB:.0f}); junk charged {row['junk']}, "
             f"cuts {row['cuts']}; the game went on by {row['entries_during_flood']} entries "
             f"meanwhile; blamed {row['blamed']}; ended {row['results']} in "
             f"{row['took_s']} s, same transcript: {row['same']}")
    worst = max(r for row in rows for r in row["rss_mb"])
    emit(f"  worst peak RSS of a player process under any flood: {worst:.1f} MB "
         f"(goal < {GOAL_MB:.0f} MB)")
    return {"floods": rows, "floods_worst_rss_mb": worst}
