"""Issue 20, point 3, on a real networked table at 80 x 24 (loopback links, pyte screen):
a player who stops answering is named on the status line from the first second (not only
once the runner reports the silence), then the vote's keys are spelled out, and the
abandoned end screen says who was silent and who voted.

Chiara plays Miss Scarlett, who moves first, and hangs before her first roll (her links
stay up); the person's seat (Pat) presses ``x``; Bruno's bot votes to end by itself.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pclue.tui.app import TableApp
from p2pclue.tui.model import Screen, UIModel
from tests.net.three_seats import others_play, stop_all, three_seats
from tests.tui.terminal import PyteStdout, redrawn


async def _until(check: Callable[[], bool], what: str, term: PyteStdout,
                 timeout: float = 120.0, step: float = 0.02) -> None:
    """Wait for ``check``; ``timeout`` is a hang guard, generous for a loaded machine."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}:\n" + term.text()
        await asyncio.sleep(step)


class StatusLines(PyteStdout):
    """The screen, and every frame's status line with the seat whose silence the table had
    reported by then (None: none yet)."""

    def __init__(self) -> None:
        super().__init__(80, 24)
        self.model: UIModel | None = None
        self.drawn: list[tuple[str, int | None]] = []

    def flush(self) -> None:
        if self.model is not None:
            reported = self.model.waiting
            self.drawn.append((self.screen.display[0],
                               None if reported is None else reported.seat))


async def _screens(home: Path) -> tuple[str, str, str]:
    person, bruno, chiara = await three_seats(home, first="Chiara")
    term = StatusLines()
    with create_pipe_input() as keys:
        output = Vt100_Output(term, lambda: Size(rows=24, columns=80),  # type: ignore[arg-type]
                              term="xterm-256color", enable_cpr=False)
        ui = TableApp(person, input=keys, output=output, color=False)
        term.model = m = ui.model
        front = asyncio.ensure_future(ui.run())
        silent, runs, bots = others_play(bruno, chiara)
        try:
            await _until(lambda: m.vote_offered(), "the offer to vote", term)
            await redrawn(ui.app, front)
            offered = "\n".join(row[:48] for row in term.screen.display)  # the panel
            keys.send_text("x")
            await _until(lambda: m.screen is Screen.END, "the end screen", term)
            await redrawn(ui.app, front)  # the model holds the whole end at once
            end = term.text()
        finally:
            await stop_all(front, silent, runs, bots, [person, bruno, chiara])
    # Drawn before the table reported Chiara's silence (every frame is kept: whatever the
    # machine's load, the first frame after she is awaited comes before the report).
    first = next((line for line, reported in term.drawn
                  if "waiting for Chiara" in line and reported != chiara.seat), "")
    return first, offered, end


def test_a_silent_player_is_named_at_once_then_the_vote_and_the_end_say_why(
        tmp_path: Path) -> None:
    first, offered, end = asyncio.run(_screens(tmp_path))
    assert "waiting for Chiara" in first, first
    words = " ".join(offered.split())
    assert "Chiara is silent: w to wait more, x to end the game as abandoned." in words, \
        offered
    words = " ".join(end.split())
    assert "while waiting for Chiara (signed by you and Bruno)" in words, end
    assert "Bruno votes to end the game while waiting for Chiara" in words, end
