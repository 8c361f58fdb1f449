"""A person's automatic "I cannot refute" is held like a choice over the network too.

Three session cores on the in-memory transport, with the table's clock; seat 0 is a
person's (``pass_delay``), the others are not. Every time seat 0's engine passes, the
other players must see that pass only after the delay (on the table's clock, exactly the
delay drawn); the other seats' passes reach everyone at once. The game still ends with
identical transcripts that audit valid.
"""

from __future__ import annotations

import pytest

from p2pclue.engine import events as ev
from p2pclue.net import api
from tests.net.core_table import Clock, CoreTable, ended_well, make_table

DELAY = 0.6
PERSON = 0


def _one_game(seed: int) -> tuple[CoreTable, list[float], list[float]]:
    """One 3-player game of detective bots, seat 0 a person's: how long each pass took to
    reach every seat, the person's and the others'."""
    ct = make_table(3, seed, bot="detective", pass_delay=(DELAY, DELAY), paced=[PERSON])
    clock = Clock(ct)
    ct.run(until=clock)
    clock()
    seen: dict[tuple[int, int], list[float]] = {}
    """(who passed, on which suggestion) -> when each seat accepted that pass."""
    for events in clock.times.values():
        suggestion = 0
        for when, event in events:
            if isinstance(event, api.Engine):
                if isinstance(event.event, ev.Suggested):
                    suggestion += 1
                elif isinstance(event.event, ev.Passed):
                    seen.setdefault((event.event.seat, suggestion), []).append(when)
    held = [max(t) - min(t) for (who, _), t in seen.items() if who == PERSON and len(t) == 3]
    quick = [max(t) - min(t) for (who, _), t in seen.items() if who != PERSON and len(t) == 3]
    return ct, held, quick


def test_a_persons_pass_is_held_and_others_are_not() -> None:
    ct, held, quick = _one_game(seed=1)
    ended_well(ct)
    assert held, "the person passed at least once in this game"
    assert held == pytest.approx([DELAY] * len(held)), held  # the delay drawn, no more
    assert quick and all(q == 0.0 for q in quick), quick
