"""Bench section "lan": 3 to 6 player processes on loopback, against the in-process deal.

Each player is its own ``p2pclue join --bot`` process (own keys, links, transcript),
so the deal's verification runs in parallel across processes. Measured for 3, 4, 5
and 6 processes: the signed start to the first turn, next to the same deal with every
peer in this one process (measured in the same run, just before), and the group
multiplications of the deal summed over the processes (each reports its own count at
its first turn; deterministic, unlike the times). For 6 processes also: suggestion to
refutation known by every peer (the show, or the last pass, accepted by all), and to the
suggester's ``ack`` of a show known by every peer (median, 95th percentile each; the
refutation ends at the ack since shows became deniable), a table opened to seen by
another process's browser, and one player process's peak resident memory. Everything
binds 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from p2pclue.bench import Emit
from p2pclue.bots.protocol import make_config
from p2pclue.crypto.group import MULT_COUNTER
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine.harness import Network
from p2pclue.engine.peer import Peer
from p2pclue.net.discovery import Browser, multicast_available
from p2pclue.rules.variants import preset

PLAYERS = 6
SIZES = (3, 4, 5, 6)
LOOPBACK = "127.0.0.1"
TIMEOUT = 600


def player_env(home: Path) -> dict[str, str]:
    """The environment of a player process the bench starts: this source tree, its own
    home, loopback only."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    env["P2PCLUE_HOME"] = str(home)
    env["P2PCLUE_INTERFACES"] = LOOPBACK
    return env


def _spawn(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "p2pclue", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _port(proc: subprocess.Popen[str], timeout: float = 60) -> int:
    assert proc.stderr is not None
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = proc.stderr.readline()
        m = re.search(r"open at [\d.]+:(\d+)", line)
        if m:
            return int(m.group(1))
        if not line and proc.poll() is not None:
            break
    raise RuntimeError("the opener did not say where it listens")


def in_process_deal(players: int = PLAYERS) -> tuple[float, int]:
    """The same deal, every peer in this one process: (seconds to the first turn, group
    multiplications of all peers together)."""
    config, keys = make_config(preset("classic"), players, 7)
    peers = [Peer(config, s, keys[s], SeededRandom(b"bench/lan/%d" % s))
             for s in range(players)]
    net = Network(peers)
    MULT_COUNTER.reset()
    t0 = time.perf_counter()
    for p in peers:
        p.start(0.0)
    while any(p.rules_state is None for p in peers) and net.step():
        pass
    return time.perf_counter() - t0, MULT_COUNTER.total


def networked_game(emit: Emit, players: int = PLAYERS) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="p2pclue-bench-") as tmp:
        home = Path(tmp)
        env = player_env(home)
        table = f"bench-{uuid.uuid4().hex[:8]}"
        timings = [home / f"t{i}.json" for i in range(players)]
        host = _spawn(env, "join", "--create", "--table", table, "--no-code", "--players",
                      str(players), "--bot", "detective", "--profile", "p0", "--json",
                      "--timing", str(timings[0]))
        procs = [host]
        try:
            port = _port(host)
            procs += [_spawn(env, "join", "--peer", f"{LOOPBACK}:{port}", "--table", table,
                             "--bot", "detective", "--profile", f"p{i}", "--json",
                             "--timing", str(timings[i])) for i in range(1, players)]
            for p in procs:
                p.communicate(timeout=TIMEOUT)
            marks = [json.loads(t.read_text()) for t in timings]
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                    p.communicate()
    start = min(m["start"] for m in marks)
    deal = max(m["first_turn"] for m in marks) - start
    n = min(len(m["suggested"]) for m in marks)
    asked = [min(m["suggested"][k] for m in marks) for k in range(n)]
    lat = [max(m["resolved"][k] for m in marks) - asked[k]
           for k in range(n) if all(len(m["resolved"]) > k for m in marks)]
    answered = [dict(m["answered"]) for m in marks]
    acked = [max(a[k] for a in answered) - asked[k]
             for k in range(n) if all(k in a for a in answered)]
    rss = max(m["max_rss_kb"] for m in marks) / 1024
    return {"deal_s": deal, "deal_mults": sum(m["deal_mults"] for m in marks),
            "suggestions": len(lat), "shows": len(acked),
            "refute_median_ms": 1000 * statistics.median(lat) if lat else None,
            "refute_p95_ms": 1000 * _p95(lat) if lat else None,
            "ack_median_ms": 1000 * statistics.median(acked) if acked else None,
            "ack_p95_ms": 1000 * _p95(acked) if acked else None, "rss_mb": rss}


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def discovery_latency() -> float | None:
    """From starting ``p2pclue join --create`` in another process to this process's
    browser seeing the table (seconds): an upper bound, the new process's start-up
    (Python, imports, key loading) included."""
    if not multicast_available(LOOPBACK):
        return None
    with tempfile.TemporaryDirectory(prefix="p2pclue-bench-") as tmp:
        env = player_env(Path(tmp))
        table = f"seen-{uuid.uuid4().hex[:8]}"

        async def watch() -> float:
            browser = Browser()
            await browser.start([LOOPBACK])
            spawned = time.perf_counter()
            proc = _spawn(env, "join", "--create", "--table", table, "--no-code",
                          "--players", "3", "--bot", "random", "--profile", "o", "--json")
            try:
                await browser.wait_for(table, 60)
                return time.perf_counter() - spawned
            finally:
                await browser.close()
                proc.kill()
                proc.communicate()

        return asyncio.run(watch())


def section(emit: Emit, quick: bool) -> dict[str, Any]:
    emit(f"LAN: {', '.join(map(str, SIZES))} player processes on {LOOPBACK}, each deal beside "
         "the same deal with every peer in this one process (measured just before)")
    local: dict[str, float] = {}
    networked: dict[str, float] = {}
    mults: dict[str, dict[str, int]] = {}
    net: dict[str, Any] = {}
    for n in SIZES:
        here, here_mults = in_process_deal(n)
        net = networked_game(emit, n)
        local[str(n)], networked[str(n)] = here, net["deal_s"]
        mults[str(n)] = {"in_process": here_mults, "networked": net["deal_mults"]}
        emit(f"  {n} players: networked deal (signed start to first turn) {net['deal_s']:.2f} s, "
             f"in-process {here:.2f} s; {net['deal_mults']} mults over the {n} processes "
             f"({here_mults} in process)")
    emit(f"  goal, {PLAYERS} players: networked <= in-process, and < 1.0 s on an idle machine")
    if net["refute_median_ms"] is not None:
        emit(f"  suggestion to refutation known by all ({PLAYERS} processes, "
             f"{net['suggestions']}; the show or the last pass accepted by every peer): "
             f"median {net['refute_median_ms']:.0f} ms, p95 {net['refute_p95_ms']:.0f} ms "
             "(goal: median < 50 ms idle)")
    if net["ack_median_ms"] is not None:
        emit(f"  suggestion to the suggester's ack known by all ({net['shows']} shows; the "
             f"private opening checked, the ack accepted by every peer): median "
             f"{net['ack_median_ms']:.0f} ms, p95 {net['ack_p95_ms']:.0f} ms")
    emit(f"  peak RSS of one player process: {net['rss_mb']:.0f} MB (goal < 80 MB)")
    seen = discovery_latency()
    if seen is None:
        emit("  table seen by another process: skipped (no multicast on loopback)")
    else:
        emit(f"  table opened -> seen by another process's browser: {seen:.2f} s, counted from "
             "starting the opener's process (goal < 2 s)")
    return {"lan_inprocess_deal_s": local[str(PLAYERS)], "lan_deal_s": networked[str(PLAYERS)],
            "lan_inprocess_deal_by_players_s": local, "lan_deal_by_players_s": networked,
            "lan_deal_mults": mults,
            "lan_refute_median_ms": net["refute_median_ms"],
            "lan_refute_p95_ms": net["refute_p95_ms"],
            "lan_ack_median_ms": net["ack_median_ms"], "lan_ack_p95_ms": net["ack_p95_ms"],
            "lan_rss_mb": net["rss_mb"],
            "lan_table_seen_s": seen}
