"""The notepad on screen: the 21 cards against every seat and the envelope, with odds."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from p2pclue.deduce import Mark
from p2pclue.i18n import (
    _,
    card_name,
    current_language,
    truncate,
)
from p2pclue.rules.cards import CARDS, SUSPECTS
from p2pclue.tui.knowledge import ENVELOPE
from p2pclue.tui.model import Mode, UIModel
from p2pclue.tui.text import pad, wrap

CARD_SHORT = {"Miss Scarlett": "Scarlett", "Colonel Mustard": "Mustard", "Mrs White": "White",
              "Reverend Green": "Green", "Mrs Peacock": "Peacock", "Professor Plum": "Plum",
              "Candlestick": "Candlestick", "Billiard Room": "Billiard", "Conservatory":
              "Conservatory", "Dining Room": "Dining Room"}


CARD_TINY = {"Candlestick": "Candle", "Lead Pipe": "Pipe", "Conservatory": "Conserv.",
             "Dining Room": "Dining", "Billiard Room": "Billiard"}
"""Names for a narrow notepad (six players at 80 columns): never cut to "Candles…"."""


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


def natural_width(model: UIModel) -> int:
    """The columns the notepad uses in full: its longest names, every seat, the odds, and
    its legend on one line."""
    return max(18 + model.n * 3 + 5, get_cwidth(_legend()))


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
