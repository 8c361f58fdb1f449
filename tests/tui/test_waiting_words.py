"""While the table waits for another player the screen says what they are doing
("Marco is choosing a card to show"), not only whom the counter counts; at 80x24, drawn
by the real application into pyte."""

from __future__ import annotations

import dataclasses
import time

from p2pclue.bots.protocol import make_config
from p2pclue.rules import game as rg
from p2pclue.rules.actions import Roll, Suggest
from p2pclue.rules.state import GameState, Phase
from p2pclue.rules.variants import preset
from p2pclue.tui.model import Screen, UIModel
from tests.tui.model_screen import screen_of


def _table() -> tuple[UIModel, GameState]:
    config, _secrets = make_config(preset("classic"), 3, seed=3)
    config = dataclasses.replace(config, players=tuple(
        dataclasses.replace(p, name=n)
        for p, n in zip(config.players, ("Anna", "Marco", "Bruno"), strict=True)))
    state = rg.new_game(preset("classic"), [p.suspect for p in config.players],
                        hand_sizes=[6, 6, 6], weapon_rooms={6 + i: 12 + i for i in range(6)})
    model = UIModel(config, 0)
    model.screen = Screen.GAME
    return model, state


def _waiting_for(model: UIModel, state: GameState) -> str:
    model.state = state
    due = state.awaiting_seat
    assert due is not None and due != 0
    model.expect(due, time.monotonic())
    # the story column, its wrapped lines joined again
    return " ".join(" ".join(ln.split("│")[0].split()) for ln in screen_of(model))


def test_the_screen_says_what_the_awaited_player_is_doing() -> None:
    model, state = _table()
    marco = dataclasses.replace(state, current_seat=1)
    assert "Marco is starting a turn." in _waiting_for(model, marco)
    rolled = rg.apply(marco, Roll(1, (4,)))
    assert rolled.phase is Phase.AWAIT_MOVE
    assert "Marco is moving." in _waiting_for(model, rolled)
    tokens = list(rolled.tokens)
    tokens[rolled.seats[1]] = 12
    in_room = dataclasses.replace(rolled, tokens=tuple(tokens), entered_room=12,
                                  phase=Phase.AWAIT_SUGGESTION_OR_END,
                                  entry_allows_suggestion=True)
    screen = _waiting_for(model, in_room)
    assert "Marco is choosing: a suggestion, an accusation or the end of the turn." in screen
    suggested = rg.apply(in_room, Suggest(1, 0, 6))
    assert suggested.phase is Phase.AWAIT_REFUTATION and suggested.awaiting_seat == 2
    assert "Bruno is choosing a card to show." in _waiting_for(model, suggested)


def test_nothing_is_said_about_others_while_the_table_waits_for_you() -> None:
    model, state = _table()
    model.state = state
    model.expect(0, time.monotonic())
    screen = "\n".join(screen_of(model))
    assert "is starting a turn" not in screen and "Waiting for" not in screen
