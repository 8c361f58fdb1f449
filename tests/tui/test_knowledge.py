"""The local player's notepad as the UI builds it from engine events."""

from __future__ import annotations

from p2pclue.deduce import ENVELOPE, Mark
from p2pclue.engine import events as ev
from p2pclue.tui.knowledge import (
    Knowledge,
    best_suggestion,
    build_snapshot,
    explain,
    quietest_card,
)

HAND = (0, 6, 12, 1, 7, 13)


def _knowledge() -> Knowledge:
    k = Knowledge(0, 3, ("you", "Bruno", "Chiara"))
    k.hand_sizes = (6, 6, 6)
    assert k.feed(ev.HandDealt(HAND))
    return k


def test_events_become_facts_and_marks() -> None:
    k = _knowledge()
    k.feed(ev.Suggested(1, 2, 8, 14))
    k.feed(ev.Passed(2, 1, (2, 8, 14)))
    k.feed(ev.Passed(0, 1, (2, 8, 14)))
    view = build_snapshot(k.frozen())
    assert view.mark(0, 0) is Mark.YES and view.mark(0, 1) is Mark.NO
    assert view.mark(2, 2) is Mark.NO  # Chiara passed on Mrs White
    assert view.envelope[0] == 0.0
    assert 0 < view.envelope[2] < 1
    # my turn: Chiara shows me the Lead Pipe
    k.feed(ev.Suggested(0, 3, 9, 15))
    k.feed(ev.Passed(1, 0, (3, 9, 15)))
    k.feed(ev.Refuted(2, 0, (3, 9, 15)))
    k.feed(ev.CardShownToMe(2, 9))
    view = build_snapshot(k.frozen())
    assert view.mark(9, 2) is Mark.YES
    assert "Chiara showed you Revolver" in explain(view.notepad, 9, 2)
    assert view.mark(3, ENVELOPE) is not Mark.NO


def test_what_i_show_is_remembered_and_the_quiet_card_chosen() -> None:
    k = _knowledge()
    k.feed(ev.Suggested(1, 0, 6, 14))
    k.i_showed(6)
    k.feed(ev.Refuted(0, 1, (0, 6, 14)))
    view = build_snapshot(k.frozen())
    # Bruno asks again for Scarlett or the Candlestick: the Candlestick tells him nothing new
    assert quietest_card(view.notepad, (0, 6), 1) == 6


def test_the_hint_names_a_suspect_and_a_weapon() -> None:
    view = build_snapshot(_knowledge().frozen())
    best = best_suggestion(view.notepad, 15)
    assert best is not None
    s, w = best
    assert 0 <= s < 6 and 6 <= w < 12
    assert best_suggestion(None, 15) is None
