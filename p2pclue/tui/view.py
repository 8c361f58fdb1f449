"""The screens, drawn from the model: every function here reads ``UIModel`` and a size.

The layout is rebuilt from the model and the terminal size at every redraw, so a
resize simply draws the next frame in the new shape: compact (80 x 24: the board
two rows per line beside the notepad) or roomy (one row per line, full names).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import HSplit, VSplit, Window
from prompt_toolkit.layout.containers import Container
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.utils import get_cwidth

from p2pclue.deduce import Mark
from p2pclue.i18n import (
    _,
    card_name,
    card_word,
    current_language,
    outcome_word,
    rules_label,
    triple_word,
    truncate,
)
from p2pclue.i18n import rules_summary as rules_in_short
from p2pclue.net.api import Ended, Waiting
from p2pclue.rules.board import Square
from p2pclue.rules.cards import CARDS, ROOMS, SUSPECTS
from p2pclue.rules.variants import Rules
from p2pclue.tui import board as bd
from p2pclue.tui.knowledge import ENVELOPE
from p2pclue.tui.model import Mode, Overlay, Screen, UIModel
from p2pclue.tui.text import centre, fit, line_fragments, pad, path_lines, wrap

MIN_WIDTH, MIN_HEIGHT = 80, 24
NOTEPAD_LINES = 22
"""The notepad's heading and its 21 cards."""
STORY_PANE_MIN = 6
"""Spare lines below the notepad from which the story moves there."""
SPINNER = "|/-\\"
CARD_SHORT = {"Miss Scarlett": "Scarlett", "Colonel Mustard": "Mustard", "Mrs White": "White",
              "Reverend Green": "Green", "Mrs Peacock": "Peacock", "Professor Plum": "Plum",
              "Candlestick": "Candlestick", "Billiard Room": "Billiard", "Conservatory":
              "Conservatory", "Dining Room": "Dining Room"}

CARD_TINY = {"Candlestick": "Candle", "Lead Pipe": "Pipe", "Conservatory": "Conserv.",
             "Dining Room": "Dining", "Billiard Room": "Billiard"}
"""Names for a narrow notepad (six players at 80 columns): never cut to "Candles…"."""

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
            hand_height(model, bd.board_width()))


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
    right_w = width - bw - 1
    hand_h = hand_height(model, bw)
    panel_h = height - bh - hand_h
    left = HSplit([
        _window(lambda: board_fragments(model, tall, on_click), width=bw, height=bh),
        _window(lambda: hand_lines(model, bw, hand_h), width=bw, height=hand_h),
        _window(lambda: panel(model, bw, panel_h, tall=tall), width=bw, height=panel_h),
    ])
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
        left = HSplit([
            _window(lambda: board_fragments(model, tall, on_click), width=bw, height=bh),
            _window(lambda: hand_lines(model, bw, hand_h), width=bw, height=hand_h),
            _window(lambda: panel(model, bw, panel_h, story=False, tall=tall), width=bw,
                    height=panel_h),
        ])
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
        parts.append(waiting.format(player=model.config.players[w.seat].name, secs=secs,
                                    limit=limit))
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
    if 1 + sum(get_cwidth(f"{a.key}:{a.label}") + 1 for a in actions) + get_cwidth(tail) > width:
        # Short of room (80 columns in most languages while moving): the arrows go
        # first, as everybody tries them anyway and the panel says what they do.
        actions = [a for a in actions if a.key != _("arrows")]
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


def quit_question(graceful: bool) -> tuple[str, list[str]]:
    """How to go, as one line of keys that fits 80 columns, then what each key does in full.

    ``graceful``: the seat may leave for good with its hand face up (``l``), besides
    quitting now and coming back later.
    """
    if graceful:
        return (_("l: leave, cards face up · y: quit, resume later · n: stay"),
                [_("l: leave gracefully: your cards are laid face up for everybody and the "
                   "game goes on without you."),
                 _("y: quit now: the table waits for you; come back with p2pclue join "
                   "--resume."),
                 _("n: stay at the table.")])
    return (_("y: leave · n: stay · the game ends for everyone"),
            [_("y: leave: the game ends for everyone; the transcript is kept."),
             _("n: stay at the table.")])


def quit_lines(model: UIModel, width: int, height: int) -> list[tuple[str, str]]:
    """The quit question in full, wrapped (never cut); short of room, the heading is left out."""
    _keys, meanings = quit_question(model.leave_offered())
    body = [("", ln) for m in meanings for ln in wrap(m, width, "   ")]
    title = [("class:warn", ln) for ln in wrap(_("Leave the table?"), width)]
    return title + body if len(title) + len(body) <= height else body


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


def crowded_lines(model: UIModel, width: int, tall: bool = False) -> list[tuple[str, str]]:
    """The rooms too crowded to show all their tokens and weapons on the board, in full."""
    pic = bd.picture(model.state, frozenset(), None, None)
    return [("class:dim", ln) for room, things in sorted(bd.crowded(pic, tall).items())
            for ln in wrap(f"{card_name(room)}: {things}", width, "  ")]


def panel(model: UIModel, width: int, height: int, *, story: bool = True, tall: bool = False
          ) -> StyleAndTextTuples:
    """Below the board: what the board cannot hold, then the current question, or the
    notepad's reason, or the story."""
    crowded = crowded_lines(model, width, tall)[:max(0, height - 3)]
    if not crowded:
        return _panel(model, width, height, story=story)
    rest = _panel(model, width, height - len(crowded), story=story)
    return [*line_fragments(crowded, width), ("", "\n"), *rest]


def _panel(model: UIModel, width: int, height: int, *, story: bool = True
           ) -> StyleAndTextTuples:
    mode = model.mode
    if model.overlay is Overlay.QUIT:
        return line_fragments(quit_lines(model, width, height)[:height], width)
    if mode is Mode.PICK and model.picker is not None:
        return picker_lines(model, width, height)
    if mode is Mode.CONFIRM and model.accusation is not None:
        return confirm_lines(model, width, height)
    if mode is Mode.SHOW:
        return show_lines(model, width, height)
    if mode is Mode.NOTEPAD:
        lines = [("class:title", _("Why (notepad):"))]
        for ln in model.explanation.splitlines() or ["..."]:
            lines += [("", w) for w in wrap(ln, width, "  ")]
        return line_fragments(lines[:height], width)
    return story_lines(model, width, height, with_story=story)


def story_lines(model: UIModel, width: int, height: int, *, with_story: bool = True,
                story_only: bool = False) -> StyleAndTextTuples:
    """The story, newest last, under what is asked of you now (either part alone)."""
    head: list[tuple[str, str]] = []
    if model.message:
        head += [("class:warn", ln) for ln in wrap(model.message, width)]
    if model.hint:
        head += [("class:hint", ln) for ln in wrap(
            _("Hint: {hint}").format(hint=model.hint), width)]
    waiting = waiting_words(model)
    head += [("class:warn", ln) for ln in wrap(waiting, width) if waiting]
    if model.mode is Mode.TURN:
        head += [("class:title", ln) for ln in wrap(_("Your turn: {actions}").format(
            actions=", ".join(f"{a.key} {a.label}" for a in model.actions()
                              if a.key not in ("n", "h"))), width)]
    elif model.mode is Mode.MOVE:
        head += [("class:title", ln) for ln in wrap(
            _("Where to? Arrows, a room's number or the mouse; Enter goes.")
            if model.destinations else _("Nowhere to go: e to stay."), width)]
        rooms = model.rooms_in_reach()
        if model.destinations:
            head += [("class:title", ln) for ln in wrap(_("Rooms in reach: {rooms}").format(
                rooms=", ".join(f"{k} {card_name(r.index)}" for k, r in
                                enumerate(ROOMS, 1) if r.index in rooms)
                or _("none")), width, "  ")]
    if story_only:
        head = []
    elif not with_story:
        if not head and model.waiting is not None and model.waiting.seat != model.seat:
            head.append(("class:dim", _("Waiting for {player}...").format(
                player=model.name(model.waiting.seat))))
        return line_fragments(head[:height], width)
    lines = [*story_page(model, width, max(0, height - len(head))), *head[:height]]
    return line_fragments(lines[-height:] if height else [], width)


def story_page(model: UIModel, width: int, height: int) -> list[tuple[str, str]]:
    """The story entries that fill ``height`` lines: the newest, or while reading back
    (PgUp, Home) the page ``model.story_back`` entries from the end, under a line that says
    how much more there is above and below. The oldest page is always a full one, and
    ``model.story_rows`` learns how many entries a page holds (what PgUp turns)."""
    story = model.story
    back = min(model.story_back, max(0, len(story) - 1))
    reading = back > 0 and height > 1
    room = height - 1 if reading else height
    end = len(story) - back
    start = end
    body: list[str] = []
    while start > 0:
        wrapped = wrap(story[start - 1], width, "    ")
        if len(body) + len(wrapped) > room:
            if not body:  # one long entry: show its end rather than nothing
                body, start = wrapped[len(wrapped) - room:] if room else [], start - 1
            break
        body, start = wrapped + body, start - 1
    while start == 0 and end < len(story):  # Home: the first page, full
        wrapped = wrap(story[end], width, "    ")
        if len(body) + len(wrapped) > room:
            break
        body, end = body + wrapped, end + 1
    model.story_back = len(story) - end
    model.story_rows = max(1, end - start)
    out = [("", ln) for ln in body]
    if reading:
        # Translators: story entries above and below the page read back, and the keys.
        out.insert(0, ("class:dim", fit(_("↑ {older} more · ↓ {newer} more · PgUp PgDn Home "
                                          "End").format(older=start, newer=len(story) - end),
                                        width)))
    return out


def waiting_words(model: UIModel) -> str:
    """What to do about the player the table waits for: nothing yet while they are only
    away (the table waits; a vote comes when their time is up), then the vote's keys."""
    if model.vote_offered() and model.waiting is not None:
        return _("{player} is silent: w to wait more, x to end the game as "
                 "abandoned.").format(player=model.name(model.waiting.seat).capitalize())
    aw = model.awaited
    if aw is not None and aw[0] != model.seat and model.is_away(aw[0]) \
            and model.screen is Screen.GAME:
        return _("{player} is away: the table waits for them. If they stay silent, you "
                 "will be asked to vote.").format(player=model.name(aw[0]))
    return ""


def _odds(model: UIModel, c: int) -> str:
    p = model.view.envelope.get(c)
    return "" if p is None else f"{p:4.0%}"


def _columns(items: list[tuple[str, str]], width: int, height: int) -> list[tuple[str, str]]:
    """Lay list items in as many columns as needed to fit ``height`` lines."""
    if height <= 0:
        return []
    cols = max(1, math.ceil(len(items) / height))
    col_w = width // cols
    rows = math.ceil(len(items) / cols)
    out: list[tuple[str, str]] = []
    for r in range(rows):
        row_items = [items[c * rows + r] for c in range(cols) if c * rows + r < len(items)]
        style = next((s for s, _text in row_items if s), "")
        if len(row_items) == 1:
            out.append(row_items[0])
        else:
            out.append((style, "".join(pad(t, col_w) for _style, t in row_items)))
    return out


def _list_fragments(title: list[tuple[str, str]], items: list[tuple[str, str]], cursor: int,
                    width: int, height: int) -> StyleAndTextTuples:
    room = height - len(title)
    cols = max(1, math.ceil(len(items) / max(1, room)))
    col_w = width // cols
    rows = math.ceil(len(items) / cols)
    out: StyleAndTextTuples = []
    for i, (style, text) in enumerate(title):
        if i:
            out.append(("", "\n"))
        out.append((style, pad(text, width)))
    for r in range(rows):
        out.append(("", "\n"))
        used = 0
        for c in range(cols):
            k = c * rows + r
            if k >= len(items):
                continue
            style, text = items[k]
            mark = "class:cursor" if k == cursor else style
            cell = pad(("> " if k == cursor else "  ") + text, col_w)
            out.append((mark, cell))
            used += col_w
        out.append(("", " " * (width - used)))
    return out


def picker_lines(model: UIModel, width: int, height: int) -> StyleAndTextTuples:
    p = model.picker
    assert p is not None
    # Translators: a picker's title and the room the suggestion is made in.
    title = [("class:title", p.title if p.room is None else _("{title} (in {room:the})").format(
        title=p.title, room=card_word(p.room)))]
    if p.chosen:
        title.append(("", _("so far: {cards}").format(
            cards=", ".join(card_name(c) for c in p.chosen))))
    hint: list[str] = []
    if model.hint and p.purpose == "suggest":
        hint_text = _("Hint: {hint}").format(hint=model.hint)
        hint = wrap(hint_text, width, "  ")
        if height - len(title) - len(hint) < len(p.options):  # keep the list in one column
            hint = [fit(hint_text, width)]
    spare = height - len(title) - math.ceil(len(p.options) / 2)
    # What was just asked and shown first (two lines in short), then the hint, which the
    # cursor follows anyway, in what is left.
    last = last_suggestion_lines(model, width, spare - len(hint))
    if model.last_suggestion and len(last) < min(2, spare):
        last = last_suggestion_lines(model, width, min(2, spare))
    title += [("class:dim", ln) for ln in last]
    title += [("class:hint", ln) for ln in hint[:max(0, spare - len(last))]]
    names = [_("{card} (yours)").format(card=card_word(c)) if c in model.hand
             else card_name(c) for c in p.options]
    one_column = height - len(title) >= len(names)
    name_w = max(get_cwidth(n) for n in names) if one_column else 0
    items = []
    for i, (c, name) in enumerate(zip(p.options, names, strict=True)):
        # the odds in a column of their own, right-aligned: easy to compare down the list
        # in two columns a card of one's hand shows no odds: "(yours)" says 0%, and the
        # longest name ("Candlestick (yours) 0%") was cut at 80 columns
        odds = (_odds(model, c) if one_column else "" if c in model.hand
                else _odds(model, c).strip())
        items.append(("", f"{i + 1} {name}{' ' * max(0, name_w - get_cwidth(name))} "
                          f"{odds}".rstrip()))
    return _list_fragments(title, items, p.cursor, width, height)


def last_suggestion_lines(model: UIModel, width: int, room: int) -> list[str]:
    """What was just suggested and who showed, in ``room`` lines: in full if it fits, else
    the suggestion in short (never cut before its room) and the last answer."""
    told = [ln.strip() for ln in model.last_suggestion]
    if not told or room <= 0:
        return []
    asked, answer = told[0], told[1:][-1:]
    full = [*wrap(asked, width, "  "), *(ln for a in answer for ln in wrap(a, width, "  "))]
    if len(full) <= room:
        return full
    s = model.last_suggested
    if s is not None:
        # Translators: the latest suggestion in short, while a list is picked.
        asked = _("{player}: {suspect}, {weapon}, {room}").format(
            player=model.name(s.seat).capitalize(), suspect=card_word(s.suspect),
            weapon=card_word(s.weapon), room=card_word(s.room))
    short = [asked, *answer] if room > 1 else [" · ".join([asked, *answer])]
    return [fit(ln, width) for ln in short][:room]


def confirm_lines(model: UIModel, width: int, height: int) -> StyleAndTextTuples:
    assert model.accusation is not None
    s, w, r = model.accusation
    lines = [("class:title", ln) for ln in wrap(
        _("Accuse {triple}?").format(triple=triple_word((s, w, r))), width)]
    warning = model.accusation_warning()
    if warning:
        lines += [("class:warn", ln) for ln in wrap(warning, width)]
    else:
        lines.append(("class:good", _("Your notepad is certain of all three.")))
    keys = ("class:title", _("y: accuse   n: back"))  # kept whatever the warning's length
    return line_fragments([*lines[:max(0, height - 1)], keys][:height], width)


def show_lines(model: UIModel, width: int, height: int) -> StyleAndTextTuples:
    st = model.state
    title: list[tuple[str, str]] = []
    suggester = None
    if st is not None and st.pending_suggestion is not None:
        s = st.pending_suggestion
        suggester = s.suggester
        title += [("class:title", ln) for ln in wrap(
            _("{player} suggests {suspect}, {weapon}, {room}. Show which card?").format(
                player=model.name(s.suggester).capitalize(), suspect=card_word(s.suspect),
                weapon=card_word(s.weapon), room=card_word(s.room)), width)]
    who = model.name(suggester) if suggester is not None else _("them")
    items = []
    for c in model.show_options:
        items.append(("", _("{card}  (tells {player} least)").format(card=card_word(c), player=who)
                      if c == model.quiet_card and len(model.show_options) > 1
                      else card_name(c)))
    return _list_fragments(title, items, model.show_cursor, width, height)


def notepad(model: UIModel, width: int, height: int, tall: bool) -> StyleAndTextTuples:
    """The 21 cards against every seat and the envelope, with the envelope odds."""
    n = model.n
    col_w = 3
    env_w = 5
    name_w = min(18, max(6, width - n * col_w - env_w))
    lines: StyleAndTextTuples = []
    header = pad(_("Notepad"), name_w)
    for s in range(n):
        label = _("Me") if s == model.seat else model.config.players[s].name[:2]
        header += pad(" " + truncate(label, col_w - 1, ""), col_w)
    header += pad(" " + truncate(_("Env"), env_w - 1, ""), env_w)
    lines.append(("class:title", pad(header, width)))
    row_cursor, col_cursor = model.note_cursor
    in_notepad = model.mode is Mode.NOTEPAD
    for i, c in enumerate(CARDS):
        if i in (6, 12):
            pass
        lines.append(("", "\n"))
        name = card_name(c.index)
        if current_language() == "en":
            if not tall:
                name = CARD_SHORT.get(name, name)
            if get_cwidth(name) > name_w:
                name = CARD_TINY.get(c.name, name)
        base = "class:mine" if c.index in model.hand else (
            "class:suspect" if c in SUSPECTS else "")
        lines.append((base, pad(name, name_w)))
        for col, owner in enumerate(model.owners):
            text = _mark_text(model, c.index, owner)
            if owner != ENVELOPE:
                text = " " + text
            width_here = env_w if owner == ENVELOPE else col_w
            style = _mark_style(model, c.index, owner)
            if in_notepad and (i, col) == (row_cursor, col_cursor):
                style = "class:cursor"
            lines.append((style, pad(text, width_here)))
        lines.append(("", " " * max(0, width - name_w - n * col_w - env_w)))
    used = 1 + len(CARDS)
    extra = height - used
    if extra > 2 and (in_notepad or tall):
        lines.append(("", "\n"))
        text = model.explanation if in_notepad else _legend()
        wrapped: list[str] = []
        for ln in text.splitlines():
            wrapped += wrap(ln, width, "  ")
        for ln in wrapped[:extra - 1]:
            lines += [("", "\n"), ("", pad(ln, width))]
    elif extra > 0:
        lines += [("", "\n"), ("class:dim", pad(_legend(), width))]
    return lines


def _legend() -> str:
    return _("✓ held  · not held  ? unknown  Env: odds in the envelope")


def _mark_text(model: UIModel, c: int, owner: int) -> str:
    if owner == ENVELOPE:
        p = model.view.envelope.get(c)
        if p is None:
            return "   ?"
        if p >= 0.9995:
            return " ENV"
        return f"{p:4.0%}"
    mark = model.view.mark(c, owner)
    if owner == model.seat and not model.view.marks:
        mark = Mark.YES if c in model.hand else Mark.NO
    return {Mark.YES: "✓", Mark.NO: "·", Mark.UNKNOWN: "?"}[mark]


def _mark_style(model: UIModel, c: int, owner: int) -> str:
    if owner == ENVELOPE:
        p = model.view.envelope.get(c)
        if p is not None and p >= 0.9995:
            return "class:good"
        return "class:dim" if p == 0 else ""
    mark = model.view.mark(c, owner)
    return {Mark.YES: "class:good", Mark.NO: "class:dim", Mark.UNKNOWN: ""}[mark]


# ---- whole screens ------------------------------------------------------------------


def dealing(model: UIModel, width: int, height: int) -> StyleAndTextTuples:
    frac = model.deal_fraction()
    bar_w = min(60, width - 10)
    filled = int(frac * bar_w)
    spin = SPINNER[int(time.monotonic() * 8) % len(SPINNER)]
    lines: list[tuple[str, str]] = [
        ("class:title", centre(_("Dealing the cards: nobody sees them, everybody checks"),
                               width)),
        ("", ""),
        ("", centre(f"{spin} {model.progress_text}", width)),
        ("", ""),
        ("class:bar", centre("[" + "█" * filled + "·" * (bar_w - filled) + f"] {frac:4.0%}",
                             width)),
        ("", ""),
        *[("class:dim", centre(ln, width)) for ln in wrap(
            _("Each player shuffles and locks the deck in turn, with a proof the others check."),
            width)],
    ]
    for line in model.story[-3:]:
        lines.append(("class:dim", centre(line, width)))
    if model.overlay is Overlay.QUIT:
        lines += [("", ""), *quit_lines(model, width, height - len(lines) - 1)]
    top = max(0, min(height // 2 - 6, height - len(lines)))  # the quit question pushes up
    return line_fragments([("", "")] * top + lines[:height], width)


def end_screen(model: UIModel, width: int, height: int) -> StyleAndTextTuples:
    if model.reading_story:  # PgUp: the whole story, read back from the end
        return story_lines(model, width, height, story_only=True)
    end = model.end
    lines: list[tuple[str, str]] = [("class:title", centre(_("The game is over"), width)),
                                    ("", "")]
    if model.left_table and end.ended is None:
        lines[0] = ("class:title", centre(_("You left the table"), width))
        lines += [("", ln) for ln in wrap(_("Your cards were laid face up for everybody; "
                                            "the game goes on without you."), width)]
    if end.envelope is not None:
        lines.append(("class:good", _("The envelope: {triple}.").format(
            triple=triple_word(end.envelope))))
    if end.result == "won" and end.winner is not None:
        winner = model.config.players[end.winner]
        who = _("You win!") if end.winner == model.seat else \
            _("{player} ({suspect}) wins.").format(player=winner.name,
                                                   suspect=card_word(winner.suspect))
        lines.append(("class:title", who))
    elif end.result == "nobody":
        lines.append(("", _("Nobody wins: every accusation was wrong.")))
    lines += [("", ln) for why in end.why for ln in wrap(why.strip(), width, "  ")]
    lines.append(("", ""))
    e = end.ended
    if e is not None:
        verdict = {True: "class:good", False: "class:warn", None: ""}[e.audit_ok]
        lines += [(verdict, ln) for ln in wrap(e.message, width)]
        lines += transcript_lines(e, width)
        lines += [("class:dim", ln) for ln in wrap(
            _("Anyone can check it again: p2pclue audit <transcript>"), width)]
    lines.append(("", ""))
    if end.hands is not None:
        lines.append(("class:title", _("Every hand, revealed and checked:")))
        for seat, hand in sorted(end.hands.items()):
            p = model.config.players[seat]
            who = _("You") if seat == model.seat else p.name
            for ln in wrap("  " + _("{player} ({suspect}): {cards}").format(
                    player=who, suspect=card_word(p.suspect),
                    cards=", ".join(card_name(c) for c in hand)), width, "      "):
                lines.append(("", ln))
    elif e is not None and e.status == "complete" and e.transcript is not None:
        # Only a complete game reveals every hand: an abandoned or halted one never will.
        lines.append(("class:dim", _("Reading the hands from the transcript...")))
    lines.append(("", ""))
    lines.append(("class:title", _("q: leave · PgUp: read back the story")))
    if len(lines) > height:  # 80 x 24 with every hand: blank lines go first
        lines = [ln for ln in lines if ln[1]]
    return line_fragments(lines[-height:] if len(lines) > height else lines, width)


def transcript_lines(e: Ended, width: int) -> list[tuple[str, str]]:
    """Where the transcript is: on one line if it fits, else the path on lines of its own,
    broken only after a separator, so it can be selected and pasted whole."""
    status = outcome_word(e.status)
    if e.transcript is None:
        return [("", ln) for ln in wrap(_("Transcript ({status}): {where}").format(
            status=status, where=_("not saved")), width)]
    line = _("Transcript ({status}): {where}").format(status=status, where=e.transcript)
    if get_cwidth(line) <= width:
        return [("", line)]
    label = _("Transcript ({status}): {where}").format(status=status, where="").rstrip()
    return [*[("", ln) for ln in wrap(label, width)],
            *[("class:path", ln) for ln in path_lines(str(e.transcript), width, os.sep)]]


def rules_summary(rules: Rules) -> list[str]:
    """The rules in short for the help screen, in the reader's language (``p2pclue.i18n``)."""
    return rules_in_short(rules)


def help_text(model: UIModel, width: int, height: int) -> StyleAndTextTuples:
    keys = [
        (_("r / p"), _("roll the dice / take the secret passage")),
        (_("arrows"), _("pick a destination after a roll (or click it); Enter goes")),
        ("1-9", _("after a roll: the room of that number (the numbers are shown)")),
        ("e", _("end the turn (after a roll: stay where you are)")),
        (_("s / a"), _("suggest (in a room) / accuse (asks to confirm)")),
        (_("arrows, Enter"), _("choose from a list; when asked, pick the card to show")),
        ("h", _("hint: the most informative suggestion in your room")),
        (_("n or Tab"), _("notepad: move over cells, read why each is marked")),
        ("PgUp / PgDn", _("read back the story of the game")),
        ("w / x", _("a player is silent: vote to wait more / to end the game as abandoned")),
        (_("? F1 / q"), _("this help / leave (asks first)")),
    ]
    lines: list[tuple[str, str]] = [("class:title", _("Keys"))]
    widest = max(get_cwidth(k) for k, _what in keys)  # never cut a key (fr, sq: 17-19)
    key_w = min(max(16, widest), width // 3) if width < 100 else 30
    for k, what in keys:
        for i, ln in enumerate(wrap(what, width - key_w - 3)):
            lines.append(("", f"  {pad(k if i == 0 else '', key_w)} {ln}"))
    lines.append(("", ""))
    marks = (_("orange: doors; green: where you can go") if model.color
             else _("##: doors; :: where you can go, [] your pick"))  # NO_COLOR has no orange
    lines += [("class:dim", ln) for ln in wrap(
        _("Board: Sc Mu Wh Gr Pe Pl are the suspects' tokens (yours underlined); {marks}. "
          "Notepad: ✓ held, · not held, ? unknown.").format(marks=marks), width)]
    lines.append(("", ""))
    lines.append(("class:title", _("Rules in short")))
    for para in rules_summary(model.config.rules):
        lines += [("", ln) for ln in wrap(para, width, "  ")]
    if len(lines) > height:  # 80 x 24: the board's legend matters more than blank lines
        lines = [ln for ln in lines if ln[1]]
    if len(lines) > height:  # still too long (every language at 80 x 24): pages
        per_page = max(1, height - 1)
        pages = -(-len(lines) // per_page)
        page = model.help_page = min(model.help_page, pages - 1)  # Up after the end works
        footer = (_("Page {page} of {pages}: Space or Down for more, Up to go back")
                  if page < pages - 1 else _("Page {page} of {pages}: Up to go back"))
        lines = lines[page * per_page:(page + 1) * per_page]
        lines.append(("class:title", footer.format(page=page + 1, pages=pages)))
    return line_fragments(lines[:height], width)
