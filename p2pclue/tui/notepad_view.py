"""The notepad on screen: the 21 cards against every seat and the envelope, with odds."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from p2pclue.deduce import Mark
from p2pclue.i18n import _, current_language, pad, percent, pgettext, plain_name, truncate
from p2pclue.i18n.initials import short_name
from p2pclue.rules.cards import CARDS, SUSPECTS
from p2pclue.tui.knowledge import ENVELOPE
from p2pclue.tui.model import Mode, UIModel
from p2pclue.tui.text import wrap

COL_W = 3
"""A seat's column: a space and a two-cell mark or head."""
ENV_W = 5
"""The envelope's column: a percentage ("100 %") or the word that says "in the envelope"."""


def own_head() -> str:
    """The head of the reader's own column (two cells: "Me", "Io", 나)."""
    # Translators: the head of your own column in the notepad; at most 2 cells (it Io,
    # ko 나); the other columns show the first two letters of each player's name.
    return truncate(pgettext("notepad: your column, 2 cells", "Me"), COL_W - 1, "")


def envelope_head() -> str:
    """The head of the envelope's column, as the legend names it (at most four cells: a
    space keeps it apart from the last seat's head)."""
    # Translators: the head of the notepad's envelope column (its odds); at most 4 cells,
    # written as the legend writes it ("Env: odds in the envelope").
    return truncate(pgettext("notepad: the envelope's column, 4 cells", "Env"), ENV_W - 1, "")


def in_envelope() -> str:
    """A card the notepad has proven to be in the envelope (at most five cells)."""
    # Translators: the envelope column's mark for a card proven to be in the envelope;
    # at most 5 cells, capitals to stand out (it BUSTA, ko 봉투).
    return truncate(pgettext("notepad: a card in the envelope, 5 cells", "ENV"), ENV_W, "")


def notepad(model: UIModel, width: int, height: int, tall: bool) -> StyleAndTextTuples:
    """The 21 cards against every seat and the envelope, with the envelope odds."""
    n = model.n
    name_w = min(18, max(6, width - n * COL_W - ENV_W))
    lines: StyleAndTextTuples = []
    title = _("Notepad")  # left out rather than cut where the names are narrow
    header = pad(title if get_cwidth(title) <= name_w else "", name_w)
    for s in range(n):
        label = own_head() if s == model.seat else plain_name(model.config.players[s].name)[:2]
        header += pad(" " + truncate(label, COL_W - 1, ""), COL_W)
    header += pad(envelope_head(), ENV_W, "right")
    lines.append(("class:title", pad(header, width)))
    row_cursor, col_cursor = model.note_cursor
    in_notepad = model.mode is Mode.NOTEPAD
    lang = current_language()
    for i, c in enumerate(CARDS):
        lines.append(("", "\n"))
        name = short_name(c.index, lang, name_w)
        base = "class:mine" if c.index in model.hand else (
            "class:suspect" if c in SUSPECTS else "")
        lines.append((base, pad(truncate(name, name_w), name_w)))
        for col, owner in enumerate(model.owners):
            text = _mark_text(model, c.index, owner)
            text = pad(text, ENV_W, "right") if owner == ENVELOPE else " " + text
            width_here = ENV_W if owner == ENVELOPE else COL_W
            style = _mark_style(model, c.index, owner)
            if in_notepad and (i, col) == (row_cursor, col_cursor):
                style = "class:cursor"
            lines.append((style, pad(text, width_here)))
        lines.append(("", " " * max(0, width - name_w - n * COL_W - ENV_W)))
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
        legend = wrap(_legend(), width)
        if len(legend) <= extra:
            for ln in legend:
                lines += [("", "\n"), ("class:dim", pad(ln, width))]
    return lines


def natural_width(model: UIModel) -> int:
    """The columns the notepad uses in full: its longest names, every seat, the odds, and
    its legend on one line."""
    return max(18 + model.n * COL_W + ENV_W, get_cwidth(_legend()))


def _legend() -> str:
    return _("✓ held  · not held  ? unknown  {envelope}: odds in the envelope").format(
        envelope=envelope_head())


def _mark_text(model: UIModel, c: int, owner: int) -> str:
    if owner == ENVELOPE:
        p = model.view.envelope.get(c)
        if p is None:
            return "?"
        if p >= 0.9995:
            return in_envelope()
        return percent(p)
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
