"""The bots an opener seats in its own process (``join --create --bots N``) need no code.

A stranger may use the table code up before those bots dial, and the code turns (at most
three times, then the entry closes: docs/protocol.md, "Wrong codes, strangers and
limits"). A bot given the code from when the table opened was then refused, and the
opener's command failed. Now the bots come through the opener's door (``net.door``): in
memory, with no code and no guess. Over real loopback sockets: a stranger process closes the
entry with wrong codes; a joiner with the opening code is refused, as any newcomer must be;
the opener's two bots still sit down, and the three sign one start.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from p2pclue.net.lobby import LobbyView
from p2pclue.net.play import Opened, Seat, bot_transport, join_table, open_table
from p2pclue.net.profile import load
from p2pclue.net.table import TableClosed
from p2pclue.rules.variants import preset
from tests.net.procs import HANG_GUARD
from tests.net.test_code_guesses import CODE, NAME, stranger
from tests.net.test_last_seat import close_all
from tests.net.test_links import run


def _seat(home: Path, name: str) -> Seat:
    return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, interfaces=["127.0.0.1"])


async def _entry_closed_then_bots(home: Path) -> tuple[Opened, list[str], int]:
    """Returns the opener's screen state, the stranger's outcomes and how many configs the
    opener and its two bots started (1: one game)."""
    loop = asyncio.get_running_loop()
    opened: asyncio.Future[Opened] = loop.create_future()
    closed = asyncio.Event()

    def code_news(o: Opened) -> None:
        if o.entry_closed:
            closed.set()

    host = asyncio.ensure_future(open_table(
        _seat(home, "Host"), NAME, preset("classic"), 3, CODE, announce=False,
        on_opened=opened.set_result, on_view=lambda v: None, on_code=code_news,
        own_bots=True))
    tasks: list[asyncio.Future[Any]] = [host]
    sessions = []
    try:
        o = await asyncio.wait_for(opened, HANG_GUARD)
        outcomes = await stranger(o.port, 250, HANG_GUARD, sources=80)
        await asyncio.wait_for(closed.wait(), HANG_GUARD)
        with pytest.raises(TableClosed):  # the opening code: what the bots used to bring
            await join_table(_seat(home, "Late"), NAME, o.host, o.port, CODE,
                             on_view=lambda v: None)
        views: list[LobbyView] = []
        for name in ("Bot1", "Bot2"):
            seat = _seat(home, name)
            tasks.append(asyncio.ensure_future(join_table(
                seat, NAME, o.host, o.port, o.code, on_view=views.append,
                transport=bot_transport(o, seat, NAME))))
        sessions = [await asyncio.wait_for(t, HANG_GUARD) for t in tasks]
        return o, outcomes, len({s.config.digest() for s in sessions})
    finally:
        await close_all(sessions, tasks)


def test_the_openers_bots_sit_down_after_the_entry_closed(tmp_path: Path) -> None:
    o, outcomes, configs = run(_entry_closed_then_bots(tmp_path), 4 * HANG_GUARD)
    assert o.entry_closed and o.code_turns == 3, (o, outcomes)
    assert outcomes.count("wrong-code") >= 200  # four codes used up by the stranger
    assert configs == 1  # the opener and its two bots signed one start
