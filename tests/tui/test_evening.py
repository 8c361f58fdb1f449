"""Done when (the family evening): two people and a bot play three games in a row at one
table with "play again": real processes on 80x24 pseudo-terminals read by pyte, one person
in Korean (the opener, with one local bot), one in Italian (who joins through the list of
tables found, on 127.0.0.1 only). After every game both end screens show the evening's
score, right by the transcripts' own verdicts; the next lobby shows it too; nobody types a
code or picks a table again; each game has its own transcript, all audit-valid, and both
people hold the same three.

The evening is seeded (``P2PCLUE_TEST_SEED``, ``p2pclue.cli.testseed``) and every profile's
identity key is made here from its name: the lobbies' nonces, the deals, the dice and the
bot's choices come out the same on every run, so a failure can be run again. What the
driver presses still follows the screens as they come (a bar unchanged for 2 s is pressed
again), so the games' later turns may still differ where the timing does. The table's name
is fresh on every run (``tests.table_names``): two runs on one machine see each other's
tables on 127.0.0.1; the test prints it, and ``P2PCLUE_EVENING_TABLE`` names it again."""

from __future__ import annotations

import hashlib
import os
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.cli.testseed import VAR as TEST_SEED
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.i18n import _, display_name, install, key_name, ngettext
from tests.table_names import unique_table
from tests.tui.drive import PtyProgram
from tests.tui.test_join_e2e import _net_env

CODE = "271828"
GAMES = 3
TABLE_VAR = "P2PCLUE_EVENING_TABLE"
"""A table name to use instead of a fresh one: a failed run prints its name, and the same
name (with the same seed) deals the same games again."""


def _open(table: str) -> list[str]:
    return [sys.executable, "-m", "p2pclue", "join", "--create", "--table", table, "--code",
            CODE, "--players", "3", "--bots", "1", "--level", "hard", "--bot-think", "0",
            "--pass-delay", "0.05", "--name", "Mina", "--profile", "mina", "--lang", "ko"]


def _join(table: str) -> list[str]:
    return [sys.executable, "-m", "p2pclue", "join", "--table", table, "--code", CODE,
            "--pass-delay", "0.05", "--name", "Leo", "--profile", "leo", "--lang", "it"]


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


class Person:
    """One person's program, and what its bar offers in its language."""

    def __init__(self, argv: list[str], env: dict[str, str], lang: str) -> None:
        install(lang)
        enter = key_name("Enter")
        self.offers = [(f"{enter}:{_('show')}", "\r"), (f"y:{_('accuse')}", "n"),
                       (f"{enter}:{_('choose')}", "\r"), (f"{enter}:{_('go')}", "\r"),
                       (f"e:{_('stay')}", "e"), (f"s:{_('suggest')}", "s"),
                       (f"r:{_('roll')}", "r"), (f"e:{_('end turn')}", "e"),
                       (f"{_('arrows')}:{_('pick')}", "\x1b[B")]
        self.end_key = f"q:{_('leave')}"
        self.again_key = f"p:{_('play again')}"
        self.game_key = f"n:{_('notepad')}"
        """On the bar of the game screen only (the lobby's bar spells its keys "q: ...")."""
        self.lobby_title = _("p2pclue: the lobby")
        self.lang = lang
        install("en")
        self.prog = PtyProgram(argv, env=env)
        self.last: tuple[str, float] = ("", 0.0)
        self.seen: list[str] = []
        """Every distinct screen since the last ``seen.clear()``."""

    def read(self) -> None:
        while self.prog._read(0.02):
            pass
        text = self.prog.text()
        if not self.seen or self.seen[-1] != text:
            self.seen.append(text)

    def at_end(self) -> bool:
        """The end screen: its bar offers play again (an evening's game always does). Not
        "q: leave" alone: Italian says "q:esci" for leaving the end screen and for
        quitting a game in play alike, and a driver that read that as the end stopped
        playing Leo's first turn."""
        return self.again_key in self.prog.bar()

    def step(self) -> None:
        """Press what the bar offers (a cautious player: never accuses), once per bar, or
        again if nothing answered for a while."""
        assert self.prog.proc.poll() is None, f"exited:\n{self.prog.text()}"
        bar = self.prog.bar()
        key = next((k for offer, k in self.offers if offer in bar), None)
        now = time.monotonic()
        if key is not None and (bar != self.last[0] or now - self.last[1] > 2.0):
            self.prog.press(key)
            self.last = (bar, now)


def _both(people: list[Person], done: Callable[[], bool], seconds: float, what: str,
          act: bool = True) -> None:
    """Read both screens (and press what their bars offer) until ``done()``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"no {what}:\n" + "\n\n".join(
            p.prog.text() for p in people)
        for p in people:
            p.read()
            if act and not p.at_end():
                p.step()


def _squeeze(text: str) -> str:
    return "".join(text.split())


def _transcripts(home: Path, profile: str) -> dict[bytes, bytes]:
    """The profile's transcripts by their bytes' game (each audited on its own)."""
    found = {}
    for path in (home / "p2pclue" / "profiles" / profile / "games").glob("*/transcript.p2pclue"):
        raw = path.read_bytes()
        verdict = audit(parse(raw), raw)
        assert verdict.valid and verdict.result in ("won", "nobody"), (path, verdict)
        found[raw] = raw
    return found


def _score(lang: str, games: int, wins: dict[str, int], order: list[str]) -> str:
    """The score line as ``lang`` says it, counted here from the audited transcripts (a bot
    named in that language's words: "Bruno (bot difficile)")."""
    install(lang)
    try:
        ranked = sorted(order, key=lambda n: -wins.get(n, 0))
        return ngettext("Games won this evening (of {games} game): {scores}",
                        "Games won this evening (of {games} games): {scores}", games).format(
            games=games, scores=", ".join(f"{display_name(n)} {wins.get(n, 0)}" for n in ranked))
    finally:
        install("en")


def _identities(home: Path, profiles: list[str]) -> None:
    """Each profile's identity key, made from its name (as the product stores one)."""
    for name in profiles:
        folder = home / "p2pclue" / "profiles" / name
        folder.mkdir(parents=True, mode=0o700)
        key = Ed25519PrivateKey.from_private_bytes(
            hashlib.sha256(b"tests/evening/" + name.encode()).digest())
        fd = os.open(folder / "identity.pem", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key.private_bytes(serialization.Encoding.PEM,
                                        serialization.PrivateFormat.PKCS8,
                                        serialization.NoEncryption()))


def test_two_people_and_a_bot_play_three_games_in_a_row(tmp_path: Path) -> None:
    env = _net_env(tmp_path)
    env[TEST_SEED] = "tests/tui/test_evening"
    _identities(tmp_path, ["mina", "leo", "mina.bot1"])
    table = os.environ.get(TABLE_VAR) or unique_table("Serata")
    print(f"the table: {table} (set {TABLE_VAR}={table} to deal these games again)")
    mina = Person(_open(table), env, "ko")
    leo: Person | None = None
    people = [mina]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        _both(people, lambda: "271828" in mina.prog.text(), 120, "the open table")
        leo = Person(_join(table), env, "it")
        people.append(leo)
        # the last seat: Leo picks the first free suspect (the taken ones are marked)
        _both(people, lambda: "preso" in leo.prog.text(), 120, "the last-seat question",
              act=False)
        leo.prog.press("\r")
        wins: dict[str, int] = {}
        order: list[str] = []
        for game in range(1, GAMES + 1):
            _both(people, lambda: all(p.at_end() for p in people), 600, f"game {game}'s end")
            _both(people, lambda: all(p.again_key in p.prog.bar() for p in people), 60,
                  "play again offered", act=False)
            home = tmp_path / "p2pclue" / "profiles"
            raws = sorted((home / "leo" / "games").glob("*/transcript.p2pclue"),
                          key=lambda p: p.stat().st_mtime)
            assert len(raws) == game
            raw = raws[-1].read_bytes()
            verdict = audit(parse(raw), raw)
            assert verdict.valid, verdict
            names = [p.name for p in parse(raw).config.players]
            order = order or names
            if verdict.result == "won" and verdict.winner is not None:
                wins[names[verdict.winner]] = wins.get(names[verdict.winner], 0) + 1
            print(f"game {game}: session {parse(raw).config.session.hex()[:16]}, "
                  f"{verdict.result}, winner {verdict.winner}, "
                  f"hands {verdict.hands}, {len(parse(raw).entries)} entries")
            for p in people:  # the score, right, on both end screens
                p.read()
                expected = _squeeze(_score(p.lang, game, wins, order))
                _both(people, lambda p=p, e=expected: e in _squeeze(p.prog.text()), 30,  # type: ignore[misc]
                      f"the score on {p.lang}'s end screen", act=False)
            if game == GAMES:
                break
            for p in people:
                p.seen.clear()
                p.prog.press("p")
            # the next game: a lobby that shows the evening's score, then the table again
            _both(people, lambda: all(p.game_key in p.prog.bar() for p in people), 180,
                  "the next game", act=False)
            for p in people:
                expected = _squeeze(_score(p.lang, game, wins, order))
                assert any(p.lobby_title in s and expected in _squeeze(s) for s in p.seen), \
                    f"{p.lang}: no lobby with the score:\n" + "\n\n".join(p.seen[-3:])
        for p in people:
            p.prog.press("q")
        for p in people:
            p.prog.proc.wait(60)
            p.read()
            assert p.prog.proc.returncode == 0, p.prog.text()
    finally:
        for p in people:
            p.prog.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    games = [_transcripts(tmp_path, profile) for profile in ("mina", "leo", "mina.bot1")]
    assert len(games[0]) == GAMES and games[0] == games[1] == games[2], \
        "each game its own transcript, the same at every seat"
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    print(f"three games, CPU of the two processes: {cpu:.1f} s")
