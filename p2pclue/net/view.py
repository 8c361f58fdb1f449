"""What the front ends, the bench and tests read of a running session, from its core.

A driver (``net.session.NetSession``) holds a ``SessionCore`` and inherits these read-only
views of it, so the names front ends have always used stay one line each and decide
nothing.
"""

from __future__ import annotations

import dataclasses

from p2pclue.engine import events as ev
from p2pclue.engine.peer import Choice, Peer
from p2pclue.net.core import SessionCore
from p2pclue.net.junk import JunkBudget
from p2pclue.net.lobby import Start
from p2pclue.rules.state import GameState


class CoreView:
    """The session's state as the ``net.api.Session`` contract and its readers see it."""

    core: SessionCore

    @property
    def peer(self) -> Peer:
        return self.core.peer

    @property
    def state(self) -> GameState | None:
        return self.core.peer.rules_state

    @property
    def hand(self) -> tuple[int, ...]:
        return self.core.peer.hand

    def choice(self) -> Choice | None:
        return self.core.peer.choice()

    def expected_seat(self) -> int | None:
        """Who owes the table's next message (the screen says whom it waits for from the
        first second, long before a silence is reported)."""
        return self.core.peer.expected_seat()

    @property
    def start_record(self) -> Start:
        return self.core.start_record

    @property
    def junk(self) -> JunkBudget:
        """Junk charged per link partner (``net.junk``); the bench sets its own budget."""
        return self.core.junk

    @junk.setter
    def junk(self, budget: JunkBudget) -> None:
        self.core.junk = budget

    @property
    def junk_cuts(self) -> int:
        return self.core.junk_cuts

    @property
    def junk_charged(self) -> int:
        return self.core.junk_charged

    @property
    def resent(self) -> int:
        return self.core.resent

    @property
    def dropped_total(self) -> int:
        return self.core.dropped_total

    @property
    def spectators(self) -> dict[bytes, str]:
        return self.core.spectators

    @property
    def left_table(self) -> bool:
        return self.core.left_table

    @property
    def resumed_events(self) -> list[ev.Event]:
        return self.core.resumed_events

    @property
    def pass_delay(self) -> tuple[float, float]:
        return self.core.settings.pass_delay

    @pass_delay.setter
    def pass_delay(self, delay: tuple[float, float]) -> None:
        self.core.settings = dataclasses.replace(self.core.settings, pass_delay=delay)

    # -- the core's state under the names tests and the bench have used

    @property
    def _held(self) -> list[tuple[bytes, int | None]] | None:
        """The frames of a held pass (None when nothing is held)."""
        return self.core.held

    @property
    def _hold_from(self) -> int:
        return self.core.visible()

    @property
    def _name(self) -> str:
        return self.core.settings.name

    @property
    def _host_addr(self) -> tuple[str, int] | None:
        return self.core.host_addr

    @_host_addr.setter
    def _host_addr(self, value: tuple[str, int] | None) -> None:
        self.core.host_addr = value
