"""A person's seat leaves gracefully from the real UI (pipe keys, pyte screen) in a
3-player game against bots: the game goes on to the end and the transcript audits valid,
with the leaver's hand public."""

from __future__ import annotations

import asyncio
from pathlib import Path

from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.net.api import Ended
from p2pclue.tui.model import Overlay, Screen
from tests.tui.terminal import Table


def test_a_person_leaves_gracefully_and_the_game_goes_on(tmp_path: Path) -> None:
    async def play() -> tuple[Ended | None, tuple[int, ...], str]:
        t = Table(80, 24, tmp=tmp_path, seed=11)
        await t.start()
        try:
            await t.until(lambda: t.model.screen is Screen.GAME, what="the deal")
            hand = t.model.hand
            t.press("q")
            await t.until(lambda: t.model.overlay is Overlay.QUIT, what="quit asks")
            await t.settle()
            asked = t.term.text()
            t.press("l")
            await t.until(lambda: t.model.leaving or t.model.left_table, what="leave asked")
            await t.until(lambda: t.model.left_table, what="the leave in the transcript")
            await t.until(lambda: t.model.end.ended is not None, timeout=180,
                          what="the game's end without me")
            await t.settle()
            assert "You left the table" in t.term.text() or "game is over" in t.term.text()
            t.press("q")
            assert await asyncio.wait_for(t.task, 30) == 0  # type: ignore[arg-type]
            return t.model.end.ended, hand, asked
        finally:
            await t.close()

    ended, hand, asked = asyncio.run(play())
    assert "l: leave gracefully" in asked
    assert ended is not None and ended.transcript is not None
    raw = ended.transcript.read_bytes()
    verdict = audit(parse(raw), raw)
    assert verdict.valid, verdict.violation
    assert verdict.result in ("won", "nobody")
    left = [e for e in verdict.events if isinstance(e, ev.PlayerLeft)]
    assert [e.seat for e in left] == [0]
    assert sorted(left[0].hand) == sorted(hand)
