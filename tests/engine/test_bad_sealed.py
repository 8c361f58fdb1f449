"""Attack: a refuter answers a complaint with a sealed opening that does not decode.

The cheating refuter (``CheatingPeer``, kind ``bad-sealed``) withholds its private opening,
so the suggester's wait runs out and it complains; the refuter then signs a ``sealed`` of
its true card and rho whose R is a point of order 4, outside the prime-order group. Every
honest seat must halt on that message and blame the refuter (``proof:sealed-opening``),
the suggester must learn no card from it, and the audit of the halted transcript must
confirm the same blame and count the complaint as unanswered.
"""

from __future__ import annotations

import pytest

from p2pclue.bots.protocol import play
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.cheats import CheatingPeer
from p2pclue.engine.peer import Status
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import decode_payload, split_frame
from p2pclue.rules.variants import preset
from tests.engine.conftest import hasty, sent_types


@pytest.mark.parametrize(("players", "rules", "cheater"), [(3, "classic", 1), (5, "cz", 4)])
def test_a_sealed_opening_that_does_not_decode_is_blamed_on_the_refuter(
    players: int, rules: str, cheater: int,
) -> None:
    seen: dict[int, list[ev.Event]] = {s: [] for s in range(players)}
    game = play(preset(rules), players, 7, hasty(40),  # type: ignore[arg-type]
                cheat="bad-sealed", cheater=cheater,
                on_event=lambda seat, e: seen[seat].append(e))
    bad = game.peers[cheater]
    assert isinstance(bad, CheatingPeer) and bad.cheated, "the cheat never happened"
    honest = [p for p in game.peers if p.seat != cheater]
    entries = honest[0].entries
    # The last chained entry is the suggester's complaint about the cheater's show.
    show = next(rec for rec in reversed(honest[0].shows))
    assert show.refuter == cheater
    suggester, last = sent_types(entries)[-1]
    assert (suggester, last) == (show.suggester, "complain")
    for peer in honest:
        assert peer.status is Status.HALTED
        assert peer.blame is not None
        assert peer.blame.culprit == cheater
        assert peer.blame.check == "proof:sealed-opening"
        assert peer.blame.index == len(entries)
        assert peer.entries == entries  # every honest seat stopped at the same point
        # The evidence is the cheater's own signed ``sealed``, with R the order-4 point.
        sender, payload, _ = split_frame(peer.blame.evidence[-1])
        header, body = decode_payload(sender, payload)
        assert (sender, header.type) == (cheater, "sealed")
        assert body["sealed"]["r"] == bytes(32)
        # Nobody honest is blamed or halted for another reason, and no sealed R was kept.
        assert show.index not in peer.record.sealed
        assert all(h.blame.culprit == cheater for h in (e for e in seen[peer.seat or 0]
                                                        if isinstance(e, ev.Halted)))
    # The suggester learned no card of that show.
    learned = [e for e in seen[show.suggester] if isinstance(e, ev.CardShownToMe)
               and e.refuter == cheater]
    earlier = [r for r in honest[0].shows[:-1]
               if r.refuter == cheater and r.suggester == show.suggester]
    assert len(learned) == len(earlier)
    # The audit of the halted file confirms the blame and counts the complaint unanswered.
    raw = honest[0].transcript().to_bytes()
    verdict = audit(parse(raw), raw)
    assert not verdict.valid and verdict.result == "halted"
    assert verdict.blamed == cheater
    assert verdict.violation is not None
    assert verdict.violation.check == "proof:sealed-opening"
    assert verdict.violation.culprit == cheater
    assert verdict.violation.index == len(entries)
    complaints = [(s, t) for s, t in sent_types(entries) if t in ("complain", "sealed")]
    made = sum(1 for s, t in complaints if s == show.suggester and t == "complain")
    row = next(r for r in verdict.complaints if r["suggester"] == show.suggester)
    assert row == {"suggester": show.suggester, "complained": made, "sealed": made - 1}

