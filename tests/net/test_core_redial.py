"""The re-dial policy (``net.redial``) on its own: pure, so every branch is one call."""

from __future__ import annotations

import itertools

from p2pclue.net import redial
from p2pclue.net.redial import LINK_STEADY, REDIAL_MAX, Redials

KEY = b"k" * 32


def _gaps(r: Redials, outcome: str, tries: int, now: float = 0.0) -> list[float]:
    times = []
    for _ in range(tries):
        at = r.next_time({})
        assert at is not None
        now = at
        assert r.due(now, {}) == [KEY]
        times.append(now)
        r.dialled(KEY, outcome, now)
    return [round(b - a, 3) for a, b in itertools.pairwise(times)]


def test_nobody_there_backs_off_from_50_ms_doubling_to_1_s() -> None:
    r = Redials()
    r.lost(KEY, 0.0)
    assert _gaps(r, redial.NOBODY, 8) == [0.05, 0.1, 0.2, 0.4, 0.8, 1.0, 1.0]


def test_a_stranger_slows_the_redials_to_2_s_doubling_to_30_s() -> None:
    r = Redials()
    r.lost(KEY, 0.0)
    assert _gaps(r, redial.STRANGER, 7) == [2.0, 4.0, 8.0, 16.0, 30.0, 30.0]


def test_a_bad_address_is_given_up_at_once() -> None:
    r = Redials()
    r.lost(KEY, 0.0)
    assert r.due(0.0, {}) == [KEY]
    assert r.dialled(KEY, redial.BAD_ADDRESS, 0.0) is False
    assert KEY not in r and r.next_time({}) is None


def test_one_dial_at_a_time_and_a_ban_is_waited_out() -> None:
    r = Redials()
    r.lost(KEY, 0.0)
    assert r.due(0.0, {KEY: 5.0}) == []  # refused for junk until 5 s: no dial before
    assert r.next_time({KEY: 5.0}) == 5.0
    assert r.due(5.0, {KEY: 5.0}) == [KEY]
    assert r.due(6.0, {}) == [] and r.next_time({}) is None  # in flight: not again
    r.lost(KEY, 6.0)  # already being re-dialled: nothing changes
    assert r.due(6.0, {}) == []


def test_a_link_that_dies_at_once_makes_the_next_redial_wait_until_one_lasts() -> None:
    r = Redials()
    now = 0.0
    waits = []
    for _ in range(6):
        r.lost(KEY, now)
        at = r.next_time({})
        assert at is not None
        waits.append(round(at - now, 3))
        assert r.due(at, {}) == [KEY]
        r.dialled(KEY, redial.LINKED, at)
        r.up(KEY, at)
        now = at + 0.01
        r.down(KEY, now)  # refused by the other side right after the handshake
    assert waits == [0.0, 0.05, 0.1, 0.2, 0.4, 0.8]
    r.lost(KEY, now)
    assert r.next_time({}) == now + REDIAL_MAX
    assert r.due(now + REDIAL_MAX, {}) == [KEY]
    r.dialled(KEY, redial.LINKED, now + REDIAL_MAX)
    r.up(KEY, now + REDIAL_MAX)
    r.down(KEY, now + REDIAL_MAX + LINK_STEADY)  # this one lasted: no carried-over wait
    r.lost(KEY, 100.0)
    assert r.next_time({}) == 100.0
