"""The story of a game as printed lines, for ``simulate``, ``audit --replay``, ``join``
and ``watch``.

What each event says is the shared narrator's (``p2pclue.i18n.narrator``: the same
sentences the terminal UI's story pane shows); here they are laid out as lines, a turn's
moves and answers indented under its heading, in colour on a terminal (``Style``).
``event_json`` is the machine form of an event, for ``--json``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

from p2pclue.cli.terminal import Style
from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import Blame
from p2pclue.i18n import PlayerWord, card_phrase, listing
from p2pclue.i18n.narrator import Line
from p2pclue.i18n.narrator import Narrator as StoryNarrator
from p2pclue.i18n.story_words import cards_text, dice_text, place

INDENT = "   "


def line_text(line: Line) -> str:
    """One sentence as a printed line: indented by its depth under the turn's heading."""
    return INDENT * line.depth + line.text


def event_json(event: ev.Event) -> dict[str, Any]:
    """A public event for machines: its type and fields, squares as [row, col].

    Blame evidence (raw frames) is left out: ``audit --json`` carries the verdict.
    """
    out: dict[str, Any] = {"event": type(event).__name__}
    for f in dataclasses.fields(event):
        value = getattr(event, f.name)
        if isinstance(value, Blame):
            value = {"culprit": value.culprit, "check": value.check, "reason": value.reason,
                     "index": value.index}
        out[f.name] = _plain(value)
    return out


def _plain(value: object) -> object:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


class Narrator:
    """A game's story as printed lines (see the module docstring); ``me``: the seat the
    reader plays, told as "you"."""

    def __init__(
        self, config: GameConfig, *, shown_cards: Sequence[int | None] | None = None,
        hands: dict[int, tuple[int, ...]] | None = None, style: Style | None = None,
        me: int | None = None,
    ) -> None:
        self.config = config
        self.style = style or Style(False)
        self.story = StoryNarrator(config, me, paint=self.style, shown_cards=shown_cards,
                                   hands=hands)

    @property
    def turn(self) -> int:
        """How many turns the story has told so far."""
        return self.story.turn

    def name(self, seat: int) -> PlayerWord:
        """A player's name, in the colour of the suspect they play."""
        return self.story.name(seat)

    def who(self, seat: int) -> PlayerWord:
        """A player's name and suspect, for headings and the end of the game."""
        return self.story.who(seat)

    def introduction(self) -> Iterator[str]:
        """Who plays whom, before the deal starts."""
        for line in self.story.introduction():
            yield line_text(line)

    def lines(self, event: ev.Event) -> Iterator[str]:
        for line in self.story.tell(event):
            yield line_text(line)

    def flush(self) -> Iterator[str]:
        """The end of the story: nothing is held back any more (a roll is told when it
        happens), so there is nothing left to print; kept for the callers that end with it."""
        yield from ()


__all__ = ["INDENT", "Narrator", "card_phrase", "cards_text", "dice_text", "event_json",
           "line_text", "listing", "place"]
