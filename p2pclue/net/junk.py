"""How much junk one link partner may make this member reject before its link is cut.

Anyone at the other end of an authenticated link (a player or a spectator) can send frames
that are unsigned, badly signed, unreadable or of another game, a seat's own frames that
cannot be placed (far ahead), or lobby and sync messages nobody needs. The engine drops or
parks each frame without blame, which is right (nothing unsigned may cost anyone anything),
but checking a signature costs tens of microseconds: without a limit a link partner could
flood for ever and be blamed for nothing. So the runner charges that work to the identity
whose link carried it, against a token bucket (``burst`` units, refilled at ``rate`` per
second; see ``NetSession._charge`` and docs/protocol.md "Junk budget" for what costs what).
An honest peer makes no junk: it sends entries in order, from the catch-up its partner asked
for, and a few copies of each are free, so the bucket only empties under a flood, and then
the link is cut.

A cut blames nobody and loses nothing (it is a lost link: the transcript is untouched, and
catch-up on the next link restores whatever was in flight). The first cut lets the partner
re-dial at once; each further cut of the same identity refuses it for a while, from
``ban_first`` seconds, doubling, at most ``ban_max``.
"""

from __future__ import annotations

from dataclasses import dataclass

JUNK_BURST = 200.0
"""Junk frames a link partner may send at once before its link is cut."""
JUNK_RATE = 20.0
"""Junk frames per second a link partner may go on sending (about 1 ms of work a second)."""
BAN_FIRST = 1.0
BAN_MAX = 30.0
"""After the second cut an identity is refused for 1 s, doubling with each cut, at most 30 s."""
MAX_ACCOUNTS = 256
"""Identities remembered; beyond, the one with the fullest bucket and no cut is forgotten."""


@dataclass
class _Account:
    tokens: float
    stamp: float
    cuts: int = 0
    banned_until: float = 0.0
    charged: int = 0


class JunkBudget:
    """Per-identity token buckets for dropped frames, and the back-off of cut identities."""

    def __init__(self, burst: float = JUNK_BURST, rate: float = JUNK_RATE,
                 ban_first: float = BAN_FIRST, ban_max: float = BAN_MAX) -> None:
        self.burst = burst
        self.rate = rate
        self.ban_first = ban_first
        self.ban_max = ban_max
        self._accounts: dict[bytes, _Account] = {}

    def _account(self, ident: bytes, now: float) -> _Account:
        account = self._accounts.get(ident)
        if account is None:
            if len(self._accounts) >= MAX_ACCOUNTS:
                self._forget(now)
            account = self._accounts[ident] = _Account(self.burst, now)
        else:
            elapsed = max(0.0, now - account.stamp)
            account.tokens = min(self.burst, account.tokens + elapsed * self.rate)
            account.stamp = now
        return account

    def _forget(self, now: float) -> None:
        clean = [i for i, a in self._accounts.items() if a.cuts == 0]
        pool = clean or list(self._accounts)
        del self._accounts[max(pool, key=lambda i: self._account(i, now).tokens)]

    def charge(self, ident: bytes, frames: int, now: float) -> bool:
        """Charge ``frames`` junk frames to ``ident``; True when its budget is spent (cut it)."""
        account = self._account(ident, now)
        account.tokens -= frames
        account.charged += frames
        return account.tokens < 0

    def cut(self, ident: bytes, now: float) -> float:
        """Record that ``ident``'s link was cut; returns until when it is refused (``now``
        after a first cut: it may re-dial at once)."""
        account = self._account(ident, now)
        account.cuts += 1
        account.tokens = max(account.tokens, 0.0)
        if account.cuts > 1:
            ban = min(self.ban_first * 2 ** (account.cuts - 2), self.ban_max)
            account.banned_until = now + ban
        return max(now, account.banned_until)

    def banned_until(self, ident: bytes) -> float:
        """Until when ``ident`` is refused (0 if it never was)."""
        account = self._accounts.get(ident)
        return account.banned_until if account is not None else 0.0

    def banned(self, ident: bytes, now: float) -> bool:
        return now < self.banned_until(ident)

    def charged(self, ident: bytes) -> int:
        """Junk units charged to ``ident`` in all (while it is remembered)."""
        account = self._accounts.get(ident)
        return account.charged if account is not None else 0

    def cuts(self, ident: bytes) -> int:
        account = self._accounts.get(ident)
        return account.cuts if account is not None else 0
