"""The detective bot: plays legal whole games, accuses only when certain, leaks least."""

from __future__ import annotations

import dataclasses
import random

import pytest

from p2pclue.bots import CardShown, HandDealt, RollIntent, SuggestionAnswered
from p2pclue.bots.detective import DetectiveBot
from p2pclue.bots.random_bot import RandomBot
from p2pclue.bots.table import play_game
from p2pclue.deduce import ENVELOPE, Mark
from p2pclue.rules.actions import AccusationResult, Accuse, Action, Refute
from p2pclue.rules.game import new_game
from p2pclue.rules.state import GameState, Phase, Suggestion
from p2pclue.rules.variants import preset

HAND = (0, 1, 6, 7, 12, 13)


def public_state() -> GameState:
    """A 3-player classic game as a protocol peer sees it: no hands."""
    return new_game(preset("classic"), (0, 1, 2), hand_sizes=(6, 6, 6),
                    weapon_rooms=dict(zip(range(6, 12), range(12, 18), strict=True)))


@pytest.mark.parametrize(("rules", "players", "seed"), [
    ("classic", 3, 11), ("classic", 3, 12), ("cz", 4, 13), ("classic", 5, 14),
])
def test_R26_R27_detective_only_accuses_correctly(rules: str, players: int, seed: int) -> None:
    accusations: list[AccusationResult] = []

    def watch(before: GameState, action: Action, after: GameState) -> None:
        if isinstance(action, AccusationResult) and before.current_seat == 0:
            accusations.append(action)

    def factory(seat: int, rng: random.Random) -> DetectiveBot | RandomBot:
        return DetectiveBot(seat, rng) if seat == 0 else RandomBot(seat, rng)

    record = play_game(preset(rules), players, seed, bot_factory=factory, on_action=watch)
    assert record.final.phase is Phase.GAME_OVER
    assert all(a.correct for a in accusations)
    if record.final.winner == 0:
        assert accusations and accusations[-1].correct


def test_detectives_against_each_other_finish_with_a_correct_accusation() -> None:
    record = play_game(preset("classic"), 4, 5, bot_factory=DetectiveBot)
    assert record.final.result == "won"
    assert record.final.winner is not None
    assert 0 not in record.final.eliminated and 3 not in record.final.eliminated


def test_detective_uses_only_what_its_seat_saw() -> None:
    bot = DetectiveBot(0, random.Random(1))
    bot.observe(HandDealt(0, HAND))
    bot.observe(SuggestionAnswered(1, 2, 8, 14, (2,), 0))  # seat 2 passed, I showed
    state = public_state()
    decision = bot.decide(state)
    assert isinstance(decision, RollIntent)
    assert bot.notepad is not None
    assert bot.notepad.cell(2, 2) is Mark.NO
    assert bot.notepad.cell(3, 1) is Mark.UNKNOWN


def test_R25_accuses_once_the_notepad_proves_the_envelope() -> None:
    bot = DetectiveBot(0, random.Random(1))
    bot.observe(HandDealt(0, HAND))
    state = public_state()
    assert not isinstance(bot.decide(state), Accuse)
    shown = [2, 3, 4, 8, 9, 10, 14, 15, 16, 17, 18, 19]
    for i, card in enumerate(shown):
        refuter = 1 + i % 2
        triple = [0, 6, 12]
        triple[0 if card < 6 else 1 if card < 12 else 2] = card
        assert bot.decide(state) != Accuse(0, 5, 11, 20)
        suspect, weapon, room = triple
        bot.observe(SuggestionAnswered(0, suspect, weapon, room, (), refuter))
        bot.observe(CardShown(0, refuter, card))
    assert bot.notepad is not None and bot.notepad.cell(5, ENVELOPE) is Mark.YES
    assert bot.decide(state) == Accuse(0, 5, 11, 20)


def test_R21_refutes_with_the_card_the_suggester_has_seen() -> None:
    bot = DetectiveBot(0, random.Random(1))
    bot.observe(HandDealt(0, HAND))
    state = public_state()
    asking = dataclasses.replace(
        state, phase=Phase.AWAIT_REFUTATION, current_seat=2,
        pending_suggestion=Suggestion(2, 0, 7, 12, passed=()))
    first = bot.decide(asking)
    assert isinstance(first, Refute) and first.card in (0, 7, 12)
    bot.observe(SuggestionAnswered(2, 0, 7, 12, (), 0))
    # Now all three named cards are mine; only the one already shown leaks nothing.
    other = {0: 1, 7: 6, 12: 13}
    triple = [first.card if first.card == x else other[x] for x in (0, 7, 12)]
    suspect, weapon, room = triple
    again = dataclasses.replace(asking, pending_suggestion=Suggestion(2, suspect, weapon, room))
    assert bot.decide(again) == Refute(0, first.card)


def test_detective_plays_through_the_protocol_engine() -> None:
    """Driven by real peers (mental-poker deal, proofs), each bot sees only its peer."""
    from p2pclue.bots.protocol import play

    game = play(preset("classic"), 3, 5, DetectiveBot)
    final = game.peers[0].rules_state
    assert final is not None and final.phase is Phase.GAME_OVER
    assert final.result == "won" and not final.eliminated
