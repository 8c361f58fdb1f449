"""A model's screen as a terminal shows it: prompt_toolkit's real output read by pyte.

For tests that set a ``UIModel`` (or a lobby's model) up by its events and want the very
cells a person reads at 80 x 24 (the game's own screens, without playing a game to reach
them).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.layout import Layout
from prompt_toolkit.layout.containers import Container
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pclue.tui import view
from p2pclue.tui.app import STYLE
from p2pclue.tui.model import UIModel
from tests.tui.terminal import PyteStdout


def draw(container_of: Callable[[int, int], Container], columns: int = 80,
         rows: int = 24) -> list[str]:
    """The lines a ``columns`` x ``rows`` terminal shows for the layout that
    ``container_of(columns, rows)`` builds (a game's screen, a lobby's)."""
    term = PyteStdout(columns, rows)
    size = Size(rows=rows, columns=columns)
    output = Vt100_Output(term, lambda: size, term="xterm-256color",  # type: ignore[arg-type]
                          enable_cpr=False)

    shown: list[str] = []

    async def run() -> None:
        with create_pipe_input() as keys:
            app: Application[None] = Application(
                layout=Layout(container_of(columns, rows)),
                style=STYLE, full_screen=True, input=keys, output=output)
            task = asyncio.ensure_future(app.run_async())
            deadline = time.monotonic() + 120  # a hang guard only: the first frame is drawn
            while app.render_counter == 0:  # at once, as the application starts
                assert not task.done() and time.monotonic() < deadline, "no frame drawn"
                await asyncio.sleep(0.005)
            shown.extend(term.screen.display)  # before leaving, which clears it
            app.exit()
            await task

    asyncio.run(run())
    return shown


def screen_of(model: UIModel, columns: int = 80, rows: int = 24) -> list[str]:
    """The lines of the screen ``model`` draws on a ``columns`` x ``rows`` terminal."""
    return draw(lambda w, h: view.root(model, w, h, lambda _sq: None), columns, rows)
