"""A person votes about a silent player from ``--plain``, over a real networked table.

Three ``NetSession`` peers on loopback links (127.0.0.1): a person's seat played through
the real ``PlainUI`` (its lines typed by a reader that answers what the screen asks)
and two bot seats. One bot hangs before a decision it owes: its links and runner stay
up, it just never answers, so the table waits for it. The person is told whom the
table waits for and how to vote, and types the vote; it goes out through
``NetSession.vote`` like the full-screen UI's ``w`` / ``x``.

- ``x``: with the other bot's own abandon vote (its runner votes after three silences)
  the quorum (2 of 2) ends the game as abandoned; the person's transcript audits valid
  and says so, signed by both.
- ``w``: the other bot's abandon vote alone is not a quorum; the game waits, the silent
  bot comes back and the game goes on past that point, the votes lapsed.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from pathlib import Path
from typing import Any

from p2pclue.engine.audit import audit
from p2pclue.engine.peer import Status
from p2pclue.engine.transcript import parse
from p2pclue.net.session import NetSession
from p2pclue.tui.plain import PlainUI
from tests.net.three_seats import others_play, sender, stop_all, three_seats

OPTION = re.compile(r"^\s+(\d+)\. (.*)$", re.M)


class Screen:
    """What the plain front end wrote, readable from the reader's thread."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            self._parts.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def text(self) -> str:
        with self._lock:
            return "".join(self._parts)


class Person:
    """Types what a cautious person would: roll, move, end the turn, show the first
    card, never accuse; and, once the table waits for ``silent_name``, the ``vote`` key
    (first asking for help with ``?`` when ``ask_help``)."""

    HELP = "While the table waits for a silent player, type w to vote to wait more or x"

    def __init__(self, screen: Screen, vote: str, *, ask_help: bool = False) -> None:
        self.screen = screen
        self.vote = vote
        self.ask_help = ask_help
        self.silent_name = ""
        self.voted = threading.Event()
        self.stop = threading.Event()
        self._read_to = 0

    def read(self) -> str:
        while not self.stop.is_set():
            text = self.screen.text()
            new = text[self._read_to:]
            line = self._answer(new)
            if line is not None:
                self._read_to = len(text)
                return line + "\n"
            time.sleep(0.02)
        return ""

    def _answer(self, new: str) -> str | None:
        offer = f"The table is waiting for {self.silent_name}, silent for"
        if self.silent_name and offer in new and not self.voted.is_set():
            if self.ask_help:
                self.ask_help = False
                return "?"
            self.voted.set()
            return self.vote
        if self.HELP in new and not self.voted.is_set():  # the help, asked while offered
            self.voted.set()
            return self.vote
        if new.endswith("y/n: "):
            return "n"
        if not new.endswith("): "):
            return None
        options: dict[str, str] = {text: number for number, text in OPTION.findall(new)}
        for wanted in ("end your turn", "stay where you are", "roll the die"):
            if wanted in options:
                return options[wanted]
        return "1"


async def _until(check: Any, what: str, screen: Screen, timeout: float = 120.0) -> None:
    """Wait for ``check``; ``timeout`` is a hang guard, generous for a loaded machine."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}:\n" + \
            screen.text()[-3000:]
        await asyncio.sleep(0.02)


async def _play(home: Path, vote: str
                ) -> tuple[Screen, list[NetSession], int, int | None, list[int | None]]:
    """A table where Chiara hangs; the person types ``vote`` when told. Returns what the
    person saw, the sessions, the silent seat, the plain front end's exit status (None if
    the test stopped the game itself) and, after a wait, who signed the entries chained
    once Chiara was back."""
    person, bruno, chiara = await three_seats(home)
    screen = Screen()
    typist = Person(screen, vote, ask_help=vote == "x")
    typist.silent_name = "Chiara"
    ui = PlainUI(person, screen, typist.read)  # type: ignore[arg-type]
    front = asyncio.ensure_future(ui.run())
    silent, runs, bots = others_play(bruno, chiara)
    status: int | None = None
    after: list[int | None] = []
    try:
        await _until(silent.blocked.is_set, "Chiara's first decision", screen)
        await _until(typist.voted.is_set, "the offer to vote", screen)
        if vote == "x":
            status = await asyncio.wait_for(front, 120)
        else:
            await _until(lambda: "Bruno votes to end the game while waiting for Chiara"
                         in screen.text(), "Bruno's own vote", screen)
            assert person.ended is None and not front.done()
            entries = len(person.peer.entries)
            silent.released.set()  # Chiara is back before a quorum: the game goes on
            await _until(lambda: len(person.peer.entries) > entries + 3,
                         "the game going on", screen)
            assert person.ended is None and person.peer.status is Status.RUNNING
            after = [sender(raw) for raw in person.peer.entries[entries:]]
    finally:
        typist.stop.set()
        await stop_all(front, silent, runs, bots, [person, bruno, chiara])
    assert chiara.seat is not None
    return screen, [person, bruno, chiara], chiara.seat, status, after


def test_plain_x_votes_a_silent_player_out_over_the_network(tmp_path: Path) -> None:
    screen, (person, bruno, _chiara), silent, status, _after = asyncio.run(
        _play(tmp_path, "x"))
    text = screen.text()
    assert re.search(r"The table is waiting for Chiara, silent for \d+ s\. Type w to vote "
                     r"to wait more or x to vote to end the game as abandoned\.", text)
    assert "You vote to end the game while waiting for Chiara (1 of 2 needed" in text \
        or "You vote to end the game while waiting for Chiara (2 of 2 needed" in text
    assert "The table ended the game as abandoned while waiting for Chiara" in text
    assert Person.HELP in text  # ? while the vote was offered: the rules, then the keys
    assert status == 0  # the front end's verdict on its own saved transcript: valid
    assert person.ended is not None and person.ended.status == "abandoned"
    data = person.transcript_path.read_bytes()
    transcript = parse(data)
    assert transcript.footer.status == "abandoned"
    verdict = audit(transcript, data)
    assert verdict.valid and verdict.result == "abandoned", verdict.violation
    voters = sorted(s for s in range(3) if s != silent)
    assert f"abandoned by the vote of seats {voters}" in " ".join(verdict.notes), verdict.notes
    assert parse(bruno.transcript_path.read_bytes()).entries == transcript.entries


def test_plain_w_keeps_the_game_going_until_the_silent_player_is_back(
        tmp_path: Path) -> None:
    screen, _sessions, silent, status, after = asyncio.run(_play(tmp_path, "w"))
    text = screen.text()
    assert status is None  # still playing when the test stopped it
    assert "You vote to wait for Chiara (0 of 2 needed to end it)." in text
    assert "Bruno votes to end the game while waiting for Chiara (1 of 2 needed" in text
    assert "The table ended the game as abandoned" not in text
    assert after[0] == silent  # the message the table waited for, then the game went on
    assert len(after) > 3
