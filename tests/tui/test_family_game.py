"""A whole game played by keys at 80 x 24, read off a terminal emulator (pyte) as a person
would: every card of the hand is on every game screen, every line of the story reaches the
screen (read back with PgUp at the end), and the end screen keeps its keys in view.

Parametrized by language from the command line: ``pytest --lang cs`` (a code, a list
``--lang it,ko``, or ``--lang all``; English by default). The texts it looks for come from
the catalogs, so every language runs the same checks.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from p2pclue.i18n import _, card_name, install
from p2pclue.rules.cards import ROOMS
from p2pclue.tui import view
from p2pclue.tui.model import Mode, Screen
from tests.tui.terminal import Table

BOARD_LINES = 13


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
    showed the hand and how many rooms were picked by their number."""
    checked = numbered = 0
    while t.model.screen is not Screen.END:
        await t.settle()
        m = t.model
        if m.screen is Screen.GAME and m.hand:
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
                await t.settle()
                assert m.cursor == rooms[ROOMS[number - 1].index]
                numbered += 1
            t.press("\r")
        elif m.mode is Mode.MOVE:
            t.press("e")
        elif m.mode in (Mode.SHOW, Mode.PICK):
            t.press("\r")
        elif m.mode is Mode.CONFIRM:
            t.press("n")
        await asyncio.sleep(0.1)
    return checked, numbered


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
        await asyncio.sleep(0.1)
        await t.settle()
        if t.model.story_back == before:
            break
    return "\n".join(seen)


def test_a_whole_game_by_keys_at_80x24_shows_every_card_and_every_event(
        tmp_path: Path, lang_from_cli: str) -> None:
    install(lang_from_cli)

    async def play() -> None:
        t = Table(80, 24, tmp=tmp_path, players=3, seed=46)  # a long hand in cs, fr, it, sq
        try:
            await t.start()
            await t.until(lambda: t.model.screen is Screen.GAME, what="the game", timeout=120)
            assert len(t.model.hand) == 6  # three players: six cards each, all on screen
            checked, numbered = await asyncio.wait_for(_play(t), 400)
            assert checked > 10 and numbered > 0
            await t.settle()
            end = t.term.text()
            assert _("q: leave · PgUp: read back the story") in end, end
            story = list(t.model.story)
            read = _words(await _read_back(t))
            missing = [line for line in story if _words(line) not in read]
            assert not missing, missing[:5]
            rolls = [line for line in story if _words(line).endswith(".")]
            assert len(rolls) > 10
        finally:
            await t.close()

    asyncio.run(play())
