"""Bots see a leaver's open hand as what it is: public cards, not cards shown to them.

The detective bot once took each card of the hand as shown in answer to its own last
suggestion; its notepad refused a card that suggestion had not named, and in a networked
game the bot's driver died with its session, so the table stalled at its next step
(tests/net/test_leave_refuting.py is that game as real processes). Here the same engine
events reach detective bots through ``BotSeat`` in memory, at every level, for several
leavers and moments, and the game must finish with the leaver's cards in their notepads.
"""

from __future__ import annotations

import pytest

from p2pclue.bots.detective import DetectiveBot
from p2pclue.bots.registry import BOTS
from p2pclue.engine.peer import Status
from tests.engine.leave_games import play_with_leave


@pytest.mark.parametrize(("seed", "leaver", "after_turn", "level"),
                         [(3, 1, 12, "medium"), (5, 0, 14, "hard"), (8, 2, 12, "easy"),
                          (4, 3, 16, "medium")])
def test_detective_bots_play_on_after_a_leave(seed: int, leaver: int, after_turn: int,
                                               level: str) -> None:
    kept: list[DetectiveBot] = []

    def factory(seat: int, rng: object) -> DetectiveBot:
        bot = BOTS[level](seat, rng)  # type: ignore[arg-type]
        assert isinstance(bot, DetectiveBot)
        kept.append(bot)
        return bot

    game = play_with_leave(4, "classic", seed=seed, leaver=leaver, after_turn=after_turn,
                           bots=factory)
    stayers = [p for p in game.peers if p.seat != leaver]
    assert all(p.status is Status.COMPLETE for p in stayers)
    hand = game.true_hands[leaver]
    for bot in kept:
        if bot.seat != leaver and bot.notepad is not None:
            assert set(hand) <= bot.notepad.holdings(leaver), bot.seat
