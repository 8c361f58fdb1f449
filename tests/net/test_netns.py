"""Peers that really are different hosts: one network namespace per player, on a bridge.

Needs root (``ip netns``); skips with the reason otherwise. Every namespace, the bridge
and every process are removed in ``finally``. Nothing touches the machine's real
interfaces: the addresses are private to the bridge this test creates.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pclue.bench.faults import namespaces_unavailable
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import read_payload, split_frame
from tests.net.procs import Proc, Procs, net_env

PLAYERS = 3


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20,
                          check=check)


@contextlib.contextmanager
def _bridge(count: int) -> Iterator[tuple[list[str], list[str]]]:
    """``count`` namespaces on a bridge of their own: (namespace names, addresses). Every
    namespace, link and the bridge are removed at the end, whatever happened."""
    reason = namespaces_unavailable()
    if reason:
        pytest.skip(reason)
    tag = uuid.uuid4().hex[:5]
    bridge = f"p2pbr{tag}"
    spaces = [f"p2pns{tag}{i}" for i in range(count)]
    addrs = [f"10.231.{int(tag[:2], 16) % 200}.{10 + i}" for i in range(count)]
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
        yield spaces, addrs
    finally:
        for i, ns in enumerate(spaces):
            _ip("netns", "del", ns, check=False)
            _ip("link", "del", f"p2pv{tag}{i}", check=False)
        _ip("link", "del", bridge, check=False)


def _one_transcript(procs: list[Proc]) -> bytes:
    """Every process ends well with the same transcript, which audits valid: its bytes."""
    found = []
    for p in procs:
        code, out, _err = p.finish()
        assert code == 0, p.said()
        found.append(json.loads(out.strip().splitlines()[-1]))
    data = {Path(r["transcript"]).read_bytes() for r in found}
    assert len(data) == 1, "one byte-identical transcript on every host"
    raw = data.pop()
    assert audit(parse(raw), raw).valid
    return raw


def test_three_hosts_in_namespaces(tmp_path: Path, procs: Procs) -> None:
    try:
        with _bridge(PLAYERS) as (spaces, addrs):

            def start(i: int, *args: str) -> Proc:
                env = net_env(tmp_path / f"h{i}", P2PCLUE_INTERFACES=addrs[i])
                return procs.command(f"p{i}", "ip", "netns", "exec", spaces[i],
                                     sys.executable, "-m", "p2pclue", *args, env=env)

            host = start(0, "join", "--create", "--table", "ns", "--code", "2718",
                         "--players", str(PLAYERS), "--bot", "detective", "--json")
            port = host.wait_for(r"open at [\d.]+:(\d+)").group(1)
            others = [start(i, "join", "--peer", f"{addrs[0]}:{port}", "--table", "ns",
                            "--code", "2718", "--bot", "detective", "--json")
                      for i in range(1, PLAYERS)]
            _one_transcript([host, *others])
    finally:
        procs.kill_all()  # before their namespaces go (a second kill is harmless)


def test_the_openers_own_bots_are_reached_from_another_host(tmp_path: Path,
                                                            procs: Procs) -> None:
    """The opener seats two bots in its own process (``--bots``); a guest on another host
    must link to each of them directly (a private opening is never relayed), so the
    address the table gives for them is one the guest can dial, not the opener's
    loopback."""
    try:
        with _bridge(2) as (spaces, addrs):

            def start(i: int, *args: str) -> Proc:
                # every interface of its namespace, as on a family's laptop (the only
                # ones are the namespace's own loopback and its end of the bridge)
                env = net_env(tmp_path / f"h{i}", P2PCLUE_INTERFACES=None)
                return procs.command(f"p{i}", "ip", "netns", "exec", spaces[i],
                                     sys.executable, "-m", "p2pclue", *args, env=env)

            # detectives: they ask what they do not know, so cards are shown in every game
            # (random bots can end one before anyone refutes)
            host = start(0, "join", "--create", "--table", "house", "--code", "2718",
                         "--players", "4", "--bots", "2", "--bot", "detective", "--json")
            port = host.wait_for(r"open at [\d.]+:(\d+)").group(1)
            guest = start(1, "join", "--peer", f"{addrs[0]}:{port}", "--table", "house",
                          "--code", "2718", "--bot", "detective", "--json")
            raw = _one_transcript([host, guest])
        types = [read_payload(split_frame(e)[1])[0].type for e in parse(raw).entries]
        assert types.count("show") >= 1, "the bots refuted at least once"
        # every show reached its suggester privately (a lost private opening is complained
        # about, and the opening then goes public)
        assert "complain" not in types, types
    finally:
        procs.kill_all()
