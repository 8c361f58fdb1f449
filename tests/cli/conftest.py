"""Two seeded games of ``p2pclue simulate``, each played once for every test that reads what
it printed, its transcript or the audits of it (``p2pclue`` run in this process, its output
captured as a pipe holds it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli.helpers import Ran, run_main


@dataclass(frozen=True)
class Game:
    """``simulate ARGS --transcript PATH``, and ``audit PATH`` in its three forms."""

    transcript: Path
    told: Ran
    summary: Ran
    """``audit PATH``."""
    replay: Ran
    """``audit PATH --replay``."""
    events: Ran
    """``audit PATH --replay --json``."""


def _played(folder: Path, *args: str) -> Game:
    path = folder / "game.p2pclue"
    told = run_main("simulate", *args, "--transcript", str(path))
    assert told.returncode == 0, told.stderr
    return Game(path, told, run_main("audit", str(path)), run_main("audit", str(path), "--replay"),
                run_main("audit", str(path), "--replay", "--json"))


@pytest.fixture(scope="session")
def three_players(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """Three detective bots, seed 5, with the JSON result line (``--json``)."""
    return _played(tmp_path_factory.mktemp("three"), "--players", "3", "--seed", "5", "--json")


@pytest.fixture(scope="session")
def four_players(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """Four detective bots, seed 5: the story of a newcomer's first game (two players are
    brought into a room by another's suggestion, rule R22)."""
    return _played(tmp_path_factory.mktemp("four"), "--players", "4", "--seed", "5")
