"""LocalSession: a whole table in one process behind the front ends' session contract."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from p2pclue.bots.detective import DetectiveBot
from p2pclue.bots.protocol import BotSeat
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.errors import LocalProtocolError
from p2pclue.engine.transcript import parse
from p2pclue.net.api import Ended, Engine, Progress, SessionEvent, Waiting, YourChoice
from p2pclue.net.local import FAST, LocalSession, Pace
from p2pclue.rules.variants import preset
from tests.net.procs import HANG_GUARD


async def _play(session: LocalSession, stop_after: int | None = None) -> list[SessionEvent]:
    """Drive the local seat with a detective bot through the contract only."""
    assert session.seat is not None
    me = BotSeat(DetectiveBot(session.seat, random.Random(1)), session.config.n_players)
    runner = asyncio.ensure_future(session.run())
    seen: list[SessionEvent] = []
    choices = 0
    while True:
        event = await asyncio.wait_for(session.events.get(), HANG_GUARD)
        seen.append(event)
        if isinstance(event, Engine):
            me.feed(event.event)
        elif isinstance(event, YourChoice):
            choices += 1
            if stop_after is not None and choices > stop_after:
                await session.close()
                continue
            assert session.choice() == event.choice
            await session.submit(me.choose(session.me, event.choice))
        elif isinstance(event, Ended):
            break
    await runner
    return seen


@pytest.mark.parametrize("rules", ["classic", "cz"])
def test_a_whole_game_progress_choices_and_an_audited_transcript(tmp_path: Path,
                                                                  rules: str) -> None:
    session = LocalSession(preset(rules), 3, seed=21, pace=FAST, transcript_dir=tmp_path)
    seen = asyncio.run(_play(session))
    progress = [e for e in seen if isinstance(e, Progress)]
    stages = ["join", "keys", "envelope", "deal", "unlayer"] + (
        ["random"] if preset(rules).weapons_random else [])
    assert [(p.stage, p.seat, p.step, p.steps) for p in progress] == [
        (stage, seat, seat + 1, 3) for stage in stages for seat in range(3)]
    assert any(isinstance(e, YourChoice) for e in seen)
    assert any(isinstance(e, Waiting) and e.seat != 0 for e in seen)
    end = seen[-1]
    assert isinstance(end, Ended)
    assert end.status == "complete" and end.audit_ok is True
    assert end.transcript is not None and end.transcript.parent == tmp_path
    raw = end.transcript.read_bytes()
    assert raw == session.me.transcript().to_bytes()
    assert audit(parse(raw), raw).valid
    kinds = {type(e.event) for e in seen if isinstance(e, Engine)}
    assert ev.HandDealt in kinds and ev.GameOver in kinds and ev.Finished in kinds


def test_leaving_mid_game_keeps_a_valid_abandoned_transcript(tmp_path: Path) -> None:
    session = LocalSession(preset("classic"), 3, seed=4, pace=FAST, transcript_dir=tmp_path)
    seen = asyncio.run(_play(session, stop_after=3))
    end = seen[-1]
    assert isinstance(end, Ended)
    assert end.status == "abandoned"
    assert end.audit_ok is True
    assert end.transcript is not None
    raw = end.transcript.read_bytes()
    verdict = audit(parse(raw), raw)
    assert verdict.valid and verdict.result == "abandoned"
    assert verdict.entries > 18


def test_submit_out_of_turn_is_a_typed_error(tmp_path: Path) -> None:
    async def go() -> None:
        session = LocalSession(preset("classic"), 3, seed=2, pace=FAST, transcript_dir=tmp_path)
        with pytest.raises(LocalProtocolError):
            await session.submit(ev.RollDice())
        await session.close()

    asyncio.run(go())


def test_bad_setup_is_a_typed_error() -> None:
    with pytest.raises(LocalProtocolError):
        LocalSession(preset("classic"), 7)
    with pytest.raises(LocalProtocolError):
        LocalSession(preset("classic"), 3, seat=3)
    with pytest.raises(LocalProtocolError):
        LocalSession(preset("classic"), 3, bot="oracle")


def test_an_unwritable_folder_costs_no_game(tmp_path: Path) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    session = LocalSession(preset("classic"), 3, seed=8, pace=FAST,
                           transcript_dir=blocked / "sub")
    seen = asyncio.run(_play(session))
    end = seen[-1]
    assert isinstance(end, Ended)
    assert end.status == "complete" and end.audit_ok is True and end.transcript is None
    assert "cannot be saved" in end.message


def test_the_loop_stays_free_while_proofs_run(tmp_path: Path) -> None:
    """Engine work happens on the worker thread: the event loop keeps ticking."""

    async def go() -> float:
        session = LocalSession(preset("classic"), 3, seed=9, pace=Pace(0.0, (0.0, 0.0)),
                               transcript_dir=tmp_path)
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.005)
                ticks += 1

        ticker = asyncio.ensure_future(tick())
        await _play(session, stop_after=2)
        ticker.cancel()
        return ticks

    assert asyncio.run(go()) > 20
