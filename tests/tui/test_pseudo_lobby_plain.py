"""The lobby (full screen and ``--plain``) and a whole ``--plain`` game in the pseudo-locale.

The lobby's steps are drawn from the real ``LobbyModel`` by prompt_toolkit into pyte at
80 x 24 (the tables found, the code asked for, the last seat's suspect, the seated lobby with
a bot and a spectator, the signed start) and said by ``PlainLobby`` as lines. A whole
``--plain`` game is played in this process over a real local session (every seat a protocol
peer), answered by a typist that reads the numbered choices: every word of it must come from
the catalogs, and every prompt's letters be ones the game takes.
"""

from __future__ import annotations

import asyncio
import io
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pclue.i18n import _, install, no_key, pgettext, yes_key
from p2pclue.i18n.pseudo import PSEUDO
from p2pclue.net.api import LinkPath
from p2pclue.net.discovery import TableAd, fingerprint
from p2pclue.net.lobby import LobbyView, Member, TableInfo
from p2pclue.net.local import FAST, LocalSession
from p2pclue.net.play import Opened
from p2pclue.net.reach import Reach, Ticket
from p2pclue.rules.variants import preset
from p2pclue.tui.lobby import LineFeed, LobbyModel, PlainLobby, lobby_layout
from p2pclue.tui.plain import PlainUI
from tests.pseudo_check import screen_problems
from tests.tui.model_screen import draw

ME, ADA, BOT, EVE = b"\x01" * 32, b"\x02" * 32, b"\x03" * 32, b"\x04" * 32
TICKET = Ticket("tavolo", Reach(ME, ("203.0.113.7:40001",))).text()
NAMES = ["Ada", "Bruno", "Chiara", "Dmitri", "Eve", "Pia"]
DATA = [*NAMES, "join", "tavolo", "cucina", "257968", "127.0.0.1:50123", TICKET, "<1",
        *(fingerprint(k) for k in (ME, ADA, BOT))]


@pytest.fixture(autouse=True)
def _pseudo() -> Iterator[None]:
    install(PSEUDO)
    yield
    install("en")


def _ad(name: str, taken: int, playing: bool = False, failed: bool = False) -> TableAd:
    return TableAd(b"\x09" * 16, name, "classic", taken, 4, playing, 1, fingerprint(ADA),
                   "127.0.0.1", 50123, True, failed)


def _view(ready: bool = False) -> LobbyView:
    return LobbyView(TableInfo("tavolo", preset("classic"), 4), (
        Member(ADA, "Ada", "player", 0, True),
        Member(BOT, "Bruno (medium bot)", "player", 1, True),
        Member(ME, "Pia", "player", 2, ready),
        Member(EVE, "Eve", "spectator"),
    ), failed_attempts=2)


def _lobby_steps() -> Iterator[tuple[str, LobbyModel]]:
    model = LobbyModel(ME, "Pia")
    model.phase = "tables"
    yield "no tables yet", model
    model.on_tables([_ad("tavolo", 2), _ad("tavolo", 1, failed=True), _ad("cucina", 4, True)])
    yield "the tables found", model
    model.press("3")
    model.press("enter")
    yield "a table playing already", model
    model.ask_code("tavolo", fingerprint(ADA))
    model.code_tries = 2
    model.code_typed = "2579"
    yield "the code asked for", model
    model.ask_wish(_ad("tavolo", 3))
    yield "the last seat's suspect", model
    model = LobbyModel(ME, "Pia")
    model.opened = Opened("tavolo", "257968", "127.0.0.1", 50123, fingerprint(ME), True)
    model.on_view(_view())
    yield "seated, with a bot and a spectator", model
    model.press("1")
    yield "a suspect taken", model
    model.phase, model.check = "started", "074 117 976"
    yield "the signed start", model
    model = LobbyModel(ME, "Pia")
    model.opened = Opened("tavolo", "257968", TICKET, 1, fingerprint(ME), False, ticket=TICKET)
    model.on_view(_view())
    model.on_links({ADA: LinkPath(False, 3), EVE: LinkPath(True, 85), BOT: LinkPath(False, 0)})
    yield "an internet table's links", model


def _ticket_pieces(lines: list[str]) -> list[str]:
    """The ticket as the screen wrapped it (each piece is data, like the whole)."""
    return [word for line in lines for word in line.split() if len(word) > 2 and word in TICKET]


@pytest.mark.parametrize("step", [name for name, _model in _lobby_steps()])
def test_every_lobby_screen(step: str) -> None:
    model = dict(_lobby_steps())[step]
    lines = draw(lambda w, h: lobby_layout(model, lambda: w))
    found = screen_problems(lines, [*DATA, *_ticket_pieces(lines), "074", "117", "976"])
    assert not found, "\n".join([*found, *lines])
    assert any("\u27e6" in line for line in lines), lines
    if model.links:  # each link said whole, on the screen's 24 rows
        assert any(_("Your links: {links}").split("{")[0] in line for line in lines), lines


def test_the_plain_lobby_says_each_step_in_catalog_words() -> None:
    out = io.StringIO()
    read, write = _pipe()
    front = PlainLobby(LobbyModel(ME, "Pia"), asyncio.Queue(), LineFeed(read), out)
    for _name, model in _lobby_steps():
        front.model = model
        front.refresh()
    asyncio.run(front.started("074 117 976"))
    write.close()
    said = out.getvalue()
    found = screen_problems(said.splitlines(), [*DATA, *_ticket_pieces(said.splitlines()),
                                                "074", "117", "976"], separator="\x00")
    assert not found, "\n".join([*found, said])


def _pipe() -> tuple[io.TextIOWrapper, io.TextIOWrapper]:
    import os

    r, w = os.pipe()
    return os.fdopen(r, "r", encoding="utf-8"), os.fdopen(w, "w", encoding="utf-8")


class Typist:
    """A cautious player reading the ``--plain`` output: it tries the side keys once (help,
    notepad, hint, a wrong answer, a card typed by name, the quit question), then rolls,
    goes into rooms, suggests, shows, ends its turn and never accuses."""

    def __init__(self, out: io.StringIO) -> None:
        self.out = out
        self.read_at = 0
        self.tried: list[str] = ["?", "n", "h", "99", "xyz", "q", no_key()]
        self.accuse_asked = False

    def read(self) -> str:
        for _wait in range(6000):
            text = self.out.getvalue()
            if len(text) > self.read_at and not text.endswith("\n"):
                break  # a prompt waits for an answer
            threading.Event().wait(0.01)
        text = self.out.getvalue()
        fresh, self.read_at = text[self.read_at:], len(text)
        return self.answer(fresh) + "\n"

    def answer(self, fresh: str) -> str:
        prompt = fresh.rsplit("\n", 1)[-1]
        accuse = _("Accuse? {yes}/{no}: ").format(yes=yes_key(), no=no_key())
        if accuse.strip() in prompt:
            self.accuse_asked = True
            return no_key()
        options: dict[str, str] = dict(re.findall(r"^  (\d+)\. (.*)$", fresh, re.M))
        if not options:
            return no_key()  # the quit question: stay
        if self.tried and pgettext("turn menu", "end your turn") in options.values():
            return self.tried.pop(0)
        for wanted in (pgettext("turn menu", "roll the die"), pgettext("turn menu", "suggest"),
                       pgettext("turn menu", "end your turn")):
            for number, text in options.items():
                if text == wanted:
                    return number
        into = pgettext("turn menu", "go into {room:the}").split("{")[0]
        rooms = [n for n, t in options.items() if t.startswith(into)]
        if rooms:
            return rooms[0]
        return next(n for n, t in options.items() if t != pgettext("turn menu", "accuse"))


def test_a_whole_plain_game_in_catalog_words(tmp_path: Path) -> None:
    session = LocalSession(preset("classic"), 3, seed=7, pace=FAST, transcript_dir=tmp_path)
    out = io.StringIO()
    typist = Typist(out)
    ui = PlainUI(session, out, typist.read)
    status = asyncio.run(ui.run())
    said = out.getvalue()
    assert status == 0, said[-3000:]
    transcripts = [str(p) for p in tmp_path.rglob("*") if p.is_file()]
    found = screen_problems(said.splitlines(), [*NAMES, *transcripts, str(tmp_path)],
                            separator="\x00")
    assert not found, "\n".join(found[:40])
    assert not typist.tried, f"the typist never tried {typist.tried}"
    from p2pclue.i18n import rules_summary

    assert rules_summary(preset("classic"))[0] in said  # the help was asked for, and said
    assert said.count("\u27e6") > 200, said[-2000:]
