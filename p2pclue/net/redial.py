"""When to dial a lost player again: the back-off, without a clock or a socket.

One side of each pair of players dials (the smaller identity key), so re-dials never
cross. A lost link is re-dialled from ``REDIAL_FIRST``, doubling, at most ``REDIAL_MAX``
apart, until it is back; an answer from another key (or a refusal other than busy/full)
slows that player's re-dials to ``REDIAL_STRANGER``, doubling up to
``REDIAL_STRANGER_MAX``; an address no resolver takes is given up at once. A link that
dies soon after a re-dial made it (before ``LINK_STEADY``) makes the next re-dial of that
player start later (``redial_from``), so a player whose side keeps refusing us is asked
ever more slowly. A key cut for junk is not re-dialled before its refusal ends.

The session core owns one ``Redials`` and asks it at every input; its driver only dials.
"""

from __future__ import annotations

from dataclasses import dataclass

REDIAL_FIRST = 0.05
REDIAL_MAX = 1.0
"""Back-off for re-dialling a lost player: from 50 ms, doubling, at most 1 s apart."""
REDIAL_STRANGER = 2.0
REDIAL_STRANGER_MAX = 30.0
"""A re-dial answered by someone who is not that player waits this long, doubling."""
LINK_STEADY = 5.0
"""A link that lasted this long was a good one: the next re-dial starts at ``REDIAL_FIRST``
again (a link that keeps dying at once, refused by the other side, is re-dialled ever slower)."""

NOBODY = "nobody"
"""Nobody answered, or the answer was busy, full, a hang-up or silence: the usual pace."""
STRANGER = "stranger"
"""Another key answered, or the other side refused for a reason that will not pass soon."""
BAD_ADDRESS = "bad-address"
"""No resolver takes the host: no re-dial can help."""
LINKED = "linked"
"""The dial made a link (its ``link_up`` follows)."""
OUTCOMES = (NOBODY, STRANGER, BAD_ADDRESS, LINKED)


@dataclass
class _Pending:
    at: float
    """When to dial next (a dial in flight: when it was asked for)."""
    delay: float
    """The pause after the next failure."""
    dialling: bool = False


class Redials:
    """The re-dials of one table member, keyed by the player's identity key."""

    def __init__(self) -> None:
        self._pending: dict[bytes, _Pending] = {}
        self._from: dict[bytes, float] = {}
        """Per player: the wait the next re-dial starts with (see ``LINK_STEADY``)."""
        self._up_since: dict[bytes, float] = {}

    def __contains__(self, key: bytes) -> bool:
        return key in self._pending

    def __bool__(self) -> bool:
        """Whether any player is to be re-dialled (or being dialled)."""
        return bool(self._pending)

    def lost(self, key: bytes, now: float) -> None:
        """The link to a player this member dials went down: dial again after the wait its
        last link earned (none if it lasted), unless a re-dial is already under way."""
        if key not in self._pending:
            self._pending[key] = _Pending(now + self._from.get(key, 0.0), REDIAL_FIRST)

    def up(self, key: bytes, now: float) -> None:
        """A link to ``key`` came up: no re-dial is needed."""
        self._pending.pop(key, None)
        self._up_since.setdefault(key, now)

    def down(self, key: bytes, now: float) -> None:
        """A link to ``key`` went down: a link that lasted clears the carried-over wait."""
        since = self._up_since.pop(key, None)
        if since is not None and now - since >= LINK_STEADY:
            self._from.pop(key, None)

    def due(self, now: float, banned_until: dict[bytes, float]) -> list[bytes]:
        """The players to dial now (each then counts as dialling until ``dialled``)."""
        out = []
        for key, p in self._pending.items():
            if not p.dialling and now >= max(p.at, banned_until.get(key, 0.0)):
                p.dialling, p.at = True, now
                out.append(key)
        return out

    def next_time(self, banned_until: dict[bytes, float]) -> float | None:
        times = [max(p.at, banned_until.get(k, 0.0))
                 for k, p in self._pending.items() if not p.dialling]
        return min(times) if times else None

    def dialled(self, key: bytes, outcome: str, now: float) -> bool:
        """A dial ended; returns False once nothing more will be tried for ``key``."""
        p = self._pending.get(key)
        if p is None or not p.dialling:
            return key in self._pending
        p.dialling = False
        if outcome == LINKED:  # should this link die at once, the next re-dial waits
            last = self._from.get(key, 0.0)
            self._from[key] = min(max(2 * last, REDIAL_FIRST), REDIAL_MAX)
            del self._pending[key]
            return False
        if outcome == BAD_ADDRESS:
            del self._pending[key]
            return False
        if outcome == STRANGER:
            p.delay = max(p.delay, REDIAL_STRANGER)
            p.at = now + p.delay
            p.delay = min(p.delay * 2, REDIAL_STRANGER_MAX)
        else:
            p.at = now + p.delay
            p.delay = min(p.delay * 2, max(REDIAL_MAX, p.delay))
        return True

    def cancel_all(self) -> None:
        self._pending.clear()
