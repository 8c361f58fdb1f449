"""The one JSON object that ends ``simulate --json`` and ``join --bot ... --json``.

Scripts read both the same way, so one function builds it: the keys and their
meaning never depend on which command played the game (``join`` adds
``transcript``, the saved file's path).
"""

from __future__ import annotations

import hashlib
from typing import Any

from p2pclue.engine.errors import Blame
from p2pclue.rules.state import GameState


def result_object(*, result: str, state: GameState | None, blame: Blame | None, rules: str,
                  players: int, seed: int | None, bot: str | None, messages: int,
                  raw: bytes) -> dict[str, Any]:
    """How the game ended and which transcript proves it (``raw``: its exact bytes)."""
    return {
        "result": result,
        "winner": state.winner if state is not None and result == "won" else None,
        "blamed": blame.culprit if blame is not None else None,
        "reason": f"{blame.check}: {blame.reason}" if blame is not None else None,
        "turns": state.turn_number if state is not None else 0,
        "rules": rules,
        "players": players,
        "seed": seed,
        "bot": bot,
        "messages": messages,
        "transcript_bytes": len(raw),
        "transcript_sha256": hashlib.sha256(raw).hexdigest(),
    }
