"""Bench section "internet": six player processes at an internet table (iroh, relays off),
beside a LAN table of six measured in the same run.

Three tables of six ``p2pclue join --bot detective`` processes, each with ``--timing``:
on the LAN (TCP on loopback, ``--peer``), over iroh on loopback (0 ms added), and over iroh
with every seat in a house of its own (a network namespace) that reaches the others only
through a router namespace whose ``udp_proxy`` adds 40 ms each way: 80 ms round trip
between any two seats. Figures per table: the signed start to the first turn (the deal),
and suggestion to refutation known by all (median). Goals: at 80 ms, the deal within the
LAN deal plus ten round trips, the refutation median within the LAN median plus three.
The 80 ms table needs root (``ip netns``); without it its figures are not measured.
"""

from __future__ import annotations

import statistics
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any

from p2pclue.bench import Emit
from p2pclue.bench.faults import namespaces_unavailable
from p2pclue.bench.houses import Houses
from p2pclue.bench.lan import networked_game, opener_says, player_env, stop, table_marks

PLAYERS = 6
RTT_MS = 80.0
DEAL_ROUND_TRIPS = 10
REFUTE_ROUND_TRIPS = 3


def internet_game(houses: Houses | None, players: int = PLAYERS) -> dict[str, Any]:
    """One internet table of ``players`` processes: on loopback (``houses`` None), or one
    seat per house. Its figures as ``lan.read_marks`` gives them."""
    with tempfile.TemporaryDirectory(prefix="p2pclue-bench-") as tmp:
        home = Path(tmp)
        timings = [home / f"t{i}.json" for i in range(players)]
        procs: list[subprocess.Popen[str]] = []

        def spawn(seat: int, *args: str) -> subprocess.Popen[str]:
            env = player_env(home)
            argv = ["--profile", f"p{seat}", "--bot", "detective", "--json", "--no-relay",
                    "--timing", str(timings[seat])]
            if houses is None:
                command = [*_python(), *args, *argv]
            else:
                env = houses.env(seat, env)
                command = houses.argv(seat, *args, *argv)
            proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
            procs.append(proc)
            return proc

        try:
            host = spawn(0, "join", "--create", "--internet", "--table",
                         f"bench-{uuid.uuid4().hex[:8]}", "--no-code", "--players",
                         str(players))
            ticket = opener_says(host, r"ticket: (clue1[a-z2-7]+)",
                                 "the opener showed no ticket").group(1)
            for seat in range(1, players):
                spawn(seat, "join", "--ticket", ticket)
            return table_marks(procs, timings)
        finally:
            stop(procs)


def _python() -> list[str]:
    import sys

    return [sys.executable, "-m", "p2pclue"]


def _median_ms(values: list[float]) -> float | None:
    return 1000 * statistics.median(values) if values else None


def _deal_parts(emit: Emit, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Where the deal between houses spends its time beyond the LAN's: the last seat
    enters play once its links to the others are dialled, then the deal's messages go one
    after another, each at least one way across (a floor set by the protocol, not by the
    transport)."""
    last_in_play = statistics.median(r["last_in_play_s"] for r in runs)
    messages = max(r["deal_messages"] for r in runs)
    floor_rtts = messages / 2  # one way each: half a round trip
    emit(f"    of it: the last seat in play {last_in_play:.2f} s after the first (its links "
         f"dialled); then {messages} messages, each sent once the one before it arrived: "
         f"at least {messages} x {RTT_MS / 2:.0f} ms = {floor_rtts * RTT_MS / 1000:.2f} s "
         f"({floor_rtts:.1f} round trips) beyond the LAN deal")
    return {"internet_80ms_last_in_play_s": last_in_play,
            "internet_80ms_deal_messages": messages,
            "internet_80ms_deal_floor_rtts": floor_rtts}


def section(emit: Emit, quick: bool) -> dict[str, Any]:
    emit(f"internet: tables of {PLAYERS} player processes over iroh (relays off), beside a "
         "LAN table of the same run")
    games = 1 if quick else 2
    figures: dict[str, Any] = {}
    rows: list[tuple[str, str, Any]] = [("lan", "LAN (TCP, loopback)", None),
                                        ("0ms", "iroh on loopback", None)]
    reason = namespaces_unavailable()
    if reason is None:
        rows.append(("80ms", f"iroh, {RTT_MS:.0f} ms round trip between houses", "houses"))
    for key, label, kind in rows:
        runs = []
        for _ in range(games):
            if key == "lan":
                runs.append(networked_game(emit, PLAYERS))
            elif kind is None:
                runs.append(internet_game(None))
            else:
                houses = Houses([[s] for s in range(PLAYERS)], delay_ms=RTT_MS / 2)
                try:
                    houses.open()
                    runs.append(internet_game(houses))
                finally:
                    houses.close()
        deal = statistics.median(r["deal_s"] for r in runs)
        refute = _median_ms([x for r in runs for x in r["refute_s"]])
        figures[f"internet_{key}_deal_s"] = deal
        figures[f"internet_{key}_refute_median_ms"] = refute
        emit(f"  {label}: deal (signed start to first turn) {deal:.2f} s, suggestion to "
             f"refutation known by all median {refute or 0:.0f} ms ({len(runs)} game"
             f"{'s' if len(runs) > 1 else ''})")
        if kind is not None:
            figures.update(_deal_parts(emit, runs))
    if reason is not None:
        emit(f"  {RTT_MS:.0f} ms round trip: not measured ({reason})")
        figures["internet_80ms_deal_s"] = None
        figures["internet_80ms_refute_median_ms"] = None
    figures["internet_rtt_ms"] = RTT_MS
    emit(f"  goals at {RTT_MS:.0f} ms: deal <= LAN deal + {DEAL_ROUND_TRIPS} round trips, "
         f"refutation median <= LAN median + {REFUTE_ROUND_TRIPS} round trips")
    return figures

