"""The command line in the pseudo-locale: every word a person reads comes from the catalogs.

``main(["--lang", "qps", ...])`` runs in this process with its real output captured: the
``--help`` of every command, a seeded ``simulate``, ``audit`` and ``audit --replay`` of its
transcript and of the shipped samples (votes, a forfeit, a blame), the audit's errors (a
missing file, a folder, bytes that are no transcript, a file cut short) and argparse's own
errors; then what ``join`` and ``watch`` print, from the lobby's lines and a game's events.
Allowed besides the catalog's text: player names, numbers, paths, hashes and key
fingerprints (data), what is typed on a command line as it is (commands, options, their
choices and metavars), and a halted game's evidence (the engine's English, on purpose).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pclue.cli import build_parser, main
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.i18n import install
from p2pclue.i18n.pseudo import PSEUDO
from tests.pseudo_check import screen_problems

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "protocol" / "samples"
NAMES = ("Ada", "Bruno", "Chiara", "Dmitri", "Emma", "Farah")
HEX = re.compile(r"\b[0-9a-f]{6,}\b")


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    yield
    install("en")


def run(*argv: str) -> tuple[int, str]:
    """``p2pclue --lang qps ARGV``: its exit status and what it printed (out, then err)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["--lang", PSEUDO, *argv])
        except SystemExit as exc:
            code = int(exc.code or 0)
    install("en")
    return code, out.getvalue() + err.getvalue()


def command_line_words() -> set[str]:
    """What a person types as it is: commands, options, choices, metavars, --lang codes."""
    from p2pclue.i18n import LANGUAGES

    words: set[str] = set(LANGUAGES)
    parsers = [build_parser()]
    while parsers:
        parser = parsers.pop()
        for action in parser._actions:
            words.update(action.option_strings)
            if isinstance(action, argparse._SubParsersAction):
                words.update(action.choices)
                parsers += list(action.choices.values())
            if action.choices is not None:
                words.update(str(c) for c in action.choices)
            if isinstance(action.metavar, str):
                words.update(re.findall(r"[A-Za-z]+", action.metavar))
            elif action.option_strings:  # argparse's own metavar: the option's name
                words.add(action.dest.upper())
            if not action.option_strings:
                words.add(action.dest)
    from p2pclue.engine.cheats import PHASED
    from p2pclue.tui.__main__ import build_parser as tui_parser

    words.update(phase for phases in PHASED.values() for phase in phases)  # --cheat-phase

    for action in tui_parser()._actions:
        words.update(str(c) for c in action.choices or ())
        if action.option_strings and action.metavar is None:
            words.add(action.dest.upper())
    return words


def problems(text: str, *data: str) -> list[str]:
    plain = HEX.sub(lambda m: " " * len(m.group()), text)
    return screen_problems(plain.splitlines(), [*NAMES, *command_line_words(), *data],
                           separator="\x00")


@pytest.fixture(scope="module")
def transcript(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sim") / "game.p2pclue"
    code, said = run("simulate", "--seed", "5", "--players", "3", "--transcript", str(path))
    assert code == 0, said
    return path


@pytest.mark.parametrize("command", [(), ("join",), ("watch",), ("simulate",), ("audit",),
                                     ("bench",)])
def test_every_commands_help(command: tuple[str, ...]) -> None:
    code, said = run(*command, "--help")
    assert code == 0 and "\u27e6" in said, said
    assert not problems(said), "\n".join([*problems(said), said])


def test_the_play_now_commands_help() -> None:
    from p2pclue.tui.__main__ import main as tui_main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        tui_main(["--lang", PSEUDO, "--help"])
    install("en")
    assert "\u27e6" in out.getvalue()
    assert not problems(out.getvalue(), "python", "tui"), out.getvalue()


def test_simulate_says_a_whole_game_in_catalog_words(transcript: Path) -> None:
    code, said = run("simulate", "--seed", "5", "--players", "3")
    assert code == 0 and said.count("\n") > 40, said
    assert not problems(said), "\n".join(problems(said))


@pytest.mark.parametrize("replay", [False, True])
def test_audit_of_a_game(transcript: Path, replay: bool) -> None:
    code, said = run("audit", *(["--replay"] if replay else []), str(transcript))
    assert code == 0, said
    assert not problems(said, str(transcript)), "\n".join(problems(said, str(transcript)))


@pytest.mark.parametrize("sample", ["abandoned-forfeit-votes", "halted-bias-dice",
                                    "votes-signed-early", "false-blame-nothing"])
def test_audit_of_the_samples_notes_and_verdicts(sample: str) -> None:
    path = SAMPLES / f"{sample}.p2pclue"
    raw = path.read_bytes()
    verdict = audit(parse(raw), raw)
    evidence = []
    if verdict.violation is not None:  # the check's name and the engine's reason: evidence
        evidence = [verdict.violation.check, *verdict.violation.reason.split()]
    code, said = run("audit", str(path))
    assert code in (0, 1), said
    found = problems(said, str(path), *evidence)
    assert not found, "\n".join([*found, said])
    if verdict.notes:
        assert "\u27e6" in said and "[0, 1]" not in said, said  # notes said, lists in words


def test_a_note_names_cards_not_numbers(tmp_path: Path) -> None:
    """A leaver's hand in an audit note was "[0, 2, 12, 13, 17, 18]"."""
    from p2pclue.engine.errors import CardsNo, Note
    from p2pclue.i18n import card_name, note_text

    note = Note("seat {seat} left the table with its hand face up {cards}", seat=2,
                cards=CardsNo((0, 12)))
    assert str(note) == "seat 2 left the table with its hand face up [0, 12]"  # --json
    for lang in ("en", "it", "ko"):
        install(lang)
        said = note_text(note)
        folded = said.casefold()  # a card in a list takes its article: "e la cucina"
        assert card_name(0).casefold() in folded and card_name(12).casefold() in folded, said
        assert "[0" not in said, said


@pytest.mark.parametrize("case", ["missing", "folder", "not a transcript", "cut short"])
def test_audit_errors_are_said_in_catalog_words(tmp_path: Path, transcript: Path,
                                               case: str) -> None:
    path = {"missing": tmp_path / "nope.p2pclue", "folder": tmp_path,
            "not a transcript": tmp_path / "junk.p2pclue",
            "cut short": tmp_path / "cut.p2pclue"}[case]
    if case == "not a transcript":
        path.write_bytes(b"hello, this is not a transcript at all")
    if case == "cut short":
        path.write_bytes(transcript.read_bytes()[:300])
    code, said = run("audit", str(path))
    assert code == 2 and "\u27e6" in said, said
    found = problems(said, str(path))
    assert not found, "\n".join([*found, said])
    for english in ("No such file", "directory", "magic", "truncated"):
        assert english not in said, said


@pytest.mark.parametrize("argv", [("simulate", "--players", "9"),
                                  ("simulate", "--cheater", "1"),
                                  ("audit",), ("nonsense",)])
def test_usage_errors(argv: tuple[str, ...]) -> None:
    code, said = run(*argv)
    assert code == 2 and "\u27e6" in said, said
    found = problems(said, *argv)  # what was typed is quoted back as it was
    assert not found, "\n".join([*found, said])


def test_what_join_and_watch_print(transcript: Path) -> None:
    """The lobby's lines and a whole game's story, presence, waiting and end lines, as
    ``join`` and ``watch`` print them (``cli.join``), with a bot and a spectator."""
    import time

    from p2pclue.cli import join
    from p2pclue.cli.narrate import Narrator
    from p2pclue.engine.config import GameConfig
    from p2pclue.net import api
    from p2pclue.net.lobby import LobbyView, Member, TableInfo
    from p2pclue.net.store import audit_file
    from p2pclue.rules.variants import preset

    raw = transcript.read_bytes()
    verdict = audit(parse(raw), raw)
    config: GameConfig = parse(raw).config
    out = io.StringIO()
    install(PSEUDO)
    with contextlib.redirect_stdout(out):
        table = TableInfo("tavolo", preset("classic"), 3)
        members = (Member(b"a" * 32, "Ada", "player", 0, True),
                   Member(b"b" * 32, "Bruno (hard bot)", "player", 1, False),
                   Member(b"c" * 32, "Emma", "spectator", None, False))
        for line in join.lobby_lines(LobbyView(table, members, 2)):
            print(line)
        say = join.Printer(quiet=False)
        narrator = Narrator(config)
        now = time.monotonic()
        bot = "Bruno (hard bot)"
        ok, audited = audit_file(transcript)  # the end line's audit, as a session makes it
        lost = transcript.with_name("gone.p2pclue")
        unread, unreadable = audit_file(lost)
        assert ok and unread is False, (audited, unreadable)
        events: list[api.SessionEvent] = [
            api.Presence(bot, 1, True), api.Presence("Emma", None, True),
            api.Presence(bot, 1, False), api.Presence(bot, 1, True),
            api.Presence(bot, 1, False, silent=True), api.Presence(bot, 1, True),
            api.Waiting(2, now - 10, now + 50), *(api.Engine(e) for e in verdict.events),
            api.Engine(ev.PeerSilent(1, now)), api.Ended("complete", transcript, ok, audited),
            api.Ended("complete", lost, unread, unreadable)]
        for event in events:
            join._tell(narrator, event, say, private=False)
    install("en")
    said = out.getvalue()
    assert "\u27e6" in said and said.count("\n") > 40, said
    found = problems(said, str(transcript), str(lost), "tavolo")
    assert not found, "\n".join([*found, said])
    assert "No such file" not in said, said


def test_no_english_system_error_reaches_a_person(tmp_path: Path) -> None:
    """The errno conditions people meet are said through the catalog, never strerror."""
    import errno

    from p2pclue.i18n import os_error_text

    install(PSEUDO)
    for code in (errno.ENOENT, errno.EACCES, errno.EISDIR, errno.ENOSPC, errno.ENOTDIR,
                 errno.EROFS, errno.ECONNREFUSED, errno.EADDRINUSE):
        said = os_error_text(OSError(code, "strerror in English"))
        assert said.startswith("\u27e6") and "English" not in said, said
    assert "EBUSY" in os_error_text(errno.EBUSY)  # a rare one: its symbol, in catalog words
    from p2pclue.i18n import os_error_line
    from p2pclue.net.transport import Unreachable

    gone = os_error_line(FileNotFoundError(errno.ENOENT, "No such file", "x.p2pclue"))
    assert gone.startswith("\u27e6") and "x.p2pclue" in gone and "No such" not in gone, gone
    ours = Unreachable("\u27e6already in catalog words\u27e7")  # an OSError with no errno
    assert os_error_line(ours) == str(ours)
    install("en")
    shutil.rmtree(tmp_path, ignore_errors=True)


@pytest.mark.parametrize("command", ["join", "watch"])
def test_an_os_error_at_joins_last_guard_is_said_in_catalog_words(tmp_path: Path,
                                                                   command: str) -> None:
    """An OSError no layer below turned into a message reaches ``join``'s last guard: it
    printed ``[Errno 21] Is a directory: '...'`` in every language."""
    from p2pclue.cli import join

    def fails() -> int:
        return len(tmp_path.read_bytes())  # a folder: IsADirectoryError, strerror in English

    err = io.StringIO()
    install(PSEUDO)
    with contextlib.redirect_stderr(err):
        code = join._guarded(command, fails)
    install("en")
    said = err.getvalue()
    assert code == 2 and str(tmp_path) in said and "\u27e6" in said, said
    assert "Errno" not in said and "directory" not in said, said
    assert not problems(said, str(tmp_path)), "\n".join([*problems(said, str(tmp_path)), said])
