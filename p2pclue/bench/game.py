"""Bench sections "game" and "audit": a whole 6-player game through the real protocol.

One process plays all six peers (every peer verifies every message itself), so
the game figure is the sum of six players' work; per player it is about a sixth.
The audit figure is one observer checking the finished transcript.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from typing import Any

from p2pclue.bench import Emit
from p2pclue.bots.protocol import ProtocolGame, play
from p2pclue.bots.registry import BOTS, DEFAULT_BOT
from p2pclue.crypto.group import MULT_COUNTER
from p2pclue.engine.audit import audit
from p2pclue.engine.peer import Peer
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import split_frame, unpack_strict
from p2pclue.rules.variants import preset

PLAYERS = 6
SEED = 2024
_last: dict[str, Any] = {}


def _frame_type(raw: bytes) -> str:
    payload = unpack_strict(split_frame(raw)[1])
    return str(payload["type"])


def _timed_game(rules: str) -> tuple[ProtocolGame, float, defaultdict[str, float], Counter[str]]:
    """Play one game, timing every receive by message type (all peers together)."""
    spent: defaultdict[str, float] = defaultdict(float)
    mults: Counter[str] = Counter()
    original = Peer.receive

    def timed(self: Peer, raw: bytes, now: float, via: int | None = None) -> Any:
        try:
            kind = _frame_type(raw)
        except Exception:
            kind = "?"
        m0, t0 = MULT_COUNTER.total, time.perf_counter()
        out = original(self, raw, now, via)
        spent[kind] += time.perf_counter() - t0
        mults[kind] += MULT_COUNTER.total - m0
        return out

    Peer.receive = timed  # type: ignore[method-assign]
    try:
        t0 = time.perf_counter()
        game = play(preset(rules), PLAYERS, SEED, BOTS[DEFAULT_BOT])
        seconds = time.perf_counter() - t0
    finally:
        Peer.receive = original  # type: ignore[method-assign]
    return game, seconds, spent, mults


def game_section(emit: Emit, quick: bool) -> dict[str, Any]:
    game, seconds, spent, mults = _timed_game("classic")
    peer = game.peers[0]
    raw = peer.transcript().to_bytes()
    _last["transcript"] = raw
    types = Counter(_frame_type(e) for e in peer.entries)
    state = peer.rules_state
    assert state is not None
    suggestions = types["suggest"]
    answers = types["show"] + types["pass"]
    refute_ms = (spent["show"] + spent["pass"]) * 1000
    per_suggestion = {
        "proofs_made": round(answers / max(suggestions, 1), 2),
        "proofs_verified": round(answers * PLAYERS / max(suggestions, 1), 2),
        "ms_all_peers": round(refute_ms / max(suggestions, 1), 1),
        "ms_per_peer": round(refute_ms / max(suggestions, 1) / PLAYERS, 1),
        "mults_all_peers": round((mults["show"] + mults["pass"]) / max(suggestions, 1)),
    }
    emit(f"game: {PLAYERS} players, classic, bots {DEFAULT_BOT}: {seconds:.2f} s in one process "
         f"for all six peers, {state.turn_number} turns, {len(peer.entries)} messages, "
         f"{len(raw)} bytes of transcript")
    emit(f"game: per suggestion {per_suggestion['proofs_made']} refutation proofs made, "
         f"{per_suggestion['proofs_verified']} verified, {per_suggestion['ms_per_peer']} ms "
         f"per peer ({per_suggestion['ms_all_peers']} ms for all six)")
    return {
        "game_seconds": round(seconds, 3),
        "game_turns": state.turn_number,
        "game_messages": len(peer.entries),
        "game_transcript_bytes": len(raw),
        "game_result": state.result,
        "per_suggestion": per_suggestion,
    }


def audit_section(emit: Emit, quick: bool) -> dict[str, Any]:
    raw = _last.get("transcript")
    if raw is None:
        game_section(lambda _: None, quick)
        raw = _last["transcript"]
    best = float("inf")
    for _ in range(1 if quick else 3):
        t0 = time.perf_counter()
        verdict = audit(parse(raw), raw)
        best = min(best, time.perf_counter() - t0)
    assert verdict.valid
    emit(f"audit: {PLAYERS}-player game, {verdict.entries} messages, {len(raw)} bytes: "
         f"{best:.2f} s (best of {1 if quick else 3}; goal 2 s)")
    return {"audit_seconds": round(best, 3), "audit_messages": verdict.entries}
