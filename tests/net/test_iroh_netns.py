"""Internet tables between houses: network namespaces that reach each other only through
a router namespace, whose userspace proxy makes the path 80 ms round trip with 1 % loss
(seeded). Relays are off; nothing touches the machine's real interfaces. One player is
killed with SIGKILL mid-game and resumed; every transcript is the same and valid.

Needs root (``ip netns``); skips with the reason otherwise. The namespaces, the proxy and
every process are removed in ``finally``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2pclue.bench.faults import namespaces_unavailable
from p2pclue.bench.houses import Houses
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.net.iroh_link import available
from tests.net.procs import Proc, Procs, net_env

pytestmark = pytest.mark.skipif(not available(), reason="the internet extra (iroh) is missing")

TICKET = r"ticket: (clue1[a-z2-7]+)"


def test_two_houses_through_a_slow_lossy_router_with_a_crash(tmp_path: Path,
                                                            procs: Procs) -> None:
    reason = namespaces_unavailable()
    if reason:
        pytest.skip(reason)
    houses = Houses([[0], [1, 2]], delay_ms=40.0, loss=0.01, seed=7)
    try:
        houses.open()

        def start(seat: int, *args: str) -> Proc:
            env = houses.env(seat, net_env(tmp_path / f"h{seat}"))
            return procs.command(f"p{seat}-{len(procs.started)}", *houses.argv(seat, *args),
                                 env=env)

        opener = start(0, "join", "--create", "--internet", "--no-relay", "--table", "Far",
                       "--code", "2718", "--players", "3", "--bot", "detective", "--json")
        ticket = opener.wait_for(TICKET, guard=120).group(1)
        guests = [start(s, "join", "--ticket", ticket, "--code", "2718", "--no-relay",
                        "--bot", "detective", "--json") for s in (1, 2)]
        victim = guests[1]
        victim.wait_for(r"^Turn 3:", guard=300)
        victim.kill()
        resumed = start(2, "join", "--resume", "--no-relay", "--bot", "detective", "--json")
        found = []
        for p in (opener, guests[0], resumed):
            code, out, _err = p.finish(guard=400)
            assert code == 0, p.said()
            found.append(json.loads(out.strip().splitlines()[-1]))
        data = {Path(r["transcript"]).read_bytes() for r in found}
        assert len(data) == 1, "two houses, one byte-identical transcript"
        raw = data.pop()
        assert audit(parse(raw), raw).valid
        assert "replayed" in resumed.err(), resumed.said()
    finally:
        procs.kill_all()
        houses.close()
