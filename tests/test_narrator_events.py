"""One narrator tells every engine event, in every language, to every kind of reader.

``p2pclue.i18n.narrator`` is the only place an event becomes sentences: the terminal UI's
story pane (``tui.story``) and the printed story of ``simulate``/``audit --replay``
(``cli.narrate``) only lay them out. An engine event class without a telling fails here,
and so does a front end that says something the narrator did not.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pclue.bots.protocol import make_config
from p2pclue.cli.narrate import Narrator as PrintedStory
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import Blame
from p2pclue.engine.transcript import parse
from p2pclue.i18n import LANGUAGES, install
from p2pclue.i18n.narrator import SILENT_EVENTS, TELLERS, Line, Narrator
from p2pclue.rules.variants import CLASSIC
from p2pclue.tui.story import Story

SAMPLE = Path(__file__).resolve().parents[1] / "protocol" / "samples" / "classic-3p.p2pclue"
STUDY, HALL = 20, 19
ROPE = 10
TRIPLE = (0, ROPE, STUDY)
EVENT_CLASSES = set(typing.get_args(ev.Event))
PRIVATE = {ev.HandDealt, ev.CardShownToMe}
"""Told only to the seat they belong to (the others learn hands from the reveal)."""

SAMPLES: dict[type[ev.Event], tuple[tuple[ev.Event, ...], ev.Event, int | None]] = {
    # class: (what happened before, the event, the seat it is about (told as "you" to it))
    ev.Accepted: ((), ev.Accepted(4, 1, "roll"), None),
    ev.HandDealt: ((), ev.HandDealt((0, 6, 12, 1, 7, 13)), None),
    ev.LeftoversShown: ((), ev.LeftoversShown((3, 9, 15)), None),
    ev.WeaponsPlaced: ((), ev.WeaponsPlaced(((6, 12), (7, 13))), None),
    ev.DiceRolled: ((), ev.DiceRolled(1, (4,)), 1),
    ev.Moved: ((ev.DiceRolled(1, (3,)),), ev.Moved(1, ((24, 7), (23, 7), (22, 7)), None), 1),
    ev.PassageTaken: ((), ev.PassageTaken(1, STUDY), 1),
    ev.TurnEnded: ((ev.DiceRolled(1, (4,)),), ev.TurnEnded(1), 1),
    ev.Accused: ((), ev.Accused(1, TRIPLE), 1),
    ev.Suggested: ((ev.PassageTaken(1, STUDY),), ev.Suggested(1, 0, ROPE, STUDY), 1),
    ev.Refuted: ((ev.Suggested(1, 0, ROPE, STUDY),), ev.Refuted(2, 1, TRIPLE), 2),
    ev.Passed: ((ev.Suggested(1, 0, ROPE, STUDY),), ev.Passed(2, 1, TRIPLE), 2),
    ev.CardShownToMe: ((ev.Suggested(0, 0, ROPE, STUDY),), ev.CardShownToMe(1, ROPE), None),
    ev.AccusationDecided: ((ev.Accused(1, TRIPLE),), ev.AccusationDecided(1, TRIPLE, False),
                           1),
    ev.GameOver: ((), ev.GameOver("won", 1, (0, 10, 19)), 1),
    ev.Finished: ((), ev.Finished(), None),
    ev.Halted: ((), ev.Halted(Blame(1, "randomness", "a made-up value", 20, ())), 1),
    ev.PeerSilent: ((), ev.PeerSilent(1, 0.0), 1),
    ev.PlayerLeft: ((), ev.PlayerLeft(1, (2, 8, 14, 3, 9, 15)), 1),
    ev.LeaveQueued: ((), ev.LeaveQueued(), None),
    ev.VoteCounted: ((), ev.VoteCounted(1, "abandon", 2, (1,), (), 2), 1),
    ev.Abandoned: ((), ev.Abandoned(2, (0, 1), True, "won", 0), 2),
}


def _config() -> GameConfig:
    return make_config(CLASSIC, 3, 11)[0]


def _told(config: GameConfig, me: int | None, cls: type[ev.Event]) -> list[Line]:
    before, event, _about = SAMPLES[cls]
    narrator = Narrator(config, me)
    for e in before:
        narrator.tell(e)
    return narrator.tell(event)


@pytest.fixture(params=sorted(LANGUAGES))
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    install(request.param)
    try:
        yield str(request.param)
    finally:
        install("en")


def test_every_engine_event_has_a_telling() -> None:
    assert set(TELLERS) == EVENT_CLASSES, "an engine event the narrator does not tell"
    assert set(SAMPLES) == EVENT_CLASSES, "a new engine event needs a sample here"
    assert SILENT_EVENTS < EVENT_CLASSES


def test_each_event_is_told_in_every_language_to_those_who_see_it(lang: str) -> None:
    config = _config()
    for cls in sorted(EVENT_CLASSES, key=lambda c: c.__name__):
        outside, seated = _told(config, None, cls), _told(config, 0, cls)
        texts = [line.text for line in (*outside, *seated)]
        assert not any("{" in t or "}" in t for t in texts), (lang, cls, texts)
        if cls in SILENT_EVENTS:
            assert texts == [], cls
        elif cls in PRIVATE:
            assert outside == [] and seated, (lang, cls)
        else:
            assert outside and seated, (lang, cls)


def test_a_reader_is_told_about_themselves_as_you(lang: str) -> None:
    config = _config()
    for cls, (_before, _event, about) in SAMPLES.items():
        if about is None:
            continue
        # a turn's heading names the player whoever reads it (a title, not a sentence)
        theirs = [line.text for line in _told(config, None, cls) if not line.heading]
        mine = [line.text for line in _told(config, about, cls) if not line.heading]
        name = config.players[about].name
        assert any(name in text for text in theirs), (lang, cls, theirs)
        assert mine and mine != theirs, (lang, cls)
        assert not any(name in text for text in mine), (lang, cls, mine)


@pytest.fixture(scope="module")
def sample_game() -> tuple[GameConfig, list[ev.Event]]:
    transcript = parse(SAMPLE.read_bytes())
    return transcript.config, audit(transcript).events


@pytest.mark.parametrize("me", [None, 0, 2])
def test_the_pane_and_the_printed_story_say_the_same_sentences(
        sample_game: tuple[GameConfig, list[ev.Event]], me: int | None) -> None:
    """Only the layout differs: the pane leaves out the turn headings and indents less."""
    config, events = sample_game
    pane, printed, shared = Story(config, me), PrintedStory(config, me=me), Narrator(config, me)
    pane_lines = [text for e in events for text in pane.lines(e)]
    printed_lines = [text for e in events for text in printed.lines(e)]
    told = [line for e in events for line in shared.tell(e)]
    assert len(told) > 30 and any(line.heading for line in told)
    assert [t.strip() for t in pane_lines] == [line.text for line in told if not line.heading]
    assert [t.strip() for t in printed_lines] == [line.text for line in told]
    if me is not None:
        assert any(text.startswith("You ") for text in pane_lines)
