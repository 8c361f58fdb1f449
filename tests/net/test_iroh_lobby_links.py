"""The lobby of an internet table shows each link: direct or relayed, and its round trip.

A real table over iroh on 127.0.0.1 with relays off: the opener and two joiners sit in the
lobby, each with the real lobby model, the opener's said by the real ``--plain`` front.
The opener's lines name both joiners' links, a joiner's its one link (the opener's), each
"direct" with a round trip in ms. A LAN table on loopback is told nothing and shows nothing
new. A person in its own process sees a joiner's link the same way, at ``join --plain``
and on the full screen (a real pseudo-terminal read by pyte).
"""

from __future__ import annotations

import asyncio
import io
import itertools
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from p2pclue.i18n import install
from p2pclue.net.api import LinkPath
from p2pclue.net.iroh_link import available
from p2pclue.net.lobby import LobbyView
from p2pclue.net.play import Opened, join_table, open_table
from p2pclue.rules.variants import preset
from p2pclue.tui.lobby import LineFeed, LobbyModel, PlainLobby
from tests.net.iroh_seats import iroh_transport as iroh
from tests.net.iroh_seats import seat
from tests.net.plain_person import PlainPerson
from tests.net.procs import HANG_GUARD, Procs, net_env
from tests.tui.drive import PtyProgram

SETTLE = 20.0
"""Seconds the lobby may take to fill and show its links (loopback; a busy machine)."""


@pytest.fixture(autouse=True)
def _english() -> None:
    install("en")




def shows(model: LobbyModel, refresh: Callable[[], None]) -> Callable[[LobbyView], None]:
    def show(view: LobbyView) -> None:
        model.on_view(view)
        refresh()

    return show


class Lobby:
    """An opener (its lobby said by ``PlainLobby``) and joiners (their lobby models), all
    sitting until ``leave``; every ``on_links`` sample each was told, kept."""

    def __init__(self, home: Path, joiners: int, internet: bool) -> None:
        self.home = home
        self.joiners = joiners
        self.internet = internet
        self.out = io.StringIO()
        r, w = os.pipe()
        read = os.fdopen(r, "r", encoding="utf-8")  # its reader ends when w closes
        self._write = os.fdopen(w, "w", encoding="utf-8")  # closed by ``leave``
        self.opener = seat(home, "Host")
        self.front = PlainLobby(LobbyModel(self.opener.profile.public, "Host"),
                                asyncio.Queue(), LineFeed(read), self.out)
        self.guests = [seat(home, f"G{i}") for i in range(1, joiners + 1)]
        self.models = [LobbyModel(g.profile.public, g.name) for g in self.guests]
        self.samples: list[list[dict[bytes, LinkPath]]] = [[] for _ in range(joiners + 1)]
        self.tasks: list[asyncio.Future[Any]] = []

    def _kept(self, who: int, then: Callable[[dict[bytes, LinkPath]], None]
              ) -> Callable[[dict[bytes, LinkPath]], None]:
        def take(paths: dict[bytes, LinkPath]) -> None:
            self.samples[who].append(dict(paths))
            then(paths)

        return take

    async def sit(self) -> None:
        code = "271828"
        opened: asyncio.Future[Opened] = asyncio.get_running_loop().create_future()
        self.tasks.append(asyncio.ensure_future(open_table(
            self.opener, "Attic", preset("classic"), self.joiners + 2, code, announce=False,
            on_opened=opened.set_result, on_view=shows(self.front.model, self.front.refresh),
            on_links=self._kept(0, self.front.on_links),
            transport=iroh(self.opener, "Attic", code) if self.internet else None)))
        await asyncio.wait([opened, self.tasks[0]], timeout=SETTLE,
                           return_when=asyncio.FIRST_COMPLETED)
        if self.tasks[0].done():
            self.tasks[0].result()  # the opener failed before the table opened: say why
        o = await opened
        self.front.model.opened = o
        for i, (g, model) in enumerate(zip(self.guests, self.models, strict=True), 1):
            self.tasks.append(asyncio.ensure_future(join_table(
                g, "Attic", o.host, o.port, code, on_view=shows(model, lambda: None),
                on_links=self._kept(i, model.on_links),
                transport=iroh(g, "Attic", code) if self.internet else None)))

    async def until(self, done: Callable[[], bool]) -> bool:
        loop = asyncio.get_running_loop()
        end = loop.time() + SETTLE
        while not done() and loop.time() < end:
            for task in self.tasks:
                if task.done():
                    task.result()  # a lobby that ended early: its error, not a timeout
            await asyncio.sleep(0.1)
        return done()

    async def leave(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self._write.close()


def _links_line(lines: list[str]) -> str:
    found = [ln for ln in lines if ln.startswith("Your links: ")]
    assert len(found) == 1, lines
    return found[0]


MS = "(<1|\\d+)\u00a0ms"
"""A round trip as a link says it (no-break spaces keep one link on one line)."""
SEP = "\u00a0·\u00a0"


@pytest.mark.skipif(not available(), reason="the internet extra (iroh) is missing")
def test_the_lobby_shows_each_members_link_direct_and_its_round_trip(tmp_path: Path) -> None:
    async def run() -> tuple[str, list[str], list[list[dict[bytes, LinkPath]]]]:
        lobby = Lobby(tmp_path, 2, internet=True)
        try:
            await lobby.sit()
            everyone = {g.profile.public for g in lobby.guests}

            def seen() -> bool:
                return set(lobby.front.model.links) == everyone and all(
                    m.links for m in lobby.models) and all(
                    m.view is not None and len(m.view.players) == 3
                    for m in [lobby.front.model, *lobby.models])

            assert await lobby.until(seen), (lobby.out.getvalue(), lobby.samples)
            lobby.front.refresh()
            joiner = [t for _s, t in lobby.models[0].lines(80)]
            return lobby.out.getvalue(), joiner, lobby.samples
        finally:
            await lobby.leave()

    said, joiner, samples = asyncio.run(run())
    opener_said = said.splitlines()
    line = _links_line(opener_said)
    for name in ("G1", "G2"):
        assert re.search(rf"\b{name}{SEP}direct{SEP}{MS}", line), line
    assert "Host" not in line, "no link to oneself"
    mine = _links_line(joiner)
    assert re.fullmatch(rf"Your links: Host{SEP}direct{SEP}{MS}", mine), mine
    assert "G2" not in mine, "a joiner's one link in the lobby is the opener's"
    for told in samples:
        assert told and all(not p.relayed and p.rtt_ms >= 0 for s in told for p in s.values())
    # Told only what changed: never the same look twice in a row.
    assert all(a != b for told in samples for a, b in itertools.pairwise(told))


def test_a_lan_table_is_told_nothing_and_shows_no_links(tmp_path: Path) -> None:
    async def run() -> tuple[str, list[str], list[list[dict[bytes, LinkPath]]]]:
        lobby = Lobby(tmp_path, 1, internet=False)
        try:
            await lobby.sit()
            assert await lobby.until(lambda: all(
                m.view is not None and len(m.view.players) == 2
                for m in [lobby.front.model, *lobby.models]))
            await asyncio.sleep(2.5)  # a look at the links (every 2 s) had its chance
            return lobby.out.getvalue(), [t for _s, t in lobby.models[0].lines(80)], \
                lobby.samples
        finally:
            await lobby.leave()

    said, joiner, samples = asyncio.run(run())
    assert samples == [[], []]
    assert "Your links" not in said and not any("Your links" in t for t in joiner)
    assert " ms" not in said and "direct" not in said


@pytest.mark.skipif(not available(), reason="the internet extra (iroh) is missing")
def test_a_person_at_plain_sees_a_joiners_link_over_iroh(tmp_path: Path, procs: Procs) -> None:
    """Processes: a person opens an internet table with ``join --plain`` (relays off); a
    bot joins with the ticket from another process; the person's lobby names its link."""
    person = PlainPerson(tmp_path / "home", tmp_path / "person.txt", "--create", "--internet",
                         "--no-relay", "--code", "2718", "--players", "3", "--table", "Attic",
                         "--name", "Pat", "--profile", "person")
    try:
        found = re.search(r"--ticket (clue1[a-z2-7]+)", person.play_until(r"--ticket clue1"))
        assert found is not None
        procs.p2pclue("guest", "join", "--ticket", found.group(1), "--code", "2718",
                      "--no-relay", "--bot", "detective", "--profile", "guest", "--json",
                      env=net_env(tmp_path / "guest"))
        said = person.play_until(rf"Your links: [^\n]+{SEP}direct{SEP}{MS}")
        lines = [ln for ln in said.splitlines() if ln.startswith("Your links: ")]
        assert len(lines) == 1 and "Pat" not in lines[0], said[-2000:]
        person.type("q")
        assert person.proc.wait(HANG_GUARD) == 0, person.said()[-2000:]
    finally:
        person.stop()


@pytest.mark.skipif(not available(), reason="the internet extra (iroh) is missing")
def test_the_full_screen_lobby_shows_a_joiners_link_over_iroh(tmp_path: Path,
                                                               procs: Procs) -> None:
    """The same with the person's full-screen lobby, read by pyte on a real 80x24 pty."""
    env = dict(net_env(tmp_path / "home"), TERM="xterm-256color")
    prog = PtyProgram([sys.executable, "-m", "p2pclue", "join", "--lang", "en", "--create",
                       "--internet", "--no-relay", "--code", "2718", "--players", "3",
                       "--table", "Attic", "--name", "Pat", "--profile", "person"], env=env)
    try:
        def ticket() -> str | None:  # wrapped over rows: read with the rows' edges joined
            joined = "".join(row.strip() for row in prog.screen.display)
            found = re.search(r"--ticket(clue1[a-z2-7]+) --code", joined)
            return found.group(1) if found else None

        prog.pump_until(lambda: ticket() is not None, 60, "the ticket")
        procs.p2pclue("guest", "join", "--ticket", ticket() or "", "--code", "2718",
                      "--no-relay", "--bot", "detective", "--profile", "guest", "--json",
                      env=net_env(tmp_path / "guest"))
        # a terminal shows a no-break space as a space: read both as one
        link = re.compile(r"Your links: .+ · direct · (<1|\d+) ms")
        prog.pump_until(lambda: link.search(prog.text().replace("\u00a0", " ")) is not None,
                        60, "the joiner's link")
        prog.pump_quiet()
        rows = prog.screen.display
        assert rows[0].strip() == "p2pclue: the lobby", prog.text()
        assert sum("Your links:" in row for row in rows) == 1, prog.text()
        prog.press("q")  # q leaves the lobby: the full screen closes
        prog.pump_until(lambda: b"\x1b[?1049l" in prog.raw, 60, "the full screen closed")
        assert prog.proc.wait(HANG_GUARD) == 0, prog.text()  # test_iroh_quit: no abort
    finally:
        prog.close()
