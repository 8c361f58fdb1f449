"""A UDP port forward that delays and drops datagrams: a slow, lossy path for the internet
tables' tests and bench, where the kernel has no netem.

``python -m p2pclue.bench.udp_proxy --map LISTEN=TARGET ... --delay-ms D --loss P --seed S``
listens on each ``LISTEN`` (``IP:PORT``) and forwards what arrives to its ``TARGET``, from a
socket of its own per sender (as a NAT does: the target sees the proxy's address and
answers it), and the answers back to that sender. Every datagram, each way, waits ``D``
milliseconds (a round trip through the proxy gains ``2 D``) and is dropped with
probability ``P``, drawn from a generator seeded with ``S``: the same seed drops the same
datagrams of the same sequence. It prints ``ready`` once every port is bound and runs
until it is killed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

Addr = tuple[str, int]


def parse_addr(text: str) -> Addr:
    host, _, port = text.rpartition(":")
    return host.strip("[]"), int(port)


@dataclass
class Path:
    """What every datagram meets: a one-way delay and a seeded chance of loss."""

    delay: float
    loss: float
    rng: random.Random
    forwarded: int = 0
    dropped: int = 0

    def carry(self, send: Callable[[], None]) -> None:
        if self.loss and self.rng.random() < self.loss:
            self.dropped += 1
            return
        self.forwarded += 1
        if self.delay > 0:
            asyncio.get_running_loop().call_later(self.delay, send)
        else:
            send()


class _Socket(asyncio.DatagramProtocol):
    def __init__(self, on_datagram: Callable[[bytes, Addr], None]) -> None:
        self.on_datagram = on_datagram
        self.transport: asyncio.DatagramTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.DatagramTransport, transport)

    def datagram_received(self, data: bytes, addr: tuple[str | int, ...]) -> None:
        self.on_datagram(data, (str(addr[0]), int(addr[1])))

    def send(self, data: bytes, addr: Addr) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.sendto(data, addr)


class Forward:
    """One ``LISTEN=TARGET`` mapping with a socket towards the target per sender."""

    def __init__(self, listen: Addr, target: Addr, path: Path) -> None:
        self.listen = listen
        self.target = target
        self.path = path
        self.front: _Socket | None = None
        self._upstream: dict[Addr, _Socket] = {}
        self._opening: dict[Addr, list[bytes]] = {}
        self._tasks: set[asyncio.Future[None]] = set()

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        _t, self.front = await loop.create_datagram_endpoint(
            lambda: _Socket(self._from_sender), local_addr=self.listen)

    def _from_sender(self, data: bytes, sender: Addr) -> None:
        up = self._upstream.get(sender)
        if up is not None:
            self.path.carry(lambda: up.send(data, self.target))
            return
        waiting = self._opening.get(sender)
        if waiting is not None:
            waiting.append(data)
            return
        self._opening[sender] = [data]
        task = asyncio.ensure_future(self._open(sender))
        self._tasks.add(task)  # held until done: a task nobody holds may vanish
        task.add_done_callback(self._tasks.discard)

    async def _open(self, sender: Addr) -> None:
        loop = asyncio.get_running_loop()
        family_any = "::" if ":" in self.target[0] else "0.0.0.0"
        _t, up = await loop.create_datagram_endpoint(
            lambda: _Socket(lambda data, _addr: self._to_sender(data, sender)),
            local_addr=(family_any, 0))
        self._upstream[sender] = up
        for data in self._opening.pop(sender, []):
            self.path.carry(_sender_of(up, data, self.target))

    def _to_sender(self, data: bytes, sender: Addr) -> None:
        front = self.front
        if front is not None:
            self.path.carry(lambda: front.send(data, sender))


def _sender_of(sock: _Socket, data: bytes, to: Addr) -> Callable[[], None]:
    return lambda: sock.send(data, to)


async def serve(maps: list[tuple[Addr, Addr]], delay_ms: float, loss: float, seed: int) -> None:
    path = Path(delay_ms / 1000.0, loss, random.Random(seed))
    forwards = [Forward(listen, target, path) for listen, target in maps]
    for forward in forwards:
        await forward.start()
    print("ready", flush=True)
    await asyncio.Event().wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="udp_proxy", description=__doc__)
    parser.add_argument("--map", action="append", required=True, metavar="LISTEN=TARGET")
    parser.add_argument("--delay-ms", type=float, default=0.0)
    parser.add_argument("--loss", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    maps = []
    for item in args.map:
        listen, _, target = item.partition("=")
        maps.append((parse_addr(listen), parse_addr(target)))
    try:
        asyncio.run(serve(maps, args.delay_ms, args.loss, args.seed))
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
