"""A number typed to pick from a list is a few ASCII digits: "²" (a key of the French
keyboard), other scripts' digits and endless numbers are wrong answers, asked again as any
other, never a ValueError that loses the seat."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from p2pclue.engine.peer import Choice
from p2pclue.net.api import YourChoice
from p2pclue.rules import game as rg
from p2pclue.rules.actions import Roll
from p2pclue.rules.state import Phase
from p2pclue.tui.keys import small_number
from p2pclue.tui.lobby import LobbyModel
from p2pclue.tui.model import Mode
from tests.net.plain_person import PROMPT_END, PlainPerson
from tests.tui.test_model import _model

NOT_NUMBERS = ["²", "٣", "¹2", "-1", "+1", " 1", "1" * 5000, ""]


def test_only_a_few_ascii_digits_are_a_number() -> None:
    assert small_number("3") == 3 and small_number("12") == 12
    for text in NOT_NUMBERS:
        assert small_number(text) is None, text


def test_the_game_screen_ignores_other_digits() -> None:
    model, state = _model()
    seat = state.current_seat
    model.seat = seat
    rolled = rg.apply(state, Roll(seat, (6,)))
    model.on_event(YourChoice(Choice("turn")), rolled, ())
    assert model.mode is Mode.MOVE
    for key in ("²", "٣"):
        assert model.press(key) == []
    tokens = list(state.tokens)
    tokens[state.seats[seat]] = 12
    room = dataclasses.replace(state, tokens=tuple(tokens),
                               phase=Phase.AWAIT_SUGGESTION_OR_END, entered_room=12,
                               entry_allows_suggestion=True)
    model.on_event(YourChoice(Choice("turn")), room, ())
    model.press("s")
    assert model.picker is not None
    cursor = model.picker.cursor
    for key in ("²", "٣"):
        assert model.press(key) == []
    assert model.picker.cursor == cursor
    model.press("2")
    assert model.picker.cursor == 1


def test_the_lobby_ignores_other_digits() -> None:
    model = LobbyModel(b"\x01" * 32, "Me")
    model.phase = "lobby"
    model.cursor = 2
    for key in ("²", "٣"):
        assert model.press(key) == []
    assert model.cursor == 2


def test_plain_lobby_and_game_ask_again(tmp_path: Path) -> None:
    person = PlainPerson(tmp_path, tmp_path / "person.txt", "--create", "--no-code",
                         "--bots", "2", "--players", "4", "--bot-think", "0", "--name", "Ann")
    try:
        end = time.monotonic() + 240  # hang guards, for a loaded machine
        while "Type a suspect's number to sit as it" not in person.said():  # the lobby:
            assert person.proc.poll() is None, person.said()[-2000:]  # the fourth seat
            assert time.monotonic() < end, person.said()[-2000:]  # stays free
            time.sleep(0.1)
        person.type("²")  # read before the next line: had it failed, no game would start
        person.type("r")  # ready: the three seated start
        person.at_question(240)
        before = person.said().count(PROMPT_END)
        person.type("²", "1" * 5000)
        end = time.monotonic() + 120
        while person.said().count(PROMPT_END) < before + 2:
            assert person.proc.poll() is None, person.said()[-2000:]
            assert time.monotonic() < end, person.said()[-2000:]
            time.sleep(0.1)
        said = person.said()
        assert "Traceback" not in said and "ValueError" not in said
    finally:
        person.stop()
