"""The terminal UI's model in another language: room initials and words follow it."""

from __future__ import annotations

import asyncio
import dataclasses
import io
from pathlib import Path

import pytest

from p2pclue.bots.protocol import make_config
from p2pclue.engine.peer import Choice
from p2pclue.i18n import card_name, fold, install
from p2pclue.net.api import Progress, YourChoice
from p2pclue.net.local import FAST, LocalSession
from p2pclue.rules import game as rg
from p2pclue.rules.actions import Roll
from p2pclue.rules.board import classic_board
from p2pclue.rules.cards import SUSPECTS, WEAPONS
from p2pclue.rules.variants import preset
from p2pclue.tui.app import KEYS
from p2pclue.tui.model import Mode, UIModel
from p2pclue.tui.plain import PlainUI

LOUNGE = 18


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


def _near_the_lounge(lang: str) -> tuple[UIModel, object]:
    install(lang)
    config, _ = make_config(preset("classic"), 3, seed=3)
    model = UIModel(config, 0)
    state = rg.new_game(preset("classic"), [p.suspect for p in config.players],
                        hand_sizes=[6, 6, 6], weapon_rooms={6 + i: 12 + i for i in range(6)})
    seat = state.current_seat
    model.seat = seat
    rolled = rg.apply(state, Roll(seat, (6,)))
    board = classic_board()
    near = next(sq for sq in board.corridor if board.steps_to_room(sq, LOUNGE) == 2)
    tokens = list(rolled.tokens)
    tokens[rolled.seats[seat]] = near
    rolled = dataclasses.replace(rolled, tokens=tuple(tokens))
    model.on_event(YourChoice(Choice("turn")), rolled, ())
    return model, rolled


@pytest.mark.parametrize(("lang", "initial"), [("cs", "s"), ("it", "s"), ("fr", "s"),
                                                ("sq", "s"), ("en", "l")])
def test_a_room_initial_in_the_players_language(lang: str, initial: str) -> None:
    model, _ = _near_the_lounge(lang)
    assert model.mode is Mode.MOVE
    assert fold(card_name(LOUNGE))[0] == initial
    model.press(initial)
    room = classic_board().room_at(model.cursor) if model.cursor is not None else None
    assert room is not None and fold(card_name(room)).startswith(initial), (lang, room)


def test_every_rooms_initial_is_a_key_in_every_latin_language() -> None:
    for lang in ("cs", "en", "fr", "it", "sq"):
        for room in range(12, 21):
            assert fold(card_name(room, lang))[0] in KEYS, (lang, card_name(room, lang))


def test_progress_and_titles_in_the_language() -> None:
    model, _ = _near_the_lounge("cs")
    assert [(a.key, a.label) for a in model.actions()][:2] == [("šipky", "vybrat"),
                                                               ("Enter", "jít")]
    model.on_event(Progress("envelope", 1, 2, 3), None, ())
    assert model.progress_text == "Bruno míchá karty pro pouzdro, 2 z 3"


def test_plain_mode_takes_a_card_by_name_in_the_language(tmp_path: Path) -> None:
    install("cs")
    session = LocalSession(preset("classic"), 3, seed=5, pace=FAST, transcript_dir=tmp_path)
    answers = iter(["xyz\n", "Kuchyne\n", "dyka\n", "2\n"])
    out = io.StringIO()
    ui = PlainUI(session, out, lambda: next(answers))

    async def pick() -> tuple[int, int]:
        try:
            weapons = await ui._pick("Jakým předmětem?", WEAPONS)  # "xyz", a room: refused
            suspects = await ui._pick("Kterou osobu?", SUSPECTS)
            return weapons, suspects
        finally:
            await session.close()

    weapon, suspect = asyncio.run(pick())
    assert WEAPONS[weapon].slug == "dagger"   # typed "dyka" (Dýka, without its accent)
    assert SUSPECTS[suspect].slug == "mustard"  # then a number
    text = out.getvalue()
    assert "žádná karta se nejmenuje 'xyz'" in text
    assert "Kuchyň mezi nimi není." in text
    assert "číslo nebo název" in text and "1. Svícen" in text
