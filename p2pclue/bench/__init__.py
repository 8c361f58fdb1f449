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


def _sections() -> dict[str, Section]:
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


SECTIONS: dict[str, Section] = _sections()
ON_REQUEST = frozenset({"cheats", "bots", "floods"})
"""Sections too long for a plain ``p2pclue bench`` (the cheat sweep plays ~700 games; the
floods start 14 player processes and flood them): they run only when named with ``--only``."""
