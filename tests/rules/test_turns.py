"""R11-R30: the turn state machine, one rule (and both sides of each variant) at a time.

Default set-up (helpers.start): classic, seats 0 Scarlett, 1 Mustard, 2 White;
hands seat0 {0,3,7,10,14,17}, seat1 {1,4,8,12,15,18}, seat2 {2,6,9,13,16,19};
envelope Plum, Wrench, Study; Rope lies in the Hall.
"""

from __future__ import annotations

import dataclasses

import pytest

from p2pclue.rules.actions import (
    AccusationResult,
    Accuse,
    CannotRefute,
    EndTurn,
    Move,
    Refute,
    Roll,
    Suggest,
    TakePassage,
)
from p2pclue.rules.errors import RuleError
from p2pclue.rules.game import apply, can_suggest, legal_destinations
from p2pclue.rules.state import GameState, Phase
from p2pclue.rules.variants import CZ, Rules

from .helpers import pass_turn, play, put, start

KITCHEN, BALLROOM, LOUNGE, HALL, STUDY = 12, 13, 18, 19, 20
SCARLETT, MUSTARD, WHITE, PLUM = 0, 1, 2, 5
DAGGER, REVOLVER, ROPE, WRENCH = 7, 9, 10, 11


def hall_entered() -> GameState:
    state = put(start(), SCARLETT, (17, 11))
    return play(state, Roll(0, (1,)), Move(0, ((18, 11),)))


def rejects(state: GameState, action: object, rule: str) -> RuleError:
    with pytest.raises(RuleError) as info:
        apply(state, action)  # type: ignore[arg-type]
    assert info.value.rule == rule and str(info.value).startswith(f"{rule}: ")
    return info.value


def test_R11_a_turn_starts_with_a_roll_passage_or_summoned_suggestion() -> None:
    state = start()
    rejects(state, EndTurn(0), "R11")
    rejects(state, Move(0, ((23, 7),)), "R11")
    rolled = apply(state, Roll(0, (3,)))
    rejects(rolled, Roll(0, (3,)), "R11")
    rejects(state, Roll(1, (3,)), "R10")


def test_R12_one_die_versus_two_dice() -> None:
    state = start()
    rejects(state, Roll(0, (3, 4)), "R12")
    rejects(state, Roll(0, (7,)), "R12")
    rejects(state, Roll(0, (0,)), "R12")
    assert apply(state, Roll(0, (6,))).roll == 6
    two = start(Rules(two_dice=True))
    rejects(two, Roll(0, (3,)), "R12")
    assert apply(two, Roll(0, (6, 6))).roll == 12
    cz = start(CZ)  # text C throws one die; TWO-DICE is only an override
    rejects(cz, Roll(cz.current_seat, (3, 4)), "R12")
    assert apply(cz, Roll(cz.current_seat, (5,))).roll == 5
    assert apply(start(CZ.override(two_dice=True)), Roll(cz.current_seat, (3, 4))).roll == 7


def test_R12_the_roll_must_be_moved_from_the_corridor() -> None:
    state = apply(start(), Roll(0, (3,)))
    assert state.phase is Phase.AWAIT_MOVE
    rejects(state, EndTurn(0), "R12")
    moved = apply(state, Move(0, ((23, 7), (22, 7), (21, 7))))
    assert moved.tokens[SCARLETT] == (21, 7) and moved.phase is Phase.AWAIT_SUGGESTION_OR_END


def test_R13_R15_moves_are_checked_against_the_board_and_tokens() -> None:
    state = put(start(), MUSTARD, (22, 7))
    rolled = apply(state, Roll(0, (3,)))
    rejects(rolled, Move(0, ((23, 7), (22, 7), (21, 7))), "R15")
    rejects(rolled, Move(0, ((23, 7), (22, 8), (21, 8))), "R13")


def test_R14_revisit_variant_in_play() -> None:
    path = ((23, 7), (24, 7), (23, 7))
    rejects(apply(start(), Roll(0, (3,))), Move(0, path), "R14")
    ok = apply(start(Rules(revisit_ok=True)), Roll(0, (3,)))
    assert apply(ok, Move(0, path)).tokens[SCARLETT] == (23, 7)


def test_R15_blocked_in_token_may_end_its_turn() -> None:
    state = apply(put(start(), MUSTARD, (23, 7)), Roll(0, (4,)))
    assert legal_destinations(state) == {}
    assert apply(state, EndTurn(0)).current_seat == 1


def test_R16_enter_exact_in_play() -> None:
    state = put(start(Rules(enter_exact=True)), SCARLETT, (17, 10))
    rolled = apply(state, Roll(0, (5,)))
    rejects(rolled, Move(0, ((17, 11), (18, 11))), "R16")
    loose = apply(put(start(), SCARLETT, (17, 10)), Roll(0, (5,)))
    assert apply(loose, Move(0, ((17, 11), (18, 11)))).tokens[SCARLETT] == HALL


def test_R17_no_out_and_back_into_the_same_room() -> None:
    state = apply(put(start(Rules(revisit_ok=True)), SCARLETT, HALL), Roll(0, (3,)))
    rejects(state, Move(0, ((17, 11), (17, 12), (18, 12))), "R17")


def test_R18_secret_passage_instead_of_rolling() -> None:
    state = put(start(), SCARLETT, KITCHEN)
    moved = apply(state, TakePassage(0))
    assert moved.tokens[SCARLETT] == STUDY and can_suggest(moved)
    rejects(put(start(), SCARLETT, HALL), TakePassage(0), "R18")
    rejects(apply(state, Roll(0, (2,))), TakePassage(0), "R18")
    assert apply(put(start(), SCARLETT, LOUNGE), TakePassage(0)).tokens[SCARLETT] == 14


def test_R19_suggest_after_entering_a_room_only_once() -> None:
    rejects(start(), Suggest(0, MUSTARD, DAGGER), "R19")
    corridor = play(start(), Roll(0, (3,)), Move(0, ((23, 7), (22, 7), (21, 7))))
    rejects(corridor, Suggest(0, MUSTARD, DAGGER), "R19")
    state = hall_entered()
    rejects(state, Suggest(0, 15, DAGGER), "R19")  # a room is not a suspect
    own_cards = apply(state, Suggest(0, 3, 7))  # naming cards in one's own hand is fine
    assert own_cards.pending_suggestion is not None
    assert own_cards.pending_suggestion.room == HALL
    done = play(own_cards, CannotRefute(1), Refute(2, HALL))
    rejects(done, Suggest(0, MUSTARD, DAGGER), "R19")


def test_R20_suspect_and_weapon_move_in_weapon_move() -> None:
    after = apply(hall_entered(), Suggest(0, MUSTARD, DAGGER))
    assert after.tokens[MUSTARD] == HALL
    assert after.weapon_room(DAGGER) == HALL and after.weapon_room(ROPE) == HALL


def test_R20_weapon_swap() -> None:
    state = put(start(Rules(weapon_swap=True)), SCARLETT, (17, 11))
    after = play(state, Roll(0, (1,)), Move(0, ((18, 11),)), Suggest(0, MUSTARD, DAGGER))
    assert after.weapon_room(DAGGER) == HALL and after.weapon_room(ROPE) == BALLROOM
    same = play(state, Roll(0, (1,)), Move(0, ((18, 11),)), Suggest(0, MUSTARD, ROPE))
    assert same.weapons == state.weapons


def test_R21_must_show_a_held_card_and_only_a_named_held_one() -> None:
    state = apply(hall_entered(), Suggest(0, MUSTARD, REVOLVER))  # seat 1 holds Mustard
    assert state.awaiting_seat == 1
    rejects(state, CannotRefute(1), "R21")
    rejects(state, Refute(1, REVOLVER), "R21")  # named but not held (seat 2 has it)
    rejects(state, Refute(1, 4), "R21")  # held but not named
    rejects(state, Refute(1, None), "R21")  # the hands are known here: name it
    rejects(state, Refute(2, REVOLVER), "R21")  # not seat 2's turn to answer
    rejects(state, EndTurn(0), "R21")
    done = apply(state, Refute(1, MUSTARD))
    assert done.last_suggestion is not None and done.last_suggestion.shower == 1
    assert done.last_suggestion.card == MUSTARD and done.phase is Phase.AWAIT_SUGGESTION_OR_END


def test_R21_refutation_goes_clockwise_until_someone_shows() -> None:
    state = apply(hall_entered(), Suggest(0, PLUM, WRENCH))  # seat 2 holds the Hall
    state = apply(state, CannotRefute(1))
    assert state.awaiting_seat == 2
    rejects(state, CannotRefute(2), "R21")
    done = apply(state, Refute(2, HALL))
    assert done.last_suggestion is not None
    assert (done.last_suggestion.passed, done.last_suggestion.shower) == ((1,), 2)


def test_R21_everyone_passes() -> None:
    state = put(start(), SCARLETT, KITCHEN)
    state = play(state, TakePassage(0), Suggest(0, PLUM, WRENCH), CannotRefute(1),
                 CannotRefute(2))
    assert state.last_suggestion is not None and state.last_suggestion.shower is None
    assert state.last_suggestion.passed == (1, 2)


def test_R21_unknown_hands_are_taken_on_trust_but_cards_must_be_named_ones() -> None:
    state = put(start(known_hands=False), SCARLETT, (17, 11))
    state = play(state, Roll(0, (1,)), Move(0, ((18, 11),)), Suggest(0, PLUM, WRENCH))
    assert apply(state, CannotRefute(1)).awaiting_seat == 2
    assert apply(state, Refute(1, None)).last_suggestion.shower == 1  # type: ignore[union-attr]
    rejects(state, Refute(1, 3), "R21")


def summoned_mustard(rules: Rules | None = None) -> GameState:
    """Seat 0 suggests Mustard in the Hall; seat 1 (Mustard) is next."""
    state = put(start(rules), SCARLETT, (17, 11))
    return play(state, Roll(0, (1,)), Move(0, ((18, 11),)), Suggest(0, MUSTARD, DAGGER),
                Refute(1, MUSTARD), EndTurn(0))


def test_R22_moved_by_a_suggestion_may_suggest_instead_of_rolling() -> None:
    state = summoned_mustard()
    assert state.current_seat == 1 and state.tokens[MUSTARD] == HALL and can_suggest(state)
    after = apply(state, Suggest(1, WHITE, ROPE))
    assert after.pending_suggestion is not None and after.pending_suggestion.room == HALL
    # The right lasts one turn: roll instead, stay, and it is gone next time round.
    later = pass_turn(pass_turn(play(state, Roll(1, (2,)), EndTurn(1))))
    assert later.current_seat == 1
    rejects(later, Suggest(1, WHITE, ROPE), "R23")


def test_R22_a_token_already_in_the_room_is_not_summoned() -> None:
    """Two players in one room cannot keep naming each other to suggest without moving."""
    for rules in (Rules(), Rules(summon_restricted=True, reenter_other_door=True)):
        state = put(put(start(rules), MUSTARD, HALL), SCARLETT, (17, 11))
        state = play(state, Roll(0, (1,)), Move(0, ((18, 11),)), Suggest(0, MUSTARD, DAGGER),
                     Refute(1, MUSTARD), EndTurn(0))
        assert state.tokens[MUSTARD] == HALL and state.summoned[1] is None
        assert not can_suggest(state)
        rejects(state, Suggest(1, SCARLETT, ROPE), "R23")
        # Mustard must roll; staying (allowed in a room) still gives no suggestion.
        stayed = apply(state, Roll(1, (2,)))
        rejects(stayed, Suggest(1, SCARLETT, ROPE), "R19")
        state = pass_turn(play(stayed, EndTurn(1)))
        # Back to Scarlett, still in the Hall from last turn: she may not suggest there either.
        assert state.current_seat == 0 and state.tokens[SCARLETT] == HALL
        rejects(state, Suggest(0, MUSTARD, DAGGER), "R23")


def test_R22_text_c_not_where_the_player_already_suggested() -> None:
    for restricted in (False, True):
        state = summoned_mustard(Rules(summon_restricted=restricted))
        state = dataclasses.replace(state, suggested_in=((), (HALL,), ()))
        if restricted:
            rejects(state, Suggest(1, WHITE, ROPE), "R22")
        else:
            assert apply(state, Suggest(1, WHITE, ROPE)).phase is Phase.AWAIT_REFUTATION


def leave_hall_and_come_back(rules: Rules, back: tuple[tuple[int, int], ...]) -> GameState:
    """Seat 0 leaves the Hall by door (18, 11); next turn it walks back along ``back``."""
    state = put(start(rules), SCARLETT, HALL)
    state = play(state, Roll(0, (1,)), Move(0, ((17, 11),)), EndTurn(0))
    state = pass_turn(pass_turn(state))
    return play(state, Roll(0, (len(back),)), Move(0, back))


def test_R23_no_staying_in_a_room_to_suggest_again() -> None:
    state = put(start(), SCARLETT, HALL)
    rejects(state, Suggest(0, MUSTARD, DAGGER), "R23")
    rolled = apply(state, Roll(0, (3,)))
    rejects(rolled, Suggest(0, MUSTARD, DAGGER), "R19")


def test_R23_leave_and_re_enter_on_a_later_turn() -> None:
    same_door = leave_hall_and_come_back(Rules(), ((18, 11),))
    assert same_door.tokens[SCARLETT] == HALL and can_suggest(same_door)


def test_R23_reenter_other_door() -> None:
    rules = Rules(reenter_other_door=True)
    same_door = leave_hall_and_come_back(rules, ((18, 11),))
    assert same_door.tokens[SCARLETT] == HALL
    rejects(same_door, Suggest(0, MUSTARD, DAGGER), "R23")
    other_door = leave_hall_and_come_back(rules, ((17, 12), (18, 12)))
    assert apply(other_door, Suggest(0, MUSTARD, DAGGER)).phase is Phase.AWAIT_REFUTATION


def test_R23_reenter_same_door_allowed_after_another_room() -> None:
    rules = Rules(reenter_other_door=True)
    state = put(start(rules), SCARLETT, HALL)
    state = play(state, Roll(0, (1,)), Move(0, ((17, 11),)), EndTurn(0))
    state = pass_turn(pass_turn(state))
    assert state.left_by[0] == (HALL, (18, 11))
    # Being in another room in between clears the record of the door left by.
    state = play(put(state, SCARLETT, (18, 6)), Roll(0, (1,)), Move(0, ((19, 6),)))
    assert state.left_by[0] is None and can_suggest(state)


def test_R24_must_leave_the_room() -> None:
    for must_leave in (False, True):
        state = apply(put(start(Rules(must_leave=must_leave)), SCARLETT, HALL), Roll(0, (3,)))
        if must_leave:
            rejects(state, EndTurn(0), "R24")
        else:
            assert apply(state, EndTurn(0)).current_seat == 1


def test_R25_accuse_on_own_turn_any_time_outside_a_refutation() -> None:
    state = start()
    assert apply(state, Accuse(0, PLUM, WRENCH, STUDY)).phase is Phase.AWAIT_ACCUSATION_RESULT
    rejects(state, Accuse(1, PLUM, WRENCH, STUDY), "R25")
    rejects(state, Accuse(0, WRENCH, PLUM, STUDY), "R25")
    suggesting = apply(hall_entered(), Suggest(0, PLUM, WRENCH))
    rejects(suggesting, Accuse(0, PLUM, WRENCH, STUDY), "R21")
    after = play(suggesting, CannotRefute(1), Refute(2, HALL))
    assert apply(after, Accuse(0, PLUM, WRENCH, STUDY)).pending_accusation is not None
    assert apply(apply(state, Roll(0, (2,))), Accuse(0, PLUM, WRENCH, STUDY)).awaiting_seat \
        is None


def test_R26_a_right_accusation_wins_and_ends_the_game() -> None:
    state = apply(start(), Accuse(0, PLUM, WRENCH, STUDY))
    rejects(state, AccusationResult(1, True), "R26")
    rejects(state, Roll(0, (2,)), "R26")
    rejects(start(), AccusationResult(0, True), "R26")
    won = apply(state, AccusationResult(0, True))
    assert (won.phase, won.winner, won.result) == (Phase.GAME_OVER, 0, "won")
    rejects(won, Roll(1, (2,)), "R26")


def test_R27_a_wrong_accuser_only_refutes_from_then_on() -> None:
    state = play(start(), Accuse(0, PLUM, WRENCH, HALL), AccusationResult(0, False))
    assert state.eliminated == (0,) and state.current_seat == 1 and state.result is None
    state = pass_turn(state)
    assert state.current_seat == 2
    state = pass_turn(state)
    assert state.current_seat == 1  # seat 0 takes no more turns
    state = play(put(state, MUSTARD, KITCHEN), TakePassage(1), Suggest(1, SCARLETT, WRENCH))
    state = apply(state, CannotRefute(2))
    assert state.awaiting_seat == 0  # still refutes
    assert apply(state, Refute(0, SCARLETT)).last_suggestion.shower == 0  # type: ignore[union-attr]


def test_R28_an_eliminated_token_blocking_a_door_goes_into_that_room() -> None:
    blocking = play(put(start(), SCARLETT, (17, 11)), Accuse(0, PLUM, WRENCH, HALL),
                    AccusationResult(0, False))
    assert blocking.tokens[SCARLETT] == HALL
    clear = play(put(start(), SCARLETT, (20, 7)), Accuse(0, PLUM, WRENCH, HALL),
                 AccusationResult(0, False))
    assert clear.tokens[SCARLETT] == (20, 7)


def test_R29_last_one_standing_wins() -> None:
    state = play(start(), Accuse(0, PLUM, WRENCH, HALL), AccusationResult(0, False),
                 Accuse(1, PLUM, WRENCH, HALL), AccusationResult(1, False))
    assert (state.phase, state.winner, state.result) == (Phase.GAME_OVER, 2, "won")
    keep = play(start(Rules(last_standing_wins=False)), Accuse(0, PLUM, WRENCH, HALL),
                AccusationResult(0, False), Accuse(1, PLUM, WRENCH, HALL),
                AccusationResult(1, False))
    assert keep.result is None and keep.current_seat == 2
    assert pass_turn(keep).current_seat == 2


def test_R30_everybody_wrong_means_nobody_wins() -> None:
    state = start(Rules(last_standing_wins=False))
    for seat in (0, 1, 2):
        state = play(state, Accuse(seat, PLUM, WRENCH, HALL), AccusationResult(seat, False))
    assert (state.phase, state.winner, state.result) == (Phase.GAME_OVER, None, "nobody")
    assert state.eliminated == (0, 1, 2)


def test_R8_every_suspect_can_be_named_played_or_not() -> None:
    for played_only in (False, True):
        state = put(start(Rules(tokens_played_only=played_only)), SCARLETT, (17, 11))
        after = play(state, Roll(0, (1,)), Move(0, ((18, 11),)), Suggest(0, PLUM, DAGGER))
        assert after.pending_suggestion is not None
        assert after.tokens[PLUM] == (None if played_only else HALL)
