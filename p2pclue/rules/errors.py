"""Typed errors of the rules layer.

``RuleError`` is raised when an action breaks a rule; its ``rule`` attribute
names the rule id of ``/work/shared/rules.md`` ("R23") and its message starts
with it, so a peer (or a person) can tell exactly which rule was broken. When
the action came from another peer this is a *remote* fault; the protocol layer
decides. ``SetupError`` is an invalid game set-up (seats, deal, weapons), and
``WireError`` is malformed serialized data (unknown key, wrong type): both are
input faults of whoever supplied the data.
"""

from __future__ import annotations

from typing import Any


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs: a front end translates it when a person reads it
    (``p2pclue.i18n.refusals``); this layer may not import the translations."""
    return message


class SeatNo(int):
    """A seat named in a rule's explanation: English says "seat 2", a front end the
    player's name."""

    def __format__(self, spec: str) -> str:
        return f"seat {int(self)}"


class CardNo(int):
    """A card named in a rule's explanation (``{room:the}``): English names it, a front end
    gives it the form its language's sentence asks for."""

    def __format__(self, spec: str) -> str:
        from p2pclue.rules.cards import card

        name = card(int(self)).name
        return f"the {name}" if spec == "the" else name


class RuleError(Exception):
    """An action or set-up breaks rule ``rule``; the message starts with that id.

    ``template`` is the English explanation with ``{fields}`` and ``values`` what fills
    them (seats as ``SeatNo``, cards as ``CardNo``), so a front end can say it in the
    reader's language; ``detail`` is the English text, what peers and auditors read.
    """

    def __init__(self, rule: str, message: str, /, **values: Any) -> None:
        self.rule = rule
        self.template = message
        self.values = values
        self.detail = message.format(**values) if values else message
        super().__init__(f"{rule}: {self.detail}")


class SetupError(RuleError):
    """The game set-up itself is invalid (wrong player count, deal, placement)."""


class WireError(ValueError):
    """Serialized rules, state or action data does not have the exact expected shape."""
