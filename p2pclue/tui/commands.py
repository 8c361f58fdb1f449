"""What the UI model asks the application to carry out, and the action bar's entries.

The model never touches the session, a thread or the terminal: a key press or an event
answers with these commands (submit an intent, leave, vote, compute a hint, an
explanation or the notepad off the UI thread), and the application runs them.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pclue.engine import events as ev


@dataclass(frozen=True)
class Submit:
    intent: ev.Intent


@dataclass(frozen=True)
class Leave:
    pass


@dataclass(frozen=True)
class Vote:
    """The person's vote about the silent seat: ``"wait"`` or ``"abandon"``."""

    choice: str


@dataclass(frozen=True)
class NeedHint:
    room: int


@dataclass(frozen=True)
class NeedExplain:
    card: int
    owner: int


@dataclass(frozen=True)
class NeedNotepad:
    """New facts: rebuild the notepad (off the UI thread)."""


@dataclass(frozen=True)
class NeedQuietCard:
    options: tuple[int, ...]
    suggester: int


Command = Submit | Leave | Vote | NeedHint | NeedExplain | NeedNotepad | NeedQuietCard


@dataclass(frozen=True)
class Action:
    """One entry of the action bar."""

    key: str
    label: str
