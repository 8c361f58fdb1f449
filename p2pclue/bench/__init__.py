"""Benchmarks behind ``p2pclue bench``.

Each section is a function ``(emit, quick) -> dict`` that prints readable lines
through ``emit`` and returns figures for the JSON summary; ``goals`` holds what those
figures must reach. Like ``cli``, this package may read clocks; the layers it measures
may not.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

Emit = Callable[[str], None]
Section = Callable[[Emit, bool], dict[str, Any]]


SECTION_NAMES = ("startup", "rules", "crypto", "game", "audit", "deduce", "link", "cheats",
                 "bots", "lan", "internet", "faults", "floods", "model")
"""In the order they run. Only the names: ``p2pclue`` builds its parser from them without
importing the sections (every command, ``join`` too, started about 0.2 s later with them)."""


_WHERE: dict[str, tuple[str, str]] = {
    "startup": ("startup", "section"), "rules": ("rules", "section"),
    "crypto": ("crypto", "section"), "game": ("game", "game_section"),
    "audit": ("game", "audit_section"), "deduce": ("deduce", "section"),
    "link": ("link", "section"), "cheats": ("cheats", "section"), "bots": ("bots", "section"),
    "lan": ("lan", "section"), "internet": ("internet", "section"),
    "faults": ("faults", "section"),
    "floods": ("floods", "section"), "model": ("model", "section"),
}
"""The module of ``p2pclue.bench`` and the function of each section."""


def load(name: str) -> Section:
    """The section ``name``, its module imported now (and no other section's)."""
    module, function = _WHERE[name]
    section: Section = getattr(importlib.import_module(f"{__name__}.{module}"), function)
    return section


def sections() -> dict[str, Section]:
    """Every section by name, imported now."""
    return {name: load(name) for name in _WHERE}


ON_REQUEST = frozenset({"cheats", "bots", "lan", "internet", "faults", "floods", "model"})
"""Sections too long for a plain ``p2pclue bench``: they run only when named with ``--only``.
The cheat sweep plays every cheat kind from every seat (774 games), the bots 1,200 games,
``lan`` tables of 3 to 6 player processes, ``internet`` three tables of six (LAN, iroh,
iroh at 80 ms round trip in namespaces), ``faults`` 50 games of four processes under
faults, the floods start 14 player processes and flood them, and ``model`` runs 20,000
rules of the generative fault model of a whole table."""
