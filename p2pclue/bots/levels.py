"""Bot levels for people: ``easy``, ``medium`` and ``hard`` (hard is the detective).

Every level is the same ``DetectiveBot`` playing only legal actions; what
changes is how much of its craft it uses (``Style``):

- ``hard``: exact deduction, a model of how the others suggest, two-turn move
  planning, accuses only when the envelope is proven.
- ``medium``: exact deduction and move planning, but no model of the others,
  and it now and then misses a public answer or asks a careless question.
  It accuses only when its notepad proves the envelope: a missed answer only
  leaves cells unknown, so that proof stays sound.
- ``easy``: plays like a hurried person: misses many public answers, heads
  for the nearest room, asks about cards not yet crossed off, and guesses an
  accusation once one envelope looks likely enough (it can be wrong).

The ladder is measured by ``p2pclue bench --only bots``.
"""

from __future__ import annotations

from p2pclue.bots.detective import HARD, Style

MEDIUM = Style(model=False, lookahead=True, forget=0.3, careless=0.3)
EASY = Style(model=False, lookahead=False, forget=0.5, guess_at=0.3, careless=0.6)

LEVELS: dict[str, Style] = {"easy": EASY, "medium": MEDIUM, "hard": HARD}
"""The levels a person can pick, weakest first."""
