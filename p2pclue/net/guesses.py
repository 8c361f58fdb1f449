"""The table's budget of wrong table codes: counted by every member, seen by all, and
reserved before any code is tested.

Each connection that tests a code is one guess, whichever member's listener answered it or
whichever member dialled it (an impostor at a dialled address tests the code the dialler
brings). Every member counts the guesses it met (``own``) and tells the others its count
(the lobby message and the sync message ``attempts``); the table's total is a member's own
count plus the latest count each other member reported.

A listener reserves a guess before it runs the PAKE for a code-mode handshake
(``reserve``): the total, plus the handshakes already in flight at this member, never
passes ``CODE_BUDGET``, so a crowd of connections opened at once cannot overshoot it. A
reservation ends with the handshake (``release``): spent if the code was wrong (then the
transport reports it and ``own`` grows), given back otherwise (the connection never reached
the code, or it brought the right one). One source address may hold at most
``ADDRESS_BUDGET`` of a code's guesses, spent and in flight together.

Once the total reaches ``CODE_BUDGET`` the code is used up. The opener then turns the table
to a fresh code (``turn_code``: a fresh budget, at most ``CODE_TURNS`` times); a member's
listeners refuse the used-up code before any PAKE, and every screen says so. A member can
only inflate the total (a reported count is capped at the budget and never goes down): at
worst it closes the table to newcomers, which it could do by leaving anyway.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from p2pclue.i18n import _, ngettext

CODE_BUDGET = 50
"""Wrong codes one table code tolerates: against six digits, a 1 in 20 000 chance."""
ADDRESS_BUDGET = 10
"""Guesses at one code one source address may hold (spent and in flight). A person who
mistypes tries a few times; ten lets a household behind one address retry freely, and a
stranger needs at least five addresses to use a code up (with the back-off of
``net.links`` one address dialling one connection at a time takes two minutes to spend
its ten)."""
CODE_DIGITS = 6
CODE_TURNS = 3
"""Fresh codes the opener turns to once a code is used up in the lobby: four codes in all,
so at most 200 wrong guesses reach a table's lobby (a 1 in 5 000 chance against six
digits); after the last, nobody new can join."""


def is_fresh_code(code: Any) -> bool:
    """Whether ``code`` has the shape of a fresh code (six ASCII digits: a ``code`` message)."""
    return (isinstance(code, str) and len(code) == CODE_DIGITS and code.isascii()
            and code.isdigit())


@dataclass(frozen=True)
class Reservation:
    """One guess held for a handshake in flight: at ``address``, against code ``turn``."""

    address: str
    turn: int


@dataclass
class Guesses:
    own: int = 0
    reported: dict[bytes, int] = field(default_factory=dict)
    in_flight: int = 0
    """Code-mode handshakes at this member's listeners that may still test the code."""
    turn: int = 0
    """Which code this is: 0 the first, one more for each fresh code (``turn_code``)."""
    by_address: dict[str, int] = field(default_factory=dict)
    """Guesses at this code per source address, spent and in flight."""

    @property
    def total(self) -> int:
        return self.own + sum(self.reported.values())

    @property
    def dead(self) -> bool:
        """This code is used up (the table may still turn to a fresh one)."""
        return self.total >= CODE_BUDGET

    @property
    def closed(self) -> bool:
        """The last code is used up: nobody new can join, ever."""
        return self.dead and self.turn >= CODE_TURNS

    def reserve(self, address: str) -> Reservation | str:
        """Hold one guess for a handshake from ``address`` before it may test the code;
        a refusal reason when it may not: ``code-dead`` (the code is used up), ``full``
        (the rest of the budget is in flight: retry later), ``busy`` (this address holds
        its share)."""
        if self.dead:
            return "code-dead"
        if self.total + self.in_flight >= CODE_BUDGET:
            return "full"
        if self.by_address.get(address, 0) >= ADDRESS_BUDGET:
            return "busy"
        self.in_flight += 1
        self.by_address[address] = self.by_address.get(address, 0) + 1
        return Reservation(address, self.turn)

    def release(self, held: Reservation, spent: bool) -> bool:
        """End a reservation; ``spent``: the code was tested and was wrong (the caller then
        counts it in ``own``, through the transport's report). False when the code turned
        meanwhile: the guess was at a code that opens nothing now, and counts for none."""
        if held.turn != self.turn:
            return False
        self.in_flight -= 1
        if not spent:
            left = self.by_address.get(held.address, 0) - 1
            if left > 0:
                self.by_address[held.address] = left
            else:
                self.by_address.pop(held.address, None)
        return True

    def turn_code(self, turn: int | None = None) -> None:
        """A fresh code: a fresh budget (``turn``: the opener's number for it)."""
        self.turn = self.turn + 1 if turn is None else turn
        self.own, self.in_flight = 0, 0
        self.reported.clear()
        self.by_address.clear()

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


def code_news(code: str | None) -> str:
    """What the opener is told when too many wrong codes used a code up: the fresh ``code``
    its table turned to, or (None) that the last one is gone."""
    if code is None:
        return _("Too many wrong codes: the last table code is used up, and nobody new can "
                 "join. The seated players play on.")
    return _("The old table code is used up (too many wrong codes). The new table code is "
             "{code}.").format(code=code)
