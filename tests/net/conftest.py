"""Fixtures of the network tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pclue.net.discovery import multicast_available
from tests.net.procs import Procs, net_env


@pytest.fixture
def procs(tmp_path: Path) -> Iterator[Procs]:
    """Real ``p2pclue`` processes of this test, in a home of their own (``tmp_path/home``),
    their output in ``tmp_path/output``; every one still running is killed at the end,
    whatever happened."""
    started = Procs(tmp_path / "output", net_env(tmp_path / "home"))
    try:
        yield started
    finally:
        started.kill_all()


@pytest.fixture(scope="session")
def multicast_on_loopback() -> bool:
    """Whether a multicast datagram sent on 127.0.0.1 comes back (asked once, when a test
    first needs it: nothing is probed at collection)."""
    return multicast_available("127.0.0.1")


@pytest.fixture
def multicast(multicast_on_loopback: bool) -> None:
    """Real zeroconf on loopback: skipped, with the reason, where multicast on lo does not
    work (the ``--peer`` path is tested without it)."""
    if not multicast_on_loopback:
        pytest.skip("multicast on the loopback interface does not work here (no MULTICAST "
                    "flag on lo, or no route for 224.0.0.0/4 on it)")
