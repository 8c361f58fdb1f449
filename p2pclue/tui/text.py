"""Measuring and fitting text in terminal cells (never ``len``: wide characters count two)."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from p2pclue.i18n.width import words as break_points


def fit(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` cells, ending with an ellipsis when cut."""
    if width <= 0:
        return ""
    if get_cwidth(text) <= width:
        return text
    out, used = "", 0
    for ch in text:
        w = get_cwidth(ch)
        if used + w > width - 1:
            break
        out += ch
        used += w
    return out + "…"


def pad(text: str, width: int) -> str:
    """``text`` fitted and padded with spaces to exactly ``width`` cells."""
    t = fit(text, width)
    return t + " " * (width - get_cwidth(t))


def centre(text: str, width: int) -> str:
    t = fit(text, width)
    left = (width - get_cwidth(t)) // 2
    return " " * left + t + " " * (width - left - get_cwidth(t))


def _cut(text: str, width: int) -> str:
    """The longest prefix of ``text`` that fits ``width`` cells (no ellipsis)."""
    out, used = "", 0
    for ch in text:
        w = get_cwidth(ch)
        if used + w > width:
            break
        out += ch
        used += w
    return out


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """Word-wrap by cell width; continuation lines start with ``indent``. Lines break at
    ordinary spaces only: a no-break space keeps "42 %" and French "Où ?" together."""
    if width <= 0:
        return []
    lead = len(text) - len(text.lstrip(" "))
    words = break_points(text)
    lines: list[str] = []
    line = " " * lead
    for word in words:
        candidate = word if not line.strip() else line + " " + word
        if not line.strip():
            candidate = line + word
        if get_cwidth(candidate) <= width:
            line = candidate
            continue
        if line.strip():
            lines.append(line)
        line = indent + word
        while get_cwidth(line) > width and get_cwidth(indent) < width:
            head = _cut(line, width)
            lines.append(head)
            line = indent + line[len(head):]
    if line.strip() or not lines:
        lines.append(line)
    return lines


def line_fragments(lines: list[tuple[str, str]], width: int) -> StyleAndTextTuples:
    """Styled lines, each padded to ``width``, joined with newlines."""
    out: StyleAndTextTuples = []
    for i, (style, text) in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.append((style, pad(text, width)))
    return out


def path_lines(path: str, width: int, sep: str = "/") -> list[str]:
    """A file's path on lines of at most ``width`` cells, broken only after a separator,
    never indented: selected line by line it pastes back whole (a word-wrapped path broke
    mid-name at 80 columns). A single name longer than a line is cut where it must be."""
    if width <= 0:
        return []
    parts = [p + sep for p in path.split(sep)]
    parts[-1] = parts[-1][:-len(sep)]
    lines: list[str] = []
    line = ""
    for part in parts:
        if line and get_cwidth(line + part) > width:
            lines.append(line)
            line = ""
        line += part
        while get_cwidth(line) > width:
            head = _cut(line, width)
            lines.append(head)
            line = line[len(head):]
    if line or not lines:
        lines.append(line)
    return lines
