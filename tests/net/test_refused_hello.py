"""A guest whose hello the table refuses stops at once, with the refusal, in its language.

A refusal (the table is full, the game has already started, enough spectators) is final:
dialling again cannot change it, so ``join_table`` raises ``TableRefused`` and dials no
more, whatever ``wait`` allows (only a table not reached yet is dialled again). Over real
loopback links: the opener's lobby refusing a player while a start is held, and separate
``p2pclue join`` processes refused by a game in progress, in English and in French.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from p2pclue.i18n import _, install
from p2pclue.net.links import Link, TcpTransport
from p2pclue.net.lobby import GuestLobby, HelloRefused, LobbyView
from p2pclue.net.play import Seat, join_table, open_table, table_id
from p2pclue.net.profile import load
from p2pclue.net.table import LobbyAction, TableRefused
from p2pclue.rules.variants import preset
from tests.net.procs import HANG_GUARD, Procs
from tests.net.test_lobby import key, nonce
from tests.table_names import unique_table

REFUSED_WITHIN = 120.0
"""Seconds a refused guest may take to stop (a hang guard on a loaded machine): far below
the ``wait`` it was given, which a guest that dialled again would use up."""
WAIT = 600.0


@pytest.fixture(autouse=True)
def _english_afterwards() -> Any:
    yield
    install("en")


def _seat(home: Path, name: str) -> Seat:
    return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, interfaces=["127.0.0.1"])


class _CountedDials(TcpTransport):
    """The guest's real TCP transport, counting its dials."""

    dials = 0

    async def dial(self, host: str, port: int, *, timeout: float,
                   expect: bytes | None = None) -> Link:
        self.dials += 1
        return await super().dial(host, port, timeout=timeout, expect=expect)


async def _refused_in_the_lobby(home: Path) -> tuple[TableRefused, int, list[LobbyView]]:
    """Three seats; Bea fills the table unasked, so the start is held while she would
    choose; Cy's hello meanwhile is refused. Returns the refusal, Cy's dials and what the
    opener saw after it."""
    loop = asyncio.get_running_loop()
    opened: asyncio.Future[tuple[str, int]] = loop.create_future()
    at_host: list[LobbyView] = []
    two_seated, held = asyncio.Event(), asyncio.Event()

    def host_view(view: LobbyView) -> None:
        at_host.append(view)
        if len(view.players) >= 2:
            two_seated.set()

    host = asyncio.ensure_future(open_table(
        _seat(home, "Host"), "Attic", preset("classic"), 3, None, announce=False,
        on_opened=lambda o: opened.set_result((o.host, o.port)), on_view=host_view))
    tasks = [host]
    try:
        addr, port = await asyncio.wait_for(opened, HANG_GUARD)
        tasks.append(asyncio.ensure_future(join_table(
            _seat(home, "Ada"), "Attic", addr, port, None, on_view=lambda v: None)))
        await asyncio.wait_for(two_seated.wait(), HANG_GUARD)
        never: asyncio.Queue[LobbyAction] = asyncio.Queue()  # Bea's person chooses nothing
        tasks.append(asyncio.ensure_future(join_table(
            _seat(home, "Bea"), "Attic", addr, port, None, on_view=lambda v: held.set(),
            actions=never, ask_last_seat=True)))
        await asyncio.wait_for(held.wait(), HANG_GUARD)
        cy = _seat(home, "Cy")
        counted = _CountedDials(cy.profile.identity, table_id("Attic"), None)
        with pytest.raises(TableRefused) as refused:
            await asyncio.wait_for(join_table(cy, "Attic", addr, port, None,
                                              on_view=lambda v: None, wait=WAIT,
                                              transport=counted), REFUSED_WITHIN)
        return refused.value, counted.dials, at_host
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def test_the_lobby_refuses_a_hello_and_the_guest_dials_once(tmp_path: Path) -> None:
    refusal, dials, at_host = asyncio.run(_refused_in_the_lobby(tmp_path))
    assert refusal.reason == "the game has already started"  # a start was proposed
    assert str(refusal) == "the table refused to seat you: the game has already started"
    assert dials == 1
    assert all("Cy" not in {m.name for m in v.members} for v in at_host)
    install("fr")
    assert str(TableRefused(refusal.reason)) == \
        "la table a refusé de vous donner une place\u202f: la partie a déjà commencé"


def test_an_unknown_reason_is_shown_as_sent_without_control_characters() -> None:
    guest = GuestLobby(key(1), "Ada", 4000, nonce(1))
    with pytest.raises(HelloRefused) as info:
        guest.receive({"t": "refuse", "reason": "go \x1b[2Jaway" + "!" * 500})
    assert info.value.reason == "go [2Jaway" + "!" * 190
    install("it")
    assert str(TableRefused(info.value.reason)) == \
        f"il tavolo non ti ha dato un posto: {info.value.reason!r}"


def test_joiner_processes_refused_by_a_game_in_progress_stop_at_once(procs: Procs) -> None:
    """The opener is a person (``--plain``, its input held open) with two bots that think
    for ten minutes: the game has started and waits. Joiners given ten minutes to find a
    seat stop at once, with one line in their language and exit status 2."""
    table = unique_table("Den")
    host = procs.p2pclue("host", "join", "--create", "--table", table, "--no-code",
                         "--players", "3", "--plain", "--bots", "2", "--bot-think",
                         str(int(WAIT)), "--profile", "p0", "--name", "Host",
                         stdin=subprocess.PIPE)
    port = host.wait_for(r"--peer 127\.0\.0\.1:(\d+)", stream="out").group(1)
    host.wait_for(r"^Table check: ", stream="out")  # the game runs
    for lang in ("en", "fr"):
        joiner = procs.p2pclue(f"joiner-{lang}", "join", "--peer", f"127.0.0.1:{port}",
                               "--table", table, "--bot", "random", "--profile",
                               f"j-{lang}", "--wait", str(int(WAIT)), "--lang", lang)
        code, _out, err = joiner.finish(REFUSED_WITHIN)
        install(lang)
        expected = _("p2pclue join: {error}").format(error=_(
            "the table refused to seat you: {reason}").format(
            reason=_("the game has already started")))
        assert code == 2, joiner.said()
        assert err.strip().splitlines() == [expected], joiner.said()
        assert not re.search(r"Traceback|the table refused: ", err), joiner.said()
    assert host.proc.poll() is None, host.said()  # the table plays on
