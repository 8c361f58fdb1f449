"""Which screen fills the terminal, what the keys do on it, and what covers it."""

from __future__ import annotations

import enum


class Screen(enum.Enum):
    """Which screen fills the terminal.

    A ``LOBBY`` screen slots in before ``DEALING`` when the LAN runner's lobby events
    exist: ``on_event`` gains their cases, ``view.root`` a body, ``press`` a handler;
    nothing else depends on the game having started.
    """

    DEALING = "dealing"
    GAME = "game"
    END = "end"


class Mode(enum.Enum):
    """What the keys do on the game screen."""

    WATCH = "watch"
    """Nothing is asked of you: the story runs."""
    TURN = "turn"
    """Your turn: the action bar lists what the rules allow."""
    MOVE = "move"
    """After a roll: pick a highlighted destination."""
    PICK = "pick"
    """Picking a suspect, a weapon (and for an accusation a room) from a list."""
    CONFIRM = "confirm"
    """Confirming an accusation."""
    SHOW = "show"
    """Pick which of your cards to show the suggester."""
    NOTEPAD = "notepad"
    """Moving over the notepad's cells, reading why each is marked."""


class Overlay(enum.Enum):
    HELP = "help"
    QUIT = "quit"
