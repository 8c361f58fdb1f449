"""Link liveness during play: a quiet link says ``alive`` now and then, and a link that
brought nothing for a while is cut as silent, so that a network lost without a word (a
cable pulled, Wi-Fi gone: TCP notices nothing for minutes) is told on both sides within
seconds and the usual re-dial takes over (docs/protocol.md, "Sync messages", ``alive``).

Pure: every call carries ``now`` (the session core's clock); nothing here sends or cuts,
it only says which links are due for which.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ALIVE_EVERY = 2.0
"""Seconds a link may carry nothing from this member before it sends ``alive``."""
SILENT_AFTER = 8.0
"""Seconds a link may bring nothing before it is cut as silent (four ``alive`` missed):
with the tick that notices it, the people on both sides are told within 10 s."""
STALLED = 3.0
"""A gap this long between two calls means this member's own loop stalled (a long
computation, a suspended laptop): nothing could be heard meanwhile, so silence is counted
again from the end of the gap, never blamed on the links."""
ALIVE_FREE_AT_ONCE = 2
ALIVE_FREE_PER_SECOND = 1.0
"""``alive`` messages one link may send for free: two at once, then one a second (an honest
link sends one every ``ALIVE_EVERY`` at most, and a stalled network delivers no more than
were sent); each one beyond is charged as junk."""


@dataclass
class _Link:
    since: float
    heard: float
    sent: float
    alives: int = 0


@dataclass
class Liveness:
    """When each link last carried something either way."""

    links: dict[bytes, _Link] = field(default_factory=dict)
    last_call: float | None = None

    def called(self, now: float) -> None:
        """Every input passes here first: after a stall, silence counts from now."""
        if self.last_call is not None and now - self.last_call > STALLED:
            for link in self.links.values():
                link.heard = max(link.heard, now)
        self.last_call = now

    def up(self, key: bytes, now: float) -> None:
        self.links[key] = _Link(since=now, heard=now, sent=now)

    def down(self, key: bytes) -> None:
        self.links.pop(key, None)

    def heard(self, key: bytes, now: float) -> None:
        link = self.links.get(key)
        if link is not None:
            link.heard = max(link.heard, now)

    def sent(self, key: bytes, now: float) -> None:
        link = self.links.get(key)
        if link is not None:
            link.sent = max(link.sent, now)

    def alive_is_free(self, key: bytes, now: float) -> bool:
        """One more ``alive`` from ``key``: within the link's free allowance?"""
        link = self.links.get(key)
        if link is None:
            return True
        link.alives += 1
        return link.alives <= ALIVE_FREE_AT_ONCE + (now - link.since) * ALIVE_FREE_PER_SECOND

    def due(self, now: float) -> list[bytes]:
        """Links to say ``alive`` on now (nothing sent on them for ``ALIVE_EVERY``)."""
        return [k for k, link in self.links.items() if now - link.sent >= ALIVE_EVERY]

    def silent(self, now: float) -> list[bytes]:
        """Links that brought nothing for ``SILENT_AFTER``: to be cut."""
        return [k for k, link in self.links.items() if now - link.heard >= SILENT_AFTER]

    def next_time(self) -> float | None:
        """When ``due`` or ``silent`` will next name a link."""
        times = [t for link in self.links.values()
                 for t in (link.sent + ALIVE_EVERY, link.heard + SILENT_AFTER)]
        return min(times) if times else None
