"""Lists of cards at 80 x 24 in every language, as a terminal (pyte) shows them: while a
suggestion, an accusation or a card to show is picked, every card's name is whole, its
odds or its mark readable, and the hint is wrapped between words, never cut.

The review found "4 Reverend Green (you…", "3 Conservator…> 6 Library 100%", an Italian
hint cut before the weapon and room it recommends, and "> Sala da ballo  (rivela meno a
Chiara (bot med…": the list always sat in seven lines of 48 columns under the board.
"""

from __future__ import annotations

import dataclasses

import pytest

from p2pclue.bots.protocol import make_config
from p2pclue.engine import events as ev
from p2pclue.engine.peer import Choice
from p2pclue.i18n import LANGUAGES, _, card_name, card_word, install, player_word, triple_word
from p2pclue.net.api import Engine, YourChoice
from p2pclue.rules import game as rg
from p2pclue.rules.state import GameState, Phase, Suggestion
from p2pclue.rules.variants import preset
from p2pclue.tui.knowledge import NotepadView
from p2pclue.tui.model import Mode, UIModel
from tests.tui.model_screen import screen_of

HAND = (3, 5, 6, 14, 16, 20)
"""Reverend Green, Professor Plum, the Candlestick, the Conservatory, the Billiard Room
and the Study: the longest names, marked "(yours)"."""


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


def _model() -> tuple[UIModel, GameState]:
    config, _secrets = make_config(preset("classic"), 3, seed=3)
    names = ("Anna", "Chiara (medium bot)", "Bruno (medium bot)")
    config = dataclasses.replace(config, players=tuple(
        dataclasses.replace(p, name=n) for p, n in zip(config.players, names, strict=True)))
    model = UIModel(config, 0)
    state = rg.new_game(preset("classic"), [p.suspect for p in config.players],
                        hand_sizes=[6, 6, 6], weapon_rooms={6 + i: 12 + i for i in range(6)})
    tokens = list(state.tokens)
    tokens[state.seats[0]] = 15  # the Dining Room
    state = dataclasses.replace(state, tokens=tuple(tokens), current_seat=0, entered_room=15,
                                phase=Phase.AWAIT_SUGGESTION_OR_END,
                                entry_allows_suggestion=True)
    model.on_event(Engine(ev.Suggested(1, 3, 11, 15)), state, HAND)
    model.on_event(Engine(ev.Refuted(2, 1, (3, 11, 15))), state, HAND)
    model.view = NotepadView({}, {c: 0.0 if c in HAND else 0.25 for c in range(21)}, None)
    return model, state


def _left(model: UIModel) -> tuple[list[str], str]:
    """The left pane's lines, and its text with the spaces folded (for wrapped lines)."""
    lines = [ln.partition("│")[0].rstrip() for ln in screen_of(model)[1:-1]]
    return lines, " ".join(" ".join(lines).split())


def _whole(model: UIModel, expected: list[str]) -> None:
    lines, text = _left(model)
    shown = "\n".join(lines)
    assert "…" not in shown, shown
    for item in expected:
        assert " ".join(item.split()) in text, f"{item!r} not whole in:\n{shown}"


def _names(model: UIModel) -> list[str]:
    assert model.picker is not None
    return [_("{card} (yours)").format(card=card_word(c)) if c in HAND else card_name(c)
            for c in model.picker.options]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_suggest_and_accuse_lists_keep_every_name_and_the_hint_whole(lang: str) -> None:
    install(lang)
    model, state = _model()
    model.on_event(YourChoice(Choice("turn")), state, HAND)
    model.press("s")
    assert model.mode is Mode.PICK
    hint = _("suggest {triple} (teaches you most)").format(triple=triple_word((1, 8, 15)))
    model.hint, model.hint_pick = hint, (1, 8)
    _whole(model, [*_names(model), _("Hint: {hint}").format(hint=hint)])
    model.press("enter")
    _whole(model, [*_names(model), _("Hint: {hint}").format(hint=hint)])
    model.press("escape")
    model.press("escape")
    model.press("a")
    for _step in range(3):  # the suspects, the weapons, then the nine rooms
        _whole(model, _names(model))
        model.press("enter")
    assert _mode(model) is Mode.CONFIRM


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_card_to_show_and_its_hint_are_whole(lang: str) -> None:
    install(lang)
    model, state = _model()
    asked = dataclasses.replace(state, current_seat=1, phase=Phase.AWAIT_REFUTATION,
                                pending_suggestion=Suggestion(1, 3, 6, 16))
    model.on_event(YourChoice(Choice("show", (3, 6, 16))), asked, HAND)
    model.set_quiet_card(16)
    assert "h" in {a.key for a in model.actions()}
    assert model.press("h") == []
    who = player_word("Chiara (medium bot)")
    _whole(model, [card_name(3), card_name(6),
                   _("{card}  (tells {player} least)").format(card=card_word(16), player=who),
                   _("Hint: {hint}").format(hint=_("show {card:the}: it tells {player} least")
                                            .format(card=card_word(16), player=who))])


def test_a_wider_terminal_gives_the_list_more_columns() -> None:
    """The list takes the columns the notepad (and its legend, on one line) leaves."""
    model, state = _model()
    asked = dataclasses.replace(state, current_seat=1, phase=Phase.AWAIT_REFUTATION,
                                pending_suggestion=Suggestion(1, 3, 6, 16))
    model.on_event(YourChoice(Choice("show", (3, 6, 16))), asked, HAND)
    model.set_quiet_card(16)
    quiet = "> " + _("{card}  (tells {player} least)").format(
        card=card_word(16), player=player_word("Chiara (medium bot)"))
    narrow = [ln.partition("│")[0].rstrip() for ln in screen_of(model, 80, 24)]
    wide = [ln.partition("│")[0].rstrip() for ln in screen_of(model, 120, 40)]
    assert quiet not in narrow and quiet in wide, "\n".join(wide)  # one line, not two


def _mode(model: UIModel) -> Mode:
    """The mode now, read through a call (mypy would keep a mode asserted before key
    presses as the mode after them)."""
    return model.mode
