"""Fixtures of the network tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

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
