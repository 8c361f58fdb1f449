"""protocol/schema.json is the code's message table, and describes real messages."""

from __future__ import annotations

import json
from pathlib import Path

import p2pclue.engine.peer  # noqa: F401  (imports every stage module)
from p2pclue.engine.messages import KINDS, MESSAGES
from p2pclue.engine.schema import KIND_DOCS, PROOF_KEYS, render
from p2pclue.engine.stage import StageState
from p2pclue.engine.wire import decode_payload, split_frame
from tests.engine.conftest import finished_game, oracle_game
from tests.engine.leave_games import play_with_leave
from tests.engine.lossy import lost_openings_game

SCHEMA = Path(__file__).resolve().parents[2] / "protocol" / "schema.json"


def test_committed_schema_matches_the_code() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == render(), (
        "regenerate: python3 -m p2pclue.engine.schema --write protocol/schema.json")


def test_every_kind_is_documented() -> None:
    assert set(KIND_DOCS) == set(KINDS)
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert set(schema["messages"]) == set(MESSAGES)


def test_every_message_type_handled_by_the_peer() -> None:
    todo: list[type] = [StageState]
    stages: set[type] = set()  # ``Peer._dispatch`` hands a message to its stage's on_<type>
    while todo:
        cls = todo.pop()
        stages.add(cls)
        todo += cls.__subclasses__()
    for name in MESSAGES:
        assert any(callable(getattr(c, f"on_{name}", None)) for c in stages), name


def test_proof_keys_match_real_messages() -> None:
    seen: dict[str, set[str]] = {}
    types: set[str] = set()
    games = [finished_game(3, "classic", 1).peers[0], oracle_game(3, "classic", 2).peers[0],
             play_with_leave(4, "classic", seed=3, leaver=1, after_turn=2).peers[0],
             lost_openings_game(5)[0][0]]  # complain and opening
    for peer in games:
        for raw in peer.entries:
            sender, payload, _ = split_frame(raw)
            header, body = decode_payload(sender, payload)
            types.add(header.type)
            assert set(body) == set(MESSAGES[header.type].fields)
            for field, kind in MESSAGES[header.type].fields.items():
                values = body[field] if kind.startswith("proofs:") else [body[field]]
                key = kind.replace("proofs:", "proof:")
                if key in PROOF_KEYS:
                    for v in values:
                        seen.setdefault(key, set()).update(v)
    # ``openings`` needs more than 48 shows by one seat (test_reveal_leave_size plays one)
    assert types | {"passage", "openings"} == set(MESSAGES)
    for kind, keys in seen.items():
        assert keys == set(PROOF_KEYS[kind]), kind
