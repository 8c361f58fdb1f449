"""Terminal display width: pad and cut text by columns, never by ``len``.

A Korean syllable takes two columns, a Czech "ě" written as "e" plus a
combining caron takes one column in two code points. The width of one code
point is what ``wcwidth`` says, exactly as prompt_toolkit (the terminal UI)
counts it, so a padded cell here is a padded cell on screen. Text is cut only
between clusters (a character with the zero-width marks that follow it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal

from wcwidth import wcwidth

ELLIPSIS = "…"


def char_width(ch: str) -> int:
    """Columns of one code point; control characters count 0, as prompt_toolkit counts them."""
    return max(0, wcwidth(ch))


def text_width(text: str) -> int:
    return sum(char_width(c) for c in text)


def clusters(text: str) -> Iterator[str]:
    """The text split where it may be cut: zero-width code points stay with what precedes them."""
    current = ""
    for ch in text:
        if current and char_width(ch) == 0:
            current += ch
            continue
        if current:
            yield current
        current = ch
    if current:
        yield current


def truncate(text: str, width: int, ellipsis: str = ELLIPSIS) -> str:
    """``text`` if it fits in ``width`` columns, else its longest head that fits with ``ellipsis``.

    A wide character that would straddle the limit is dropped whole.
    """
    if text_width(text) <= width:
        return text
    if width <= 0:
        return ""
    room = width - text_width(ellipsis)
    if room < 0:
        return truncate(ellipsis, width, "")
    head: list[str] = []
    used = 0
    for cluster in clusters(text):
        w = text_width(cluster)
        if used + w > room:
            break
        head.append(cluster)
        used += w
    return "".join(head) + ellipsis


def pad(text: str, width: int, align: Literal["left", "right", "center"] = "left",
        fill: str = " ") -> str:
    """``text`` padded with ``fill`` (one column wide) to ``width`` columns; never cut."""
    gap = max(0, width - text_width(text))
    if align == "right":
        return fill * gap + text
    if align == "center":
        left = gap // 2
        return fill * left + text + fill * (gap - left)
    return text + fill * gap


def fit(text: str, width: int, align: Literal["left", "right", "center"] = "left",
        ellipsis: str = ELLIPSIS) -> str:
    """Exactly ``width`` columns: cut (with ``ellipsis``) if too long, padded if too short."""
    return pad(truncate(text, width, ellipsis), width, align)


BREAKS = re.compile(r"[ \t\n\r\f\v]+")
"""Where a line may break: ordinary spaces only. A no-break space (U+00A0, U+202F) holds
what it joins together: French "42 %" and "Où ?", Czech "a Ema" never break apart."""


def words(text: str) -> list[str]:
    """``text`` split where a line may break (``BREAKS``), never at a no-break space."""
    return [w for w in BREAKS.split(text) if w]


def wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap by columns; a word wider than ``width`` is cut between clusters."""
    lines: list[str] = []
    line = ""
    for word in words(text):
        candidate = f"{line} {word}" if line else word
        if text_width(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for cluster in clusters(word):
            if line and text_width(line + cluster) > width:
                lines.append(line)
                line = ""
            line += cluster
    if line:
        lines.append(line)
    return lines
