"""Houses that reach each other only through a router: network namespaces for the
internet tables' tests and bench (root only; ``faults.namespaces_unavailable`` says why
not).

Each house is a namespace holding some seats, linked by a veth pair to one router
namespace; nothing forwards between the houses, so the only way from one to another is
the router's ``udp_proxy``, which adds a delay and a seeded loss (a house has no route to
another house's subnet at all). Seat ``s`` listens on
UDP port ``PORT_BASE + s`` of its house's address and tells the others, as external
addresses (``P2PCLUE_IROH_EXTERNAL``), the router's address on each other house's side
with that port: the proxy forwards it to the seat, like a router forwarding a port. Seats
in one house reach each other directly. ``close`` stops the proxy and deletes every
namespace (their veths go with them), whatever happened.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

PORT_BASE = 7100
ROOT = Path(__file__).resolve().parents[2]


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20,
                          check=check)


@dataclass
class Houses:
    """``seats[h]``: the seat numbers in house ``h``."""

    seats: list[list[int]]
    delay_ms: float = 0.0
    """One way through the proxy: a round trip between two houses gains twice this."""
    loss: float = 0.0
    seed: int = 1
    tag: str = field(default_factory=lambda: uuid.uuid4().hex[:5])
    proxy: subprocess.Popen[str] | None = None
    made: list[str] = field(default_factory=list)

    @property
    def net(self) -> int:
        return 100 + int(self.tag[:2], 16) % 100

    @property
    def router(self) -> str:
        return f"p2pr{self.tag}"

    def space(self, house: int) -> str:
        return f"p2ph{self.tag}{house}"

    def addr(self, house: int) -> str:
        return f"10.{self.net}.{house}.2"

    def gateway(self, house: int) -> str:
        return f"10.{self.net}.{house}.1"

    def house_of(self, seat: int) -> int:
        return next(h for h, seats in enumerate(self.seats) if seat in seats)

    def port(self, seat: int) -> int:
        return PORT_BASE + seat

    def env(self, seat: int, base: dict[str, str]) -> dict[str, str]:
        """The environment of seat ``seat``'s process: its house's address, its port,
        and where the other houses reach it."""
        house = self.house_of(seat)
        external = [f"{self.gateway(h)}:{self.port(seat)}"
                    for h in range(len(self.seats)) if h != house]
        return dict(base, P2PCLUE_INTERFACES=self.addr(house),
                    P2PCLUE_IROH_PORT=str(self.port(seat)),
                    P2PCLUE_IROH_EXTERNAL=",".join(external))

    def argv(self, seat: int, *args: str) -> list[str]:
        """``p2pclue ARGS`` run in seat ``seat``'s house."""
        return ["ip", "netns", "exec", self.space(self.house_of(seat)), sys.executable,
                "-m", "p2pclue", *args]

    def open(self) -> None:
        """Make the namespaces and start the proxy (``close`` undoes it, even half done)."""
        _ip("netns", "add", self.router)
        self.made.append(self.router)
        _ip("-n", self.router, "link", "set", "lo", "up")
        for h in range(len(self.seats)):
            ns = self.space(h)
            _ip("netns", "add", ns)
            self.made.append(ns)
            outer, inner = f"p2pg{self.tag}{h}", f"p2pi{self.tag}{h}"
            _ip("-n", self.router, "link", "add", outer, "type", "veth", "peer", "name", inner,
                "netns", ns)
            _ip("-n", self.router, "addr", "add", f"{self.gateway(h)}/24", "dev", outer)
            _ip("-n", self.router, "link", "set", outer, "up")
            _ip("-n", ns, "addr", "add", f"{self.addr(h)}/24", "dev", inner)
            _ip("-n", ns, "link", "set", inner, "up")
            _ip("-n", ns, "link", "set", "lo", "up")
        maps = []
        for h, seats in enumerate(self.seats):
            for s in seats:
                for other in range(len(self.seats)):
                    if other != h:
                        maps += ["--map", f"{self.gateway(other)}:{self.port(s)}="
                                          f"{self.addr(h)}:{self.port(s)}"]
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proxy = subprocess.Popen(
            ["ip", "netns", "exec", self.router, sys.executable, "-m",
             "p2pclue.bench.udp_proxy", *maps, "--delay-ms", str(self.delay_ms),
             "--loss", str(self.loss), "--seed", str(self.seed)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        assert self.proxy.stdout is not None
        line = self.proxy.stdout.readline()
        if line.strip() != "ready":
            raise RuntimeError(f"the proxy did not start: {line} {self.proxy.stderr}")

    def close(self) -> None:
        if self.proxy is not None and self.proxy.poll() is None:
            self.proxy.kill()
            self.proxy.wait()
        for ns in reversed(self.made):
            _ip("netns", "del", ns, check=False)
        self.made.clear()
        time.sleep(0.05)
