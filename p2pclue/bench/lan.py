"""Bench section "lan": 3 to 6 player processes on loopback, against the in-process deal.

Each player is its own ``p2pclue join --bot`` process (own keys, links, transcript),
so the deal's verification runs in parallel across processes. Measured for 3, 4, 5
and 6 processes: the signed start to the first turn, next to the same deal with every
peer in this one process (measured in the same run, just before), and the group
multiplications of the deal summed over the processes (each reports its own count at
its first turn; deterministic, unlike the times). Six processes play three games (one
with ``--quick``): their deals and suggestions are pooled. Beside each time, the CPU
the whole table spent on it over the cores: the floor no scheduling gets under. For 6
processes also: suggestion to
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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from p2pclue.bench import Emit
from p2pclue.bots.protocol import make_config
from p2pclue.crypto.group import MULT_COUNTER
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine.harness import Network
from p2pclue.engine.peer import Peer
from p2pclue.net.discovery import SAME_NAME_WAIT, Browser, multicast_available
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


def opener_says(proc: subprocess.Popen[str], pattern: str, missing: str,
                timeout: float = 60) -> re.Match[str]:
    """The first line of an opener's stderr that matches ``pattern``: where the table is
    reached (its port, its ticket) is only said there, as it opens. ``missing`` is the
    error if the process ends or ``timeout`` passes before it says it."""
    assert proc.stderr is not None
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = proc.stderr.readline()
        found = re.search(pattern, line)
        if found:
            return found
        if not line and proc.poll() is not None:
            break
    raise RuntimeError(missing)


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
            port = int(opener_says(host, r"open at [\d.]+:(\d+)",
                                   "the opener did not say where it listens").group(1))
            procs += [_spawn(env, "join", "--peer", f"{LOOPBACK}:{port}", "--table", table,
                             "--bot", "detective", "--profile", f"p{i}", "--json",
                             "--timing", str(timings[i])) for i in range(1, players)]
            return table_marks(procs, timings)
        finally:
            stop(procs)


def table_marks(procs: list[subprocess.Popen[str]], timings: list[Path]) -> dict[str, Any]:
    """One table's figures (``read_marks``) once every player process of it has ended; a
    process that failed fails the run (its marks would be missing or partial). Every
    process's pipes are read at once: one blocked on a full pipe would stall the table."""
    with ThreadPoolExecutor(len(procs)) as pool:
        list(pool.map(lambda p: p.communicate(timeout=TIMEOUT), procs))
    failed = [p.returncode for p in procs if p.returncode != 0]
    if failed:
        raise RuntimeError(f"player processes ended with {failed}")
    return read_marks([json.loads(t.read_text()) for t in timings])


def stop(procs: list[subprocess.Popen[str]]) -> None:
    """Kill the player processes still running (a run that failed leaves none behind)."""
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.communicate()


def read_marks(marks: list[dict[str, Any]]) -> dict[str, Any]:
    """One game's figures from every process's timing marks.

    Beside each latency, the CPU the whole table spent on it (every process's CPU seconds
    between its own marks, summed): divided by the cores, the least wall time any
    scheduling could reach with this arithmetic."""
    start = min(m["start"] for m in marks)
    deal = max(m["first_turn"] for m in marks) - start
    deal_cpu = sum(m["first_turn_cpu"] - m["start_cpu"] for m in marks)
    n = min(len(m["suggested"]) for m in marks)
    asked = [min(m["suggested"][k] for m in marks) for k in range(n)]
    done = [k for k in range(n) if all(len(m["resolved"]) > k for m in marks)]
    lat = [max(m["resolved"][k] for m in marks) - asked[k] for k in done]
    cpu = [sum(m["resolved_cpu"][k] - m["suggested_cpu"][k] for m in marks) for k in done]
    answered = [dict(m["answered"]) for m in marks]
    acked = [max(a[k] for a in answered) - asked[k]
             for k in range(n) if all(k in a for a in answered)]
    rss = max(m["max_rss_kb"] for m in marks) / 1024
    # The deal's messages are chained one after another (docs/protocol.md, "Stages and
    # messages"): their count times the one-way delay is what no transport can save.
    in_sequence = 1 + max((e[0] for m in marks for e in m.get("entries", [])), default=-1)
    return {"deal_s": deal, "deal_cpu_s": deal_cpu,
            "deal_messages": in_sequence,
            "last_in_play_s": max(m["start"] for m in marks) - start,
            "deal_mults": sum(m["deal_mults"] for m in marks),
            "refute_s": lat, "refute_cpu_s": cpu,
            "refute_proofs": [marks[0]["proofs"][k] for k in done], "acked_s": acked,
            "rss_mb": rss}


def cores() -> int:
    """The cores this process may run on (the player processes inherit them)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _stat(f: Callable[[list[float]], float], values: list[float]) -> float | None:
    return 1000 * f(values) if values else None


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def discovery_latency() -> tuple[float, float] | None:
    """From starting ``p2pclue join --create`` in another process to this process's browser
    listing the table, and to a joiner by name taking it (seconds). Upper bounds: the new
    process's start-up (Python, imports, key loading) is included. The second adds the
    same-name wait (``SAME_NAME_WAIT``), the defence against a stranger's record, which a
    joiner by name always waits through."""
    if not multicast_available(LOOPBACK):
        return None
    with tempfile.TemporaryDirectory(prefix="p2pclue-bench-") as tmp:
        env = player_env(Path(tmp))
        table = f"seen-{uuid.uuid4().hex[:8]}"

        async def watch() -> tuple[float, float]:
            browser = Browser()
            await browser.start([LOOPBACK])
            spawned = time.perf_counter()
            proc = _spawn(env, "join", "--create", "--table", table, "--no-code",
                          "--players", "3", "--bot", "random", "--profile", "o", "--json")
            listed: list[float] = []

            async def first_listed() -> None:
                while not any(ad.name == table for ad in browser.tables()):
                    await asyncio.sleep(0.005)
                listed.append(time.perf_counter() - spawned)

            looking = asyncio.ensure_future(first_listed())
            try:
                await browser.wait_for(table, 60)
                taken = time.perf_counter() - spawned
                await looking
                return listed[0], taken
            finally:
                looking.cancel()
                await browser.close()
                proc.kill()
                proc.communicate()

        return asyncio.run(watch())


GAMES_AT_SIX = 5
"""Games of six processes per run: one deal is noisy, and one game gives 8-20 suggestions.
With three games (about 58 suggestions) the refutation median of identical trees moved by
4 ms from run to run; five give about 95."""


def _ms(values: list[float]) -> str:
    return f"median {1000 * statistics.median(values):.0f} ms, p95 {1000 * _p95(values):.0f} ms"


def section(emit: Emit, quick: bool) -> dict[str, Any]:
    emit(f"LAN: {', '.join(map(str, SIZES))} player processes on {LOOPBACK}, each deal beside "
         "the same deal with every peer in this one process (measured just before)")
    local: dict[str, float] = {}
    networked: dict[str, float] = {}
    mults: dict[str, dict[str, int]] = {}
    six: list[dict[str, Any]] = []
    here_six: list[float] = []
    for n in SIZES:
        for _ in range(GAMES_AT_SIX if n == PLAYERS and not quick else 1):
            here, here_mults = in_process_deal(n)
            net = networked_game(emit, n)
            if n == PLAYERS:
                six.append(net)
                here_six.append(here)
            emit(f"  {n} players: networked deal (signed start to first turn) "
                 f"{net['deal_s']:.2f} s, in-process {here:.2f} s; {net['deal_mults']} mults "
                 f"over the {n} processes ({here_mults} in process); the table's CPU "
                 f"{net['deal_cpu_s']:.2f} s")
        local[str(n)] = statistics.median(here_six) if n == PLAYERS else here
        networked[str(n)] = (statistics.median(g["deal_s"] for g in six) if n == PLAYERS
                             else net["deal_s"])
        mults[str(n)] = {"in_process": here_mults, "networked": net["deal_mults"]}
    k = cores()
    deal_cpu = statistics.median(g["deal_cpu_s"] for g in six)
    emit(f"  {PLAYERS} players, median of {len(six)}: networked deal {networked[str(PLAYERS)]:.2f}"
         f" s, in-process {local[str(PLAYERS)]:.2f} s; the table's CPU {deal_cpu:.2f} s, so "
         f"at least {deal_cpu / k:.2f} s on {k} cores")
    emit(f"  goal, {PLAYERS} players: networked <= in-process, and < 1.0 s on an idle machine")
    lat = [x for g in six for x in g["refute_s"]]
    floor = [c / k for g in six for c in g["refute_cpu_s"]]
    proofs = [p for g in six for p in g["refute_proofs"]]
    acked = [x for g in six for x in g["acked_s"]]
    if lat:
        emit(f"  suggestion to refutation known by all ({PLAYERS} processes, {len(lat)} "
             f"suggestions; the show or the last pass accepted by every peer): {_ms(lat)} "
             "(goal: median < 50 ms idle)")
        emit(f"    the table's CPU for it over {k} cores (the least any scheduling reaches): "
             f"{_ms(floor)}")
        for count in sorted(set(proofs)):
            pick = [i for i, p in enumerate(proofs) if p == count]
            emit(f"    {count} proof{'s' if count > 1 else ''} ({len(pick)}): "
                 f"{_ms([lat[i] for i in pick])}; CPU over the cores "
                 f"{_ms([floor[i] for i in pick])}")
    if acked:
        emit(f"  suggestion to the suggester's ack known by all ({len(acked)} shows; the "
             f"private opening checked, the ack accepted by every peer): {_ms(acked)}")
    rss = max(g["rss_mb"] for g in six)
    emit(f"  peak RSS of one player process: {rss:.0f} MB (goal < 80 MB)")
    found = discovery_latency()
    seen = taken = None
    if found is None:
        emit("  table seen by another process: skipped (no multicast on loopback)")
    else:
        seen, taken = found
        emit(f"  table opened -> seen by another process's browser: {seen:.2f} s, counted from "
             "starting the opener's process (goal < 2 s); taken by a joiner by name after the "
             f"{SAME_NAME_WAIT:g} s wait for a second record of the name: {taken:.2f} s")
    return {"lan_inprocess_deal_s": local[str(PLAYERS)], "lan_deal_s": networked[str(PLAYERS)],
            "lan_inprocess_deal_by_players_s": local, "lan_deal_by_players_s": networked,
            "lan_deal_mults": mults,
            "lan_deal_cpu_s": deal_cpu, "lan_cores": k,
            "lan_refute_median_ms": _stat(statistics.median, lat),
            "lan_refute_p95_ms": _stat(_p95, lat),
            "lan_refute_cpu_floor_median_ms": _stat(statistics.median, floor),
            "lan_refute_proofs": proofs,
            "lan_ack_median_ms": _stat(statistics.median, acked),
            "lan_ack_p95_ms": _stat(_p95, acked),
            "lan_rss_mb": rss,
            "lan_table_seen_s": seen, "lan_table_taken_s": taken}
