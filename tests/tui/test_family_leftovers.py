"""Issue 20, what was left of points 1-8: each where a person sees it, at 80 x 24 in a
terminal emulator (pyte reading prompt_toolkit's real output), or in ``--plain``'s lines."""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path

from p2pclue.engine import events as ev
from p2pclue.net.api import Ended, Engine
from p2pclue.net.lobby import LobbyView, Member, TableInfo
from p2pclue.net.table import Pick
from p2pclue.rules.cards import SUSPECTS
from p2pclue.rules.variants import preset
from p2pclue.tui.lobby import LineFeed, LobbyModel, PlainLobby
from p2pclue.tui.model import Overlay
from tests.tui.model_screen import screen_of
from tests.tui.test_family import picking_after_a_shown_suggestion
from tests.tui.test_ux import _model

ME, ADA, BOB = b"\x01" * 32, b"\x02" * 32, b"\x03" * 32


def _story(lines: list[str]) -> list[str]:
    """The story panel's lines: left of the separator, below the hand."""
    left = [ln.split("│")[0].rstrip() for ln in lines[1:-1]]
    first = next(i for i, ln in enumerate(left) if ln.startswith("Your cards"))
    return [ln for ln in left[first + 1:] if ln and not ln.startswith("  ")]


# ---- 1: the transcript's path can be copied ----------------------------------------------


def test_the_end_screen_breaks_the_transcript_path_only_after_separators() -> None:
    model, state = _model()
    model.on_event(Engine(ev.GameOver("won", 1, (3, 7, 13))), state, ())
    path = Path("/home/someone/.local/share/p2pclue/profiles/default/games/"
                "2026-12-01-kitchen-table-ab12cd/transcript.p2pclue")
    model.on_event(Ended("complete", path, True, "audit: valid"), state, ())
    lines = [ln.rstrip() for ln in screen_of(model)]
    assert any(ln.startswith("Transcript (complete):") for ln in lines), lines
    first = next(i for i, ln in enumerate(lines) if ln.startswith(os.sep + "home"))
    pieces = lines[first:first + 2]
    assert "".join(pieces) == str(path), lines  # selected line by line, pasted whole
    assert pieces[0].endswith(os.sep) and all(len(p) <= 80 for p in pieces)


# ---- 2: the story reads back a page at a time ----------------------------------------------


def test_pgup_turns_a_page_home_and_end_and_a_line_says_what_is_above() -> None:
    model, state = _model()
    for k in range(40):
        model.on_event(Engine(ev.DiceRolled(1 + k % 2, (1 + k % 6,))), state, ())
    newest = _story(screen_of(model))
    assert newest[-1] == model.story[-1] and not any("↑" in ln for ln in newest)
    model.press("pageup")
    page = _story(screen_of(model))
    assert page[0].startswith("↑ ") and "PgUp" in page[0] and "Home" in page[0], page
    assert page[1:] == model.story[-len(newest) - len(page) + 1:-len(newest)], page  # a page
    model.press("home")
    top = _story(screen_of(model))
    assert top[0].startswith("↑ 0 more") and top[1] == model.story[0], top
    assert top[1:] == model.story[:len(newest) - 1]  # a full page
    model.press("end")
    assert _story(screen_of(model)) == newest


def test_the_last_suggestion_and_who_showed_stay_in_the_picker_at_80x24() -> None:
    model = picking_after_a_shown_suggestion((0, 6, 12, 1, 7, 13))
    for hint in ("", "Green with the Rope tells the most"):
        model.hint = hint
        for step in range(2):
            text = " ".join(screen_of(model))
            assert "Reverend Green" in text and "Dagger" in text and "Ballroom" in text, text
            assert "Chiara shows Bruno" in text, text
            if step == 0:
                model.press("enter")
        model.press("escape")


# ---- 3: the help says the keys that move ---------------------------------------------------


def test_the_help_names_the_keys_that_really_move() -> None:
    model, _state = _model()
    model.press("?")
    assert model.overlay is Overlay.HELP
    pages = []
    for _page in range(6):
        pages.append("\n".join(screen_of(model)))
        model.press("down")
    help_text = "\n".join(pages)
    assert "initial" not in help_text
    assert "PgUp PgDn Home End" in help_text
    assert "arrows" in help_text and "1-9" in help_text and "the room of that number" \
        in help_text


# ---- 4: --plain says only what changed in the lobby -------------------------------------------


def test_plain_lobby_says_each_change_once() -> None:
    model = LobbyModel(ME, "Me")
    out = io.StringIO()
    front = PlainLobby(model, asyncio.Queue(), LineFeed(io.StringIO("")), out=out)
    table = TableInfo("Kitchen", preset("classic"), 4)
    ada, me = Member(ADA, "Ada", "player", 0), Member(ME, "Me", "player", 1)
    bob = Member(BOB, "Bob", "player", 2)
    for view in (LobbyView(table, (ada, me)), LobbyView(table, (ada, me, bob)),
                 LobbyView(table, (Member(ADA, "Ada", "player", 0, True), me, bob), 1)):
        model.on_view(view)
        front.refresh()
        front.refresh()  # nothing new: nothing said
    said = out.getvalue().splitlines()
    for line in ("Players:", "Your suspect:", "Type a suspect's number"):
        assert sum(line in s for s in said) == 1, said
    assert sum("Ada " in s for s in said) == 2  # seated, then ready
    assert sum("Bob " in s for s in said) == 1 and "  3. Mrs White          taken" in said
    assert "1 failed attempt with a wrong code at this table" in said


# ---- 5: the code question counts the wrong codes ---------------------------------------------


def test_the_code_question_says_how_many_wrong_codes_were_typed() -> None:
    model = LobbyModel(ME, "Me")
    model.ask_code("Attic", "ab12")
    assert "wrong code" not in " ".join(t for _s, t in model.lines(80))
    model.code_tries = 2
    model.ask_code("Attic", "ab12")
    assert "So far you tried 2 wrong codes at this table." in [t for _s, t in model.lines(80)]
    out = io.StringIO()
    front = PlainLobby(model, asyncio.Queue(), LineFeed(io.StringIO("\n")), out=out)
    model.code_tries = 1
    asyncio.run(front.ask_code("Attic", "ab12"))
    assert "So far you tried 1 wrong code at this table." in out.getvalue()


# ---- 6: the last seat taken unasked: the suspect is asked then ---------------------------------


def _full(suspect: int = 2) -> LobbyView:
    return LobbyView(TableInfo("Attic", preset("classic"), 3),
                     (Member(ADA, "Ada", "player", 0), Member(BOB, "Bob", "player", 1),
                      Member(ME, "Me", "player", suspect)))


def test_a_seat_that_fills_the_table_unasked_is_asked_its_suspect() -> None:
    model = LobbyModel(ME, "Me")
    model.on_view(_full())
    assert model.phase == "wish" and model.late_wish
    shown = " ".join(t for _s, t in model.lines(200))
    assert "You took the last seat" in shown and "Mrs White (yours)" in shown, shown
    assert model.press("1") == [] and model.press("enter") == []  # Ada's: taken
    assert model.message == "that suspect is taken" and model.phase == "wish"
    model.press("6")
    assert model.press("enter") == [Pick(SUSPECTS[5].index)] and model.phase == "lobby"
    asked = LobbyModel(ME, "Me")
    asked.wish_asked = True  # asked before sitting (Enter: any free one): not again
    asked.on_view(_full())
    assert asked.phase != "wish"


def test_plain_asks_the_late_last_seats_suspect() -> None:
    model = LobbyModel(ME, "Me")
    actions: asyncio.Queue[object] = asyncio.Queue()
    out = io.StringIO()
    read, write = os.pipe()  # typed lines, and no end of input (that would leave)
    os.write(write, b"6\n")
    typed = os.fdopen(read, encoding="utf-8")
    front = PlainLobby(model, actions, LineFeed(typed), out=out)  # type: ignore[arg-type]

    async def seated() -> object:
        async def lobby() -> str:
            model.on_view(_full())  # as ``join`` shows a view: then says it
            front.refresh()
            while actions.empty():
                await asyncio.sleep(0.05)
            return "seated"
        return await front.seated(lobby())

    try:
        assert asyncio.run(seated()) == "seated"
    finally:
        os.close(write)  # the reader thread sees the end and stops
    assert actions.get_nowait() == Pick(SUSPECTS[5].index)
    assert "Type the suspect's number (Enter: keep Mrs White" in out.getvalue()
