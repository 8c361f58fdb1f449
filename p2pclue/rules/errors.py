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


class RuleError(Exception):
    """An action or set-up breaks rule ``rule``; the message starts with that id."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.detail = message
        super().__init__(f"{rule}: {message}")


class SetupError(RuleError):
    """The game set-up itself is invalid (wrong player count, deal, placement)."""


class WireError(ValueError):
    """Serialized rules, state or action data does not have the exact expected shape."""
