"""A stray error in a background task must never freeze the table.

prompt_toolkit's own handler prints "Unhandled exception" and waits for Enter; the table
replaces it for the time it runs: the error's type is told on screen and play goes on.
Real prompt_toolkit application, keys through a pipe, screen in pyte.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.tui.conftest import Opening
from tests.tui.terminal import Table


class Boom(RuntimeError):
    pass


def test_a_failed_background_step_is_told_and_the_table_goes_on(opening: Opening,
                                                                tmp_path: Path) -> None:
    async def play() -> None:
        t = Table(80, 24, tmp=tmp_path, session=opening.replay())
        await t.start()
        try:
            # once our turn is asked (a new question clears the message line)
            await t.until(lambda: "Your turn:" in t.term.text(), what="our turn")

            async def failing() -> None:
                raise Boom("secret text that must not be shown")

            t.ui._spawn(failing())  # a background step of the table that fails
            await t.until(lambda: "Something went wrong here (Boom)" in t.term.text(),
                          what="the error told on screen")
            assert "secret text" not in t.term.text()

            async def orphan() -> None:  # nobody awaits it: asyncio's handler is called
                raise Boom("also not shown")

            stray = asyncio.ensure_future(orphan())
            await t.until(stray.done, what="the stray task to fail")
            del stray  # its exception was never retrieved: reported when it is collected
            import gc
            gc.collect()
            await t.settle()
            assert "Unhandled exception" not in t.term.text()
            assert "Press ENTER" not in t.term.text()
            assert t.task is not None and not t.task.done()  # the table still runs
        finally:
            assert await t.close() == 0

    asyncio.run(play())
