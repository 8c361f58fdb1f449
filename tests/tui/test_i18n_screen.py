"""The game screen in each language, at 80 x 24, as a terminal emulator (pyte) shows it:
card names in that language, the board intact, no wide character cut in two. The screens
are those of one recorded opening (``opening``), shown again in each language through the
real application."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from wcwidth import wcwidth

from p2pclue.i18n import LANGUAGES, _, card_name, install, no_key, yes_key
from p2pclue.i18n.initials import short_name, token_codes
from p2pclue.rules.board import classic_board
from p2pclue.rules.cards import CARDS, ROOMS
from p2pclue.tui import board as bd
from p2pclue.tui.model import Mode, Overlay, Screen
from p2pclue.tui.view import quit_question
from tests.tui.conftest import Opening
from tests.tui.terminal import PyteStdout, Table

LANGS = ["en", *sorted(set(LANGUAGES) - {"en"})]
Cells = dict[tuple[int, int], tuple[str, str, str]]


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


def _cut_characters(t: Table) -> list[str]:
    """Wide characters whose right half is missing or overwritten, and stray right halves."""
    bad = []
    screen = t.term.screen
    for y in range(screen.lines):
        row = screen.buffer[y]
        for x in range(screen.columns):
            data = row[x].data
            if data and wcwidth(data[0]) == 2:
                if x + 1 >= screen.columns or row[x + 1].data != "":
                    bad.append(f"{data!r} cut at line {y}, column {x}")
            elif data == "" and (x == 0 or not row[x - 1].data
                                 or wcwidth(row[x - 1].data[0]) != 2):
                bad.append(f"half a character at line {y}, column {x}")
            elif data and wcwidth(data[0]) == 0 and data[0] != " ":
                bad.append(f"a combining mark alone at line {y}, column {x}")
    return bad


def _board_cells(t: Table) -> Cells:
    """The compact board's cells that show no room square: corridors, doors, tokens there.

    Each screen cell shows two board rows (half blocks) of one column (two cells wide);
    room squares may carry labels, which differ by language, so they are left out.
    """
    board = classic_board()
    screen = t.term.screen
    state = t.model.state
    assert state is not None
    on_corridor = {sq for sq in state.tokens if not isinstance(sq, int)}
    out = {}
    for y in range(1, 14):
        for x in range(48):
            squares = [(2 * (y - 1) + dy, x // bd.CELL) for dy in (0, 1)]
            if any(board.room_at(sq) is not None for sq in squares if sq[0] < 25):
                continue
            c = screen.buffer[y][x]
            # a token's code is the language's own ("Le", 스); its place and colours are not
            data = "token" if on_corridor.intersection(squares) else c.data
            out[(y, x)] = (data, c.fg, c.bg)
    return out


async def _my_first_turn(t: Table) -> None:
    await t.start()
    await t.until(lambda: t.model.screen is Screen.GAME and t.model.mode is Mode.TURN,
                  what="my first turn")
    await t.settle()


@pytest.fixture(scope="module")
def english_board(opening: Opening, tmp_path_factory: pytest.TempPathFactory) -> Cells:
    """The English screen's board cells, whatever order the tests run in."""
    install("en")

    async def play() -> Cells:
        t = Table(80, 24, tmp=tmp_path_factory.mktemp("en"), session=opening.replay())
        try:
            await _my_first_turn(t)
            return _board_cells(t)
        finally:
            await t.close()

    return asyncio.run(play())


@pytest.mark.parametrize("lang", LANGS)
def test_game_screen_in_every_language(opening: Opening, tmp_path: Path, lang: str,
                                       english_board: Cells) -> None:
    install(lang)

    async def play() -> None:
        t = Table(80, 24, tmp=tmp_path, session=opening.replay())
        try:
            await _my_first_turn(t)
            text = t.term.text()
            lines = t.term.screen.display
            for room in ROOMS:  # each room labelled in this language (or its first word)
                name = card_name(room.index)
                assert name in text or name.split()[0] in text, (lang, name, text)
            header = next(i for i, ln in enumerate(lines) if _("Notepad") in ln)
            for i, c in enumerate(CARDS):  # every notepad row starts with the card's name
                start = short_name(c.index, lang, 17)[:3]  # the name, or what fits
                assert start in lines[header + 1 + i], (lang, c.slug, lines[header + 1 + i])
            assert _cut_characters(t) == [], _cut_characters(t)
            assert all(code in text for code in token_codes(lang)[:4]), text  # its own codes
            cells = _board_cells(t)
            assert len(cells) > 150 and cells.keys() == english_board.keys()
            moved = sorted(k for k in cells if cells[k] != english_board[k])
            assert moved == [], f"the board differs from English at {moved}"
            assert _("?:help q:quit") in lines[-1]
            t.press("?")
            await t.until(lambda: _("Keys") in t.term.text(), what="the help")  # its page 1
            assert _cut_characters(t) == []
        finally:
            await t.close()

    asyncio.run(play())


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("lang", LANGS)
def test_quit_question_and_move_keys_whole_at_80_columns(opening: Opening, tmp_path: Path,
                                                         lang: str) -> None:
    """q at 80 x 24: the bar holds every key (l, y, n) and the panel what each does, uncut;
    then a roll: the bar while moving keeps every key of the move, the arrows too (the hint
    and the notepad, in the help, give way where 80 columns are short)."""
    install(lang)

    async def play() -> None:
        t = Table(80, 24, tmp=tmp_path, session=opening.replay())
        try:
            await _my_first_turn(t)
            t.press("q")
            await t.until(lambda: t.model.overlay is Overlay.QUIT, what="the quit question")
            await t.settle()
            keys, meanings = quit_question(graceful=True)
            bar = t.term.screen.display[-1]
            assert keys in bar, (lang, bar)
            for key in ("l", yes_key(), no_key()):
                assert f"{key}:" in bar or f"{key} :" in bar, (lang, key, bar)
            screen = t.term.screen  # the panel: under the board and the hand, left of the notepad
            panel = _flat(" ".join(
                "".join(screen.buffer[y][x].data for x in range(bd.board_width()))
                for y in range(16, screen.lines - 1)))
            for meaning in meanings:
                assert _flat(meaning) in panel, (lang, meaning, panel)
            assert _cut_characters(t) == [], _cut_characters(t)
            t.press("n")
            await t.until(lambda: t.model.overlay is None, what="staying")
            t.press("r")
            await t.until(lambda: t.model.mode is Mode.MOVE, what="the roll")
            await t.settle()
            bar = t.term.screen.display[-1]
            assert "…" not in bar and _("?:help q:quit") in bar, (lang, bar)
            for a in t.model.actions():  # the hint and the notepad may give way, no more
                if a.key not in ("h", "n"):
                    assert f"{a.key}:{a.label}" in bar, (lang, a, bar)
        finally:
            await t.close()

    asyncio.run(play())


def test_the_cut_check_sees_a_cut_character() -> None:
    class Fake:
        term = PyteStdout(10, 2)

    Fake.term.write("ab한국")
    assert _cut_characters(Fake) == []  # type: ignore[arg-type]
    Fake.term.write("\x1b[1;4Hx")  # overwrite the right half of 한
    assert _cut_characters(Fake) != []  # type: ignore[arg-type]
