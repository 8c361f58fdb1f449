"""A network lost without a word (a cable pulled, Wi-Fi gone): TCP notices nothing for
minutes, so the links' ``alive`` messages and silent cuts must. Three players on three
hosts (one network namespace each, on a bridge this test creates); one host's port on the
bridge goes down mid-game. Within 10 s every side says who is not answering, the cut-off
side too; once the port is up again the links are re-dialled, the game plays on to its
end, and the three transcripts are one, valid.

Needs root (``ip netns``); skips with the reason otherwise. Everything is removed in
``finally``; nothing touches the machine's real interfaces.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from p2pclue.bench.faults import namespaces_unavailable
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from tests.net.procs import POLL, Proc, Procs, net_env

NAMES = ("Ada", "Ben", "Cleo")
TOLD_WITHIN = 10.0


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20,
                          check=check)


def _not_answering(p: Proc, who: str, since: float) -> float:
    """Seconds from ``since`` until ``p`` said ``who`` is not answering."""
    p.wait_for(re.escape(f"{who} is not answering (network?)"), guard=60)
    return time.monotonic() - since


def test_a_silent_network_is_told_on_both_sides_within_ten_seconds(
        tmp_path: Path, procs: Procs) -> None:
    reason = namespaces_unavailable()
    if reason:
        pytest.skip(reason)
    tag = uuid.uuid4().hex[:5]
    bridge = f"p2pbr{tag}"
    spaces = [f"p2pns{tag}{i}" for i in range(3)]
    ports = [f"p2pv{tag}{i}" for i in range(3)]
    addrs = [f"10.232.{int(tag[:2], 16) % 200}.{10 + i}" for i in range(3)]
    try:
        _ip("link", "add", bridge, "type", "bridge")
        _ip("link", "set", bridge, "up")
        for i, ns in enumerate(spaces):
            _ip("netns", "add", ns)
            inside = f"p2pn{tag}{i}"
            _ip("link", "add", ports[i], "type", "veth", "peer", "name", inside)
            _ip("link", "set", ports[i], "master", bridge)
            _ip("link", "set", ports[i], "up")
            _ip("link", "set", inside, "netns", ns)
            _ip("-n", ns, "addr", "add", f"{addrs[i]}/24", "dev", inside)
            _ip("-n", ns, "link", "set", inside, "up")
            _ip("-n", ns, "link", "set", "lo", "up")

        def start(i: int, *args: str) -> Proc:
            env = net_env(tmp_path / f"h{i}", P2PCLUE_INTERFACES=addrs[i])
            return procs.command(NAMES[i], "ip", "netns", "exec", spaces[i], sys.executable,
                                 "-m", "p2pclue", "join", "--name", NAMES[i], "--bot",
                                 "detective", "--json", *args, env=env)

        host = start(0, "--create", "--table", "quiet", "--code", "2718", "--players", "3")
        port = host.wait_for(r"open at [\d.]+:(\d+)").group(1)
        ben, cleo = (start(i, "--peer", f"{addrs[0]}:{port}", "--table", "quiet", "--code",
                           "2718") for i in (1, 2))
        cleo.wait_for("the game starts")
        # every link up before the cable is pulled (guests link to each other after the
        # start): a side can only tell of a link it had
        for p, others in ((host, ("Ben", "Cleo")), (ben, ("Ada", "Cleo")),
                          (cleo, ("Ada", "Ben"))):
            for who in others:
                p.wait_for(re.escape(f"{who} is here"), guard=60)
        _ip("link", "set", ports[2], "down")  # Cleo's cable: nothing in, nothing out
        cut = time.monotonic()
        told = {"Ada about Cleo": _not_answering(host, "Cleo", cut),
                "Ben about Cleo": _not_answering(ben, "Cleo", cut),
                "Cleo about Ada": _not_answering(cleo, "Ada", cut),
                "Cleo about Ben": _not_answering(cleo, "Ben", cut)}
        assert all(s <= TOLD_WITHIN + POLL for s in told.values()), told
        assert "Ben is not answering" not in host.err(), "the others' link stayed up"
        _ip("link", "set", ports[2], "up")
        results = []
        for p in (host, ben, cleo):
            code, out, _err = p.finish()
            assert code == 0, p.said()
            results.append(json.loads(out.strip().splitlines()[-1]))
        assert "Cleo is back" in host.err() or "Cleo is here" in host.err(), host.said()
        data = {Path(r["transcript"]).read_bytes() for r in results}
        assert len(data) == 1, "one byte-identical transcript"
        raw = data.pop()
        assert audit(parse(raw), raw).valid
        print("told after (s):", {k: round(v, 1) for k, v in told.items()})
    finally:
        procs.kill_all()
        for i, ns in enumerate(spaces):
            _ip("netns", "del", ns, check=False)
            _ip("link", "del", ports[i], check=False)
        _ip("link", "del", bridge, check=False)
