"""What each key does, mode by mode (the presenter between the keyboard and ``UIModel``).

``press`` takes one key name and answers with the commands for the application (submit an
intent, ask for a hint...), changing only the UI state (``uistate.UIState``) on the way.
It never touches the terminal or the session, so tests drive it through ``UIModel.press``.
"""

from __future__ import annotations

from p2pclue.engine import events as ev
from p2pclue.i18n import _, card_name, card_phrase, fold, is_no, is_yes, listing
from p2pclue.rules import game as rg
from p2pclue.rules.board import Square, classic_board
from p2pclue.rules.cards import CARDS, ROOMS
from p2pclue.rules.state import Phase
from p2pclue.tui import moves
from p2pclue.tui.commands import (
    Command,
    Leave,
    NeedExplain,
    NeedHint,
    Submit,
    Vote,
)
from p2pclue.tui.modes import Mode, Overlay, Screen
from p2pclue.tui.picker import Picker
from p2pclue.tui.uistate import UIState


def press(model: UIState, key: str) -> list[Command]:
    """One key (``"r"``, ``"up"``, ``"enter"``, ``"escape"``, ``"f1"``...)."""
    model.message = "" if key not in ("h",) else model.message
    if model.overlay is Overlay.HELP:
        if key in ("down", "pagedown", " "):  # the help is longer than 80 x 24 in
            model.help_page += 1  # every language: it turns pages (the view clamps)
        elif key in ("up", "pageup"):
            model.help_page = max(0, model.help_page - 1)
        else:
            model.overlay, model.help_page = None, 0
        return []
    if model.overlay is Overlay.QUIT:
        model.overlay = None
        if is_yes(key) or key == "q":
            model.left = True
            return [Leave()]
        if key == "l" and model.leave_offered():
            model.leaving = True
            model.message = _("You will leave as soon as the table waits for you.")
            return [Submit(ev.Leave())]
        return []
    if key in ("?", "f1"):
        model.overlay = Overlay.HELP
        return []
    if key == "p" and model.again_offered():
        model.again = model.left = True
        return [Leave()]
    if key == "q" or key == "c-c":
        if model.screen is Screen.END:
            model.left = True
            return [Leave()]
        model.overlay = Overlay.QUIT
        return []
    if key in ("pageup", "pagedown") and model.screen is not Screen.DEALING:
        model.scroll_story(1 if key == "pageup" else -1)
        return []
    if key in ("home", "end") and model.screen is not Screen.DEALING:
        model.story_edge(key == "home")
        return []
    if model.screen is not Screen.GAME:
        return []
    if key in ("w", "x") and model.vote_offered():
        model.voted = "wait" if key == "w" else "abandon"
        return [Vote(model.voted)]
    handler = {
        Mode.WATCH: _key_watch, Mode.TURN: _key_turn, Mode.MOVE: _key_move,
        Mode.PICK: _key_pick, Mode.CONFIRM: _key_confirm,
        Mode.SHOW: _key_show, Mode.NOTEPAD: _key_notepad,
    }[model.mode]
    return handler(model, key)


def _common(model: UIState, key: str) -> list[Command]:
    if key in ("n", "tab"):
        model.mode_before_notepad = model.mode
        model.mode = Mode.NOTEPAD
        return [NeedExplain(*model.selected_cell())]
    if key == "h":
        if model.mode is Mode.SHOW:  # which card tells the suggester least
            model.show_hint = True
            return []
        room = model.my_room()
        if not model.hint_offered() or room is None:  # never a hint for a later turn
            model.message = _("Hints come when you may suggest, or have a card to show.")
            return []
        model.hint = _("Thinking...")
        return [NeedHint(room)]
    return []


def _key_watch(model: UIState, key: str) -> list[Command]:
    return _common(model, key)


def _key_turn(model: UIState, key: str) -> list[Command]:
    st = model.state
    if st is None:
        return []
    offered = {a.key for a in model.actions()}
    if key == "r" and "r" in offered:
        return [Submit(ev.RollDice())]
    if key == "p" and "p" in offered:
        return [Submit(ev.TakePassage())]
    if key == "e" and "e" in offered:
        return [Submit(ev.EndTurn())]
    if key == "m" and "m" in offered:
        model.mode = Mode.MOVE
        return []
    if key == "s" and "s" in offered:
        model.picker = Picker("suggest", model.my_room())
        if model.hint_pick is not None:  # asked for a hint before: start on it
            model.picker.cursor = model.picker.options.index(model.hint_pick[0])
        model.mode = Mode.PICK
        return []
    if key == "a" and "a" in offered:
        return _start_accusation(model)
    return _common(model, key)


def _start_accusation(model: UIState) -> list[Command]:
    model.picker = Picker("accuse", None)
    model.picker.cursor = _likeliest(model, model.picker)
    model.mode = Mode.PICK
    return []


def _likeliest(model: UIState, p: Picker) -> int:
    """Where an accusation's cursor starts: the notepad's answer, else the likeliest card.

    Never a card in your own hand by default: Enter, Enter, Enter must not accuse
    with cards you hold.
    """
    options = p.options
    sol = model.view.solution
    if sol is not None:
        return options.index(sol[len(p.chosen)])
    odds = [model.view.envelope.get(c, 0.0 if c in model.hand else 0.5) for c in options]
    return odds.index(max(odds))


def _key_move(model: UIState, key: str) -> list[Command]:
    st = model.state
    if st is None:
        return []
    if key in ("up", "down", "left", "right"):
        where = st.token_of(model.seat) if model.seat is not None else None
        model.cursor = moves.step_cursor(model.destinations, model.cursor, key,
                                         where if isinstance(where, tuple) else None)
        return []
    if key == "enter" and model.cursor in model.destinations:
        return [Submit(ev.MoveAlong(model.destinations[model.cursor]))]
    if key == "enter" and model.destinations:
        model.message = _("No room in reach: pick a square with the arrows or the mouse, "
                          "then Enter.")
        return []
    if key == "e" and rg.may_stay(st):
        return [Submit(ev.EndTurn())]
    if key == "a" and rg.can_accuse(st):
        return _start_accusation(model)
    if key == "escape":
        model.mode = Mode.TURN
        return []
    if len(key) == 1 and (number := small_number(key)):
        return _room_by_number(model, number)
    if len(key) == 1 and key.isalpha():
        picked = moves.room_by_initial(model.destinations, model.cursor, key)
        if picked is not None:
            model.cursor = picked
            return []
        named = [card_phrase(r.index) for r in ROOMS
                 if fold(card_name(r.index)).startswith(fold(key))
                 or r.name.lower().startswith(key.lower())]
        if named and key not in ("h", "n"):  # h and n keep their own meaning
            rooms = listing(named)
            model.message = _("{rooms}: out of reach with this roll.").format(
                rooms=rooms[:1].upper() + rooms[1:])
            return []
    return _common(model, key)


def pick_square(model: UIState, square: Square) -> list[Command]:
    """A mouse click on the board: select a destination there; a second click goes."""
    if model.mode is not Mode.MOVE:
        return []
    board = classic_board()
    target: Square | None = square if square in model.destinations else None
    room = board.room_at(square)
    if target is None and room is not None:
        target = next((sq for sq in sorted(model.destinations)
                       if board.room_at(sq) == room), None)
    if target is None:
        return []
    if target == model.cursor:
        return [Submit(ev.MoveAlong(model.destinations[target]))]
    model.cursor = target
    return []


def _room_by_number(model: UIState, number: int) -> list[Command]:
    """Keys 1-9 pick the rooms in the cards' order: one key, one room, in every language."""
    if number > len(ROOMS):
        return []
    room = ROOMS[number - 1].index
    square = model.rooms_in_reach().get(room)
    if square is None:
        name = card_phrase(room)
        model.message = _("{rooms}: out of reach with this roll.").format(
            rooms=name[:1].upper() + name[1:])
    else:
        model.cursor = square
    return []


def _key_pick(model: UIState, key: str) -> list[Command]:
    p = model.picker
    if p is None:
        model.mode = Mode.TURN
        return []
    options = p.options
    if key in ("up", "k"):
        p.cursor = (p.cursor - 1) % len(options)
    elif key in ("down", "j"):
        p.cursor = (p.cursor + 1) % len(options)
    elif key == "escape":
        if p.chosen:
            p.chosen.pop()
            p.cursor = 0
        else:
            model.picker = None
            model.mode = Mode.MOVE if _move_pending(model) else Mode.TURN
    elif key == "enter":
        p.chosen.append(options[p.cursor])
        p.cursor = 0
        if len(p.chosen) == p.steps:
            return _picked(model, p)
        if p.purpose == "accuse":
            p.cursor = _likeliest(model, p)
        elif model.hint_pick is not None:  # the hinted weapon after the hinted suspect
            p.cursor = p.options.index(model.hint_pick[len(p.chosen)])
    elif key == "h" and p.purpose == "suggest" and p.room is not None:
        model.hint = _("Thinking...")
        return [NeedHint(p.room)]
    elif (number := small_number(key)) is not None and 1 <= number <= len(options):
        p.cursor = number - 1
    return []


def _move_pending(model: UIState) -> bool:
    return model.state is not None and model.state.phase is Phase.AWAIT_MOVE


def _picked(model: UIState, p: Picker) -> list[Command]:
    model.picker = None
    if p.purpose == "suggest":
        model.mode = Mode.WATCH
        model.hint, model.hint_pick = "", None
        return [Submit(ev.MakeSuggestion(p.chosen[0], p.chosen[1]))]
    model.accusation = (p.chosen[0], p.chosen[1], p.chosen[2])
    model.mode = Mode.CONFIRM
    return []


def _key_confirm(model: UIState, key: str) -> list[Command]:
    if is_yes(key) and model.accusation is not None:
        s, w, r = model.accusation
        model.accusation = None
        model.mode = Mode.WATCH
        return [Submit(ev.MakeAccusation(s, w, r))]
    if is_no(key) or key == "escape":
        model.accusation = None
        model.mode = Mode.MOVE if _move_pending(model) else Mode.TURN
    return []


def _key_show(model: UIState, key: str) -> list[Command]:
    n = len(model.show_options)
    if not n:
        return []
    if key in ("up", "left", "k"):
        model.show_cursor = (model.show_cursor - 1) % n
    elif key in ("down", "right", "j"):
        model.show_cursor = (model.show_cursor + 1) % n
    elif (number := small_number(key)) is not None and 1 <= number <= n:
        model.show_cursor = number - 1
    elif key == "enter":
        c = model.show_options[model.show_cursor]
        model.i_show(c)
        model.mode = Mode.WATCH
        return [Submit(ev.ShowCard(c))]
    else:
        return _common(model, key)
    return []


def _key_notepad(model: UIState, key: str) -> list[Command]:
    row, col = model.note_cursor
    if key in ("n", "tab", "escape"):
        model.mode = model.mode_before_notepad
        if model.mode is Mode.NOTEPAD:
            model.mode = Mode.WATCH
        return []
    steps = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
    if key in steps:
        dr, dc = steps[key]
        model.note_cursor = ((row + dr) % len(CARDS), (col + dc) % len(model.owners))
        model.explanation = "..."
        return [NeedExplain(*model.selected_cell())]
    return []


SMALL_NUMBER_DIGITS = 4
"""Longer than any number a person types to pick from a list."""


def small_number(text: str) -> int | None:
    """A typed number of a few ASCII digits ("3", "12"), or None: other digits ("²", "٣"),
    signs, spaces and endless numbers are not numbers to pick by (asked again, as any
    other wrong answer)."""
    if 0 < len(text) <= SMALL_NUMBER_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None
