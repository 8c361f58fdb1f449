"""A whole game played by keys at 80 x 24, read off a terminal emulator (pyte) as a person
would: every card of the hand is on every game screen, every line of the story reaches the
screen (read back with PgUp at the end), and the end screen keeps its keys in view.

One seeded game in each language: the texts it looks for come from the catalogs, so every
language runs the same checks.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

import pytest

from p2pclue.engine.config import GameConfig
from p2pclue.i18n import LANGUAGES, _, card_name, install, key_name
from p2pclue.net.local import FAST, LocalSession
from p2pclue.rules.cards import ROOMS
from p2pclue.rules.variants import preset
from p2pclue.tui import view
from p2pclue.tui.model import Mode, Screen
from tests.tui.replay import Recording, Replay, Step
from tests.tui.terminal import Table

BOARD_LINES = 13
LANGS = ["en", *sorted(set(LANGUAGES) - {"en"})]


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


def _words(text: str) -> str:
    return " ".join(text.split())


def _hand_on_screen(t: Table) -> str:
    rows = t.term.screen.display
    height = view.hand_height(t.model, 48)
    top = 1 if view.picking(t.model) else 1 + BOARD_LINES  # a list to pick: no board
    return _words(" ".join(r[:48] for r in rows[top:top + height]))


async def _play(t: Table) -> tuple[int, int]:
    """Press keys by what the screen asks until the end screen; returns how many screens
    showed the hand and how many rooms were picked by their number.

    Each turn waits for its question (a mode that takes keys), for the screen drawn with
    it, and after the keys for the application to have read them: no step waits on a
    clock, so a loaded machine only makes the game slower."""
    checked = numbered = 0
    m = t.model
    while True:
        await t.until(lambda: m.screen is Screen.END or m.mode is not Mode.WATCH,
                      what="a question or the end")
        if m.screen is Screen.END:
            return checked, numbered
        await t.settle()
        if m.mode is Mode.WATCH:  # the question was answered meanwhile (its frame came in)
            continue
        if m.hand:
            hand = _hand_on_screen(t)
            for c in m.hand:
                assert card_name(c) in hand, f"{card_name(c)} missing:\n{t.term.text()}"
            checked += 1
        offered = {a.key for a in m.actions()}
        if m.mode is Mode.TURN and "s" in offered:
            t.press("s", "\r", "\r")
        elif m.mode is Mode.TURN and "e" in offered:
            t.press("e")
        elif m.mode is Mode.TURN and "r" in offered:
            t.press("r")
        elif m.mode is Mode.MOVE and m.destinations:
            rooms = m.rooms_in_reach()
            number = next((k for k, r in enumerate(ROOMS, 1) if r.index in rooms), None)
            if number is not None:
                t.press(str(number))
                await t.keys_taken()
                await t.settle()
                assert m.cursor == rooms[ROOMS[number - 1].index]
                numbered += 1
            if m.cursor is None:  # no room in reach: a square first, then Enter goes
                t.press("\x1b[B")
            t.press("\r")
            await t.keys_taken()
            # The move is submitted in the background and the question stays on screen
            # until the table's answer moves the pawn: wait for that, not for the next loop
            # to read the old question again (and press its keys into the next one).
            await t.until(lambda: not m.destinations or m.screen is Screen.END,
                          what="the move made")
        elif m.mode is Mode.MOVE:
            t.press("e")
        elif m.mode in (Mode.SHOW, Mode.PICK):
            t.press("\r")
        elif m.mode is Mode.CONFIRM:
            t.press("n")
        else:
            pytest.fail(f"nothing to press in {m.mode} ({offered}):\n{t.term.text()}")
        await t.keys_taken()


async def _read_back(t: Table) -> str:
    """Every screen from the end screen back to the story's first line, by PgUp."""
    seen = [t.term.text()]
    t.press("\x1b[5~")  # PgUp: the story instead of the summary, from its end
    await t.until(lambda: t.model.reading_story, what="PgUp")
    while True:
        await t.settle()
        seen.append(t.term.text())
        before = t.model.story_back
        t.press("\x1b[5~")  # a page further back, until the first page (a full one)
        await t.keys_taken()
        if t.model.story_back == before:
            break
    return "\n".join(seen)


@dataclass(frozen=True)
class Played:
    """What a whole game by keys showed: the counts of ``_play``, the end screen, the
    story the model holds and every screen read back from its end."""

    checked: int
    numbered: int
    end: str
    story: list[str]
    read: str


async def _whole_game(t: Table) -> Played:
    try:
        await t.start()
        await t.until(lambda: t.model.screen is Screen.GAME, what="the game")
        assert len(t.model.hand) == 6  # three players: six cards each, all on screen
        checked, numbered = await asyncio.wait_for(_play(t), 600)  # a hang guard
        await t.settle()
        end = t.term.text()
        story = list(t.model.story)
        return Played(checked, numbered, end, story, await _read_back(t))
    finally:
        await t.close()


@dataclass(frozen=True)
class Recorded:
    config: GameConfig
    log: list[Step]
    played: Played


@pytest.fixture(scope="module")
def english_game(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    """The game, played once in English through the real protocol and recorded."""
    install("en")
    session = LocalSession(preset("classic"), 3, seed=46,  # a long hand in cs, fr, it, sq
                           pace=FAST, transcript_dir=tmp_path_factory.mktemp("game"))
    recording = Recording(session)
    played = asyncio.run(_whole_game(Table(80, 24, tmp=Path(), session=recording)))
    return Recorded(session.config, recording.log, played)


@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_game_by_keys_at_80x24_shows_every_card_and_every_event(
        english_game: Recorded, lang: str) -> None:
    """English is the game itself; every other language shows the same game again, its
    events replayed to the real application while the same keys answer its questions."""
    install(lang)
    if lang == "en":
        played = english_game.played
    else:
        replay = Replay(english_game.config, 0, english_game.log)
        played = asyncio.run(_whole_game(Table(80, 24, tmp=Path(), session=replay)))
        assert replay.mismatches == []
    assert played.checked > 10 and played.numbered > 0
    story_keys = _("q: leave · {key}: read back the story").format(key=key_name("PgUp"))
    assert story_keys in played.end, played.end
    read = _words(played.read)
    missing = [line for line in played.story if _words(line) not in read]
    assert not missing, missing[:5]
    rolls = [line for line in played.story if _words(line).endswith(".")]
    assert len(rolls) > 10
