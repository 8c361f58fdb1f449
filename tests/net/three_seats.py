"""Three seats of one game, each a real ``NetSession`` with loopback links (127.0.0.1),
built in one process for tests: Pat (a person's seat: paced, so its runner leaves the
vote about a silent player to the person) opens the table; Bruno and Chiara join it.
And ``Hanging``: a seat whose player stops answering while its process and links stay
up."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from p2pclue.bots.registry import BOTS
from p2pclue.engine import events as ev
from p2pclue.engine.wire import split_frame
from p2pclue.net import api
from p2pclue.net.botplay import drive_bot
from p2pclue.net.play import Seat, join_table, open_table
from p2pclue.net.profile import load
from p2pclue.net.session import NetSession
from p2pclue.rules.variants import preset

TIMEOUT = 1.5
"""Seconds of silence before the table is told (short, for tests)."""
PERSON_PACE = (0.01, 0.02)
"""A person's seat (its runner leaves the vote to the person), paced briefly."""


class Hanging:
    """A bot's session whose decisions block while ``hang`` is set (a hung process with
    its links up): the engine's automatic steps go on, its choices are never sent."""

    def __init__(self, session: NetSession) -> None:
        self._session = session
        self.config = session.config
        self.seat = session.seat
        self.events = session.events
        self.hang = asyncio.Event()
        self.released = asyncio.Event()
        self.blocked = asyncio.Event()

    @property
    def state(self) -> Any:
        return self._session.state

    @property
    def hand(self) -> tuple[int, ...]:
        return self._session.hand

    def choice(self) -> Any:
        return self._session.choice()

    async def submit(self, intent: ev.Intent) -> None:
        if self.hang.is_set():
            self.blocked.set()
            await self.released.wait()
        await self._session.submit(intent)

    async def run(self) -> None:
        await self._session.run()

    async def close(self) -> None:
        await self._session.close()


def sender(raw: bytes) -> int | None:
    return split_frame(raw)[0]


def seat(home: Path, name: str, *, person: bool = False, suspect: int | None = None,
         timeout: float = TIMEOUT) -> Seat:
    return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, suspect=suspect,
                interfaces=["127.0.0.1"], timeout=timeout,
                pass_delay=PERSON_PACE if person else (0.0, 0.0))


async def three_seats(home: Path, *, first: str = "Pat",
                      timeout: float = TIMEOUT) -> list[NetSession]:
    """The person opens a 3-seat table; two bots join it over loopback links. ``first``
    plays Miss Scarlett, who moves first (R10); Pat, Bruno and Chiara in that order.
    ``timeout``: every seat's silence timeout (short by default: the tests of the vote)."""
    order = ["Pat", "Bruno", "Chiara"]
    order.remove(first)
    suspects = {first: 0, order[0]: 1, order[1]: 2}
    loop = asyncio.get_running_loop()
    opened: asyncio.Future[tuple[str, int]] = loop.create_future()
    host_task = asyncio.ensure_future(open_table(
        seat(home, "Pat", person=True, suspect=suspects["Pat"], timeout=timeout), "Vote",
        preset("classic"), 3, None,
        on_opened=lambda o: opened.set_result((o.host, o.port)), on_view=lambda v: None,
        announce=False))
    first_of: list[asyncio.Future[Any]] = [opened, host_task]
    await asyncio.wait(first_of, return_when=asyncio.FIRST_COMPLETED)
    host, port = await opened
    assert host == "127.0.0.1"
    guests = [asyncio.ensure_future(join_table(seat(home, name, suspect=suspects[name],
                                                    timeout=timeout),
                                               "Vote", host, port, None,
                                               on_view=lambda v: None))
              for name in ("Bruno", "Chiara")]
    return [await host_task] + [await g for g in guests]


Tasks = list["asyncio.Future[Any]"]


def others_play(bruno: NetSession, chiara: NetSession) -> tuple[Hanging, Tasks, Tasks]:
    """Bruno and Chiara run as random bots; Chiara's hangs at her first decision (her links
    stay up). Returns Chiara's session as the test holds it, the runners and the bots."""
    silent = Hanging(chiara)
    silent.hang.set()
    runs: Tasks = [asyncio.ensure_future(s.run()) for s in (bruno, chiara)]
    seats: list[api.Session] = [bruno, silent]
    bots: Tasks = [asyncio.ensure_future(drive_bot(s, BOTS["random"], random.Random(k)))
                   for k, s in enumerate(seats)]
    return silent, runs, bots


async def stop_all(front: asyncio.Future[Any], silent: Hanging, runs: Tasks, bots: Tasks,
                   sessions: list[NetSession]) -> None:
    """Release the hung seat, stop the front end and the bots, close every session."""
    silent.released.set()
    for task in (front, *bots):
        task.cancel()
    await asyncio.gather(front, *bots, return_exceptions=True)
    for s in sessions:
        await s.close()
    await asyncio.gather(*runs, return_exceptions=True)
