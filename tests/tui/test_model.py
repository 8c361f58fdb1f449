"""The model owns the UI state: driven by session events and keys, asserted directly."""

from __future__ import annotations

import asyncio
from pathlib import Path

from p2pclue.bots.protocol import make_config
from p2pclue.engine import events as ev
from p2pclue.engine.peer import Choice
from p2pclue.net.api import Ended, Engine, Presence, Progress, Waiting, YourChoice
from p2pclue.rules import game as rg
from p2pclue.rules.board import classic_board
from p2pclue.rules.cards import card
from p2pclue.rules.state import GameState, Phase
from p2pclue.rules.variants import preset
from p2pclue.tui.model import (
    Leave,
    Mode,
    NeedHint,
    NeedQuietCard,
    Overlay,
    Screen,
    Submit,
    UIModel,
    Vote,
)
from p2pclue.tui.view import end_screen
from tests.tui.terminal import Table


def _model() -> tuple[UIModel, GameState]:
    config, _ = make_config(preset("classic"), 3, seed=3)
    model = UIModel(config, 0)
    state = rg.new_game(preset("classic"), [p.suspect for p in config.players],
                        hand_sizes=[6, 6, 6],
                        weapon_rooms={6 + i: 12 + i for i in range(6)})
    return model, state


def test_progress_tells_who_works_and_how_far() -> None:
    model, _ = _model()
    model.on_event(Progress("envelope", 1, 2, 3), None, ())
    assert model.screen is Screen.DEALING
    assert model.progress_text == "Bruno shuffles the envelope, 2 of 3"
    assert 0.3 < model.deal_fraction() < 0.5


def test_actions_offer_only_what_the_rules_allow() -> None:
    model, state = _model()
    model.on_event(Engine(ev.WeaponsPlaced(((6, 12),))), state, (0, 6, 12))
    assert model.screen is Screen.GAME
    first = state.current_seat
    if first != 0:
        assert model.actions()[0].key == "n"  # nothing but notepad/hint while others play
    model.on_event(YourChoice(Choice("turn")), state, (0, 6, 12))
    keys = [a.key for a in model.actions()]
    assert "r" in keys and "a" in keys
    assert "s" not in keys and "p" not in keys and "e" not in keys  # not in a room
    assert model.press("s") == []
    assert model.press("r") == [Submit(ev.RollDice())]


def test_after_a_roll_destinations_and_cursor_move() -> None:
    model, state = _model()
    st = state
    assert st.phase is Phase.AWAIT_TURN_START
    rolled = rg.apply(st, __import__("p2pclue.rules.actions", fromlist=["Roll"]).Roll(
        st.current_seat, (6,)))
    cfg_seat = rolled.current_seat
    model.seat = cfg_seat
    model.on_event(Engine(ev.DiceRolled(cfg_seat, (6,))), rolled, ())
    model.on_event(YourChoice(Choice("turn")), rolled, ())
    assert model.mode is Mode.MOVE
    assert model.destinations == dict(rg.legal_destinations(rolled))
    board = classic_board()
    assert not any(board.room_at(sq) is not None for sq in model.destinations)
    # no room in reach: no square is chosen for the player, and Enter does not go
    assert model.cursor is None
    assert "go" not in [a.label for a in model.actions()]
    assert model.press("enter") == []
    assert "No room in reach" in model.message
    model.press("down")
    start = model.cursor
    assert start in model.destinations
    token = rolled.token_of(cfg_seat)
    assert isinstance(token, tuple) and start is not None and start[0] > token[0]
    assert "go" in [a.label for a in model.actions()]
    moved = [model.cursor]
    for key in ("up", "down", "left", "right"):
        model.press(key)
        moved.append(model.cursor)
        assert model.cursor in model.destinations
    assert len(set(moved)) > 1
    out = model.press("enter")
    assert model.cursor is not None
    assert out == [Submit(ev.MoveAlong(model.destinations[model.cursor]))]


def test_room_initial_and_click_pick_a_room() -> None:
    model, state = _model()
    from p2pclue.rules.actions import Roll
    st = state
    seat = st.current_seat
    model.seat = seat
    rolled = rg.apply(st, Roll(seat, (6,)))
    # walk until a room is reachable in one roll: place the token near the Lounge instead
    board = classic_board()
    near = next(sq for sq in board.corridor if board.steps_to_room(sq, 18) == 2)
    tokens = list(rolled.tokens)
    tokens[rolled.seats[seat]] = near
    rolled = __import__("dataclasses").replace(rolled, tokens=tuple(tokens))
    model.on_event(YourChoice(Choice("turn")), rolled, ())
    assert model.mode is Mode.MOVE
    model.press("l")
    assert model.cursor is not None and board.room_at(model.cursor) in (18, 17)
    chosen = model.cursor
    assert model.pick_square(chosen) == [Submit(ev.MoveAlong(model.destinations[chosen]))]


def test_suggest_pick_and_accuse_confirm_warns() -> None:
    model, state = _model()
    import dataclasses
    seat = state.current_seat
    model.seat = seat
    tokens = list(state.tokens)
    tokens[state.seats[seat]] = 12
    st = dataclasses.replace(state, tokens=tuple(tokens), phase=Phase.AWAIT_SUGGESTION_OR_END,
                             entered_room=12, entry_allows_suggestion=True)
    model.on_event(YourChoice(Choice("turn")), st, ())
    assert [a.key for a in model.actions()][:3] == ["s", "a", "e"]
    model.press("s")
    assert model.mode is Mode.PICK and model.picker is not None
    assert model.picker.room == 12
    assert model.press("h") == [NeedHint(12)]
    model.press("down")
    model.press("enter")  # Colonel Mustard
    model.press("down")
    model.press("down")
    out = model.press("enter")  # Lead Pipe
    assert out == [Submit(ev.MakeSuggestion(1, 8))]
    model.on_event(YourChoice(Choice("turn")), st, ())
    model.press("a")
    for _ in range(3):
        model.press("enter")
    assert _mode(model) is Mode.CONFIRM
    assert "NOT certain" in model.accusation_warning() or "not certain" in \
        model.accusation_warning()
    assert model.press("n") == []
    assert _mode(model) is Mode.TURN
    model.press("a")
    for _ in range(3):
        model.press("enter")
    assert model.press("y") == [Submit(ev.MakeAccusation(0, 6, 12))]


def test_show_asks_for_the_quiet_card_and_marks_it() -> None:
    model, state = _model()
    import dataclasses

    from p2pclue.rules.state import Suggestion
    st = dataclasses.replace(state, phase=Phase.AWAIT_REFUTATION,
                             pending_suggestion=Suggestion(1, 0, 6, 12))
    out = model.on_event(YourChoice(Choice("show", (0, 12))), st, (0, 12, 7))
    assert model.mode is Mode.SHOW
    assert out == [NeedQuietCard((0, 12), 1)]
    model.set_quiet_card(12)
    assert model.show_cursor == 1
    assert model.press("enter") == [Submit(ev.ShowCard(12))]


def test_quit_asks_first_and_help_overlays() -> None:
    model, _ = _model()
    model.screen = Screen.GAME
    assert model.press("q") == []
    assert model.overlay is Overlay.QUIT
    assert model.press("n") == []
    assert model.overlay is None
    model.press("f1")
    assert model.overlay is Overlay.HELP
    model.press("x")
    assert model.overlay is None
    model.press("q")
    assert model.press("y") == [Leave()]


def test_story_speaks_to_you() -> None:
    model, state = _model()
    model.on_event(Engine(ev.Suggested(1, 0, 6, 12)), state, ())
    model.on_event(Engine(ev.Passed(2, 1, (0, 6, 12))), state, ())
    model.on_event(Engine(ev.Refuted(0, 1, (0, 6, 12))), state, ())
    assert model.story[-4:] == [
        f"Bruno suggests: {card(0).name} with the Candlestick in the Kitchen.",
        f"{card(0).name}'s token is brought into the Kitchen.",
        "  Chiara has none of them (proven).",
        "  You show Bruno a card (proven).",
    ]


def test_keys_through_the_real_app_drive_the_model(tmp_path: Path) -> None:
    """prompt_toolkit's pipe input feeds the running application; we assert on the model."""

    async def play() -> None:
        t = Table(80, 24, tmp=tmp_path)
        await t.start()
        try:
            await t.until(lambda: t.model.screen is Screen.GAME, what="the deal")
            await t.until(lambda: t.model.mode is Mode.TURN, what="my turn")
            t.press("n")
            await t.until(lambda: t.model.mode is Mode.NOTEPAD, what="notepad")
            t.press("\x1b[B")  # down arrow
            await t.until(lambda: t.model.note_cursor == (1, 0), what="cursor")
            await t.until(lambda: "Colonel Mustard" in t.model.explanation
                          or "Mustard" in t.model.explanation, what="explanation")
            t.press("n")
            await t.until(lambda: t.model.mode is Mode.TURN, what="back")
            t.press("r")
            await t.until(lambda: t.model.mode is Mode.MOVE, what="the roll")
            assert t.model.destinations
            if t.model.cursor is None:  # no room in reach: Enter goes once a square is picked
                t.press("\x1b[B")
                await t.until(lambda: t.model.cursor is not None, what="a square picked")
            t.press("\r")
            await t.until(lambda: t.model.mode is not Mode.MOVE, what="the move")
            t.press("q")
            await t.until(lambda: t.model.overlay is Overlay.QUIT, what="quit asks")
            t.press("y")
            assert t.task is not None
            assert await asyncio.wait_for(t.task, 120) == 0
        finally:
            await t.close()
        assert list(tmp_path.glob("*.p2pclue")), "leaving still saves the transcript"

    asyncio.run(play())


def test_widths_are_measured_in_cells_not_characters() -> None:
    from p2pclue.tui.board import _Label, _spread
    from p2pclue.tui.text import fit, pad, wrap

    assert pad("주방", 6) == "주방  "
    assert fit("주방 부엌", 5) == "주방…"
    assert all(len(line.encode()) and sum(2 if ord(c) > 0x1100 else 1 for c in line) <= 8
               for line in wrap("주방 부엌 서재 식당 무도회장", 8))
    cells: dict[tuple[int, int], _Label] = {}
    _spread(cells, 0, 0, 4, [("a주방", "x")], "b")
    assert [cells[(0, i)].text for i in range(4)] == ["a ", "주", "방", "  "]


def test_quit_offers_the_graceful_leave_where_the_session_has_it() -> None:
    model, state = _model()
    model.on_event(Engine(ev.WeaponsPlaced(((6, 12),))), state, (0, 6, 12))
    model.press("q")
    assert model.overlay is Overlay.QUIT
    assert model.press("l") == []  # this session cannot leave gracefully: l does nothing
    model.can_leave = True
    model.press("q")
    assert model.leave_offered()
    assert model.press("l") == [Submit(ev.Leave())]
    assert model.leaving and model.overlay is None
    assert "as soon as the table waits for you" in model.message
    model.press("q")
    assert not model.leave_offered()  # asked once: only y (quit now) and n remain
    assert model.press("n") == []
    model.on_event(Engine(ev.PlayerLeft(1, (1, 7))), state, (0, 6, 12))
    assert model.screen is Screen.GAME  # another seat left: the game goes on
    model.on_event(Engine(ev.PlayerLeft(0, (0, 6, 12))), state, (0, 6, 12))
    assert model.left_table and model.screen is Screen.END
    assert model.press("q") == [Leave()]


def test_silence_shows_who_and_lets_the_person_vote() -> None:
    model, state = _model()
    model.on_event(Engine(ev.WeaponsPlaced(((6, 12),))), state, (0, 6, 12))
    assert model.press("x") == []  # nothing to vote on
    model.can_vote = True
    model.on_event(Waiting(0, 10.0, 130.0), state, (0, 6, 12))
    assert not model.vote_offered()  # the table waits for me: I do not vote about myself
    model.on_event(Waiting(2, 10.0, 130.0), state, (0, 6, 12))
    keys = [a.key for a in model.actions()]
    assert "w" in keys and "x" in keys
    assert model.press("w") == [Vote("wait")]
    assert model.press("x") == [Vote("abandon")] and model.voted == "abandon"
    model.on_event(Engine(ev.Accepted(40, 2, "turn")), state, (0, 6, 12))
    assert model.waiting is None and not model.vote_offered()


def test_presence_says_back_only_after_away() -> None:
    """A link coming up at the start of a game, or again after this seat resumed, is no
    news: only a seat told away is later told back, once, however many links flap."""
    model, _ = _model()
    bruno, chiara = (1, "Bruno"), (2, "Chiara")
    for seat, name in (bruno, chiara, bruno, chiara):  # every link comes up at the start
        model.on_event(Presence(name, seat, True), None, ())
    assert not [line for line in model.story if " is " in line]
    model.on_event(Presence("Bruno", 1, False), None, ())
    model.on_event(Presence("Bruno", 1, False), None, ())  # its second link drops too
    model.on_event(Presence("Bruno", 1, True), None, ())
    model.on_event(Presence("Bruno", 1, True), None, ())
    model.on_event(Presence("Chiara", 2, True), None, ())
    told = [line for line in model.story if " is " in line]
    assert told == ["Bruno is away.", "Bruno is back."], told


def test_end_screen_waits_for_hands_only_when_they_will_come(tmp_path: Path) -> None:
    """An abandoned game reveals no hand: its end screen must not promise them."""
    for status, promised in (("abandoned", False), ("halted", False), ("complete", True)):
        model, _ = _model()
        model.on_event(Ended(status, tmp_path / "t.p2pclue", True, f"valid ({status})"),
                       None, ())
        text = "".join(t for _style, t, *_ in end_screen(model, 80, 24))
        assert f"valid ({status})" in text
        assert ("Reading the hands" in text) is promised, (status, text)


def _mode(model: UIModel) -> Mode:
    """The mode now, read through a call (mypy would keep a mode asserted before key
    presses as the mode after them)."""
    return model.mode


def test_a_silent_link_is_told_as_not_answering_and_a_lone_seat_suspects_its_network() -> None:
    config, _ = make_config(preset("classic"), 3, seed=3)
    model = UIModel(config, 0)
    one, two = config.players[1].name, config.players[2].name
    model.on_event(Presence(one, 1, False, silent=True), None, ())
    assert f"{one} is not answering (network?): reconnecting; the table waits for them." \
        in model.story[-1]
    assert not any("Nobody else" in line for line in model.story), "the other one answers"
    model.on_event(Presence(two, 2, False, silent=True), None, ())
    assert "Nobody else is answering: this computer may be off the network." \
        in model.story[-1]
    model.on_event(Presence(one, 1, True), None, ())
    assert f"{one} is back." in model.story[-1]
    model.on_event(Presence(one, 1, False), None, ())
    assert f"{one} is away." in model.story[-1], "a link closed by its side is no silence"
