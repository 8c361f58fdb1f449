"""What the session core asks its driver to do: small frozen records, executed in order.

The core (``net.core``) decides; a driver (``net.session`` over real links, ``net.memory``
in tests) executes. The order of a batch is part of the contract: a persist record comes
before every send that depends on it, and a driver that fails to persist one stops the
batch there and reports it (``SessionCore.persist_failed``), so nothing that depends on a
lost write ever leaves. Messages are bytes: the core packs its maps, a transport only adds
the tag byte.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pclue.engine.peer_secrets import PeerSecrets
from p2pclue.engine.transcript import Footer
from p2pclue.net.api import SessionEvent

# ---- links -------------------------------------------------------------------------


@dataclass(frozen=True)
class Send:
    """One message (``tag``, ``body``) on each of these links, in this order."""

    to: tuple[bytes, ...]
    tag: int
    body: bytes


@dataclass(frozen=True)
class Cut:
    """Close the link to ``key`` now; its ``link_down`` follows, and what it still had
    queued is discarded unread."""

    key: bytes
    why: str


@dataclass(frozen=True)
class Dial:
    """Dial the player ``key`` at ``host:port`` (game mode, expecting that key); report
    the outcome with ``SessionCore.dialled``. The back-off between dials is the core's."""

    key: bytes
    host: str
    port: int


@dataclass(frozen=True)
class CodeUsedUp:
    """The table's wrong-code budget is spent: no listener of this member runs the code
    again (a game-mode link needs none)."""


# ---- persistence: each before any send that depends on it ------------------------------


@dataclass(frozen=True)
class Append:
    """Append these accepted entries to the transcript file; ``sync``: fsync after the
    last (the step holds this seat's own frame)."""

    entries: tuple[bytes, ...]
    sync: bool


@dataclass(frozen=True)
class SaveSecrets:
    """Make these the secrets on disk (one record appended and fsynced)."""

    secrets: PeerSecrets


@dataclass(frozen=True)
class RecordTranscript:
    """The game folder records where its transcript is (before the first secrets)."""


@dataclass(frozen=True)
class MarkLeft:
    """This seat left for good (or asked to): the game folder says so, nothing to resume."""


@dataclass(frozen=True)
class CloseTranscript:
    """Close the transcript file with this footer: the game is over for this peer."""

    footer: Footer


PERSIST = (Append, SaveSecrets, RecordTranscript, MarkLeft, CloseTranscript)

# ---- the front ends and the end ------------------------------------------------------


@dataclass(frozen=True)
class Emit:
    """A session event for the front ends (``net.api``), in order."""

    event: SessionEvent


@dataclass(frozen=True)
class End:
    """The session is over. ``failure`` None: audit the saved transcript and report
    ``status`` with the verdict; else report ``failure`` (the transcript was not finished)."""

    status: str
    failure: str | None = None


Action = Send | Cut | Dial | CodeUsedUp | Append | SaveSecrets | RecordTranscript | MarkLeft \
    | CloseTranscript | Emit | End
