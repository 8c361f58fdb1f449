"""The hint key gives the hint of the moment and never one for later: asked to show a
card, h names the card that tells the suggester least, in the show panel; a suggestion's
hint is given only while the suggestion may be made, and is gone when the turn moves on.

The review found h offered while asked "Show which card?" showing nothing, and its hint
("Hint: suggest Mrs White ...") on screen at the start of the next turn, where the
player could only roll or accuse."""

from __future__ import annotations

import dataclasses

from p2pclue.engine import events as ev
from p2pclue.engine.peer import Choice
from p2pclue.net.api import Engine, YourChoice
from p2pclue.rules.state import Phase, Suggestion
from p2pclue.tui import view
from p2pclue.tui.commands import NeedHint, Submit
from p2pclue.tui.model import Mode
from tests.tui.model_screen import screen_of
from tests.tui.test_lists_whole import HAND, _left, _model


def _bar(lines: list[str]) -> str:
    return lines[-1]


def test_h_while_showing_names_the_quiet_card_and_leaves_nothing_for_the_next_turn() -> None:
    model, state = _model()
    asked = dataclasses.replace(state, current_seat=1, phase=Phase.AWAIT_REFUTATION,
                                pending_suggestion=Suggestion(1, 3, 6, 16))
    model.on_event(YourChoice(Choice("show", (3, 16))), asked, HAND)
    model.set_quiet_card(16)
    assert model.mode is Mode.SHOW and "h:hint" in _bar(screen_of(model))
    assert model.press("h") == []  # no suggestion's hint computed for later
    screen = _left(model)[1]
    assert "Hint: show the Billiard Room: it tells Chiara (medium bot) least" in screen, screen
    assert model.press("enter") == [Submit(ev.ShowCard(16))]

    my_turn = dataclasses.replace(state, current_seat=0, phase=Phase.AWAIT_TURN_START,
                                  entered_room=None, entry_allows_suggestion=False)
    model.on_event(YourChoice(Choice("turn")), my_turn, HAND)
    lines = screen_of(model)
    assert "Hint" not in "\n".join(lines) and "h:hint" not in _bar(lines), "\n".join(lines)
    assert model.press("h") == [] and model.hint == ""
    assert "Hints come when you may suggest" in model.message


def test_a_suggestions_hint_is_gone_when_the_turn_ends_without_it() -> None:
    model, state = _model()
    model.on_event(YourChoice(Choice("turn")), state, HAND)  # in the Dining Room
    assert model.press("h") == [NeedHint(15)]
    model.hint, model.hint_pick = "suggest Colonel Mustard with the Lead Pipe", (1, 8)
    assert "Hint: suggest Colonel Mustard" in "".join(
        t for _s, t, *_ in view.story_lines(model, 48, 8))
    assert model.press("e") == [Submit(ev.EndTurn())]
    model.on_event(Engine(ev.Accepted(30, 0, "end")), state, HAND)  # others play now
    assert model.hint == "" and model.hint_pick is None
    next_turn = dataclasses.replace(state, phase=Phase.AWAIT_TURN_START, entered_room=None,
                                    entry_allows_suggestion=False)
    model.on_event(YourChoice(Choice("turn")), next_turn, HAND)
    assert model.hint == "" and model.hint_pick is None
    assert "Hint" not in "".join(t for _s, t, *_ in view.story_lines(model, 48, 8))
