"""What a notepad cell can say about a card and a place."""

from __future__ import annotations

import enum


class Mark(enum.Enum):
    YES = "yes"
    """The card is there in every consistent deal."""
    NO = "no"
    """The card is there in no consistent deal."""
    UNKNOWN = "unknown"
    """Some consistent deals put it there, some do not."""
