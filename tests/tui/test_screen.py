"""What a person sees: the application's real output interpreted by a terminal emulator.

The screens of the first turn are those of one recorded opening (``opening``, shown again
through the real application); the mouse's move and the deal are a live game's."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from p2pclue.rules.board import classic_board
from p2pclue.rules.cards import CARDS, card
from p2pclue.tui import board as bd
from p2pclue.tui.model import Mode, Overlay, Screen
from p2pclue.tui.screens import SPINNER
from tests.tui.conftest import Opening
from tests.tui.terminal import Table

ROOM_NAMES_COMPACT = ["Kitchen", "Ballroom", "Conservatory", "Dining Room", "Billiard",
                      "Library", "Lounge", "Hall", "Study"]


def _square_colour(t: Table, square: tuple[int, int]) -> str:
    """The colour a person sees for one board square in the compact board."""
    r, c = square
    ch = t.term.screen.buffer[1 + r // 2][2 * c]
    if ch.data == "▀":
        return str(ch.fg if r % 2 == 0 else ch.bg)
    return str(ch.bg)


async def _to_my_roll(t: Table) -> None:
    await t.start()
    await t.until(lambda: t.model.mode is Mode.TURN, what="my first turn")
    await t.settle()


@pytest.mark.parametrize(("columns", "rows"), [(80, 24), (120, 40)])
def test_board_rooms_notepad_and_highlights(opening: Opening, tmp_path: Path, columns: int,
                                            rows: int) -> None:
    async def play() -> None:
        t = Table(columns, rows, tmp=tmp_path, session=opening.replay())
        try:
            await _to_my_roll(t)
            text = t.term.text()
            lines = t.term.screen.display
            for name in ROOM_NAMES_COMPACT:
                assert name in text, f"{name} not on the board at {columns}x{rows}"
            # the whole board is on screen: the bottom corridor row with Scarlett's start
            assert "Sc" in text
            # the notepad: every card of my hand is ticked in my column
            header = next(i for i, ln in enumerate(lines) if "Notepad" in ln)
            me_col = lines[header].index(" Me") + 1
            for i, c in enumerate(CARDS):
                row = lines[header + 1 + i]
                mark = row[me_col]
                assert mark == ("✓" if c.index in t.model.hand else "·"), (c.name, row)
            # the action bar offers a roll now
            assert "r:roll" in lines[-1]
            t.press("r")
            await t.until(lambda: t.model.mode is Mode.MOVE, what="the roll")
            await t.settle()
            assert t.model.destinations
            if columns == 80:
                for sq in t.model.destinations:
                    want = bd.CURSOR if sq == t.model.cursor else bd.REACH
                    assert _square_colour(t, sq) == want.lstrip("#"), sq
                far = {(r, c) for r in range(25) for c in range(24)
                       if (r, c) in classic_board().corridor} - set(t.model.destinations)
                assert all(_square_colour(t, sq) != bd.REACH.lstrip("#") for sq in far
                           if sq not in t.model.state.tokens)  # type: ignore[union-attr]
            else:
                lit = [ch for line in t.term.screen.buffer.values() for ch in line.values()
                       if ch.bg == bd.REACH.lstrip("#")]
                assert len(lit) >= 2 * (len(t.model.destinations) - 1)
            # Enter goes once a square is chosen: the first room in reach, or none (then
            # the arrows pick one first)
            assert ("Enter:go" in t.term.screen.display[-1]) == (t.model.cursor is not None)
            assert "arrows:pick" in t.term.screen.display[-1]
        finally:
            await t.close()

    asyncio.run(play())


def test_monochrome_board_and_resize(opening: Opening, tmp_path: Path) -> None:
    async def play() -> None:
        t = Table(80, 24, tmp=tmp_path, color=False, session=opening.replay())
        try:
            await _to_my_roll(t)
            t.press("r")
            await t.until(lambda: t.model.mode is Mode.MOVE, what="the roll")
            await t.settle()
            text = t.term.text()
            assert "::" in text or "[]" in text, "reachable squares are marked without colour"
            if t.model.cursor is None:  # no room in reach: the arrows choose a square first
                t.press("\x1b[B")
                await t.until(lambda: t.model.cursor is not None, what="a square chosen")
                await t.settle()
                text = t.term.text()
            assert "[]" in text, "the chosen destination is marked without colour"
            assert all(ch.bg == "default" for line in t.term.screen.buffer.values()
                       for ch in line.values()), "no colours at all"
            t.resize(120, 40)
            await t.settle()
            lines = t.term.screen.display
            board_rows = [ln for ln in lines if "│" in ln]
            assert len(board_rows) >= 25, "the roomy layout draws one board row per line"
            t.resize(79, 20)
            await t.settle()
            assert "at least 80 x 24" in t.term.text()
        finally:
            await t.close()

    asyncio.run(play())


def test_help_and_quit_prompt_on_screen(opening: Opening, tmp_path: Path) -> None:
    async def play() -> None:
        t = Table(80, 24, tmp=tmp_path, session=opening.replay())
        try:
            await _to_my_roll(t)
            t.press("?")
            await t.until(lambda: t.model.overlay is Overlay.HELP, what="help")
            await t.settle()
            assert "The goal" in t.term.text()  # the rules begin on the first page
            assert "roll the die /" in t.term.text()  # one die: the rules' R12
            t.press("x")
            t.press("q")
            await t.until(lambda: t.model.overlay is Overlay.QUIT, what="the quit prompt")
            await t.settle()
            assert "y:quit n:stay" in t.term.screen.display[-1]
            assert "Leave the table?" in t.term.text()
            t.press("n")
            await t.until(lambda: t.model.overlay is None, what="stay")
            await t.settle()
            assert "Leave the table?" not in t.term.text()
            assert card(t.model.hand[0]).name.split()[0] in t.term.text()
        finally:
            await t.close()

    asyncio.run(play())


def test_mouse_picks_a_destination_and_a_second_click_goes(tmp_path: Path) -> None:
    """A live game: the click's move must reach the rules (the token moves)."""

    async def play() -> None:
        t = Table(80, 24, tmp=tmp_path)
        try:
            await t.start()
            await t.until(lambda: t.model.screen is Screen.DEALING
                          and t.model.progress is not None, what="the dealing screen")
            await t.until(lambda: t.model.mode is Mode.TURN, what="my first turn")
            t.press("r")
            await t.until(lambda: t.model.mode is Mode.MOVE, what="the roll")
            await t.settle()
            reach = set(t.model.destinations)
            target = next(sq for sq in sorted(reach) if sq != t.model.cursor
                          and classic_board().room_at(sq) is None)
            line, col = target[0] // 2, target[1]
            pair = [(2 * line, col), (2 * line + 1, col)]
            expected = next(sq for sq in pair if sq in reach)
            x, y = 2 * col + 1, 1 + line + 1  # 1-based; line 0 of the board is screen row 1
            click = f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m"
            t.press(click)
            await t.until(lambda: t.model.cursor == expected, what="the click to select")
            t.press(click)
            await t.until(lambda: t.model.mode is not Mode.MOVE, what="the second click to go")
            await t.until(lambda: t.model.state is not None
                          and t.model.state.token_of(0) == expected, what="the token to move")
        finally:
            await t.close()

    asyncio.run(play())


def test_the_deal_shows_who_works_and_never_looks_frozen(tmp_path: Path) -> None:
    async def play() -> None:
        t = Table(80, 24, tmp=tmp_path, players=5)
        try:
            await t.start()
            await t.until(lambda: t.model.progress is not None
                          and t.model.progress.stage in ("envelope", "deal"), what="the deal")
            await t.settle()
            first = t.term.text()
            assert "Dealing the cards" in first
            assert " of 5" in first and "%" in first
            assert any(verb in first for verb in ("shuffle", "unlock", "key"))
            spun = _spinner(t)
            assert spun is not None, first
            # The spinner turns by the clock (the screen never looks frozen, even between
            # messages): waited for, however slowly a loaded machine draws it.
            await t.until(lambda: t.model.screen is not Screen.DEALING
                          or _spinner(t) not in (None, spun), what="the spinner to turn")
        finally:
            await t.close()

    asyncio.run(play())


def _spinner(t: Table) -> str | None:
    """The dealing screen's spinner, as drawn (None if not drawn)."""
    for line in t.term.screen.display:
        word = line.strip()[:2]
        if len(word) == 2 and word[0] in SPINNER and word[1] == " ":
            return word[0]
    return None
