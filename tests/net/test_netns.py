"""Peers that really are different hosts: one network namespace per player, on a bridge.

Needs root (``ip netns``); skips with the reason otherwise. Every namespace, the bridge
and every process are removed in ``finally``. Nothing touches the machine's real
interfaces: the addresses are private to the bridge this test creates.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from p2pclue.bench.faults import namespaces_unavailable

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = 3


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20,
                          check=check)


def test_three_hosts_in_namespaces(tmp_path: Path) -> None:
    reason = namespaces_unavailable()
    if reason:
        pytest.skip(reason)
    tag = uuid.uuid4().hex[:5]
    bridge = f"p2pbr{tag}"
    spaces = [f"p2pns{tag}{i}" for i in range(PLAYERS)]
    addrs = [f"10.231.{int(tag[:2], 16) % 200}.{10 + i}" for i in range(PLAYERS)]
    procs: list[subprocess.Popen[str]] = []
    try:
        _ip("link", "add", bridge, "type", "bridge")
        _ip("link", "set", bridge, "up")
        for i, ns in enumerate(spaces):
            _ip("netns", "add", ns)
            host_end, ns_end = f"p2pv{tag}{i}", f"p2pn{tag}{i}"
            _ip("link", "add", host_end, "type", "veth", "peer", "name", ns_end)
            _ip("link", "set", host_end, "master", bridge)
            _ip("link", "set", host_end, "up")
            _ip("link", "set", ns_end, "netns", ns)
            _ip("-n", ns, "addr", "add", f"{addrs[i]}/24", "dev", ns_end)
            _ip("-n", ns, "link", "set", ns_end, "up")
            _ip("-n", ns, "link", "set", "lo", "up")

        def start(i: int, *args: str) -> subprocess.Popen[str]:
            env = dict(os.environ, PYTHONPATH=str(ROOT), P2PCLUE_HOME=str(tmp_path / f"h{i}"),
                       P2PCLUE_INTERFACES=addrs[i])
            p = subprocess.Popen(["ip", "netns", "exec", spaces[i], sys.executable, "-m",
                                  "p2pclue", *args], env=env, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            procs.append(p)
            return p

        host = start(0, "join", "--create", "--table", "ns", "--code", "2718", "--players",
                     str(PLAYERS), "--bot", "random", "--json")
        assert host.stderr is not None
        port = None
        end = time.monotonic() + 60
        while port is None and time.monotonic() < end:
            m = re.search(r"open at [\d.]+:(\d+)", host.stderr.readline())
            port = m.group(1) if m else None
        assert port, "the opener prints where it listens"
        for i in range(1, PLAYERS):
            start(i, "join", "--peer", f"{addrs[0]}:{port}", "--table", "ns", "--code", "2718",
                  "--bot", "random", "--json")
        found = []
        for p in procs:
            out, err = p.communicate(timeout=300)
            assert p.returncode == 0, err[-3000:]
            found.append(json.loads(out.strip().splitlines()[-1]))
        data = {Path(r["transcript"]).read_bytes() for r in found}
        assert len(data) == 1, "three hosts, one byte-identical transcript"
        audit = subprocess.run([sys.executable, "-m", "p2pclue", "audit", found[0]["transcript"]],
                               env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True,
                               text=True, timeout=120)
        assert audit.returncode == 0, audit.stdout + audit.stderr
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.communicate()
        for i, ns in enumerate(spaces):
            _ip("netns", "del", ns, check=False)
            _ip("link", "del", f"p2pv{tag}{i}", check=False)
        _ip("link", "del", bridge, check=False)
