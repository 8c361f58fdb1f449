"""Attack: a suggester hands its key to a colluding refuter, which publishes a false card.

The refuter shows a card it holds (the show proof passes) and opens the show, with the
partner's key (``commitshow.equivocate``), as another named card that it does not hold: the
same commitment, so it is the attack in which the refuter commits to the card it does not
hold and passes the show proof with the equivocated opening of one it holds. The false card
goes to the partner either privately (``complain=False``: the partner acknowledges it) or
sealed after the partner's complaint; then the refuter must open the show publicly at the
end of the game, with proof 4c that the card is in its hand (docs/protocol.md 4c,
"Message-level use" 2). It repeats the false card with the best proof 4c it can make (its
own key, a hand position answered honestly): every honest seat blames it
``proof:held-opening``. Opening the real card instead differs from the sealed one:
``proof:opening``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from p2pclue.bots.protocol import BotSeat, make_config
from p2pclue.bots.random_bot import RandomBot
from p2pclue.crypto import proofs as P
from p2pclue.crypto.heldopening import prove_held_unchecked
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine.audit import audit
from p2pclue.engine.ending import shows_to_open
from p2pclue.engine.harness import Network, run_game
from p2pclue.engine.peer import Peer, ShowRecord, Status
from p2pclue.engine.stage import Message, proof_context
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import Header, sign_frame
from p2pclue.rules.variants import preset
from tests.engine.test_cleanroom import judged_alike

SUGGESTER, REFUTER = 0, 1


class ColludingRefuter(Peer):
    """Sends the partner the show opened to a card it does not hold (privately, or sealed
    after the partner's complaint), repeats it in ``open``, and otherwise plays honestly."""

    partner: Peer
    false: dict[int, int]
    repeat: bool
    """Whether the end-of-game ``open`` repeats the false opening (else it opens the real
    card)."""
    complain: bool
    """Whether the partner gets no private opening and complains (else it gets the false
    opening privately and acknowledges it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.false = {}
        self.repeat = True
        self.complain = True

    def send_opening(self, rec: ShowRecord) -> None:
        if rec.suggester != SUGGESTER:
            super().send_opening(rec)
        elif not self.complain:
            self._outbox.append((self._private_frame(rec, self._false_opening(rec)),
                                 SUGGESTER))

    def _false_opening(self, rec: ShowRecord) -> P.Opening:
        """The show opened to a named card this seat does not hold, with the partner's key."""
        me = self._player
        assert me is not None
        key = self.partner._secrets.k  # handed over by the colluding suggester
        assert key is not None
        card = self.false.setdefault(rec.index,
                                     next(c for c in rec.triple if c not in me.hand))
        return P.equivocate(self._my_opening(rec), key, card)

    def _automatic_message(self) -> Message | None:
        auto = super()._automatic_message()
        me = self._player
        if auto is None or me is None:
            return auto
        if auto[0] == "sealed":
            answer = self._open_show()
            assert answer is not None and self.game_id is not None
            rec = answer.record
            ctx = proof_context(self.game_id, len(self.entries), me.seat, "sealed")
            sealed = P.seal_opening(ctx, rec.triple, self.Y[rec.suggester], rec.commitment,
                                    self._false_opening(rec), me.src)
            return "sealed", {"sealed": sealed.to_wire()}
        if auto[0] == "open" and not self.repeat:
            for index in self.false:  # its own copy forgets R, so its own check lets it by
                self.record.sealed.pop(index, None)
            return auto
        if auto[0] == "open":  # the same false card again, for the end-of-game opening
            mine = shows_to_open(self.record, me.seat)
            body = dict(auto[1])
            body["openings"] = [self._public_false(rec) if rec.index in self.false else o
                                for rec, o in zip(mine, body["openings"], strict=True)]
            # Its own check would refuse the message: signed and sent past it, then silent.
            header = Header(self._config_digest, me.seat, len(self._sent_by[me.seat]),
                            self._head, "open")
            self._outbox.append((sign_frame(me.identity, header, body), None))
            self.status = Status.ABANDONED
            return None
        return auto

    def _public_false(self, rec: ShowRecord) -> dict[str, Any]:
        """The false opening with the best proof 4c this seat can make: its own key, the
        branch of a hand position it holds answered (the card there is not the opened one)."""
        me = self._player
        assert me is not None and self.game_id is not None
        opening = self._false_opening(rec)
        ctx = proof_context(self.game_id, len(self.entries), me.seat, "open")
        held = prove_held_unchecked(ctx, rec.triple, self.record.hand_points(me.seat),
                                    me.secrets.hand_key(), self.S[me.seat],
                                    self.Y[rec.suggester], rec.commitment, opening, 0, me.src)
        return P.PublicOpening(opening, held).to_wire()


def _play(seed: int, repeat: bool = True,
          complain: bool = True) -> tuple[list[Peer], ColludingRefuter]:
    config, keys = make_config(preset("classic"), 4, seed)
    peers: list[Peer] = []
    for s in range(4):
        src = SeededRandom(b"collude/%d/%d" % (seed, s))
        peers.append(ColludingRefuter(config, s, keys[s], src) if s == REFUTER
                     else Peer(config, s, keys[s], src))
    refuter = peers[REFUTER]
    assert isinstance(refuter, ColludingRefuter)
    refuter.partner = peers[SUGGESTER]
    refuter.repeat = repeat
    refuter.complain = complain
    seats = [BotSeat(RandomBot(s, random.Random(seed * 7 + s), patience=12), 4)
             for s in range(4)]
    net = Network(peers)
    run_game(net, lambda p, c: seats[p.seat or 0].choose(p, c),
             sink=lambda i, e: seats[i].feed(e))
    return peers, refuter


def _attacked(seed: int, repeat: bool = True,
              complain: bool = True) -> tuple[list[Peer], ColludingRefuter, int, int]:
    peers, refuter = _play(seed, repeat, complain)
    assert refuter.false, "no show from the refuter to its partner"
    index, card = next(iter(refuter.false.items()))
    return peers, refuter, index, card


def test_the_sealed_false_card_reaches_the_partner_only() -> None:
    """The sealed false card reaches only the seat that gave its key away: every seat
    verified the sealed opening and kept R, no honest seat is shown a card of that show (the
    end-of-game ``open`` then publishes it: the last test)."""
    peers, _, index, card = _attacked(seed=1)
    assert (REFUTER, card) in peers[SUGGESTER].shown_to_me
    for s, p in enumerate(peers):
        assert index in p.record.sealed
        if s not in (SUGGESTER, REFUTER):
            assert (REFUTER, card) not in p.shown_to_me


def test_another_opening_at_the_end_is_blamed_on_the_refuter(tmp_path: Path) -> None:
    """R fixes the opening sealed at the complaint: a refuter that opens the show as its real
    card in ``open`` (a second, different opening, with a true proof 4c) is blamed
    ``proof:opening`` by every honest seat, nobody honest is blamed, and the audit of each
    honest transcript and the spec-only checker agree."""
    peers, _, index, card = _attacked(seed=1, repeat=False)
    _blamed_on_the_refuter(peers, index, card, "proof:opening", tmp_path)


def _blamed_on_the_refuter(peers: list[Peer], index: int, card: int, check: str,
                           tmp_path: Path) -> None:
    """Every honest seat halts with ``check`` on the refuter, none records the false card,
    and the audit of each honest transcript, and the checker written from the spec alone,
    name the refuter for the same check."""
    for s, p in enumerate(peers):
        if s in (SUGGESTER, REFUTER):
            continue
        assert p.status is Status.HALTED, s
        assert p.blame is not None and p.blame.culprit == REFUTER
        assert p.blame.check == check
        assert p.record.opened.get(index) != card
        raw = p.transcript().to_bytes()
        verdict = audit(parse(raw), raw)
        assert not verdict.valid and verdict.blamed == REFUTER
        assert verdict.violation is not None and verdict.violation.check == check
        assert verdict.violation.culprit == REFUTER
        judged_alike(raw, tmp_path, {"valid": False, "result": "halted", "blamed": REFUTER,
                                     "check": check})


def test_a_sealed_card_not_held_is_blamed_when_open_must_repeat_it(tmp_path: Path) -> None:
    """The sealed false card (accepted by every seat: a sealed opening names no card) must
    be repeated in ``open`` with proof 4c, which no key of the suggester's can make: every
    honest seat blames the refuter ``proof:held-opening``."""
    peers, refuter, index, card = _attacked(seed=1)
    assert refuter._player is not None and card not in refuter._player.hand
    assert all(index in p.record.sealed for p in peers)
    _blamed_on_the_refuter(peers, index, card, "proof:held-opening", tmp_path)


def test_a_false_private_opening_repeated_in_public_is_blamed_on_the_refuter(
        tmp_path: Path) -> None:
    """Attack 1 without a complaint: the partner acknowledges the false card it was sent
    privately; the public opening of it at the end is blamed ``proof:held-opening``."""
    peers, refuter, index, card = _attacked(seed=1, complain=False)
    assert refuter._player is not None and card not in refuter._player.hand
    assert (REFUTER, card) in peers[SUGGESTER].shown_to_me
    assert all(index not in p.record.sealed for p in peers)
    _blamed_on_the_refuter(peers, index, card, "proof:held-opening", tmp_path)
