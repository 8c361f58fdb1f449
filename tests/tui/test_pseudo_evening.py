"""The family evening's screens and lines in the pseudo-locale, at 80 x 24: the end screen
that offers to play again with the evening's score (after one game and after several), the
lobby that shows the score, the lines said while the table waits for another player (what
they are doing, away, not answering, a step of the deal or a verdict), the transcript's
line left in the terminal after the end, ``--plain``'s play-again question and the code
question of ``watch``.

Each is built in this process from models set up by their events (the end screens from the
one recorded game of ``tests.tui.pseudo_game``), drawn by prompt_toolkit into pyte or
printed as the product prints it, and read by ``tests.pseudo_check``: a word of plain English
never went through a catalog, a ``⟦`` without its ``⟧`` is a message cut off. The same
screens in every real language must cut no word either.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pclue.bots.protocol import make_config
from p2pclue.engine.config import GameConfig
from p2pclue.i18n import LANGUAGES, _, install
from p2pclue.i18n.pseudo import PSEUDO
from p2pclue.net.api import Ended, Presence, Progress, Waiting
from p2pclue.net.discovery import fingerprint
from p2pclue.net.lobby import LobbyView, Member, TableInfo
from p2pclue.net.play import Opened, WrongTableCode
from p2pclue.rules import game as rg
from p2pclue.rules.actions import Accuse, Roll, Suggest
from p2pclue.rules.state import GameState, Phase
from p2pclue.rules.variants import preset
from p2pclue.tui.evening import Evening
from p2pclue.tui.lobby import LineFeed, LobbyModel, PlainLobby, lobby_layout
from p2pclue.tui.model import Screen, UIModel
from tests.pseudo_check import catalog_ellipses, cut_words, screen_problems
from tests.tui.model_screen import draw, screen_of
from tests.tui.pseudo_game import ME, TRANSCRIPT, path_pieces, recorded

LONG_NAMES = ("Margherita", "Bartolomeo", "Gianfranco", "Ludovica", "Massimiliano",
              "Cristoforo")
"""The players of an earlier game of the evening: long names make the score line long."""
ME_KEY, ADA, BOT, EVE = b"\x01" * 32, b"\x02" * 32, b"\x03" * 32, b"\x04" * 32


def _profile(below: Path) -> Path:
    return below / "p2pclue" / "profiles" / "massimiliano-di-casa" / TRANSCRIPT


def _allowed(below: Path) -> list[str]:
    names = [*(p.name for p in recorded().config.players), *LONG_NAMES]
    return [*names, *(n[:2] for n in names), *path_pieces(_profile(below)),
            "tavolo", "257968", "127.0.0.1:50123",
            *(fingerprint(k) for k in (ME_KEY, ADA, BOT, EVE))]


def _renamed(config: GameConfig, names: tuple[str, ...]) -> GameConfig:
    return dataclasses.replace(config, players=tuple(
        dataclasses.replace(p, name=n) for p, n in zip(config.players, names, strict=False)))


def _evening(games_before: int) -> Evening:
    """An evening with ``games_before`` games already played: the first with six players
    of long names (won by one of them), the rest the recorded game's table (its winner)."""
    evening = Evening()
    g = recorded()
    last = g.steps[-1].state
    for k in range(games_before):
        if k == 0:
            config, _keys = make_config(preset("classic"), 6, seed=5)
            config = _renamed(config, LONG_NAMES)
            won = rg.new_game(preset("classic"), [p.suspect for p in config.players],
                              hand_sizes=[3] * 6, weapon_rooms={6 + i: 12 + i for i in range(6)})
            evening.record(config, dataclasses.replace(won, result="won", winner=4))
        else:
            evening.record(g.config, last)
    return evening


def _end(games_before: int, below: Path, hands: bool = True) -> UIModel:
    """The recorded game's end at an evening's table: the score counts this game too."""
    g = recorded()
    m = UIModel(g.config, ME)
    m.can_leave = m.can_vote = True
    m.evening = _evening(games_before)
    for step in g.steps:
        m.on_event(step.event, step.state, step.hand)
    m.on_event(Ended("complete", _profile(below), True,
                     _("audit: valid, every signature, proof and rule checked")), m.state, m.hand)
    assert m.again_offered()
    if hands:
        m.end.hands = g.hands
    return m


# ---- the table waits for someone -----------------------------------------------------


def _table() -> tuple[UIModel, GameState]:
    config, _keys = make_config(preset("classic"), 3, seed=3)
    config = _renamed(config, ("Ludovica", "Massimiliano", "Bartolomeo"))
    state = rg.new_game(preset("classic"), [p.suspect for p in config.players],
                        hand_sizes=[6, 6, 6], weapon_rooms={6 + i: 12 + i for i in range(6)})
    model = UIModel(config, 0)
    model.can_leave = model.can_vote = True
    model.screen = Screen.GAME
    return model, state


def _phases() -> dict[str, GameState]:
    """A state for each thing the awaited player (seat 1) may be doing."""
    _model, state = _table()

    def in_room(seat: int) -> tuple[GameState, GameState]:
        rolled = rg.apply(dataclasses.replace(state, current_seat=seat), Roll(seat, (4,)))
        tokens = list(rolled.tokens)
        tokens[rolled.seats[seat]] = 12
        return rolled, dataclasses.replace(rolled, tokens=tuple(tokens), entered_room=12,
                                           phase=Phase.AWAIT_SUGGESTION_OR_END,
                                           entry_allows_suggestion=True)

    rolled, choosing = in_room(1)
    showing = rg.apply(in_room(0)[1], Suggest(0, 2, 6))
    assert showing.awaiting_seat == 1
    accused = rg.apply(choosing, Accuse(1, 0, 6, 12))
    return {"starting a turn": dataclasses.replace(state, current_seat=1), "moving": rolled,
            "choosing": choosing, "showing a card": showing, "a verdict": accused}


def _waiting(name: str) -> UIModel:
    model, _state = _table()
    now = time.monotonic()
    if name.startswith("the deal"):
        model.screen = Screen.DEALING
        model.on_event(Progress("deal", 1, 2, 3), None, ())
        model.expect(1, now - 12)
        return model
    phases = _phases()
    model.state = phases.get(name.removeprefix("waiting, "), phases["moving"])
    model.expect(1, now - 12)
    if "away" in name or "not answering" in name:
        silent = "not answering" in name
        model.on_event(Presence("Massimiliano", 1, False, silent=silent), model.state, ())
        if "nobody" in name:
            model.on_event(Presence("Bartolomeo", 2, False, silent=True), model.state, ())
    if "vote" in name:
        model.on_event(Waiting(1, now - 75, now + 45), model.state, ())
    return model


WAITING = ("waiting, starting a turn", "waiting, moving", "waiting, choosing",
           "waiting, showing a card", "waiting, a verdict", "the deal, waiting",
           "waiting, away", "waiting, not answering", "waiting, not answering, nobody",
           "waiting, not answering, vote")


@pytest.fixture(autouse=True)
def _pseudo() -> Iterator[None]:
    install(PSEUDO)
    yield
    install("en")


def _check(lines: list[str], below: Path, separator: str = "\u2502") -> None:
    problems = screen_problems(lines, _allowed(below), separator)
    assert not problems, "\n".join([*problems, "", *lines])
    assert any("\u27e6" in line for line in lines), lines  # not blank, not English


def test_the_checks_see_a_score_cut_off_and_english_in_it() -> None:
    assert screen_problems(["\u27e6Ĝáḿéš ŵóñ (óƒ 2 ĝáḿéš): Ada 1, Bru"]) != []
    assert screen_problems(["\u27e6Ĝáḿéš ŵóñ: Ada 1\u27e7 games"], ["Ada"]) != []


@pytest.mark.parametrize("games_before", [0, 2])
def test_the_end_screen_offers_to_play_again_with_the_evenings_score(
        games_before: int, tmp_path: Path) -> None:
    m = _end(games_before, tmp_path)
    lines = screen_of(m)
    _check(lines, tmp_path)
    text = "".join("".join(lines).split())
    score = m.evening.line() if m.evening is not None else ""
    assert score and "".join(score.split()) in text, (score, lines)  # whole, never cut
    assert "".join(_("p: play again · q: leave · {key}: read back the story").split(
        "{key}")[0].split()) in text


def test_the_end_screen_while_the_hands_are_read(tmp_path: Path) -> None:
    _check(screen_of(_end(1, tmp_path, hands=False)), tmp_path)


def _lobby(games: int) -> LobbyModel:
    model = LobbyModel(ME_KEY, "Massimiliano")
    model.opened = Opened("tavolo", "257968", "127.0.0.1", 50123, fingerprint(ME_KEY), True)
    model.evening = _evening(games)
    model.on_view(LobbyView(TableInfo("tavolo", preset("classic"), 4), (
        Member(ADA, "Margherita", "player", 0, True),
        Member(BOT, "Bartolomeo", "player", 1, True),
        Member(ME_KEY, "Massimiliano", "player", 2, False),
        Member(EVE, "Ludovica", "spectator"),
    )))
    return model


@pytest.mark.parametrize("games", [1, 3])
def test_the_lobby_of_the_next_game_shows_the_score(games: int, tmp_path: Path) -> None:
    model = _lobby(games)
    lines = draw(lambda w, h: lobby_layout(model, lambda: w))
    _check(lines, tmp_path)
    score = model.evening.line() if model.evening is not None else ""
    assert "".join(score.split()) in "".join("".join(lines).split()), (score, lines)


def test_the_plain_lobby_says_the_score(tmp_path: Path) -> None:
    out = io.StringIO()
    read, write = os.pipe()
    with os.fdopen(read, "r", encoding="utf-8") as r, os.fdopen(write, "w") as w:
        front = PlainLobby(_lobby(3), asyncio.Queue(), LineFeed(r), out)
        front.refresh()
        w.write("\n")
    said = out.getvalue()
    _check(said.splitlines(), tmp_path, separator="\x00")
    score = front.model.evening.line() if front.model.evening is not None else ""
    assert score in said, said


@pytest.mark.parametrize("name", WAITING)
def test_a_waiting_screen_says_only_catalog_text(name: str, tmp_path: Path) -> None:
    model = _waiting(name)
    lines = screen_of(model)
    _check(lines, tmp_path)


def test_the_waiting_lines_are_on_their_screens() -> None:
    """Each waiting screen shows its own line (a check of a screen without it proves
    nothing): read in English, the words the catalog gives."""
    install("en")
    said = {name: " ".join(" ".join(ln.split("\u2502")[0].split()) for ln in
                           screen_of(_waiting(name))) for name in WAITING}
    assert "Massimiliano is starting a turn." in said["waiting, starting a turn"]
    assert "Massimiliano is moving." in said["waiting, moving"]
    assert "Massimiliano is choosing: a suggestion" in said["waiting, choosing"]
    assert "Massimiliano is choosing a card to show." in said["waiting, showing a card"]
    assert "Waiting for Massimiliano..." in said["waiting, a verdict"]
    assert "Massimiliano is away" in said["waiting, away"]
    assert "Massimiliano is not answering (network?)" in said["waiting, not answering"]
    assert "Nobody else is answering" in said["waiting, not answering, nobody"]
    assert "w to wait more" in said["waiting, not answering, vote"]


def test_the_transcripts_line_after_the_end(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """What the terminal keeps once the full screen is gone: the path, whole on one line."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from p2pclue.net.local import LocalSession
    from p2pclue.tui.app import TableApp

    session = LocalSession(preset("classic"), 3, seed=7, transcript_dir=tmp_path)
    with create_pipe_input() as keys:
        app = TableApp(session, input=keys, output=DummyOutput(), color=False)
        app.model.on_event(Ended("complete", _profile(tmp_path), True, ""), None, ())
        capsys.readouterr()
        app._say_where_the_transcript_is()
    printed = capsys.readouterr().out
    assert str(_profile(tmp_path)) in printed.splitlines()[0], printed
    _check(printed.splitlines(), tmp_path, separator="\x00")


def test_plain_play_again_question(tmp_path: Path) -> None:
    from p2pclue.net.local import LocalSession
    from p2pclue.tui.plain import PlainUI

    session = LocalSession(preset("classic"), 3, seed=7, transcript_dir=tmp_path)
    out = io.StringIO()
    ui = PlainUI(session, out, lambda: "p\n")
    ui.model.evening = _evening(2)
    ui.model.on_event(Ended("complete", _profile(tmp_path), True, ""), None, ())
    assert asyncio.run(ui.play_again())
    _check(out.getvalue().splitlines(), tmp_path, separator="\x00")


@pytest.mark.parametrize("tries", [0, 2])
@pytest.mark.parametrize("opener", [None, fingerprint(ME_KEY)])
def test_the_watch_code_question(tries: int, opener: str | None, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    from p2pclue.cli.join import _ask_code

    refusal = str(WrongTableCode(_("the table refused the code (wrong code?)"))) if tries \
        else ""
    read, write = os.pipe()
    with os.fdopen(read, "r", encoding="utf-8") as r, os.fdopen(write, "w") as w:
        w.write("257968\n")
        w.flush()
        code = asyncio.run(_ask_code(LineFeed(r), "tavolo", opener, refusal, tries))
    assert code == "257968"
    _check(capsys.readouterr().out.splitlines(), tmp_path, separator="\x00")


def _shown_in(lang: str, below: Path) -> dict[str, tuple[list[str], str]]:
    """The evening's screens in ``lang``, each with the score it must show whole."""
    install(lang)
    try:
        shown: dict[str, tuple[list[str], str]] = {}
        for games in (0, 2):
            m = _end(games, below)
            shown[f"end, {games + 1} games"] = (screen_of(m), _score(m.evening))
        for games in (1, 3):
            lobby = _lobby(games)
            shown[f"lobby, {games} games"] = (draw(lambda w, h, m=lobby: lobby_layout(  # type: ignore[misc]
                m, lambda: w)), _score(lobby.evening))
        shown |= {name: (screen_of(_waiting(name)), "") for name in WAITING}
        return shown
    finally:
        install(PSEUDO)


def _score(evening: Evening | None) -> str:
    assert evening is not None
    return evening.line()


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_the_evenings_screens_in_each_language_cut_nothing(lang: str, tmp_path: Path) -> None:
    """Each language's own lengths: no name or sentence cut by a layout (an ellipsis that
    is not the catalog's own), no field left unfilled, the score whole."""
    legit = catalog_ellipses(lang)
    for name, (lines, score) in _shown_in(lang, tmp_path).items():
        text = "\n".join(lines)
        assert "{" not in text and "}" not in text, (lang, name, text)
        cut = cut_words(lines, legit, names=_allowed(tmp_path))
        assert not cut, (lang, name, cut, text)
        assert "".join(score.split()) in "".join(text.split()), (lang, name, score, text)
