"""The notepad's explanations reach the reader in their language (issue 20).

The deduction layer says why a cell is marked as templates with typed values; the
front end translates them and gives each card and place its grammatical form.
"""

from __future__ import annotations

import re

import pytest

from p2pclue.deduce import ENVELOPE, Notepad, OwnHand, Passed, Refuted, ShownToMe
from p2pclue.i18n import LANGUAGES, install
from p2pclue.tui import knowledge as kn

SCARLETT, MUSTARD, WHITE, GREEN, PEACOCK, PLUM = range(6)
CANDLE, DAGGER, PIPE, REVOLVER, ROPE, WRENCH = range(6, 12)
KITCHEN, BALLROOM, HALL, STUDY = 12, 13, 19, 20
ENGLISH = re.compile(r"\b(is in|is not in|hand|passed|refuted|showed|turn|envelope|the)\b")


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


def _pads() -> list[tuple[Notepad, int, int]]:
    hand = (SCARLETT, MUSTARD, CANDLE, DAGGER, KITCHEN, BALLROOM)
    pad = Notepad(0, 3, (6, 6, 6), 0, seat_names=("Ada", "Bruno", "Chiara")).add(OwnHand(hand))
    passed = pad.add(Passed(2, (PLUM, ROPE, HALL), turn=4, suggester=1))
    shown = pad.add(ShownToMe(1, ROPE, turn=2, triple=(PLUM, ROPE, HALL)))
    refuted = Notepad(0, 4, (5, 2, 5, 6), 0, seat_names=("Ada", "Ann", "Bob", "Cy"))
    refuted = refuted.add(Refuted(1, 0, (MUSTARD, ROPE, HALL), turn=1))
    refuted = refuted.add(Refuted(1, 2, (WHITE, PIPE, STUDY), turn=2))
    return [(passed, ROPE, 2), (shown, ROPE, ENVELOPE), (shown, ROPE, 1), (refuted, PLUM, 1),
            (pad, PLUM, ENVELOPE)]


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_explanations_are_in_the_language(lang: str) -> None:
    install(lang)
    for pad, card, owner in _pads():
        text = kn.explain(pad, card, owner)
        assert text and not ENGLISH.search(text), (lang, text)


def test_english_is_unchanged_and_forms_are_chosen() -> None:
    pad, card, owner = _pads()[0]
    assert kn.explain(pad, card, owner) == pad.explain(card, owner) == (
        "Rope is not in Chiara's hand: Chiara passed on turn 4 (Professor Plum, Rope, Hall).")
    install("cs")
    assert kn.explain(pad, card, owner) == (
        "Lano není v ruce hráče Chiara: Chiara v tahu 4 neměl(a) žádnou z karet "
        "(Professor Plum, Lano, Hala).")
    install("ko")
    shown = _pads()[1][0]
    assert kn.explain(shown, ROPE, ENVELOPE).startswith(
        "밧줄은 봉투 안에 없습니다: 밧줄은 Bruno 님의 손패에")
