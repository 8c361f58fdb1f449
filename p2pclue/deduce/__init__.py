"""Detective notepad: complete deduction over consistent deals, with explanations.

Pure code (no I/O, clocks or randomness). Build a ``Notepad`` for one seat,
``add`` facts as they are observed, then ask ``cell``, ``explain``,
``envelope_probabilities``, ``solution`` and ``my_exposure``.
"""

from p2pclue.deduce.exposure import exposure, least_revealing, view_of
from p2pclue.deduce.facts import (
    Fact,
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
    "Fact",
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
