"""The table's one budget of wrong table codes, counted by every member and seen by all.

Each connection that tests a code is one guess, whichever member's listener answered it or
whichever member dialled it (an impostor at a dialled address tests the code the dialler
brings). Every member counts the guesses it met (``own``) and tells the others its count
(the lobby message and the sync message ``attempts``); the table's total is a member's own
count plus the latest count each other member reported. Once the total reaches
``CODE_BUDGET`` the code is used up: no listener runs it again, and every screen says so.

A member can only inflate the total (a reported count is capped at the budget and never
goes down): at worst it closes the table to newcomers, which it could do by leaving anyway.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from p2pclue.i18n import _, ngettext

CODE_BUDGET = 50
"""Wrong codes the whole table tolerates: against six digits, a 1 in 20 000 chance."""


@dataclass
class Guesses:
    own: int = 0
    reported: dict[bytes, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return self.own + sum(self.reported.values())

    @property
    def dead(self) -> bool:
        return self.total >= CODE_BUDGET

    def report(self, identity: bytes, count: Any) -> bool:
        """Take another member's count (``attempts`` ``n``); False if it is no count at all.
        A smaller number than before changes nothing (counts only grow)."""
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            return False
        self.reported[identity] = max(self.reported.get(identity, 0), min(count, CODE_BUDGET))
        return True

    def message(self) -> dict[str, Any]:
        """What this member tells the others (lobby or sync message)."""
        return {"t": "attempts", "n": self.own}


def describe(count: int) -> str:
    """The line every screen shows once the table met a wrong code."""
    text = ngettext("{count} failed attempt with a wrong code at this table",
                    "{count} failed attempts with a wrong code at this table",
                    count).format(count=count)
    if count >= CODE_BUDGET:
        text += " " + _("(the code is used up: nobody new can join; open a new table)")
    return text
