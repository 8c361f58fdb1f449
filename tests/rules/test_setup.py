"""R1-R10 set-up rules: players, deal, tokens, weapons, first player."""

from __future__ import annotations

import pytest

from p2pclue.rules.board import classic_board
from p2pclue.rules.cards import ROOMS, WEAPONS
from p2pclue.rules.errors import SetupError
from p2pclue.rules.game import new_game
from p2pclue.rules.setup import FIXED_WEAPON_ROOMS, deal, deal_sizes, first_seat
from p2pclue.rules.state import Phase
from p2pclue.rules.variants import CZ, Rules

from .helpers import ENVELOPE, WEAPON_ROOMS, start

REST = [c for c in range(21) if c not in ENVELOPE]


@pytest.mark.parametrize("n", [2, 7])
def test_R1_three_to_six_players(n: int) -> None:
    with pytest.raises(SetupError, match=r"^R1"):
        deal_sizes(Rules(), n)
    with pytest.raises(SetupError, match=r"^R1"):
        new_game(Rules(), list(range(n % 6)), hand_sizes=(), weapon_rooms=WEAPON_ROOMS)


def test_R2_every_suspect_token_starts_on_its_own_square() -> None:
    state = start()
    assert all(state.tokens[s] == classic_board().start_squares[s] for s in range(6))


def test_R3_R9_weapons_random_is_an_input_one_per_room() -> None:
    state = start()
    assert [state.weapon_room(w.index) for w in WEAPONS] == [WEAPON_ROOMS[w] for w in range(6, 12)]
    with pytest.raises(SetupError, match=r"^R9"):
        new_game(Rules(), (0, 1, 2), hand_sizes=(6, 6, 6), weapon_rooms=None)
    two_in_one = {**WEAPON_ROOMS, 7: 12}
    with pytest.raises(SetupError, match=r"^R9.*one weapon per room"):
        new_game(Rules(), (0, 1, 2), hand_sizes=(6, 6, 6), weapon_rooms=two_in_one)
    with pytest.raises(SetupError, match=r"^R9"):
        new_game(Rules(), (0, 1, 2), hand_sizes=(6, 6, 6), weapon_rooms={6: 12})


def test_R9_weapons_fixed_uses_text_c_placement() -> None:
    rules = Rules(weapons_random=False)
    state = start(rules)
    assert state.weapon_room(7) == 13 and state.weapon_room(8) == 14  # Dagger, Lead Pipe
    assert state.weapon_room(9) == 20 and state.weapon_room(10) == 18  # Revolver, Rope
    assert state.weapon_room(6) == 15 and state.weapon_room(11) == 12  # Candlestick, Wrench
    with pytest.raises(SetupError, match=r"^R9"):
        new_game(rules, (0, 1, 2), hand_sizes=(6, 6, 6), weapon_rooms=WEAPON_ROOMS)
    assert new_game(rules, (0, 1, 2), hand_sizes=(6, 6, 6),
                    weapon_rooms=FIXED_WEAPON_ROOMS).weapons == state.weapons


def test_R6_undealt_cards_are_one_of_each_group() -> None:
    bad = [c for c in range(21) if c not in (0, 1, 12)]  # two suspects undealt
    hands, _ = deal(Rules(), 3, bad)
    with pytest.raises(SetupError, match=r"^R6"):
        new_game(Rules(), (0, 1, 2), hand_sizes=(6, 6, 6), weapon_rooms=WEAPON_ROOMS,
                 hands=hands)


@pytest.mark.parametrize(("n", "sizes"), [(3, (6, 6, 6)), (4, (5, 5, 4, 4)),
                                          (5, (4, 4, 4, 3, 3)), (6, (3,) * 6)])
def test_R7_deal_all_gives_every_card(n: int, sizes: tuple[int, ...]) -> None:
    assert deal_sizes(Rules(), n) == (sizes, 0)
    hands, leftovers = deal(Rules(), n, REST)
    assert tuple(len(h) for h in hands) == sizes and leftovers == ()
    assert sorted(c for h in hands for c in h) == sorted(REST)
    assert hands[0][:2] == (REST[0], REST[n])  # one at a time, clockwise from seat 0


@pytest.mark.parametrize(("n", "size", "left"), [(3, 6, 0), (4, 4, 2), (5, 3, 3), (6, 3, 0)])
def test_R7_deal_equal_shows_leftovers(n: int, size: int, left: int) -> None:
    rules = Rules(deal_equal=True)
    assert deal_sizes(rules, n) == ((size,) * n, left)
    hands, leftovers = deal(rules, n, REST)
    assert {len(h) for h in hands} == {size} and leftovers == tuple(REST[18 - left:])
    state = start(rules, tuple(range(n)))
    assert state.leftovers == leftovers


def test_R7_wrong_hand_sizes_or_leftovers_are_setup_errors() -> None:
    with pytest.raises(SetupError, match=r"^R7"):
        new_game(Rules(), (0, 1, 2, 3), hand_sizes=(4, 4, 4, 4), weapon_rooms=WEAPON_ROOMS)
    with pytest.raises(SetupError, match=r"^R7"):
        new_game(Rules(deal_equal=True), (0, 1, 2, 3), hand_sizes=(4, 4, 4, 4),
                 weapon_rooms=WEAPON_ROOMS, leftovers=(5,))
    with pytest.raises(SetupError, match=r"^R7"):
        deal(Rules(), 3, [*REST[:17], REST[0]])


def test_R8_tokens_all_versus_tokens_played() -> None:
    assert all(p is not None for p in start().tokens)
    played = start(Rules(tokens_played_only=True), (0, 3, 5))
    assert [p is not None for p in played.tokens] == [True, False, False, True, False, True]
    with pytest.raises(SetupError, match=r"^R8"):
        new_game(Rules(), (0, 0, 2), hand_sizes=(6, 6, 6), weapon_rooms=WEAPON_ROOMS)
    with pytest.raises(SetupError, match=r"^R8"):
        new_game(Rules(), (0, 1, 7), hand_sizes=(6, 6, 6), weapon_rooms=WEAPON_ROOMS)


def test_R10_first_scarlett_versus_first_white() -> None:
    assert start(Rules(), (1, 0, 2)).current_seat == 1
    assert start(Rules(first_white=True), (1, 0, 2)).current_seat == 2
    assert start(CZ, (0, 1, 2)).current_seat == 2
    # Nobody plays the lead suspect: the next suspect in card order leads.
    assert first_seat(Rules(), (4, 1, 3)) == 1
    assert first_seat(Rules(first_white=True), (0, 1, 5)) == 2
    state = start()
    assert state.phase is Phase.AWAIT_TURN_START and state.turn_number == 1


def test_R4_rooms_are_the_nine_room_cards() -> None:
    assert classic_board().rooms() == tuple(r.index for r in ROOMS)
