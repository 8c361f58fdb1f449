"""Colours and a progress line, only where a person is watching a terminal.

Colours follow the convention of https://no-color.org: none when ``NO_COLOR`` is set
to anything non-empty, when the stream is not a terminal (a pipe, a file) or when
``TERM`` is ``dumb``. The progress line goes to standard error and is rewritten in
place, so standard output stays the story (and a pipe sees no progress at all).
"""

from __future__ import annotations

import os
import shutil
from typing import TextIO

from p2pclue.i18n import truncate
from p2pclue.rules.cards import SUSPECTS

RESET = "\x1b[0m"
SUSPECT_COLOURS = {
    "scarlett": "31",   # red
    "mustard": "33",    # yellow
    "white": "1",       # bold (white text would vanish on a light terminal)
    "green": "32",      # green
    "peacock": "34",    # blue
    "plum": "35",       # magenta
}
"""Each player is shown in the colour of the suspect they play."""
EVENT_COLOURS = {
    "win": "1;32",
    "wrong": "31",
    "halt": "1;31",
    "proof": "2",
    "heading": "1",
    "card": "36",
}


def wants_colour(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


class Style:
    """Wraps text in ANSI colours, or returns it unchanged when colour is off."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def paint(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}{RESET}" if self.enabled and text else text

    def event(self, text: str, kind: str) -> str:
        return self.paint(text, EVENT_COLOURS[kind])

    def suspect(self, text: str, suspect: int) -> str:
        slug = SUSPECTS[suspect].slug if 0 <= suspect < len(SUSPECTS) else ""
        return self.paint(text, SUSPECT_COLOURS.get(slug, "1"))


class ProgressLine:
    """One status line on a terminal, rewritten in place; silent anywhere else."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        try:
            self.enabled = stream.isatty() and os.environ.get("TERM") != "dumb"
        except (AttributeError, ValueError):
            self.enabled = False
        self._shown = False

    def show(self, text: str) -> None:
        if not self.enabled:
            return
        # One terminal line, measured in columns (Korean takes two per syllable): a line
        # that wrapped could not be rewritten in place.
        width = shutil.get_terminal_size().columns - 1
        self.stream.write("\r\x1b[2K" + truncate(text, max(width, 10)))
        self.stream.flush()
        self._shown = True

    def clear(self) -> None:
        if self.enabled and self._shown:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self._shown = False
