"""Detective notepad: complete deduction over consistent deals, with explanations.

Pure code (no I/O, clocks or randomness). Build a ``Notepad`` for one seat,
``add`` facts as they are observed (``feed.SeatFeed`` turns a seat's game events into
them), then ask ``cell``, ``explain``, ``envelope_probabilities`` and ``solution``;
``exposure`` says what the others know of the seat's own hand.
"""

from p2pclue.deduce.exposure import exposure, least_revealing, view_of
from p2pclue.deduce.facts import (
    EnvelopeOpened,
    Fact,
    HandLaidDown,
    Lacks,
    Leftovers,
    OwnHand,
    Passed,
    Refuted,
    ShownByMe,
    ShownToMe,
    Triple,
    WrongAccusation,
    describe,
)
from p2pclue.deduce.marks import Mark
from p2pclue.deduce.notepad import (
    Contradiction,
    ContradictionError,
    IncompleteDeductionError,
    Notepad,
)
from p2pclue.deduce.table import (
    ENVELOPE,
    LEFTOVERS,
    STANDARD_DECK,
    DeductionError,
    NotepadUsageError,
    Table,
)

__all__ = [
    "ENVELOPE",
    "LEFTOVERS",
    "STANDARD_DECK",
    "Contradiction",
    "ContradictionError",
    "DeductionError",
    "EnvelopeOpened",
    "Fact",
    "HandLaidDown",
    "IncompleteDeductionError",
    "Lacks",
    "Leftovers",
    "Mark",
    "Notepad",
    "NotepadUsageError",
    "OwnHand",
    "Passed",
    "Refuted",
    "ShownByMe",
    "ShownToMe",
    "Table",
    "Triple",
    "WrongAccusation",
    "describe",
    "exposure",
    "least_revealing",
    "view_of",
]
