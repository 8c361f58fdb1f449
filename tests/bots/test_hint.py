"""The hint key: a legal, most informative suggestion and a sentence saying why."""

from __future__ import annotations

import random

from p2pclue.bots import CardShown, HandDealt, SuggestionAnswered
from p2pclue.bots.choose import Advice, rivals_away
from p2pclue.bots.detective import DetectiveBot
from p2pclue.bots.hint import Hint, hint
from p2pclue.deduce import Fact, Notepad, OwnHand, ShownToMe
from p2pclue.rules.actions import EndTurn, Move, Roll, Suggest
from p2pclue.rules.board import classic_board
from p2pclue.rules.cards import CARDS
from p2pclue.rules.game import apply, can_suggest, legal_destinations, new_game
from p2pclue.rules.state import GameState, Phase
from p2pclue.rules.variants import preset

HAND = (0, 1, 6, 7, 12, 13)


def public_state() -> GameState:
    return new_game(preset("classic"), (0, 1, 2), hand_sizes=(6, 6, 6),
                    weapon_rooms=dict(zip(range(6, 12), range(12, 18), strict=True)))


def in_a_room(state: GameState) -> GameState:
    """Seat 0 rolls until some roll lets it walk into a room (other seats just end)."""
    board = classic_board()
    for die in range(1, 7):
        rolled = apply(state, Roll(0, (die,)))
        rooms = {sq: path for sq, path in legal_destinations(rolled).items()
                 if board.room_at(sq) is not None}
        if rooms:
            square = min(rooms)
            return apply(rolled, Move(0, rooms[square]))
    # no room within one roll: walk, pass the others' turns, try again
    rolled = apply(state, Roll(0, (6,)))
    walked = apply(rolled, Move(0, sorted(legal_destinations(rolled).items())[0][1]))
    state = apply(walked, EndTurn(0))
    for seat in (1, 2):
        state = apply(state, Roll(seat, (1,)))
        state = apply(state, Move(seat, sorted(legal_destinations(state).items())[0][1]))
        state = apply(state, EndTurn(seat))
    return in_a_room(state)


def notepad_of(*facts: Fact) -> Notepad:
    return Notepad(0, 3, (6, 6, 6), 0, facts=[OwnHand(HAND), *facts])


def test_hint_in_a_room_is_a_legal_suggestion_with_a_reason() -> None:
    state = in_a_room(public_state())
    assert can_suggest(state) and state.current_seat == 0
    room = state.token_of(0)
    assert isinstance(room, int)
    notepad = notepad_of(ShownToMe(1, 2), ShownToMe(2, 8))
    h = hint(notepad, state)
    assert isinstance(h, Hint) and h.kind == "suggest"
    assert h.room == room and h.bits > 0
    after = apply(state, Suggest(0, h.suspect, h.weapon))  # the rules engine accepts it
    assert after.phase is Phase.AWAIT_REFUTATION
    assert h.reason.endswith(".") and CARDS[h.suspect].name in h.reason
    assert "bits" in h.reason
    # it is the detective's own choice in that room
    bits, triple = Advice.of(notepad).best_in_room(room, rivals_away(state, 0, room))
    assert (bits, triple) == (h.bits, h.triple)


def test_hint_before_moving_names_a_room_to_head_for() -> None:
    state = public_state()
    notepad = notepad_of()
    h = hint(notepad, state)
    assert h is not None and h.kind == "head_for"
    assert 12 <= h.room <= 20 and h.bits > 0
    assert h.reason.startswith(f"Head for the {CARDS[h.room].name}")


def test_hint_says_accuse_once_the_notepad_proves_the_envelope() -> None:
    bot = DetectiveBot(0, random.Random(1))
    bot.observe(HandDealt(0, HAND))
    state = public_state()
    bot.decide(state)
    shown = [2, 3, 4, 8, 9, 10, 14, 15, 16, 17, 18, 19]
    for i, card in enumerate(shown):
        refuter = 1 + i % 2
        triple = [0, 6, 12]
        triple[0 if card < 6 else 1 if card < 12 else 2] = card
        bot.observe(SuggestionAnswered(0, triple[0], triple[1], triple[2], (), refuter))
        bot.observe(CardShown(0, refuter, card))
    assert bot.notepad is not None
    h = hint(bot.notepad, state)
    assert h is not None and h.kind == "accuse" and h.triple == (5, 11, 20)
    assert "accuse" in h.reason


def test_hint_reads_only_the_notepad_and_public_state() -> None:
    state = public_state()
    assert state.hands is None  # a protocol peer's view: no hands anywhere
    assert hint(notepad_of(), state) == hint(notepad_of(), state)
