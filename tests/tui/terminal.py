"""A real terminal emulator (pyte) as the application's screen, and helpers to drive it.

prompt_toolkit writes its real VT100 byte stream (``Vt100_Output``) into pyte, which
interprets it like a terminal would; tests then read what a person would see.
Keys go in through prompt_toolkit's pipe input, as bytes from a keyboard would.
"""

from __future__ import annotations

import asyncio
import fcntl
import struct
import termios
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyte
from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.input.base import PipeInput
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pclue.net.api import Session
from p2pclue.net.local import FAST, LocalSession
from p2pclue.rules.variants import preset
from p2pclue.tui.app import TableApp


def unread(fd: int) -> int:
    """Bytes written into a pipe and not read yet."""
    count: int = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]
    return count


async def redrawn(app: Application[Any], running: asyncio.Future[Any],
                  timeout: float = 120.0) -> None:
    """Wait for one redraw of ``app`` begun after this call, so the screen shows what the
    model holds now. prompt_toolkit draws a whole frame at once on the event loop, so a
    counted redraw is a finished one. ``timeout`` is a hang guard; ``running`` (the
    application's task) must not end meanwhile."""
    drawn = app.render_counter
    app.invalidate()
    deadline = time.monotonic() + timeout
    while app.render_counter == drawn:
        assert not running.done(), "the application stopped before drawing"
        assert time.monotonic() < deadline, "no redraw"
        await asyncio.sleep(0.005)


class PyteStdout:
    """What prompt_toolkit writes to, fed straight into a pyte screen."""

    encoding = "utf-8"

    def __init__(self, columns: int, rows: int) -> None:
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.screen)
        self.frames: list[str] | None = None
        """While recording (``record``): every frame drawn, as text, so a screen shown
        only for a moment can still be read."""

    def record(self) -> None:
        self.frames = []

    def write(self, data: str) -> int:
        self.stream.feed(data)
        return len(data)

    def flush(self) -> None:
        """prompt_toolkit flushes once per frame drawn."""
        if self.frames is not None:
            self.frames.append(self.text())

    def isatty(self) -> bool:
        return True

    def resize(self, columns: int, rows: int) -> None:
        self.screen.resize(rows, columns)

    def text(self) -> str:
        return "\n".join(self.screen.display)


class Table:
    """A local table with the UI on a pyte terminal; keys typed into a pipe."""

    def __init__(self, columns: int, rows: int, *, players: int = 3, seed: int = 7,
                 color: bool = True, tmp: Path, rules: str = "classic",
                 session: Session | None = None) -> None:
        """A seeded local game (``players``, ``seed``, ``rules``), or ``session``."""
        self.term = PyteStdout(columns, rows)
        self.size = Size(rows=rows, columns=columns)
        self.session: Session = session or LocalSession(
            preset(rules), players, seed=seed, pace=FAST, transcript_dir=tmp)
        self._pipe_cm = create_pipe_input()
        self.keys: PipeInput = self._pipe_cm.__enter__()
        output = Vt100_Output(self.term, lambda: self.size, term="xterm-256color",  # type: ignore[arg-type]
                              enable_cpr=False)
        self.ui = TableApp(self.session, input=self.keys, output=output, color=color)
        self.model = self.ui.model
        self.task: asyncio.Task[int] | None = None

    async def start(self) -> None:
        self.task = asyncio.ensure_future(self.ui.run())

    def resize(self, columns: int, rows: int) -> None:
        self.size = Size(rows=rows, columns=columns)
        self.term.resize(columns, rows)
        self.ui.app._on_resize()

    async def until(self, check: Callable[[], bool], timeout: float = 120.0,
                    what: str = "") -> None:
        """Wait for ``check`` (a state reached, a line shown); ``timeout`` only guards
        against a hang, so it is generous: a loaded machine is slow, not stuck."""
        deadline = time.monotonic() + timeout
        while not check():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what or check}:\n"
                                     + self.term.text())
            if self.task is not None and self.task.done():
                raise AssertionError(f"the UI stopped while waiting for {what}")
            await asyncio.sleep(0.02)

    async def settle(self) -> None:
        """Wait until the screen shows what the model holds now."""
        assert self.task is not None
        await redrawn(self.ui.app, self.task)

    def press(self, *keys: str) -> None:
        for k in keys:
            self.keys.send_text(k)

    async def keys_taken(self) -> None:
        """Wait until the application has read every key typed so far, and so handled it:
        prompt_toolkit hands the keys it reads to their handlers in the same step."""
        await self.until(lambda: unread(self.keys.fileno()) == 0, what="the keys read")

    async def close(self) -> int | None:
        result = None
        if self.task is not None:
            if not self.task.done():
                self.ui.app.exit(result=0)
            try:
                result = await asyncio.wait_for(self.task, 30)
            finally:
                self._pipe_cm.__exit__(None, None, None)
        return result
