"""Leaving the table (rules side): out like an eliminated player, refutation skips the
leaver, R29/R30 still apply, and a leave is legal only from the seat the game awaits."""

from __future__ import annotations

import pytest

from p2pclue.rules.actions import (
    AccusationResult,
    Accuse,
    CannotRefute,
    EndTurn,
    Leave,
    Roll,
    Suggest,
    TakePassage,
    action_from_wire,
    action_to_wire,
)
from p2pclue.rules.errors import RuleError
from p2pclue.rules.game import apply
from p2pclue.rules.state import GameState, Phase, state_from_wire
from p2pclue.rules.variants import Rules

from .helpers import pass_turn, play, put, start

KITCHEN, HALL = 12, 19
SCARLETT, WHITE, PLUM = 0, 2, 5
WRENCH = 11


def rejects(state: GameState, action: object, rule: str) -> None:
    with pytest.raises(RuleError) as info:
        apply(state, action)  # type: ignore[arg-type]
    assert info.value.rule == rule


def test_a_leaver_on_its_turn_is_out_and_the_turn_passes() -> None:
    state = apply(start(), Leave(0))
    assert state.left == (0,) and 0 in state.eliminated
    assert state.current_seat == 1 and state.phase is Phase.AWAIT_TURN_START
    state = pass_turn(pass_turn(state))
    assert state.current_seat == 1  # seat 0's turns are skipped
    rejects(state, Leave(0), "R27")
    rejects(state, Leave(2), "R10")  # not awaited
    assert state_from_wire(state.to_wire()) == state
    assert action_from_wire(action_to_wire(Leave(2))) == Leave(2)


def test_refutation_skips_the_leaver_and_a_refuter_may_leave_instead_of_answering() -> None:
    state = put(start(known_hands=False), SCARLETT, KITCHEN)
    state = play(state, TakePassage(0), Suggest(0, PLUM, WRENCH))
    assert state.awaiting_seat == 1
    state = apply(state, Leave(1))  # asked to refute, it leaves: seat 2 answers next
    assert state.awaiting_seat == 2 and state.phase is Phase.AWAIT_REFUTATION
    rejects(state, CannotRefute(1), "R21")
    done = apply(state, CannotRefute(2))
    assert done.last_suggestion is not None and done.last_suggestion.passed == (2,)
    assert done.phase is Phase.AWAIT_SUGGESTION_OR_END
    nxt = pass_turn(apply(done, EndTurn(0)))  # seat 2 plays; seat 1 never again
    assert nxt.current_seat == 0


def test_the_last_refuter_leaving_ends_the_refutation() -> None:
    state = put(start(known_hands=False), SCARLETT, KITCHEN)
    state = play(state, TakePassage(0), Suggest(0, PLUM, WRENCH), CannotRefute(1))
    done = apply(state, Leave(2))
    assert done.phase is Phase.AWAIT_SUGGESTION_OR_END
    assert done.last_suggestion is not None and done.last_suggestion.shower is None
    # with everyone else gone (no R29 here), a suggestion is answered by nobody at once
    alone = play(start(Rules(last_standing_wins=False), known_hands=False), Leave(0), Leave(1))
    assert alone.current_seat == 2 and alone.result is None
    alone = put(alone, WHITE, KITCHEN)
    alone = play(alone, TakePassage(2), Suggest(2, PLUM, WRENCH))
    assert alone.phase is Phase.AWAIT_SUGGESTION_OR_END
    assert alone.last_suggestion is not None and alone.last_suggestion.passed == ()


def test_R29_and_R30_apply_after_a_leave() -> None:
    wrong = play(start(), Accuse(0, PLUM, WRENCH, HALL), AccusationResult(0, False))
    won = apply(wrong, Leave(1))  # seat 2 is the last one standing
    assert (won.phase, won.winner, won.result) == (Phase.GAME_OVER, 2, "won")
    keep = play(start(Rules(last_standing_wins=False)), Accuse(0, PLUM, WRENCH, HALL),
                AccusationResult(0, False))
    keep = apply(keep, Leave(1))
    assert keep.result is None and keep.current_seat == 2
    nobody = apply(keep, Leave(2))
    assert (nobody.phase, nobody.result, nobody.winner) == (Phase.GAME_OVER, "nobody", None)


def test_no_leave_while_an_accusation_is_being_decided() -> None:
    state = apply(start(), Accuse(0, PLUM, WRENCH, HALL))
    rejects(state, Leave(0), "R26")
    state = play(start(), Roll(0, (1,)))
    assert apply(state, Leave(0)).current_seat == 1  # mid-turn, after a roll: allowed
