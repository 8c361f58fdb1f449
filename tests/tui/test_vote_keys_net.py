"""The full-screen UI's ``w`` / ``x`` keys vote about a silent player on a real
networked table: keys into prompt_toolkit's pipe input, the screen on a pyte terminal,
the person's seat a ``NetSession`` with loopback links (127.0.0.1) to two bot seats.

Chiara plays Miss Scarlett, who moves first (R10), and hangs before her first roll: the
person owes nothing before the table waits for her. The screen names her and offers
``w`` / ``x``; ``x`` with Bruno's own abandon vote ends the game as abandoned (the end
screen, the audit of the saved transcript); ``w`` leaves Bruno's vote alone, short of
the quorum, and when Chiara is back the game goes on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.net.session import NetSession
from p2pclue.rules.cards import SUSPECTS
from p2pclue.tui.app import TableApp
from p2pclue.tui.model import Screen
from tests.net.three_seats import others_play, sender, stop_all, three_seats
from tests.tui.terminal import PyteStdout, redrawn

SCARLETT = next(c.index for c in SUSPECTS if c.slug == "scarlett")


async def _until(check: Callable[[], bool], what: str, term: PyteStdout,
                 timeout: float = 120.0) -> None:
    """Wait for ``check``; ``timeout`` is a hang guard, generous for a loaded machine."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}:\n" + term.text()
        await asyncio.sleep(0.02)


async def _vote_by_key(home: Path, key: str) -> tuple[str, str, NetSession, int,
                                                      int | None, int]:
    """Returns the screens when the vote was offered and just after the key, the screen at
    the end, the person's
    session, the silent seat, the UI's exit status (None: the test stopped it) and, after
    a wait, how many entries Chiara chained once back."""
    person, bruno, chiara = await three_seats(home, first="Chiara")
    assert chiara.config.players[chiara.seat or 0].suspect == SCARLETT
    term = PyteStdout(100, 30)
    with create_pipe_input() as keys:
        output = Vt100_Output(term, lambda: Size(rows=30, columns=100),  # type: ignore[arg-type]
                              term="xterm-256color", enable_cpr=False)
        ui = TableApp(person, input=keys, output=output, color=False)
        front = asyncio.ensure_future(ui.run())
        silent, runs, bots = others_play(bruno, chiara)
        status: int | None = None
        chained = 0
        try:
            await _until(lambda: ui.model.vote_offered(), "the offer to vote", term)
            await redrawn(ui.app, front)
            offered = term.text()
            term.record()
            keys.send_text(key)
            # With Bruno's vote already in, x ends the game at once: "you voted" may be on
            # the status line for one frame only, so every frame since the key is kept.
            await _until(lambda: ui.model.voted is not None or ui.model.screen is Screen.END,
                         "the key taken", term)
            await redrawn(ui.app, front)
            assert term.frames is not None
            offered += "\n" + "\n".join(term.frames)  # with the status line's "you voted"
            term.frames = None
            if key == "x":
                await _until(lambda: ui.model.screen is Screen.END, "the end screen", term)
                await redrawn(ui.app, front)
                end = term.text()
                keys.send_text("q")
                status = await asyncio.wait_for(front, 120)
            else:
                await _until(lambda: any("Bruno votes to end the game" in line
                                         for line in ui.model.story), "Bruno's own vote", term)
                assert person.ended is None
                before = len(person.peer.entries)
                silent.released.set()
                await _until(lambda: len(person.peer.entries) > before + 3,
                             "the game going on", term)
                chained = sum(1 for raw in person.peer.entries[before:]
                              if sender(raw) == chiara.seat)
                assert person.ended is None
                end = term.text()
        finally:
            await stop_all(front, silent, runs, bots, [person, bruno, chiara])
    assert chiara.seat is not None
    return offered, end, person, chiara.seat, status, chained


def test_x_on_the_full_screen_ends_a_silent_players_game_as_abandoned(tmp_path: Path) -> None:
    offered, end, person, silent, status, _chained = asyncio.run(_vote_by_key(tmp_path, "x"))
    assert "waiting for Chiara" in offered
    assert "w:wait more" in offered and "x:end as abandoned" in offered
    assert "you voted: end" in offered
    assert status == 0
    assert person.ended is not None and person.ended.status == "abandoned"
    assert "valid (abandoned" in end
    data = person.transcript_path.read_bytes()
    verdict = audit(parse(data), data)
    assert verdict.valid and verdict.result == "abandoned", verdict.violation
    voters = sorted(s for s in range(3) if s != silent)
    assert f"abandoned by the vote of seats {voters}" in " ".join(verdict.notes), verdict.notes


def test_w_on_the_full_screen_waits_and_the_game_goes_on(tmp_path: Path) -> None:
    offered, _end, person, _silent, status, chained = asyncio.run(_vote_by_key(tmp_path, "w"))
    assert "waiting for Chiara" in offered and "w:wait more" in offered
    assert status is None and person.ended is None
    assert "you voted: wait" in offered
    assert chained >= 1  # the silent player's own message, once back, then play went on
