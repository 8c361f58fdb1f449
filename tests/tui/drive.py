"""The real program on a real pseudo-terminal, read by pyte, driven like a cautious player.

Shared by the end-to-end tests (a local game, a networked ``join``): the program runs as
its own process; the screen is what a terminal would show; keys are pressed by what the
action bar offers, until the end screen.
"""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import termios
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import pyte
import pytest

ROOT = Path(__file__).resolve().parents[2]


def pty_env() -> dict[str, str]:
    """The environment of a program under test: this checkout, a colour terminal."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env["TERM"] = "xterm-256color"
    env.pop("NO_COLOR", None)
    return env


class PtyProgram:
    def __init__(self, args: list[str], columns: int = 80, rows: int = 24,
                 env: dict[str, str] | None = None) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave,
                                     env=env or pty_env(), start_new_session=True, cwd=ROOT)
        os.close(slave)
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        """Every byte the program wrote, for what a screen cannot tell (a line the terminal
        wrapped at its width was still one line)."""

    def pump(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                return
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self.raw += data
            self.stream.feed(data)

    def pump_until(self, done: Callable[[], bool], seconds: float = 120.0,
                   what: str = "") -> None:
        """Read what the program draws until ``done()`` holds; fails after ``seconds`` (a
        hang guard, generous: a loaded machine is slow, not stuck) or if the program
        exits first."""
        deadline = time.monotonic() + seconds
        while not done():
            assert time.monotonic() < deadline, f"no {what or done} on:\n{self.text()}"
            if not self._read(min(0.2, max(0.0, deadline - time.monotonic()))):
                assert self.proc.poll() is None or done(), \
                    f"the program exited (status {self.proc.poll()}) before {what}:\n" \
                    + self.text()

    def pump_quiet(self, quiet: float = 0.1, seconds: float = 30.0) -> None:
        """Read until the program has drawn nothing for ``quiet`` seconds (a frame whole,
        not half drawn), or at most ``seconds``."""
        end = time.monotonic() + seconds
        while time.monotonic() < end and self._read(quiet):
            pass

    def _read(self, wait: float) -> bool:
        """Feed what the program wrote within ``wait`` seconds to the screen; False if it
        wrote nothing (or closed the terminal)."""
        ready, _, _ = select.select([self.master], [], [], wait)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the program closed the terminal
            time.sleep(min(wait, 0.05))
            return False
        self.raw += data
        self.stream.feed(data)
        return bool(data)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def bar(self) -> str:
        return self.screen.display[-1]

    def press(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.master)


def next_keys(bar: str) -> str | None:
    """What a cautious player presses for what the action bar offers (never accuses)."""
    for offer, key in (("Enter:show", "\r"), ("y:accuse", "n"), ("Enter:choose", "\r"),
                       ("Enter:go", "\r"), ("e:stay", "e"), ("s:suggest", "s"),
                       ("r:roll", "r"), ("e:end turn", "e"),
                       ("arrows:pick", "\x1b[B")):  # no room in reach: a square first
        if offer in bar:
            return key
    return None


def screen_changed(prog: PtyProgram, first_row: int = 1) -> Callable[[], bool]:
    """Whether the screen from ``first_row`` down differs from what it shows now (row 0,
    the status line, has a clock of its own)."""
    before = prog.screen.display[first_row:]
    return lambda: prog.screen.display[first_row:] != before


def press_and_read(prog: PtyProgram, keys: str | None,
                   done: Callable[[], bool] = lambda: False, seconds: float = 120.0) -> None:
    """Press ``keys`` (if any), then read until the screen answers (anything below the
    status line redrawn) or ``done()``, and on until the frame is whole (nothing more
    drawn for a moment): a half-drawn frame's bar would offer the old keys again.
    ``seconds`` is a hang guard."""
    answered = screen_changed(prog)
    if keys is not None:
        prog.press(keys)
    prog.pump_until(lambda: answered() or done(), seconds, f"an answer to {keys!r}")
    prog.pump_quiet()


def play_to_the_end(prog: PtyProgram, seconds: float,
                    watch_for: Iterable[str] = ()) -> tuple[int, set[str]]:
    """Press what the bar offers until the end screen (``q:leave``); fails after ``seconds``
    (a hang guard) or if the program exits first. After each key it waits for the screen
    to answer it (anything below the status line redrawn, whose clock ticks by itself),
    then for the frame to be whole. Returns the keys pressed and which of ``watch_for``
    appeared on some screen on the way (the lobby, the table check...)."""
    wanted = tuple(watch_for)
    seen: set[str] = set()
    presses = 0
    deadline = time.monotonic() + seconds
    prog.pump_quiet()
    while time.monotonic() < deadline:
        text = prog.text()
        seen.update(w for w in wanted if w in text)
        if "q:leave" in prog.bar():
            return presses, seen
        assert prog.proc.poll() is None, f"the program exited mid-game:\n{text}"
        key = next_keys(prog.bar())
        presses += key is not None
        press_and_read(prog, key, seconds=max(0.0, deadline - time.monotonic()))
    pytest.fail("no end screen in time:\n" + prog.text())
