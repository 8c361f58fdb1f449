"""Private openings: a refuter's show opened to the suggester alone, never signed.

After a ``show`` the refuter sends the suggester, over their private link, the card and
the randomness that open its commitment (docs/protocol.md, "Deniable refutation"). It is
not signed and never chained, so the suggester holds nothing a third party would take as
the refuter's word; the suggester checks it and answers ``ack`` or ``complain``
(``turn.ShowAnswer``). Here: its bytes, and which ones a seat keeps.
"""

from __future__ import annotations

from p2pclue.crypto import proofs as P
from p2pclue.crypto.errors import CryptoError
from p2pclue.engine.errors import WireError
from p2pclue.engine.record import PublicRecord, ShowRecord
from p2pclue.engine.stage import Player
from p2pclue.engine.wire import is_int, pack, unpack_canonical

PRIVATE_OPENING = "opening"
"""First element of a private opening (never signed, never chained: see ``private_frame``)."""
MAX_PRIVATE_BYTES = 256


def private_frame(config_digest: bytes, rec: ShowRecord, opening: P.Opening) -> bytes:
    """``["opening", config digest, show index, {card, rho}]``: no signature, so that
    the suggester holds nothing a third party would take as the refuter's word."""
    return pack([PRIVATE_OPENING, config_digest, rec.index, opening.to_wire()])


def is_private_opening(raw: bytes) -> bool:
    """Whether ``raw`` is meant as a private opening (a msgpack array of 4; a frame is an
    array of 3)."""
    return raw[:1] == b"\x94"


def take_private_opening(raw: bytes, via: int | None, record: PublicRecord,
                         me: Player | None, open_show: ShowRecord | None) -> bool:
    """A private opening from the seat whose link carried it (``via``: the link's
    authenticated peer), kept in ``me.openings``, one per seat, until the suggester
    decides. False: a copy of one kept or answered already. ``WireError`` for anything
    odd (the caller drops it, without a sample: the bytes may be a real opening)."""
    try:
        obj = unpack_canonical(raw, MAX_PRIVATE_BYTES)
        kind, digest, index, wire = obj
        if kind != PRIVATE_OPENING or digest != record.config_digest \
                or not is_int(index) or via is None or not 0 <= via < record.n:
            raise WireError("not a private opening of this game", "private")
        opening = P.Opening.from_wire(wire)
    except (CryptoError, ValueError, TypeError) as exc:
        raise WireError(str(exc)) from None
    return _keep_opening(record, me, open_show, via, index, opening)


def _keep_opening(record: PublicRecord, me: Player | None, open_rec: ShowRecord | None,
                  via: int, index: int, opening: P.Opening) -> bool:
    """Keep an opening this seat may be awaiting from ``via``; ``WireError`` (dropped,
    so the runner charges the link) for one it cannot await: this seat is an observer,
    or the show at ``index`` is chained and is not ``via``'s show to this seat, or
    ``via`` already has another opening kept for a show not yet here (a refuter has one
    unanswered show at a time). A copy of one already kept, or of one for an answered
    show of ``via``'s to this seat (a re-send that crossed the answer), is a duplicate."""
    if me is None:
        raise WireError("no show of this seat's awaits that opening", "private")
    kept = me.openings.get(via)
    if kept == (index, opening) or any(
            rec.index == index and rec.refuter == via and rec.suggester == me.seat
            for rec in record.shows if rec is not open_rec):
        return False
    awaited = open_rec is not None and (open_rec.index, open_rec.refuter,
                                        open_rec.suggester) == (index, via, me.seat)
    entries = len(record.entries)
    if not (awaited or index >= entries):
        raise WireError("no show of this seat's awaits that opening", "private")
    if kept is not None and kept[0] >= entries and kept[0] != index:
        raise WireError("a second opening for a show not yet here", "private")
    me.openings[via] = (index, opening)
    return True
