"""Presets, overrides and the strict wire forms of rules, actions and states."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pclue.rules.actions import (
    AccusationResult,
    Accuse,
    Action,
    CannotRefute,
    EndTurn,
    Move,
    Refute,
    Roll,
    Suggest,
    TakePassage,
    action_from_wire,
    action_to_wire,
)
from p2pclue.rules.errors import SetupError, WireError
from p2pclue.rules.state import state_from_wire
from p2pclue.rules.variants import CLASSIC, CZ, PRESETS, Rules, preset
from tests.profiles import examples

from .helpers import start

seat = st.integers(0, 5)
card = st.integers(0, 20)
actions: st.SearchStrategy[Action] = st.one_of(
    st.builds(Roll, seat, st.tuples(st.integers(1, 6)) | st.tuples(st.integers(1, 6),
                                                                      st.integers(1, 6))),
    st.builds(Move, seat, st.lists(st.tuples(st.integers(0, 24), st.integers(0, 23)),
                                   max_size=12).map(tuple)),
    st.builds(TakePassage, seat),
    st.builds(Suggest, seat, card, card),
    st.builds(Refute, seat, st.none() | card),
    st.builds(CannotRefute, seat),
    st.builds(Accuse, seat, card, card, card),
    st.builds(AccusationResult, seat, st.booleans()),
    st.builds(EndTurn, seat),
)


def test_presets_classic_and_cz() -> None:
    assert preset("classic") == CLASSIC == Rules() and preset("cz") == CZ
    assert set(PRESETS) == {"classic", "cz"}
    assert CZ.deal_equal and not CZ.weapons_random and CZ.first_white
    assert not CZ.two_dice and not CLASSIC.two_dice  # R12: text C throws one die
    assert CZ.revisit_ok and CZ.enter_exact and CZ.weapon_swap and CZ.reenter_other_door
    assert CZ.must_leave and CZ.summon_restricted and not CZ.tokens_played_only
    assert not any(getattr(CLASSIC, k) for k in CLASSIC.to_wire() if k not in (
        "weapons_random", "last_standing_wins"))
    with pytest.raises(SetupError, match=r"^PRESETS: unknown rule preset"):
        preset("monopoly")


def test_overrides_on_top_of_a_preset() -> None:
    rules = CZ.override(two_dice=True, tokens_played_only=True)
    assert rules.two_dice and rules.tokens_played_only and rules.revisit_ok
    assert rules.name() == "custom" and CZ.name() == "cz"
    assert CLASSIC.with_overrides({"weapon_swap": True}).weapon_swap
    with pytest.raises(SetupError):
        CLASSIC.with_overrides({"flying": True})
    with pytest.raises(SetupError):
        CLASSIC.with_overrides({"two_dice": 1})


def test_rules_wire_round_trip_and_strictness() -> None:
    for rules in (CLASSIC, CZ, CZ.override(must_leave=False)):
        assert Rules.from_wire(rules.to_wire()) == rules
    good = CZ.to_wire()
    missing = {k: v for k, v in good.items() if k != "two_dice"}
    bads: list[object] = [[], {**good, "extra": True}, missing, {**good, "two_dice": 1}]
    for bad in bads:
        with pytest.raises(WireError):
            Rules.from_wire(bad)


@settings(max_examples=examples(100))
@given(actions)
def test_action_wire_round_trip(action: Action) -> None:
    wire = action_to_wire(action)
    assert json.loads(json.dumps(wire)) == wire  # plain data only
    assert action_from_wire(wire) == action


@pytest.mark.parametrize(
    "bad",
    [
        None, [], {"type": "fly", "seat": 0}, {"type": "roll", "seat": 0},
        {"type": "roll", "seat": 0, "dice": [3], "extra": 1},
        {"type": "roll", "seat": "0", "dice": [3]}, {"type": "roll", "seat": True, "dice": [3]},
        {"type": "roll", "seat": 0, "dice": "3"}, {"type": "move", "seat": 0, "path": [[1]]},
        {"type": "move", "seat": 0, "path": [[0, 0]] * 65},
        {"type": "refute", "seat": 0, "card": "dagger"},
        {"type": "accusation_result", "seat": 0, "correct": 1},
    ],
)
def test_action_from_wire_rejects_malformed_input(bad: Any) -> None:
    with pytest.raises(WireError):
        action_from_wire(bad)


def test_state_to_wire_is_plain_data() -> None:
    state = start(CZ, (0, 1, 2, 3))
    wire = state.to_wire()
    assert json.loads(json.dumps(wire)) == wire
    assert wire["rules"] == CZ.to_wire() and wire["phase"] == "await_turn_start"
    assert wire["tokens"][0] == [24, 7] and len(wire["leftovers"]) == 2


def test_state_from_wire_is_strict() -> None:
    wire = start().to_wire()
    assert state_from_wire(wire) == start()
    for key, value in (("phase", "dancing"), ("tokens", [[1, 2, 3]]), ("seats", ["0"]),
                       ("result", "draw"), ("suggested", 0)):
        with pytest.raises(WireError):
            state_from_wire({**wire, key: value})
    with pytest.raises(WireError):
        state_from_wire({k: v for k, v in wire.items() if k != "phase"})
