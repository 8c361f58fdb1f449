"""A resumed game replays its events to the screen with the state as it is at the end of
the replay (``NetSession._resume`` queues ``resumed_events``; the application reads
``session.state`` after each). A roll of one's own from an earlier turn must not be
taken for a roll to move with now: Anna, back at a table where Marco had just rolled,
read "You are blocked in: press e to stay." while the table waited for Marco."""

from __future__ import annotations

import dataclasses

from p2pclue.bots.protocol import make_config
from p2pclue.engine import events as ev
from p2pclue.engine.peer import Choice
from p2pclue.net.api import Engine, YourChoice
from p2pclue.rules import game as rg
from p2pclue.rules.actions import Roll
from p2pclue.rules.state import GameState, Phase
from p2pclue.rules.variants import preset
from p2pclue.tui.model import Mode, UIModel
from p2pclue.tui.moves import first_destination
from tests.tui.model_screen import screen_of


def _table() -> tuple[UIModel, GameState]:
    config, _secrets = make_config(preset("classic"), 3, seed=3)
    config = dataclasses.replace(config, players=tuple(
        dataclasses.replace(p, name=n)
        for p, n in zip(config.players, ("Anna", "Marco", "Bruno"), strict=True)))
    state = rg.new_game(preset("classic"), [p.suspect for p in config.players],
                        hand_sizes=[6, 6, 6], weapon_rooms={6 + i: 12 + i for i in range(6)})
    return UIModel(config, 0), state


def _replay(model: UIModel, events: list[ev.Event], state: GameState) -> None:
    """What the application does with a resumed session's queue: each event with the
    session's state read just after it, which is the state at the end of the replay."""
    for e in events:
        model.on_event(Engine(e), state, (0, 6, 12))


def test_a_replayed_old_roll_of_mine_is_not_a_roll_to_move_with_now() -> None:
    model, state = _table()
    marco_rolled = rg.apply(dataclasses.replace(state, current_seat=1), Roll(1, (3,)))
    assert marco_rolled.phase is Phase.AWAIT_MOVE and marco_rolled.current_seat == 1
    _replay(model, [ev.WeaponsPlaced(((6, 12),)), ev.DiceRolled(0, (4,)),
                    ev.DiceRolled(1, (3,))], marco_rolled)
    assert model.message == "", model.message
    assert model.destinations == {} and model.cursor is None
    screen = "\n".join(screen_of(model))
    assert "Marco rolls a 3." in screen, screen
    assert "blocked" not in screen and "press e" not in screen, screen


def test_my_own_roll_replayed_while_i_still_move_keeps_my_destinations() -> None:
    model, state = _table()
    i_rolled = rg.apply(dataclasses.replace(state, current_seat=0), Roll(0, (6,)))
    _replay(model, [ev.WeaponsPlaced(((6, 12),)), ev.DiceRolled(0, (6,))], i_rolled)
    assert model.destinations == dict(rg.legal_destinations(i_rolled))
    model.on_event(YourChoice(Choice("turn")), i_rolled, (0, 6, 12))
    assert model.mode is Mode.MOVE and model.destinations
    # the first room in reach, or no square at all (Enter never goes where nobody looked)
    assert model.cursor == first_destination(model.destinations)
