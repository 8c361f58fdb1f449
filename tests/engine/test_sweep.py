"""h2-style sweep: every (stage, message type) pair, from every sender, with valid-looking,
mutated and random bodies. Each frame either advances the state or halts the game with a
blame on its signer; nothing else may escape (no assertion, no KeyError, no crash)."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pclue.bots.protocol import seeded_identity
from p2pclue.engine import events as ev
from p2pclue.engine.messages import MESSAGES
from p2pclue.engine.peer import Peer, Stage, Status
from p2pclue.engine.wire import Header, decode_payload, sign_frame, split_frame
from tests.engine.conftest import finished_game
from tests.profiles import examples

SEED = 1


@cache
def recorded() -> tuple[list[Peer], dict[str, list[dict[str, Any]]]]:
    """Observer snapshots at the first entry of every stage and type, and real bodies."""
    game = finished_game(3, "classic", SEED)
    entries = game.peers[0].entries
    observer = Peer(game.config, None, relay=False)
    snaps: list[Peer] = []
    bodies: dict[str, list[dict[str, Any]]] = {}
    seen: set[tuple[Stage, str]] = set()
    for i, raw in enumerate(entries):
        sender, payload, _ = split_frame(raw)
        header, body = decode_payload(sender, payload)
        bodies.setdefault(header.type, []).append(body)
        key = (observer.stage, header.type)
        if key not in seen:
            seen.add(key)
            snaps.append(copy.deepcopy(observer))
        observer.receive(raw, float(i))
    assert observer.status is Status.COMPLETE
    return snaps, bodies


plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.binary(max_size=40)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                  max_size=3),
    max_leaves=12,
)


@st.composite
def bodies(draw: st.DrawFn, msg_type: str) -> dict[str, Any]:
    real = recorded()[1].get(msg_type, [])
    fields = list(MESSAGES[msg_type].fields)
    how = draw(st.sampled_from(["real", "mutated", "random"] if real else ["random"]))
    if how == "random":
        chosen = draw(st.lists(st.sampled_from(fields), unique=True)) if fields else []
        extra = draw(st.dictionaries(st.text(max_size=4), plain, max_size=1))
        return {**extra, **{name: draw(plain) for name in chosen}}
    body: dict[str, Any] = copy.deepcopy(draw(st.sampled_from(real)))
    if how == "mutated" and fields:
        body[draw(st.sampled_from(fields))] = draw(plain)
    return body


@settings(max_examples=examples(300),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_every_stage_and_message_type_advances_or_blames(data: st.DataObject) -> None:
    snaps, _ = recorded()
    observer = copy.deepcopy(data.draw(st.sampled_from(snaps)))
    msg_type = data.draw(st.sampled_from(sorted(MESSAGES)))
    sender = data.draw(st.integers(0, observer.n - 1))
    body = data.draw(bodies(msg_type))
    # Every frame names the config digest (frames naming anything else are dropped
    # unread, which would test nothing here).
    header = Header(observer.config.digest(), sender,
                    len(observer._sent_by[sender]), observer._head, msg_type)
    frame = sign_frame(seeded_identity(SEED, sender), header, body)
    before, drops = len(observer.entries), observer.dropped_count
    events = observer.receive(frame, 1e6)
    if observer.status is Status.HALTED:
        assert observer.blame is not None and observer.blame.culprit == sender
        assert isinstance(events[-1], ev.Halted)
        assert len(observer.entries) == before
    else:
        assert observer.status in (Status.RUNNING, Status.COMPLETE)
        advanced = len(observer.entries) == before + 1
        dropped = observer.dropped_count == drops + 1
        assert advanced or dropped
        if advanced:
            assert observer.status is Status.COMPLETE or observer.expected_seat() is not None


def test_sweep_covers_every_stage() -> None:
    stages = {s.stage for s in recorded()[0]}
    assert stages >= {Stage.JOIN, Stage.KEYS, Stage.ENVELOPE, Stage.DEAL, Stage.UNLAYER,
                      Stage.RANDOM, Stage.PLAY, Stage.PET, Stage.OPEN, Stage.SECRETS}
