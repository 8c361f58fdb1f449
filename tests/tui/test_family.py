"""Issue 20 (a family's evening), points 3 to 8, where a person sees them: the model and the
view at 80 x 24 (the game's own screens are checked in a terminal by
``test_family_game.py``)."""

from __future__ import annotations

import dataclasses
import time

from p2pclue.engine import events as ev
from p2pclue.engine.peer import Choice
from p2pclue.net.api import Ended, Engine, Presence, Waiting, YourChoice
from p2pclue.rules import game as rg
from p2pclue.rules.actions import Roll
from p2pclue.rules.board import classic_board
from p2pclue.rules.cards import ROOMS, card
from p2pclue.tui import board as bd
from p2pclue.tui import view
from p2pclue.tui.model import Mode, Screen, UIModel
from tests.tui.test_ux import _in_room, _model

BALLROOM, BILLIARD, LIBRARY, HALL = 13, 16, 17, 19


def _text(fragments: object) -> str:
    """The words shown, lines joined (a sentence wrapped over two lines reads as one)."""
    return " ".join("".join(t for _s, t, *_ in fragments).split())  # type: ignore[attr-defined]


def _moving_near(room: int, roll: int) -> tuple[object, object]:
    model, state = _model()
    seat = state.current_seat
    model.seat = seat
    board = classic_board()
    rolled = rg.apply(state, Roll(seat, (roll,)))
    near = next(sq for sq in sorted(board.corridor) if board.steps_to_room(sq, room) == 2)
    tokens = list(rolled.tokens)
    tokens[rolled.seats[seat]] = near
    rolled = dataclasses.replace(rolled, tokens=tuple(tokens))
    model.on_event(YourChoice(Choice("turn")), rolled, ())
    return model, rolled


# ---- 7: picking a room is unambiguous ---------------------------------------------------


def test_a_rooms_number_picks_it_and_a_room_out_of_reach_says_so() -> None:
    model, _st = _moving_near(HALL, 6)
    board = classic_board()
    assert model.mode is Mode.MOVE  # type: ignore[attr-defined]
    reach = model.rooms_in_reach()  # type: ignore[attr-defined]
    assert HALL in reach
    model.press(str([r.index for r in ROOMS].index(HALL) + 1))  # type: ignore[attr-defined]
    assert board.room_at(model.cursor) == HALL  # type: ignore[attr-defined]
    far = next(k for k, r in enumerate(ROOMS, 1) if r.index not in reach)
    before = model.cursor  # type: ignore[attr-defined]
    model.press(str(far))  # type: ignore[attr-defined]
    assert model.cursor == before  # type: ignore[attr-defined]
    assert f"{card(ROOMS[far - 1].index).name}: out of reach with this roll" in \
        model.message  # type: ignore[attr-defined]
    panel = _text(view.story_lines(model, 48, 8))  # type: ignore[arg-type]
    assert "Rooms in reach: " in panel and f"{far} {card(ROOMS[far - 1].index).name}" \
        not in panel.split("Rooms in reach: ")[1]
    assert "8 Hall" in panel


def test_b_reaches_the_billiard_room_from_any_square_of_the_ballroom() -> None:
    model, state = _model()
    board = classic_board()
    # Three steps from both doors, a roll of 6 reaches the Ballroom and the Billiard Room.
    rolled = rg.apply(state, Roll(state.current_seat, (6,)))
    tokens = list(rolled.tokens)
    tokens[rolled.seats[rolled.current_seat]] = (8, 16)
    rolled = dataclasses.replace(rolled, tokens=tuple(tokens))
    model.seat = rolled.current_seat
    model.on_event(YourChoice(Choice("turn")), rolled, ())
    # the cursor on a Ballroom square that is not the first one listed
    model.cursor = max(d for d in model.destinations if board.room_at(d) == BALLROOM)
    model.press("b")
    assert board.room_at(model.cursor) == BILLIARD
    model.press("b")
    assert board.room_at(model.cursor) == BALLROOM


def test_called_into_a_room_one_already_stands_in_is_not_told() -> None:
    model, state = _model()
    me = model.config.players[0].suspect
    model.on_event(Engine(ev.Moved(0, ((0, 0),), 12)), state, ())
    model.on_event(Engine(ev.Suggested(1, me, 6, 12)), state, ())
    assert not any("brought" in line for line in model.story), model.story
    model.on_event(Engine(ev.Suggested(1, me, 6, 13)), state, ())
    assert model.story[-1] == "You are brought into the Ballroom."


# ---- 4: nothing invisible ---------------------------------------------------------------


def test_a_bot_that_stays_is_told_so() -> None:
    model, state = _model()
    model.on_event(Engine(ev.DiceRolled(1, (4,))), state, ())
    model.on_event(Engine(ev.TurnEnded(1)), state, ())
    assert model.story[-1] == ("Every way is blocked by other players, so Bruno stays on the "
                               "starting square.")
    model.on_event(Engine(ev.DiceRolled(2, (4,))), state, ())
    model.on_event(Engine(ev.Moved(2, ((7, 7),), None)), state, ())
    model.on_event(Engine(ev.TurnEnded(2)), state, ())
    assert "stays" not in model.story[-1]


def test_a_crowded_room_lists_what_the_board_cannot_hold() -> None:
    model, state = _model()
    everyone = tuple(LIBRARY for _ in state.tokens)
    model.state = dataclasses.replace(state, tokens=everyone,
                                      weapons=tuple(LIBRARY for _ in state.weapons))
    pic = bd.picture(model.state, frozenset(), None, None)
    board = _text(bd.render(pic, tall=False, color=False))
    listed = view.crowded_lines(model, 48)
    assert listed, board
    line = " ".join(text.strip() for _style, text in listed)
    assert line.startswith("Library: ")
    for code in bd.TOKEN_CODES:
        assert code in line
    for w in range(6, 12):
        assert bd.weapon_short(w) in line
    assert "Library" in _text(view.panel(model, 48, 7))


def test_two_weapons_and_three_tokens_fit_by_flowing_over_the_room() -> None:
    pic = bd.BoardPicture({}, {15: (0, 1, 2)}, {15: (6, 9)}, frozenset(), None, None)
    text = _text(bd.render(pic, tall=False, color=False))
    assert not bd.crowded(pic, False)
    for piece in ("Sc", "Mu", "Wh"):
        assert piece in text
    assert ("Candle" in text and "Revolver" in text) or ("Cs" in text and "Rv" in text)


# ---- 3: waiting and voting ------------------------------------------------------------


def test_whom_the_table_waits_for_from_the_first_second_and_the_votes_keys() -> None:
    model, state = _model()
    model.can_vote, model.seat, model.state = True, 0, state
    model.expect(1, time.monotonic())
    status = _text(view.status_line(model, 80))
    assert "waiting for Bruno 0s" in status, status
    model.on_event(Presence("Bruno", 1, False), state, ())
    assert "Bruno is away: the table waits" in _text(view.story_lines(model, 48, 8))
    now = time.monotonic()
    model.on_event(Waiting(1, now - 120, now + 30), state, ())
    panel = _text(view.story_lines(model, 48, 8))
    assert "Bruno is silent: w to wait more, x to end the game" in panel, panel


def test_an_abandoned_end_screen_says_who_was_silent_and_who_voted() -> None:
    model, state = _model()
    model.on_event(Engine(ev.VoteCounted(0, "abandon", 1, (0,), (), 2)), state, ())
    model.on_event(Engine(ev.VoteCounted(2, "abandon", 1, (0, 2), (), 2)), state, ())
    model.on_event(Engine(ev.Abandoned(1, (0, 2))), state, ())
    model.on_event(Ended("abandoned", None, True, "audit: valid (abandoned)"), state, ())
    end = _text(view.end_screen(model, 80, 22))
    assert "while waiting for Bruno" in end and "Chiara" in end, end
    assert "Chiara votes to end the game" in end


def test_an_abandoned_game_without_the_tables_decision_still_says_whom_it_waited_for() -> None:
    model, state = _model()
    model.expect(2, time.monotonic())
    model.on_event(Ended("abandoned", None, None, "gave up"), state, ())
    assert "The game stopped while waiting for Chiara." in _text(view.end_screen(model, 80, 22))


# ---- 5: reading back ---------------------------------------------------------------------


def test_pgup_reads_back_the_story_and_pgdn_comes_back() -> None:
    model, state = _model()
    for k in range(30):
        model.on_event(Engine(ev.DiceRolled(1 + k % 2, (1 + k % 6,))), state, ())
    first = model.story[0]
    assert first not in _text(view.story_lines(model, 48, 5))
    for _ in range(20):
        model.press("pageup")
        view.story_lines(model, 48, 5)  # each redraw tells the model a page's size
    back = _text(view.story_lines(model, 48, 5))
    assert first in back and "PgDn" in back
    for _ in range(20):
        model.press("pagedown")
    assert model.story_back == 0 and "PgDn" not in _text(view.story_lines(model, 48, 5))


def picking_after_a_shown_suggestion(hand: tuple[int, ...] = ()) -> UIModel:
    """Seat 0 opens the suggestion picker in the Ballroom right after Bruno suggested
    Reverend Green with the Dagger there and Chiara showed him a card."""
    model, state = _model()
    st = _in_room(model, state, 12)
    model.seat = 0
    model.on_event(Engine(ev.Suggested(1, 3, 7, 13)), st, ())
    model.on_event(Engine(ev.Refuted(2, 1, (3, 7, 13))), st, ())
    st = _in_room(model, state, 12)
    model.on_event(YourChoice(Choice("turn")), st, hand)
    model.press("s")
    return model


def test_the_last_suggestion_and_who_showed_stay_while_picking() -> None:
    model = picking_after_a_shown_suggestion()
    text = _text(view.picker_lines(model, 48, 7))
    assert "Bruno suggests: Reverend Green" in text, text
    assert "Chiara shows Bruno a card" in text, text
    assert "".join(t for _s, t, *_ in view.picker_lines(model, 48, 7)).count("\n") <= 6


def test_a_winning_accusation_stays_on_the_end_screen() -> None:
    model, state = _model()
    model.on_event(Engine(ev.Accused(1, (3, 7, 13))), state, ())
    model.on_event(Engine(ev.AccusationDecided(1, (3, 7, 13), True)), state, ())
    model.on_event(Engine(ev.GameOver("won", 1, (3, 7, 13))), state, ())
    model.on_event(Ended("complete", None, True, "audit: valid"), state, ())
    assert model.screen is Screen.END
    end = _text(view.end_screen(model, 80, 22))
    assert "Bruno accuses: Reverend Green with the Dagger in the Ballroom!" in end, end
    assert "...and is right" in end


# ---- 8: small ones --------------------------------------------------------------------------


def test_you_are_right_when_you_accuse_rightly() -> None:
    model, state = _model()
    model.on_event(Engine(ev.Accused(0, (3, 7, 13))), state, ())
    model.on_event(Engine(ev.AccusationDecided(0, (3, 7, 13), True)), state, ())
    assert model.story[-1] == "  ...and you are right (checked by all together)."


# ---- 2: the lobby shows addresses others can dial ---------------------------------------


def test_without_interface_the_lobby_offers_this_machines_real_addresses() -> None:
    from p2pclue.net.discovery import local_addresses
    from p2pclue.net.play import Opened
    from p2pclue.tui.lobby import LobbyModel

    model = LobbyModel(b"\x01" * 32, "Me")
    model.opened = Opened("Kitchen", "123456", "0.0.0.0", 5000, "ab", True)
    shown = "\n".join(t for _s, t in model.lines(200))
    assert "0.0.0.0" not in shown, shown
    offered = shown.split("--peer ")[1].split(")")[0].split(" / ")
    assert offered and all(a.endswith(":5000") and a[:-5] in local_addresses()
                           for a in offered), offered
    model.opened = Opened("Kitchen", "123456", "127.0.0.1", 5000, "ab", True)
    assert "--peer 127.0.0.1:5000)" in "\n".join(t for _s, t in model.lines(200))


# ---- 6: a person's name --------------------------------------------------------------------


def test_the_name_is_asked_once_offering_the_accounts_and_kept(tmp_path: object) -> None:
    """On a real terminal: ``join`` asks for the name (Enter takes the account's), the
    lobby shows it, and the next ``join`` asks no more."""
    import os
    import sys
    from pathlib import Path

    from p2pclue.cli.whoami import account_name
    from tests.tui.drive import PtyProgram, pty_env

    home = Path(str(tmp_path))
    env = pty_env()
    env.update(P2PCLUE_HOME=str(home), P2PCLUE_INTERFACES="127.0.0.1", LANG="C")
    env.pop("LC_ALL", None)
    args = [sys.executable, "-m", "p2pclue", "join", "--create", "--no-code", "--players",
            "4", "--bots", "1", "--bot-think", "0", "--lang", "en"]

    def join(typed: str) -> bool:
        """One ``join`` to its lobby, typing ``typed`` if asked the name: whether asked."""
        prog = PtyProgram(args, env=env)
        try:
            prog.pump_until(lambda: "Your name at the table" in prog.text()
                            or "Players:" in prog.text(), what="the name or the lobby")
            asked = "Your name at the table" in prog.text()
            if asked:
                assert f"[{account_name()}]" in prog.text()
                prog.press(typed)
            prog.pump_until(lambda: "Ada Lovelace (you)" in prog.text(), what="the lobby")
            prog.press("q")
            prog.proc.wait(60)
            return asked
        finally:
            prog.close()

    assert join("Ada Lovelace\r"), "asked the first time"
    assert not join(""), "not asked again"
    kept = home / "profiles" / "default" / "name"
    assert kept.read_text(encoding="utf-8").strip() == "Ada Lovelace"
    assert os.stat(kept).st_size < 100


def test_six_long_card_names_all_show_under_the_board_at_80_columns() -> None:
    model, _state = _model()
    model.hand = (1, 3, 5, 6, 14, 16)  # Mustard, Green, Plum, Candlestick, Conservatory...
    height = view.hand_height(model, 48)
    assert height >= 3
    shown = _text(view.hand_lines(model, 48, height))
    for c in model.hand:
        assert card(c).name in shown, shown


def test_the_hint_never_names_a_card_already_placed_outside_the_envelope() -> None:
    from p2pclue.tui.knowledge import Knowledge, best_suggestion, build_snapshot

    k = Knowledge(0, 3, ("you", "Bruno", "Chiara"))
    k.hand_sizes = (6, 6, 6)
    k.feed(ev.HandDealt((0, 6, 12, 1, 7, 13)))
    for s, w, r, shown in ((2, 8, 14, 2), (3, 9, 15, 9), (4, 10, 16, 4)):
        k.feed(ev.Suggested(0, s, w, r))
        k.feed(ev.Refuted(1, 0, (s, w, r)))
        k.feed(ev.CardShownToMe(1, shown))
    notepad_view = build_snapshot(k.frozen())
    for room in range(12, 21):
        best = best_suggestion(notepad_view.notepad, room)
        assert best is not None
        assert all(notepad_view.envelope[c] > 0 for c in best), (room, best)


def test_taking_a_tables_last_seat_asks_for_the_suspect_first() -> None:
    from p2pclue.net.discovery import TableAd
    from p2pclue.rules.cards import SUSPECTS
    from p2pclue.tui.lobby import LobbyModel

    model = LobbyModel(b"\x01" * 32, "Me")
    model.phase = "tables"
    last = TableAd(b"t" * 16, "Attic", "classic", 2, 3, False, 1, "ab", "127.0.0.1", 9)
    roomy = TableAd(b"u" * 16, "Barn", "classic", 1, 4, False, 1, "cd", "127.0.0.1", 9)
    model.on_tables([last, roomy])
    model.press("enter")  # Attic, sorted first: its last seat
    assert model.chosen is None and model.phase == "wish"
    assert "You take the last seat" in " ".join(t for _s, t in model.lines(200))
    model.press("5")
    model.press("enter")
    assert model.chosen == last and model.wish == SUSPECTS[4].index
    other = LobbyModel(b"\x01" * 32, "Me")
    other.phase = "tables"
    other.on_tables([roomy])
    other.press("enter")
    assert other.chosen == roomy and other.wish is None


def test_plain_asks_the_last_seats_suspect_by_number() -> None:
    import asyncio
    import io

    from p2pclue.net.discovery import TableAd
    from p2pclue.rules.cards import SUSPECTS
    from p2pclue.tui.lobby import LineFeed, LobbyModel, PlainLobby

    last = TableAd(b"t" * 16, "Attic", "classic", 2, 3, False, 1, "ab", "127.0.0.1", 9)
    for typed, wish, taken in (("7\n2\n", SUSPECTS[1].index, True), ("\n", None, True),
                               ("", None, False)):
        model = LobbyModel(b"\x01" * 32, "Me")
        out = io.StringIO()
        front = PlainLobby(model, asyncio.Queue(), LineFeed(io.StringIO(typed)), out=out)
        assert asyncio.run(front.wish(last)) is taken
        assert model.wish == wish and front.input_ended is (not taken)
        assert "You take the last seat" in out.getvalue()
