"""The panel under the board: what is asked of you now, or the story of the game.

The question of the moment (a list pick, an accusation to confirm, a card to show, the
quit question, the notepad's reason) or, when nothing is asked, the story with what the
board cannot hold above it; the story reads back a page at a time (PgUp, Home).
"""

from __future__ import annotations

import math

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from p2pclue.i18n import (
    PlayerWord,
    _,
    capital,
    card_name,
    card_word,
    key_name,
    labelled,
    no_key,
    percent,
    pgettext,
    triple_word,
    yes_key,
)
from p2pclue.i18n import pad as pad_to
from p2pclue.rules.cards import ROOMS
from p2pclue.tui import board as bd
from p2pclue.tui.awaiting import awaited_doing
from p2pclue.tui.model import Mode, Overlay, Screen, UIModel
from p2pclue.tui.text import fit, line_fragments, pad, wrap


def quit_question(graceful: bool) -> tuple[str, list[str]]:
    """How to go, as one line of keys that fits 80 columns (each with a word), then what
    each key does in full.

    ``graceful``: the seat may leave for good with its hand face up (``l``), besides
    quitting now and coming back later. Yes and no are the language's own keys.
    """
    yes, no = yes_key(), no_key()
    # Translators: the quit question's keys, one word each, three different words: leave
    # for good (hand face up), quit now and come back later, stay.
    leave, quit_now = pgettext("quit question", "leave"), pgettext("quit question", "quit")
    stay = pgettext("quit question", "stay")
    if graceful:
        keys = [("l", leave), (yes, quit_now), (no, stay)]
        meanings = [
            _("{key}: leave gracefully: your cards are laid face up for everybody and the "
              "game goes on without you.").format(key="l"),
            _("{key}: quit now: the table waits for you; come back with p2pclue join "
              "--resume.").format(key=yes),
            _("{key}: stay at the table.").format(key=no)]
    else:
        keys = [(yes, leave), (no, stay)]
        meanings = [_("{key}: leave: the game ends for everyone; the transcript is "
                      "kept.").format(key=yes),
                    _("{key}: stay at the table.").format(key=no)]
    return " ".join(f"{key}:{label}" for key, label in keys), meanings


def quit_lines(model: UIModel, width: int, height: int) -> list[tuple[str, str]]:
    """The quit question in full, wrapped (never cut); short of room, the heading is left out."""
    _keys, meanings = quit_question(model.leave_offered())
    body = [("", ln) for m in meanings for ln in wrap(m, width, "   ")]
    title = [("class:warn", ln) for ln in wrap(_("Leave the table?"), width)]
    return title + body if len(title) + len(body) <= height else body


def crowded_lines(model: UIModel, width: int, tall: bool = False) -> list[tuple[str, str]]:
    """The rooms too crowded to show all their tokens and weapons on the board, in full, and
    corridor tokens stacked in one cell that cannot show both (Korean codes)."""
    pic = bd.picture(model.state, frozenset(), None, None)
    lines = [labelled(card_name(room), things)
             for room, things in sorted(bd.crowded(pic, tall).items())]
    lines += [labelled(_("the corridor"), f"{bd.token_code(upper)} {bd.token_code(lower)}")
              for upper, lower in bd.stacked(pic, tall)]
    return [("class:dim", ln) for line in lines for ln in wrap(line, width, "  ")]


def picking(model: UIModel) -> bool:
    """A list of cards is picked (a suggestion, an accusation, a card to show): the panel
    takes the board's lines (the hand stays, above it), so that every card's name, odds
    and the hint show whole (under the board, at 80 x 24, a list had seven lines of 48
    columns)."""
    return model.screen is Screen.GAME and model.mode in (Mode.PICK, Mode.SHOW)


def panel(model: UIModel, width: int, height: int, *, story: bool = True, tall: bool = False
          ) -> StyleAndTextTuples:
    """Below the board: what the board cannot hold, then the current question, or the
    notepad's reason, or the story."""
    crowded = [] if picking(model) else crowded_lines(model, width, tall)[:max(0, height - 3)]
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
    head += _hint_lines(model, width)
    waiting = waiting_words(model)
    head += [("class:warn", ln) for ln in wrap(waiting, width) if waiting]
    doing = _doing(model) if not waiting and model.mode is Mode.WATCH else ""
    head += [("class:dim", ln) for ln in wrap(doing, width) if doing]
    if model.mode is Mode.TURN:
        # "key:label", as the key bar writes them: a bare key letter reads as a word ("a").
        head += [("class:title", ln) for ln in wrap(_("Your turn: {actions}").format(
            actions=", ".join(f"{a.key}:{a.label}" for a in model.actions()
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
    how much more there is above and below. Entries are shown whole: one that does not fit
    waits for a page of its own (an entry taller than the whole pane, read back, shows its
    end). The oldest page is always a full one, and ``model.story_rows`` learns how many
    entries a page holds (what PgUp turns)."""
    story = model.story
    back = min(model.story_back, max(0, len(story) - 1))
    reading = back > 0 and height > 1
    keys = " ".join(key_name(k) for k in ("PgUp", "PgDn", "Home", "End"))
    end = len(story) - back

    def header(start: int, stop: int) -> list[str]:
        # Translators: story entries above and below the page read back, and the keys.
        return wrap(_("↑ {older} more · ↓ {newer} more · {keys}").format(
            older=start, newer=len(story) - stop, keys=keys), width) if reading else []

    room = height - len(header(end, end))
    start = end
    body: list[str] = []
    while start > 0:
        wrapped = wrap(story[start - 1], width, "    ")
        if len(body) + len(wrapped) > room:
            if not body and reading:  # one entry taller than the pane: its end, not nothing
                body, start = wrapped[len(wrapped) - room:] if room > 0 else [], start - 1
            break
        body, start = wrapped + body, start - 1
    while start == 0 and end < len(story):  # Home: the first page, full
        wrapped = wrap(story[end], width, "    ")
        if len(body) + len(wrapped) > room:
            break
        body, end = body + wrapped, end + 1
    model.story_back = len(story) - end
    model.story_rows = max(1, end - start)
    return [*(("class:dim", ln) for ln in header(start, end)), *(("", ln) for ln in body)]


def _doing(model: UIModel) -> str:
    """What the player the table waits for is doing (nothing while it waits for you, or
    before the game is on the table)."""
    aw = model.awaited
    if aw is None or aw[0] == model.seat or model.screen is not Screen.GAME:
        return ""
    return awaited_doing(model.state, aw[0], model.name(aw[0]))


def waiting_words(model: UIModel) -> str:
    """What to do about the player the table waits for: nothing yet while they are only
    away (the table waits; a vote comes when their time is up), then the vote's keys."""
    if model.vote_offered() and model.waiting is not None:
        return capital(_("{player} is silent: w to wait more, x to end the game as "
                         "abandoned.").format(player=model.name(model.waiting.seat)))
    aw = model.awaited
    if aw is not None and aw[0] != model.seat and model.is_away(aw[0]) \
            and model.screen is Screen.GAME:
        return _("{player} is away: the table waits for them. If they stay silent, you "
                 "will be asked to vote.").format(player=model.name(aw[0]))
    return ""


def _odds(model: UIModel, c: int) -> str:
    p = model.view.envelope.get(c)
    return "" if p is None else pad_to(percent(p), 5, "right")


LIST_GAP = 1
"""Cells between two columns of a list."""


def _list_layout(cells: list[str], width: int, room: int) -> int:
    """How many columns a list of ``cells`` (marks included) takes: the fewest that fit
    ``room`` lines among those whose every cell fits whole; 0 when even one column has to
    wrap its longest cell."""
    widest = max((get_cwidth(c) for c in cells), default=0)
    whole = [k for k in range(1, len(cells) + 1) if k * widest + (k - 1) * LIST_GAP <= width]
    if not whole:
        return 0
    return next((k for k in whole if math.ceil(len(cells) / k) <= room), whole[-1])


def _list_rows(items: list[str], cursor: int, width: int, room: int,
               columns: int | None = None) -> list[StyleAndTextTuples]:
    """The list's lines: every item whole, in as many columns as fit (one column, with a
    long item wrapped between words, when no other fits); the lines around the cursor
    when they are more than ``room``."""
    cells = [("> " if k == cursor else "  ") + t for k, t in enumerate(items)]
    cols = _list_layout(cells, width, room) if columns is None else columns
    rows: list[StyleAndTextTuples] = []
    at = 0
    if cols <= 1:
        for k, cell in enumerate(cells):
            style = "class:cursor" if k == cursor else ""
            if k == cursor:
                at = len(rows)
            lines = [cell] if get_cwidth(cell) <= width else wrap(cell, width, "      ")
            rows += [[(style, pad(ln, width))] for ln in lines]
    else:
        col_w = width // cols
        height = math.ceil(len(cells) / cols)
        for r in range(height):
            row: StyleAndTextTuples = []
            for c in range(cols):
                k = c * height + r
                if k < len(cells):
                    row.append(("class:cursor" if k == cursor else "", pad(cells[k], col_w)))
                    at = r if k == cursor else at
            used = sum(get_cwidth(t) for _s, t, *_r in row)
            rows.append([*row, ("", " " * (width - used))])
    if room > 0 and len(rows) > room:  # the page of lines that holds the cursor
        first = min(max(0, at - room // 2), len(rows) - room)
        rows = rows[first:first + room]
    return rows


def _list_fragments(head: list[tuple[str, str]], rows: list[StyleAndTextTuples],
                    width: int, height: int) -> StyleAndTextTuples:
    lines: list[StyleAndTextTuples] = [[(style, pad(text, width))] for style, text in head]
    out: StyleAndTextTuples = []
    for i, line in enumerate([*lines, *rows][:height]):
        if i:
            out.append(("", "\n"))
        out += line
    return out


def _hint_lines(model: UIModel, width: int) -> list[tuple[str, str]]:
    if not model.hint:
        return []
    return [("class:hint", ln) for ln in wrap(_("Hint: {hint}").format(hint=model.hint),
                                               width, "  ")]


def picker_lines(model: UIModel, width: int, height: int) -> StyleAndTextTuples:
    p = model.picker
    assert p is not None
    title = [("class:title", ln) for ln in wrap(
        p.title if p.room is None
        # Translators: a picker's title and the room the suggestion is made in.
        else _("{title} (in {room:the})").format(title=p.title, room=card_word(p.room)),
        width)]
    if p.chosen:
        title += [("", ln) for ln in wrap(_("so far: {cards}").format(
            cards=", ".join(card_name(c) for c in p.chosen)), width, "  ")]
    hint = _hint_lines(model, width) if p.purpose == "suggest" else []
    names = [_("{card} (yours)").format(card=card_word(c)) if c in model.hand
             else card_name(c) for c in p.options]
    name_w = max(get_cwidth(n) for n in names)
    # In one column the odds have a column of their own, right-aligned (easy to compare
    # down the list); side by side each follows its card, and a card of one's own hand
    # shows none ("(yours)" says 0%).
    aligned = [f"{k + 1} {n}{' ' * (name_w - get_cwidth(n))} {_odds(model, c)}".rstrip()
               for k, (c, n) in enumerate(zip(p.options, names, strict=True))]
    side = [f"{k + 1} {n} {'' if c in model.hand else _odds(model, c).strip()}".rstrip()
            for k, (c, n) in enumerate(zip(p.options, names, strict=True))]
    # What is asked, the list whole, the hint, then what was just asked and shown (two
    # lines in short at least); short of lines the last suggestion goes first, then the
    # hint, and only then does the list show the page that holds the cursor.
    last_min = min(2, len(model.last_suggestion))
    for keep_hint, keep_last in ((True, True), (True, False), (False, False)):
        room = height - len(title) - (len(hint) if keep_hint else 0) - (
            last_min if keep_last else 0)
        rows = _pick_rows(aligned, side, p.cursor, width, room)
        if len(rows) <= room or not keep_hint:
            break
    spare = max(0, height - len(title) - len(rows))
    hint = hint[:spare]
    last = last_suggestion_lines(model, width, spare - len(hint))
    head = [*title, *(("class:dim", ln) for ln in last), *hint]
    return _list_fragments(head, rows, width, height)


def _pick_rows(aligned: list[str], side: list[str], cursor: int, width: int, room: int
               ) -> list[StyleAndTextTuples]:
    """One column with the odds lined up when it fits, else the cards side by side."""
    if len(aligned) <= room and max(get_cwidth("> " + a) for a in aligned) <= width:
        return _list_rows(aligned, cursor, width, room, columns=1)
    return _list_rows(side, cursor, width, room)


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
        asked = capital(_("{player}: {suspect}, {weapon}, {room}").format(
            player=model.name(s.seat), suspect=card_word(s.suspect),
            weapon=card_word(s.weapon), room=card_word(s.room)))
    short = [asked, *answer] if room > 1 else [" · ".join([asked, *answer])]
    return [fit(ln, width) for ln in short][:room]


def confirm_lines(model: UIModel, width: int, height: int) -> StyleAndTextTuples:
    """The accusation to confirm: what it names, what the notepad thinks of it and what a
    wrong one costs, then the keys; short of lines, the notepad's odds are said in short,
    never cut."""
    assert model.accusation is not None
    title = [("class:title", ln) for ln in wrap(
        _("Accuse {triple}?").format(triple=triple_word(model.accusation)), width)]
    keys = ("class:title", _("{yes}: accuse   {no}: back").format(yes=yes_key(), no=no_key()))
    parts = model.warning_parts()
    if parts is None:
        body = [("class:good", ln) for ln in wrap(_("Your notepad is certain of all three."),
                                                   width)]
    else:
        full, short, cost = parts
        body = [("class:warn", ln) for text in (full, cost) for ln in wrap(text, width)]
        if len(title) + len(body) + 1 > height:
            body = [("class:warn", ln) for text in (short, cost) for ln in wrap(text, width)]
    return line_fragments([*title, *body, keys][-height:] if height else [], width)


def show_hint(model: UIModel) -> str:
    """The show's hint (h): the card that tells the suggester least, or that there is
    only one to show."""
    if len(model.show_options) == 1:
        return _("{card:the} is the only one of the three in your hand: it is the card to "
                 "show.").format(card=card_word(model.show_options[0]))
    st = model.state
    if model.quiet_card is None or st is None or st.pending_suggestion is None:
        return _("Thinking...")
    return _("show {card:the}: it tells {player} least").format(
        card=card_word(model.quiet_card), player=model.name(st.pending_suggestion.suggester))


def show_lines(model: UIModel, width: int, height: int) -> StyleAndTextTuples:
    st = model.state
    title: list[tuple[str, str]] = []
    suggester = None
    if st is not None and st.pending_suggestion is not None:
        s = st.pending_suggestion
        suggester = s.suggester
        title += [("class:title", ln) for ln in wrap(
            capital(_("{player} suggests {suspect}, {weapon}, {room}. Show which card?").format(
                player=model.name(s.suggester), suspect=card_word(s.suspect),
                weapon=card_word(s.weapon), room=card_word(s.room))), width)]
    if model.show_hint:
        title += [("class:hint", ln) for ln in wrap(_("Hint: {hint}").format(
            hint=show_hint(model)), width, "  ")]
    who = (model.name(suggester) if suggester is not None
           else PlayerWord(_("them"), honorific=False))
    items = [_("{card}  (tells {player} least)").format(card=card_word(c), player=who)
             if c == model.quiet_card and len(model.show_options) > 1 else card_name(c)
             for c in model.show_options]
    rows = _list_rows(items, model.show_cursor, width, height - len(title))
    return _list_fragments(title, rows, width, height)
