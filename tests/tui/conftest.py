"""The terminal UI tests' fixtures: colour as each test chooses it, and one recorded opening
shown again to the tests that only read its screens."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass

import pytest

from p2pclue.engine.config import GameConfig
from p2pclue.net.local import FAST, LocalSession
from p2pclue.rules.variants import preset
from p2pclue.tui.model import Mode
from tests.tui.replay import Recording, Replay, Step
from tests.tui.terminal import Table


@pytest.fixture(autouse=True)
def _colour_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests choose colour explicitly; an inherited NO_COLOR must not change them."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert "NO_COLOR" not in os.environ


@dataclass(frozen=True)
class Opening:
    """A game's opening as the person's screen took it: ``Table``'s seeded table (three
    players, seed 7), from the deal to the person's first roll and the question where to
    move."""

    config: GameConfig
    log: list[Step]

    def replay(self) -> Replay:
        """A session that shows this opening again (``tests.tui.replay``)."""
        return Replay(self.config, 0, self.log)


@pytest.fixture(scope="session")
def opening(tmp_path_factory: pytest.TempPathFactory) -> Opening:
    """The opening, played once through the real protocol and recorded; the tests that only
    read its screens (the board, the notepad, the help, the bar, in every language) see it
    again through the real application instead of dealing a game each."""
    tmp = tmp_path_factory.mktemp("opening")
    session = LocalSession(preset("classic"), 3, seed=7, pace=FAST, transcript_dir=tmp)
    recording = Recording(session)

    async def play() -> None:
        t = Table(80, 24, tmp=tmp, session=recording)
        try:
            await t.start()
            await t.until(lambda: t.model.mode is Mode.TURN, what="my first turn")
            t.press("r")
            await t.until(lambda: t.model.mode is Mode.MOVE, what="the roll")
        finally:
            await t.close()

    asyncio.run(play())
    return Opening(session.config, recording.log)
