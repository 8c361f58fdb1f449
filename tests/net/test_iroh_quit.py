"""Leaving an internet table's lobby ends the process cleanly, every time.

A person opens an internet table (iroh on 127.0.0.1, relays off) in the full-screen
lobby, on a real pseudo-terminal read by pyte; a bot joins from another process with the
ticket, so a link is up; then the person leaves with q, or with Ctrl-C (the same key in
the lobby). The process must exit 0, the status of a person who left before the game,
and say nothing of an abort or a traceback. An iroh call still pending when the event
loop closes is completed later by iroh's own threads while the interpreter ends, and
Python then aborts the whole process (SIGABRT, "FATAL: exception not rethrown"); with a
member linked, every quit of the lobby did so. Several quits in a row, since the fault
is a race.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

from p2pclue.net.iroh_link import available
from tests.net.procs import Procs, net_env
from tests.tui.drive import PtyProgram

QUITS = ("q", "\x03", "q", "\x03", "q")
"""The keys that leave the lobby, one round each (``\\x03``: Ctrl-C as a terminal sends it)."""
GUARD = 120.0
"""Seconds any one step may take: a hang guard for a loaded machine, never a pace."""


def _ticket(prog: PtyProgram) -> str | None:
    """The ticket on the lobby's screen (wrapped over rows: read with their edges joined)."""
    joined = "".join(row.strip() for row in prog.screen.display)
    found = re.search(r"--ticket(clue1[a-z2-7]+) --code", joined)
    return found.group(1) if found else None


def _exit_status(prog: PtyProgram, guard: float) -> int | None:
    """Read the screen until the program ends (its status), or None after ``guard`` s."""
    end = time.monotonic() + guard
    while prog.proc.poll() is None and time.monotonic() < end:
        prog.pump(0.1)
    prog.pump(0.2)  # what it wrote as it ended
    return prog.proc.poll()


def _one_quit(tmp_path: Path, procs: Procs, i: int, key: str) -> tuple[int | None, bytes]:
    """Open the table, let a bot join and link, press ``key``: the exit status (None: still
    running after ``GUARD`` s) and every byte the program wrote."""
    env = dict(net_env(tmp_path / f"home{i}"), TERM="xterm-256color")
    prog = PtyProgram([sys.executable, "-m", "p2pclue", "join", "--lang", "en", "--create",
                       "--internet", "--no-relay", "--code", "2718", "--players", "3",
                       "--table", "Attic", "--name", "Pat", "--profile", "person"], env=env)
    try:
        prog.pump_until(lambda: _ticket(prog) is not None, GUARD, "the ticket")
        procs.p2pclue(f"guest{i}", "join", "--ticket", _ticket(prog) or "", "--code", "2718",
                      "--no-relay", "--bot", "detective", "--profile", "guest", "--json",
                      env=net_env(tmp_path / f"guest{i}"))
        prog.pump_until(lambda: "Your links:" in prog.text(), GUARD, "the joiner's link")
        prog.press(key)
        return _exit_status(prog, GUARD), bytes(prog.raw)
    finally:
        prog.close()


@pytest.mark.skipif(not available(), reason="the internet extra (iroh) is missing")
def test_leaving_the_lobby_of_an_internet_table_exits_0_without_an_abort(
        tmp_path: Path, procs: Procs) -> None:
    for i, key in enumerate(QUITS):
        status, raw = _one_quit(tmp_path, procs, i, key)
        said = raw.decode("utf-8", "replace")
        tail = said[-600:]
        assert status == 0, f"round {i} ({key!r}): exit status {status}\n{tail}"
        assert "FATAL" not in said and "Fatal Python" not in said, f"round {i}: {tail}"
        assert "Traceback" not in said, f"round {i}: {tail}"
        assert b"\x1b[?1049l" in raw, f"round {i}: the full screen was not closed"
