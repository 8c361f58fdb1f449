"""Benchmarks behind ``p2pclue bench``.

Each section is a function ``(emit, quick) -> dict`` that prints readable lines
through ``emit`` and returns figures for the JSON summary. Like ``cli``, this
package may read clocks; the layers it measures may not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Emit = Callable[[str], None]
Section = Callable[[Emit, bool], dict[str, Any]]


SECTION_NAMES = ("rules", "crypto", "game", "audit", "deduce", "link", "cheats", "bots", "lan",
                 "faults", "floods")
"""In the order they run. Only the names: ``p2pclue`` builds its parser from them without
importing the sections (every command, ``join`` too, started about 0.2 s later with them)."""


def sections() -> dict[str, Section]:
    """Every section by name, imported now."""
    from p2pclue.bench import bots, cheats, crypto, deduce, faults, floods, game, lan, link, rules

    return {
        "rules": rules.section,
        "crypto": crypto.section,
        "game": game.game_section,
        "audit": game.audit_section,
        "deduce": deduce.section,
        "link": link.section,
        "cheats": cheats.section,
        "bots": bots.section,
        "lan": lan.section,
        "faults": faults.section,
        "floods": floods.section,
    }


ON_REQUEST = frozenset({"cheats", "bots", "floods"})
"""Sections too long for a plain ``p2pclue bench`` (the cheat sweep plays ~700 games; the
floods start 14 player processes and flood them): they run only when named with ``--only``."""
