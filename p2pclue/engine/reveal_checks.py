"""What the end-of-game reveal must agree with (docs/protocol.md, "The end-of-game reveal").

A seat's ``secrets`` publish ``k`` and ``r``, so ``s = k*r`` and ``k``: everything the
proofs claimed about its hand and its commitments can then be read in the clear. Two
claims are its own, signed by it, and settled when its ``secrets`` arrive (check
``secrets``, blamed on it): each ``pass`` it made (its hand holds none of the named cards)
and each show it made to a seat that left (the rho its key derives opens the commitment to
a named card; nobody opened those shows publicly). The rest (every hand decrypts, 21
distinct cards in all, every accusation verdict against the envelope) follows from every
seat's proofs together and names no seat: the audit weighs it after the last entry.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pclue.crypto import proofs as P
from p2pclue.crypto.cards import identify
from p2pclue.crypto.group import Scalar, inverse, mul
from p2pclue.engine.errors import Reject
from p2pclue.engine.record import PublicRecord
from p2pclue.engine.stage import proof_context

ALL_CARDS = frozenset(range(21))


def decrypted_hand(record: PublicRecord, seat: int, s: Scalar) -> list[int | None]:
    """``seat``'s dealt positions, in position order, with ``s`` removed: a card index,
    or None for a point that is no card."""
    inv = inverse(s)
    return [identify(mul(inv, point)) for point in record.hand_points(seat)]


def check_own_reveal(record: PublicRecord, sender: int, k: Scalar, r: Scalar) -> None:
    """``sender``'s ``secrets`` (already matched to ``Y`` and ``R``) against what it signed
    earlier; ``Reject("secrets")`` on the first contradiction, in transcript order: passes
    first, then its shows to seats that left. A hand point that decrypts to no card is
    not the sender's doing (it follows from every seat's deal proofs): left to
    ``reveal_contradiction``; the pass check uses the points that do decrypt."""
    game_id = record.game_id
    assert game_id is not None  # fixed by the join round, long before any secrets
    hand = set(decrypted_hand(record, sender, k * r))
    for rec in record.passes:
        if rec.refuter == sender and hand & set(rec.triple):
            raise Reject("secrets", f"seat {sender} passed at entry {rec.index} but its "
                                    "revealed hand holds a named card")
    for show in record.shows:
        if show.refuter != sender or show.suggester not in record.left_hands:
            continue
        rho = P.show_rho(k, proof_context(game_id, show.index, sender, "show"))
        if P.find_opening(show.triple, record.Y[show.suggester], show.commitment, rho) is None:
            raise Reject("secrets", f"the rho seat {sender}'s key derives for its show at "
                                    f"entry {show.index} opens no named card")


def reveal_contradiction(record: PublicRecord,
                         verdicts: Sequence[tuple[tuple[int, int, int], bool]]) -> str | None:
    """After the last ``secrets``: the first way the revealed game contradicts its proofs
    (None: it does not). ``verdicts``: every accusation check's (accused cards, right?),
    in order. No seat is named: a contradiction here needs a proof that verified and was
    false, and none of these facts is one seat's statement."""
    cards: list[int] = [*record.leftovers]
    for seat in range(record.n):
        if seat in record.left_hands:
            cards += record.left_hands[seat]
            continue
        hand = decrypted_hand(record, seat,
                              record.revealed_k[seat] * record.revealed_r[seat])
        if None in hand:
            return f"a dealt position of seat {seat} decrypts to no card with its revealed key"
        cards += [c for c in hand if c is not None]
    envelope = record.envelope_cards
    if envelope is None:
        return "the envelope was not opened"
    cards += envelope
    if len(cards) != len(ALL_CARDS) or set(cards) != ALL_CARDS:
        return (f"the hands, leftovers and envelope are {len(cards)} cards, "
                f"{len(set(cards))} distinct, not the 21 cards once each")
    for accused, right in verdicts:
        if right != (tuple(accused) == tuple(envelope)):
            return (f"the accusation of {accused} was judged {'right' if right else 'wrong'}, "
                    f"against the envelope {envelope}")
    return None
