"""A networked bot thinks about its turn on a low-priority thread, and shows at once.

Three real sessions (``NetSession``; their lobby and links over the in-memory transport,
no socket matters here), every seat a detective bot whose decisions are recorded with
the thread and the OS priority they ran at. A turn's thinking must run off the loop
thread with its nice value raised by ``THINK_NICE`` (so that it never takes a core from a
seat checking a proof); the choice of a card to show must run on the loop thread at its own
priority (the table waits for it). The games end complete, with one transcript that audits
valid.
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
from pathlib import Path
from typing import Any

from p2pclue.bots.registry import BOTS
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.net.botplay import THINK_NICE, drive_bot
from p2pclue.net.memlinks import Hub
from p2pclue.rules.state import GameState, Phase
from tests.net.procs import HANG_GUARD
from tests.net.test_core_driver import linked_in_memory

Record = tuple[bool, int, int]
"""(whether it chose a card to show, the thread it ran on, that thread's nice value)"""


class _Recorded:
    """A detective that notes where each of its decisions ran."""

    def __init__(self, inner: Any, log: list[Record]) -> None:
        self._inner = inner
        self._log = log

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def decide(self, state: GameState) -> Any:
        tid = threading.get_native_id()
        self._log.append((state.phase is Phase.AWAIT_REFUTATION, tid,
                          os.getpriority(os.PRIO_PROCESS, tid)))
        return self._inner.decide(state)


def _game(home: Path) -> tuple[list[list[Record]], int, int, list[bytes]]:
    """One 3-player game: every seat's records, the loop thread and its nice, and the
    transcripts."""
    logs: list[list[Record]] = [[], [], []]

    async def play() -> tuple[int, int, list[bytes]]:
        here = threading.get_native_id()
        loop_nice = os.getpriority(os.PRIO_PROCESS, here)
        sessions = await linked_in_memory(home, Hub(), None)
        runs = [asyncio.ensure_future(s.run()) for s in sessions]

        def factory(i: int) -> Any:
            return lambda s, rng: _Recorded(BOTS["detective"](s, rng), logs[i])

        bots = [drive_bot(s, factory(i), random.Random(i)) for i, s in enumerate(sessions)]
        ended = await asyncio.wait_for(asyncio.gather(*bots), HANG_GUARD)
        await asyncio.gather(*runs)
        assert all(e.status == "complete" and e.audit_ok for e in ended), ended
        return here, loop_nice, [s.transcript_path.read_bytes() for s in sessions]

    here, loop_nice, files = asyncio.run(play())
    return logs, here, loop_nice, files


def test_turns_are_thought_on_a_low_priority_thread_and_shows_at_once(tmp_path: Path) -> None:
    logs, here, loop_nice, files = _game(tmp_path)
    assert len(set(files)) == 1 and audit(parse(files[0])).valid
    records = [r for log in logs for r in log]
    shows = [r for r in records if r[0]]
    turns = [r for r in records if not r[0]]
    assert shows and turns, "a 3-player game has both turns and shows"
    assert all(tid == here and nice == loop_nice for _, tid, nice in shows)
    assert all(tid != here for _, tid, _ in turns)
    assert {nice for _, _, nice in turns} == {min(19, loop_nice + THINK_NICE)}
    # every seat's turn thinking ran on one thread of its own, not a new one each time
    for log in logs:
        assert len({tid for show, tid, _ in log if not show}) == 1
