"""What a newcomer tripped over in play-testing, each checked where a person sees it."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import time
from pathlib import Path

import pytest

from p2pclue.bots.protocol import make_config
from p2pclue.deduce.facts import ShownToMe
from p2pclue.engine import events as ev
from p2pclue.engine.peer import Choice
from p2pclue.i18n import LANGUAGES, install, player_word
from p2pclue.i18n import _ as tr
from p2pclue.net.api import Engine, Waiting, YourChoice
from p2pclue.rules import game as rg
from p2pclue.rules.actions import Roll
from p2pclue.rules.board import classic_board
from p2pclue.rules.cards import card
from p2pclue.rules.state import GameState, Phase
from p2pclue.rules.variants import preset
from p2pclue.tui import view
from p2pclue.tui.knowledge import NotepadView
from p2pclue.tui.model import Mode, Overlay, Screen, Submit, UIModel
from tests.tui.conftest import Opening
from tests.tui.terminal import Table


def _model() -> tuple[UIModel, GameState]:
    config, _ = make_config(preset("classic"), 3, seed=3)
    model = UIModel(config, 0)
    state = rg.new_game(preset("classic"), [p.suspect for p in config.players],
                        hand_sizes=[6, 6, 6], weapon_rooms={6 + i: 12 + i for i in range(6)})
    model.screen = Screen.GAME
    return model, state


def _in_room(model: UIModel, state: GameState, room: int) -> GameState:
    seat = state.current_seat
    model.seat = seat
    tokens = list(state.tokens)
    tokens[state.seats[seat]] = room
    return dataclasses.replace(state, tokens=tuple(tokens), entered_room=room,
                               phase=Phase.AWAIT_SUGGESTION_OR_END,
                               entry_allows_suggestion=True)


def _bar(model: UIModel) -> str:
    return "".join(text for _style, text, *_ in view.action_bar(model, 80))


def test_the_action_bar_offers_no_key_that_does_something_else() -> None:
    model, state = _model()
    st = _in_room(model, state, 12)
    model.on_event(YourChoice(Choice("turn")), st, ())
    model.press("a")
    assert model.mode is Mode.PICK
    assert "n:notepad" not in _bar(model) and "h:hint" not in _bar(model)
    for _ in range(3):
        model.press("enter")
    assert _mode(model) is Mode.CONFIRM
    bar = _bar(model)
    assert bar.count("n:") == 1 and "n:back" in bar, bar  # n means back here, nothing else
    model.press("n")
    model.press("s")
    assert "h:hint" in _bar(model)  # a suggestion's pick does take the hint key


def test_the_quit_question_shows_both_answers_at_80_columns() -> None:
    model, _ = _model()
    model.press("q")
    assert model.overlay is Overlay.QUIT
    bar = _bar(model)
    assert "y:leave" in bar and "n:stay" in bar, bar


def test_suggest_follows_the_hint_to_the_weapon_and_drops_it_after() -> None:
    model, state = _model()
    st = _in_room(model, state, 12)
    model.on_event(YourChoice(Choice("turn")), st, ())
    model.press("s")
    assert model.picker is not None
    model.hint_pick = (3, 9)  # what the app sets when the hint comes back
    model.picker.cursor = 3
    model.press("enter")
    assert card(model.picker.options[model.picker.cursor]).name == "Revolver"
    out = model.press("enter")
    assert [type(c).__name__ for c in out] == ["Submit"]
    assert model.hint == "" and model.hint_pick is None


def test_accusing_starts_on_the_likeliest_card_never_on_my_own() -> None:
    model, state = _model()
    st = _in_room(model, state, 12)
    hand = (0, 6, 12)
    model.on_event(YourChoice(Choice("turn")), st, hand)
    model.view = NotepadView({}, {0: 0.0, 1: 0.1, 2: 0.6, 3: 0.1, 4: 0.1, 5: 0.1,
                                  6: 0.0, 7: 0.2, 8: 0.2, 9: 0.4, 10: 0.1, 11: 0.1,
                                  **{r: 0.0 if r == 12 else 0.125 for r in range(12, 21)}},
                             None)
    model.view.envelope[17] = 0.3
    model.press("a")
    for _ in range(3):
        model.press("enter")
    assert model.accusation == (2, 9, 17)


def test_a_room_out_of_reach_says_so() -> None:
    model, state = _model()
    seat = state.current_seat
    model.seat = seat
    rolled = rg.apply(state, Roll(seat, (1,)))
    model.on_event(YourChoice(Choice("turn")), rolled, ())
    assert model.mode is Mode.MOVE
    before = model.cursor
    model.press("k")
    assert model.cursor == before
    assert "Kitchen: out of reach" in model.message
    lines = "".join(t for _s, t, *_ in view.story_lines(model, 48, 8))
    assert "Kitchen: out of reach" in lines


def test_the_story_says_who_is_called_and_which_card_you_showed() -> None:
    model, state = _model()
    me = model.config.players[0].suspect
    other = model.config.players[2].suspect
    st = dataclasses.replace(state, phase=Phase.AWAIT_REFUTATION)
    model.on_event(Engine(ev.Suggested(1, me, 6, 12)), st, ())
    assert model.story[-1] == "You are brought into the Kitchen."
    model.on_event(YourChoice(Choice("show", (12,))), st, (12,))
    model.press("enter")
    model.on_event(Engine(ev.Refuted(0, 1, (me, 6, 12))), st, (12,))
    assert model.story[-1] == "  You show Bruno the Kitchen (proven)."
    model.on_event(Engine(ev.Suggested(1, other, 7, 13)), st, ())
    assert model.story[-1] == f"Chiara ({card(other).name}) is brought into the Ballroom."


def test_notepad_reasons_name_the_turn_the_status_line_shows() -> None:
    model, state = _model()
    st = dataclasses.replace(state, turn_number=9)
    model.on_event(Engine(ev.HandDealt((0, 6, 12))), st, (0, 6, 12))
    model.on_event(Engine(ev.Suggested(0, 1, 7, 13)), st, (0, 6, 12))
    model.on_event(Engine(ev.CardShownToMe(1, 7)), st, (0, 6, 12))
    shown = [f for f in model.knowledge.facts if isinstance(f, ShownToMe)]
    assert shown and shown[0].turn == 9


def test_picker_odds_line_up_in_one_column() -> None:
    model, state = _model()
    st = _in_room(model, state, 12)
    model.on_event(YourChoice(Choice("turn")), st, (0, 1, 6))
    model.view = NotepadView({}, {c: 0.0 if c in (0, 1) else 0.25 for c in range(6)}, None)
    model.press("s")
    text = "".join(t for _s, t, *_ in view.picker_lines(model, 48, 9)).split("\n")
    items = [ln for ln in text if "%" in ln]
    assert len(items) == 6
    assert len({ln.index("%") for ln in items}) == 1, items


def test_roomy_screen_gives_the_story_its_own_pane(opening: Opening, tmp_path: Path) -> None:
    async def play() -> None:
        t = Table(120, 40, tmp=tmp_path, session=opening.replay())
        try:
            await t.start()
            await t.until(lambda: t.model.mode is Mode.TURN, what="my first turn")
            await t.settle()
            lines = t.term.screen.display
            split = lines[1].index("│")
            dealt = next(i for i, ln in enumerate(lines) if "You were dealt" in ln)
            assert lines[dealt].index("You were dealt") > split, "story right of the board"
            assert dealt > next(i for i, ln in enumerate(lines) if "Study" in ln[split:])
            assert "Your turn" in "\n".join(ln[:split] for ln in lines), "the question stays left"
            assert sum("You were dealt" in ln for ln in lines) == 1, "told once, not twice"
        finally:
            await t.close()

    asyncio.run(play())


def test_blocked_room_initials_do_not_steal_hint_or_notepad() -> None:
    model, state = _model()
    seat = state.current_seat
    model.seat = seat
    board = classic_board()
    rolled = rg.apply(state, Roll(seat, (1,)))
    model.on_event(YourChoice(Choice("turn")), rolled, ())
    assert all(board.room_at(sq) is None for sq in model.destinations)
    model.press("n")
    assert model.mode is Mode.NOTEPAD


def test_six_players_at_80_columns_keep_card_names_whole() -> None:
    config, _ = make_config(preset("classic"), 6, seed=3)
    model = UIModel(config, 0)
    text = "".join(t for _s, t, *_ in view.notepad(model, 31, 22, False))
    assert "…" not in text, text
    for name in ("Candle", "Pipe", "Conserv.", "Dining", "Billiard", "Revolver"):
        assert name in text


def test_the_status_line_reminds_you_when_you_are_out() -> None:
    model, state = _model()
    line = "".join(t for _s, t, *_ in view.status_line(model, 120))
    assert "(out" not in line
    model.state = dataclasses.replace(state, eliminated=(0,))
    line = "".join(t for _s, t, *_ in view.status_line(model, 120))
    assert f"{card(model.config.players[0].suspect).name} (out) ·" in line


def test_blocked_in_the_bar_offers_stay_not_go() -> None:
    model, state = _model()
    seat = state.current_seat
    model.seat = seat
    rolled = rg.apply(state, Roll(seat, (1,)))
    model.on_event(YourChoice(Choice("turn")), rolled, ())
    assert "arrows:pick" in _bar(model) and "Enter:go" not in _bar(model)  # no room in reach
    model.press("up")
    assert "Enter:go" in _bar(model)
    model.destinations, model.cursor = {}, None  # every way out taken by other tokens
    assert "Enter:go" not in _bar(model) and "arrows" not in _bar(model)


def test_a_two_column_pick_at_80x24_shows_every_odds_whole() -> None:
    model, state = _model()
    st = _in_room(model, state, 12)
    hand = (7, 9, 10, 11)
    model.on_event(YourChoice(Choice("turn")), st, hand)
    model.view = NotepadView({}, {c: 0.0 if c != 8 else 1.0 for c in range(6, 12)}, None)
    model.press("s")
    model.press("enter")
    model.hint = "suggest Miss Scarlett with the Candlestick in the Kitchen (teaches you most)"
    text = "".join(t for _s, t, *_ in view.picker_lines(model, 48, 7))
    assert "…" not in text.split("Hint")[1].split("\n", 1)[1], text
    assert text.count("%") == 2 and "100%" in text  # a card of one's hand: "(yours)", no odds


def test_the_longest_weapon_of_ones_hand_is_not_cut_in_two_columns() -> None:
    model, state = _model()
    st = _in_room(model, state, 12)
    model.on_event(YourChoice(Choice("turn")), st, (6, 7))  # the Candlestick and the Dagger
    model.view = NotepadView({}, {c: 0.0 if c < 8 else 0.25 for c in range(6, 12)}, None)
    model.press("s")
    model.press("enter")
    model.hint = "suggest Miss Scarlett with the Lead Pipe in the Kitchen (teaches you most)"
    text = "".join(t for _s, t, *_ in view.picker_lines(model, 48, 7))
    listed = text.split("Hint")[1].split("\n", 1)[1]
    assert "Candlestick (yours)" in listed and "…" not in listed, text


def test_your_turn_line_wraps_instead_of_cutting_actions() -> None:
    model, state = _model()
    st = _in_room(model, state, 12)
    st = dataclasses.replace(st, phase=Phase.AWAIT_TURN_START)
    model.on_event(YourChoice(Choice("turn")), st, ())
    text = "".join(t for _s, t, *_ in view.story_lines(model, 30, 8))
    assert "accuse" in text and "…" not in text, text


def test_help_at_80x24_keeps_the_goal_and_the_board_legend() -> None:
    for rules in ("classic", "cz"):
        config, _ = make_config(preset(rules), 3, seed=1)
        model = UIModel(config, 0)
        text = "".join(t for _s, t, *_ in view.help_text(model, 80, 22))
        assert "The goal" in text and "yours underlined" in text and "where you can go" in text
    mono = UIModel(config, 0, color=False)
    text = "".join(t for _s, t, *_ in view.help_text(mono, 80, 22))
    assert "##: doors" in text and "orange" not in text


def test_the_help_shows_the_table_check_on_its_first_page_in_every_language() -> None:
    """The check scrolls out of the story within a turn or two; a person who wants to compare
    it aloud later finds it first thing under ?."""
    from p2pclue.engine.config import table_check

    config, _ = make_config(preset("classic"), 4, seed=3)
    check = table_check(config)
    try:
        for lang in LANGUAGES:
            install(lang)
            first_page = "".join(t for _s, t, *_ in view.help_text(UIModel(config, 0), 80, 22))
            assert check in first_page, (lang, first_page[:300])
    finally:
        install("en")


def test_two_weapons_in_a_small_room_are_never_cut_mid_word() -> None:
    from p2pclue.tui import board as bd

    pic = bd.BoardPicture({}, {}, {18: (7, 9)}, frozenset(), None, None)  # the Lounge
    for tall in (False, True):
        text = "".join(t for _s, t, *_ in bd.render(pic, tall=tall, color=True))
        assert not re.search(r"Revol(?!ver)", text), text
        assert ("Dagger" in text and "Revolver" in text) or ("Dg" in text and "Rv" in text)


def test_a_hint_asked_before_suggesting_is_where_the_pick_starts() -> None:
    model, state = _model()
    st = _in_room(model, state, 12)
    model.on_event(YourChoice(Choice("turn")), st, ())
    model.hint_pick = (4, 10)  # Mrs Peacock with the Rope, as the app stores a hint
    model.press("s")
    assert model.picker is not None and model.picker.cursor == 4
    model.press("enter")
    assert model.picker.options[model.picker.cursor] == 10
    assert model.press("enter") == [Submit(ev.MakeSuggestion(4, 10))]


def test_with_the_hall_in_reach_h_is_not_offered_as_hint() -> None:
    model, state = _model()
    seat = state.current_seat
    model.seat = seat
    board = classic_board()
    rolled = rg.apply(state, Roll(seat, (6,)))
    near = next(sq for sq in sorted(board.corridor) if board.steps_to_room(sq, 19) == 2)
    tokens = list(rolled.tokens)
    tokens[rolled.seats[seat]] = near
    rolled = dataclasses.replace(rolled, tokens=tuple(tokens))
    model.on_event(YourChoice(Choice("turn")), rolled, ())
    assert any(board.room_at(sq) == 19 for sq in model.destinations)
    assert "h:hint" not in _bar(model)
    model.press("h")
    assert model.cursor is not None and board.room_at(model.cursor) == 19


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_whole_help_is_readable_at_80x24_by_turning_pages(lang: str) -> None:
    config, _ = make_config(preset("cz"), 3, seed=1)
    model = UIModel(config, 0)
    install(lang)
    try:
        model.press("?")
        pages = ["".join(t for _s, t, *_ in view.help_text(model, 80, 22))]
        for _turn in range(10):
            model.press(" ")
            page = "".join(t for _s, t, *_ in view.help_text(model, 80, 22))
            if page == pages[-1]:  # the last page: Space stays on it
                break
            pages.append(page)
        assert 2 <= len(pages) < 10  # longer than one screen in every language, and it ends
        assert all(len(p.rstrip("\n").split("\n")) <= 22 for p in pages)
        words = " ".join(pages).split()
        for para in view.rules_summary(config.rules):  # every paragraph reaches the screen
            assert para.split()[-1] in words
        model.press("up")
        assert "".join(t for _s, t, *_ in view.help_text(model, 80, 22)) == pages[-2]
        model.press("escape")
        assert model.overlay is None and model.help_page == 0
    finally:
        install("en")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_vote_keys_and_dealing_quit_whole_at_80_columns(lang: str) -> None:
    """The wait and the vote stay on the status line (every language was cut), w / x stay
    on the bar in the notepad too (Italian was cut), and q while dealing
    shows the whole question on the dealing screen, in every language."""
    install(lang)
    try:
        model, state = _model()
        model.can_vote, model.seat = True, 0
        now = time.monotonic()
        model.on_event(Waiting(1, now - 100, now + 20), state, (0, 6, 12))
        model.state, model.voted = state, "abandon"
        status = "".join(text for _style, text, *_ in view.status_line(model, 80))
        waiting = tr("waiting for {player} {secs}s of {limit}s").format(
            player=player_word(model.config.players[1].name), secs=100, limit=120)
        assert waiting in status and tr("you voted: end") in status, status
        assert "…" not in status, status
        for mode in (Mode.WATCH, Mode.NOTEPAD):
            model.mode = mode
            bar = _bar(model)
            wait, end = (f"{a.key}:{a.label}" for a in model.actions() if a.key in "wx")
            assert wait in bar and end in bar and "…" not in bar, bar
        model.screen, model.can_leave = Screen.DEALING, True
        model.press("q")
        assert model.overlay is Overlay.QUIT and not model.leave_offered()
        shown = "".join(text for _style, text, *_ in view.dealing(model, 80, 22))
        keys, meanings = view.quit_question(False)
        assert keys in _bar(model)
        for line in meanings:
            assert line in shown, shown
    finally:
        install("en")


def _mode(model: UIModel) -> Mode:
    """The mode now, read through a call (mypy would keep a mode asserted before key
    presses as the mode after them)."""
    return model.mode
