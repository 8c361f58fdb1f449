"""A person's automatic "I cannot refute" is held like a choice over the network too.

Three real sessions on loopback; the opener's seat is a person's (``pass_delay``), the
others are not. Every time the opener's engine passes, the other players must see that
pass only after the delay; the other seats' passes go out at once. The game still ends
with identical transcripts that audit valid.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from p2pclue.bots.registry import BOTS
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.net import api
from p2pclue.net.botplay import drive_bot
from p2pclue.net.session import NetSession
from tests.net.procs import HANG_GUARD
from tests.net.test_session import seat, seated

DELAY = 0.6


def _one_game(tmp_path: Path) -> tuple[list[float], list[float]]:
    """One 3-player game of random bots, seat 0 a person's: how long each pass took to
    reach every session, the person's and the others'."""
    seen: dict[tuple[int, int], list[float]] = {}
    """(who passed, on which suggestion) -> when each session saw that pass."""

    def watcher(sugg: list[int]) -> Callable[[api.SessionEvent], None]:
        def on_event(event: api.SessionEvent) -> None:
            if isinstance(event, api.Engine):
                if isinstance(event.event, ev.Suggested):
                    sugg[0] += 1
                elif isinstance(event.event, ev.Passed):
                    seen.setdefault((event.event.seat, sugg[0]), []).append(time.monotonic())
        return on_event

    async def play() -> tuple[list[NetSession], list[api.Ended]]:
        person = replace(seat(tmp_path, "Person"), pass_delay=(DELAY, DELAY))
        sessions, _, _ = await seated(tmp_path, "Pace", person, 3)
        runs = [asyncio.ensure_future(s.run()) for s in sessions]
        bots = [drive_bot(s, BOTS["detective"], random.Random(i), watcher([0]))
                for i, s in enumerate(sessions)]
        ended = await asyncio.wait_for(asyncio.gather(*bots), HANG_GUARD)
        await asyncio.gather(*runs)
        return sessions, list(ended)

    sessions, ended = asyncio.run(play())
    assert all(e.status == "complete" and e.audit_ok for e in ended), ended
    files = {s.transcript_path.read_bytes() for s in sessions}
    assert len(files) == 1 and audit(parse(files.pop())).valid
    person_seat = sessions[0].seat
    assert person_seat is not None
    held = [max(t) - min(t) for (who, _), t in seen.items() if who == person_seat and len(t) == 3]
    quick = [max(t) - min(t) for (who, _), t in seen.items() if who != person_seat and len(t) == 3]
    return held, quick


def test_a_persons_pass_is_held_and_others_are_not(tmp_path: Path) -> None:
    # Whether the person's seat is ever asked to refute depends on the random game: play
    # again (at most three games) until it has passed at least once.
    for attempt in range(3):
        game_dir = tmp_path / f"game{attempt}"
        game_dir.mkdir()
        held, quick = _one_game(game_dir)
        if held:
            break
    assert held, "the person passed at least once in three games"
    assert min(held) >= DELAY * 0.9, held
    assert quick and max(quick) < DELAY * 0.9, quick
