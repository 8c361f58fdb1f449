"""Every screen of the game at 80 x 24 in the pseudo-locale: all of it from the catalogs, and
nothing cut off.

One seeded game is replayed into the terminal UI's model (``tests.tui.pseudo_game``) and
its screens are drawn by prompt_toolkit into pyte, as a terminal shows them. On each, a
word of plain English is text that never went through a catalog, a ``⟦`` without its
``⟧`` a message cut off, and "42%" a percentage written by hand (``tests.pseudo_check``).
Player names, card names, numbers and the keys' letters are the only other text allowed;
so are a halted game's evidence (the protocol check's name and the engine's reason, kept
in English on purpose) and the transcript's path, which are data.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pclue.i18n import LANGUAGES, install
from p2pclue.i18n.pseudo import PSEUDO
from tests.pseudo_check import catalog_ellipses, cut_words, screen_problems
from tests.tui.pseudo_game import EVIDENCE, TRANSCRIPT, path_pieces, recorded, tour

EXPECTED = (
    "dealing", "dealing, quit question", "first turn", "game help 1", "game help 2",
    "quit question", "move", "move, room key 9", "hint", "suggest, suspect",
    "suggest, weapon", "accuse, suspect", "accuse, room", "accuse, confirm",
    "notepad, row 0 column 0", "notepad, row 12 column 4", "show", "show, hint",
    "the last turn", "story read back", "story from the start", "waiting, away",
    "waiting, vote offered", "waiting, voted", "votes told", "a player left",
    "end, reading the hands", "end", "end, story", "end, abandoned",
    "end, abandoned with a forfeit", "end, halted", "end, halted, nobody to blame",
    "leave, asked", "leave, left", "terminal too small",
)


@pytest.fixture(scope="module")
def below(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the replayed game's transcript is said to be (nothing is written there)."""
    return tmp_path_factory.mktemp("profile")


@pytest.fixture(scope="module")
def screens(below: Path) -> Iterator[dict[str, list[str]]]:
    install(PSEUDO)
    try:
        yield tour(below)
    finally:
        install("en")


def _allowed(below: Path) -> list[str]:
    names = [p.name for p in recorded().config.players]
    return [*names, *(n[:2] for n in names), *path_pieces(below / TRANSCRIPT), *EVIDENCE]


def test_the_tour_reaches_every_screen(screens: dict[str, list[str]]) -> None:
    missing = [name for name in EXPECTED if name not in screens]
    assert not missing, f"the replayed game never reached {missing}"
    assert all(len(lines) == 24 for name, lines in screens.items()
               if name != "terminal too small")


@pytest.mark.parametrize("name", EXPECTED)
def test_a_screen_says_only_catalog_text_and_cuts_none(screens: dict[str, list[str]],
                                                       below: Path, name: str) -> None:
    lines = screens[name]
    problems = screen_problems(lines, _allowed(below))
    assert not problems, "\n".join([*problems, "", *lines])


def test_every_screen_is_in_the_pseudo_locale(screens: dict[str, list[str]]) -> None:
    """Not blank, and in the pseudo-locale: a check that finds nothing on an empty or an
    English screen proves nothing."""
    for name, lines in screens.items():
        assert any("\u27e6" in line for line in lines), (name, lines)


def test_the_checks_see_what_they_look_for() -> None:
    assert screen_problems(["\u27e6Ŕóĺĺ\u27e7 ENV"]) != []          # English beside a message
    assert screen_problems(["\u27e6Ŕóĺĺ ţĥé ḋ…"]) != []             # a message cut off
    assert screen_problems(["ĥéĺḋ\u27e7"]) != []                   # its start cut off
    assert screen_problems(["\u27e6ŕóĺĺ 42%\u27e7"]) != []         # a percentage by hand
    assert screen_problems(["\u27e6Ŕóĺĺ Ada 42\u202f%\u27e7 r:x"], ["Ada"]) == []
    two_panes = ["\u27e6Ŕóĺĺ │\u27e6Ṁóṽé", "ţĥé ḋíé\u27e7│ñóŵ\u27e7"]  # wrapped in two panes
    assert screen_problems(two_panes) == []
    legit = {"pensando…", "…e"}
    assert cut_words(["│Colonnello Musta… ✓"], legit)
    assert not cut_words(["Consiglio: Sto pensando…", "  …e hai ragione"], legit)
    waiting = ["In attesa di Massimiliano…"]  # the catalog's "{player}…", a name whole
    assert not cut_words(waiting, {"{player}…"}, names=["Massimiliano"])
    assert cut_words(waiting, {"{player}…"}, names=["Massimilianone"])
    assert cut_words(waiting, {"{player}…"})


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_the_same_screens_in_each_language_cut_nothing(lang: str, tmp_path: Path) -> None:
    """Each language's own lengths (a translation may be longer than the pseudo-locale's
    40 %): every screen of the tour is drawn, every field filled, no name or sentence cut
    by a layout (an ellipsis that is not the catalog's own)."""
    install(lang)
    try:
        shown = tour(tmp_path)
    finally:
        install("en")
    legit = catalog_ellipses(lang)
    for name, lines in shown.items():
        text = "\n".join(lines)
        assert "{" not in text and "}" not in text, (lang, name, text)
        assert not cut_words(lines, legit), (lang, name, cut_words(lines, legit), text)
