"""The screens, drawn from the model: every function here reads ``UIModel`` and a size.

This module lays the screen out (status line, board, hand, panel, notepad, action bar);
the panel under the board is drawn by ``panel``, the notepad by ``notepad_view``, and the
screens that replace the game (deal, end, help) by ``screens``. Their functions are
importable from here as before.

The layout is rebuilt from the model and the terminal size at every redraw, so a
resize simply draws the next frame in the new shape: compact (80 x 24: the board
two rows per line beside the notepad) or roomy (one row per line, full names).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import HSplit, VSplit, Window
from prompt_toolkit.layout.containers import Container
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.utils import get_cwidth

from p2pclue.i18n import (
    _,
    card_name,
    card_word,
    player_word,
    rules_label,
)
from p2pclue.net.api import Waiting
from p2pclue.rules.board import Square
from p2pclue.tui import board as bd
from p2pclue.tui.model import Mode, Overlay, Screen, UIModel
from p2pclue.tui.notepad_view import natural_width, notepad
from p2pclue.tui.panel import (
    confirm_lines,
    crowded_lines,
    last_suggestion_lines,
    panel,
    picker_lines,
    picking,
    quit_lines,
    quit_question,
    show_lines,
    story_lines,
    story_page,
    waiting_words,
)
from p2pclue.tui.screens import (
    SPINNER,
    dealing,
    end_screen,
    help_text,
    rules_summary,
    transcript_lines,
)
from p2pclue.tui.text import line_fragments, pad, wrap

MIN_WIDTH, MIN_HEIGHT = 80, 24
NOTEPAD_LINES = 22
"""The notepad's heading and its 21 cards."""
STORY_PANE_MIN = 6
"""Spare lines below the notepad from which the story moves there."""
OnClick = Callable[[Square], None]


def is_tall(width: int, height: int) -> bool:
    """Room for one board row per line (and full names)?"""
    return width >= 110 and height >= 38


def _window(fragments: Callable[[], StyleAndTextTuples], width: int | None = None,
            height: int | None = None, style: str = "") -> Window:
    return Window(FormattedTextControl(fragments), width=width, height=height, style=style,
                  dont_extend_width=width is not None, dont_extend_height=height is not None)


def shape(model: UIModel, width: int, height: int) -> tuple[object, ...]:
    """What decides the layout's structure (the windows read everything else live)."""
    return (width, height, model.screen, model.overlay is Overlay.HELP,
            hand_height(model, bd.board_width()), picking(model))


def root(model: UIModel, width: int, height: int, on_click: OnClick) -> Container:
    """The whole screen for this model at this size."""
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        msg = _("p2pclue needs at least {min_width} x {min_height}; this terminal is "
                "{width} x {height}. Enlarge it, or play with --plain.").format(
            min_width=MIN_WIDTH, min_height=MIN_HEIGHT, width=width, height=height)
        return _window(lambda: [("", "\n".join(wrap(msg, max(width, 10))))])
    top = _window(lambda: status_line(model, width), height=1, style="class:status")
    bottom = _window(lambda: action_bar(model, width), height=1, style="class:bar")
    body_h = height - 2
    if model.overlay is Overlay.HELP:
        body: Container = _window(lambda: help_text(model, width, body_h))
    elif model.screen is Screen.DEALING:
        body = _window(lambda: dealing(model, width, body_h))
    elif model.screen is Screen.END:
        body = _window(lambda: end_screen(model, width, body_h))
    else:
        body = game_body(model, width, body_h, on_click)
    return HSplit([top, body, bottom])


def game_body(model: UIModel, width: int, height: int, on_click: OnClick) -> Container:
    tall = is_tall(width, height + 2)
    bw = bd.board_width()
    bh = bd.board_height(tall)
    hand_h = hand_height(model, bw)
    panel_h = height - bh - hand_h
    pick = picking(model)
    # A list to pick on a wide terminal takes the columns the notepad does not need.
    lw = max(bw, width - 1 - natural_width(model)) if pick else bw
    right_w = width - lw - 1
    pick_hand_h = min(hand_h, hand_height(model, lw))

    def left_pane(story: bool) -> Container:
        if pick:  # the board gives its lines to the list; the hand stays, on top
            return HSplit([
                _window(lambda: hand_lines(model, lw, pick_hand_h), width=lw,
                        height=pick_hand_h),
                _window(lambda: panel(model, lw, height - pick_hand_h, story=story, tall=tall),
                        width=lw, height=height - pick_hand_h),
            ])
        return HSplit([
            _window(lambda: board_fragments(model, tall, on_click), width=bw, height=bh),
            _window(lambda: hand_lines(model, bw, hand_h), width=bw, height=hand_h),
            _window(lambda: panel(model, bw, panel_h, story=story, tall=tall), width=bw,
                    height=panel_h),
        ])

    left = left_pane(True)
    sep = Window(width=1, char="│", style="class:sep")
    note_h = NOTEPAD_LINES + 1
    if height - note_h >= STORY_PANE_MIN:
        # Room to spare below the notepad: the story gets a wide pane of its own there,
        # and the panel under the board keeps only the question of the moment.
        right: Container = HSplit([
            _window(lambda: notepad(model, right_w, note_h, tall), width=right_w,
                    height=note_h),
            Window(height=1, char="─", style="class:sep"),
            _window(lambda: story_lines(model, right_w, height - note_h - 1, story_only=True),
                    width=right_w, height=height - note_h - 1),
        ])
        left = left_pane(False)
    else:
        right = _window(lambda: notepad(model, right_w, height, tall), width=right_w,
                        height=height)
    return VSplit([left, sep, right])


# ---- lines ----------------------------------------------------------------------------


def status_line(model: UIModel, width: int) -> StyleAndTextTuples:
    rules = model.config.rules
    parts = [f"p2pclue · {rules_label(rules.name())}"]
    st = model.state
    you = turn = None
    if model.seat is not None:
        me = model.config.players[model.seat]
        out = st is not None and model.seat in st.eliminated and model.screen is Screen.GAME
        you = (_("you: {suspect} (out)") if out else _("you: {suspect}")).format(
            suspect=card_word(me.suspect))
        parts.append(you)
    if st is not None and model.screen is Screen.GAME:
        turn = _("turn {number}").format(number=st.turn_number)
        parts.append(turn)
    w = model.waiting
    if model.awaited is not None and (w is None or w.seat != model.awaited[0]):
        # Nobody reported silent yet: whom the table waits for, from the first second.
        seat, since = model.awaited
        w = Waiting(seat, since, since)
    if w is not None and model.screen is Screen.GAME:
        secs = max(0, int(time.monotonic() - w.since))
        limit = max(0, round(w.deadline - w.since))
        if w.seat == model.seat:  # "you" as an object is a word of its own in most languages
            waiting = (_("waiting for you {secs}s of {limit}s") if limit
                       else _("waiting for you {secs}s"))
        else:
            waiting = (_("waiting for {player} {secs}s of {limit}s") if limit
                       else _("waiting for {player} {secs}s"))
        parts.append(waiting.format(player=player_word(model.config.players[w.seat].name),
                                    secs=secs, limit=limit))
        if model.voted is not None:
            parts.append(_("you voted: wait") if model.voted == "wait"
                         else _("you voted: end"))
    # Too long for the width (a wait and a vote at 80 columns): who waits for whom, and
    # the vote, stay; the game's name goes first, then the turn, then your suspect.
    for spare in (parts[0], turn, you):
        if get_cwidth(" " + " · ".join(parts)) <= width:
            break
        if spare is not None and len(parts) > 1:
            parts.remove(spare)
    return [("class:status", pad(" " + " · ".join(parts), width))]


def action_bar(model: UIModel, width: int) -> StyleAndTextTuples:
    if model.overlay is Overlay.QUIT:
        # Only the keys, short enough for 80 columns in every language: what each does
        # in full is in the panel under the board (``quit_lines``).
        keys, _meanings = quit_question(model.leave_offered())
        return [("class:warn", pad(" " + keys, width))]
    if model.overlay is Overlay.HELP:
        return [("class:bar", pad(" " + _("Esc or any letter: back to the game"), width))]
    tail = _("?:help") if model.screen is Screen.END else _("?:help q:quit")
    actions = model.actions()
    for spare in ("h", "n", _("arrows")):
        if 1 + sum(get_cwidth(f"{a.key}:{a.label}") + 1 for a in actions) + get_cwidth(tail) \
                <= width:
            break
        # Short of room (80 columns in Italian and French while moving): the hint and the
        # notepad go first (the help lists them; neither is what this step is about), the
        # arrows only last: without them the bar's "Enter:go" says nothing of how to pick.
        actions = [a for a in actions if a.key != spare]
    pieces = [f"{a.key}:{a.label}" for a in actions]
    out: StyleAndTextTuples = [("class:bar", " ")]
    used = 1
    for piece in pieces:
        out += [("class:key", piece), ("class:bar", " ")]
        used += get_cwidth(piece) + 1
    rest = width - used
    if rest >= get_cwidth(tail):
        out.append(("class:bar", " " * (rest - get_cwidth(tail)) + tail))
    else:  # never hide how to get help or leave: the tail wins over the last actions
        keep: StyleAndTextTuples = []
        room = width - get_cwidth(tail) - 1
        for style, text, *_rest in out:
            if get_cwidth(text) > room:
                break
            keep.append((style, text))
            room -= get_cwidth(text)
        out = [*keep, ("class:bar", " " * (room + 1) + tail)]
    return out


def board_fragments(model: UIModel, tall: bool, on_click: OnClick) -> StyleAndTextTuples:
    me = model.config.players[model.seat].suspect if model.seat is not None else None
    reach = frozenset(model.destinations) if model.mode is Mode.MOVE else frozenset()
    cursor = model.cursor if model.mode is Mode.MOVE else None
    pic = bd.picture(model.state, reach, cursor, me)
    return bd.render(pic, tall=tall, color=model.color, on_click=on_click)


HAND_LINES = (2, 4)
"""The hand's lines under the board: at least two, and as many as six cards need (up to
four, in every language at 80 columns): a card of your own hand is never cut off."""


def _hand_text(model: UIModel, width: int) -> list[str]:
    if model.seat is None:
        return [_("spectator: no cards")]
    names = ", ".join(card_name(c) for c in model.hand) or _("(not dealt yet)")
    return wrap(_("Your cards: {cards}").format(cards=names), width, "  ")


def hand_height(model: UIModel, width: int) -> int:
    low, high = HAND_LINES
    return min(high, max(low, len(_hand_text(model, width))))


def hand_lines(model: UIModel, width: int, height: int) -> StyleAndTextTuples:
    lines = _hand_text(model, width)[:height]
    return line_fragments([("class:hand", ln) for ln in lines], width)


__all__ = ["HAND_LINES", "MIN_HEIGHT", "MIN_WIDTH", "NOTEPAD_LINES",
           "SPINNER", "STORY_PANE_MIN", "action_bar", "board_fragments", "confirm_lines",
           "crowded_lines", "dealing", "end_screen", "game_body", "hand_height", "hand_lines",
           "help_text", "is_tall", "last_suggestion_lines", "notepad", "panel", "picker_lines",
           "picking", "quit_lines", "quit_question", "root", "rules_summary", "shape", "show_lines",
           "status_line", "story_lines", "story_page", "transcript_lines", "waiting_words"]
