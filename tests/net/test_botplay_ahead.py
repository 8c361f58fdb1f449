"""A networked detective works out its shows ahead, on its thinking thread.

Three real sessions on loopback, every seat a detective bot. Every deduction (a notepad
analysed, a suggester's view built) is recorded with the thread it ran on: none may run
on the loop thread, where a show is chosen while the whole table waits, so a show is a
lookup whatever the refuter holds. The work runs on the bots' low-priority threads.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from p2pclue.bots import showing
from p2pclue.deduce import Notepad, view_of
from p2pclue.net.botplay import THINK_NICE
from tests.net.test_botplay import _game


def test_shows_are_worked_out_ahead_on_the_thinking_thread(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notepads: Counter[tuple[int, int]] = Counter()
    views: Counter[tuple[int, int]] = Counter()
    analyse = Notepad._setup

    def where() -> tuple[int, int]:
        tid = threading.get_native_id()
        return tid, os.getpriority(os.PRIO_PROCESS, tid)

    def counted_setup(self: Notepad, *args: Any) -> None:
        notepads[where()] += 1
        analyse(self, *args)

    def counted_view(notepad: Notepad, seat: int) -> Notepad:
        views[where()] += 1
        return view_of(notepad, seat)

    monkeypatch.setattr(Notepad, "_setup", counted_setup)
    monkeypatch.setattr(showing, "view_of", counted_view)
    logs, here, loop_nice, _ = _game(tmp_path)
    shows = [r for log in logs for r in log if r[0]]
    assert shows, "a 3-player game has shows"
    assert all(tid == here for _, tid, _ in shows)  # chosen on the loop thread
    assert views and notepads
    assert not [w for w in (*views, *notepads) if w[0] == here], (views, notepads)
    assert {nice for _, nice in (*views, *notepads)} == {min(19, loop_nice + THINK_NICE)}
