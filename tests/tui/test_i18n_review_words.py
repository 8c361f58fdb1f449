"""What a newcomer's review of the game screens found in the languages (after issue 20).

Board labels that read as another word (Italian "Chiave" and French "Clé", a key, for the
wrench; "Sala"/"Salle" for the billiard room beside two other "Sala ..."; Korean 밧, 파),
weapon codes the help never explained, the rules preset left in English ("regole classic"),
footer keys other than the help's ("Enter:vai" beside "Invio"), the arrows dropped from the
footer, and "the dice" where the game rolls one die. Each is read on the screen a person
sees (prompt_toolkit drawn into a pyte terminal) or from the command (``main``, in this
process).
"""

from __future__ import annotations

import json
import re

import pytest

from p2pclue.i18n import LANGUAGES, _, card_name, install, parse_card, rules_label, text_width
from p2pclue.rules import game as rg
from p2pclue.rules.actions import Roll
from p2pclue.rules.cards import ROOMS, WEAPONS
from p2pclue.tui import board as bd
from p2pclue.tui import view
from p2pclue.tui.model import Mode
from p2pclue.tui.screens import help_text
from tests.cli.helpers import run_main
from tests.tui.model_screen import screen_of
from tests.tui.test_ux import _model

LANGS = ["en", *sorted(set(LANGUAGES) - {"en"})]
GENERIC = {"Sala", "Salle", "Sallë", "Chiave", "Clé", "Çelës", "납"}
"""First words the review read as something else: a "hall" three rooms share, a key."""


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


def _help(lang: str) -> str:
    """Every page of the in-game help, as the 80 x 24 screen shows it."""
    install(lang)
    model, _state = _model()
    model.press("?")
    pages = []
    for _page in range(4):
        screen = screen_of(model)
        body = [ln for ln in screen[1:-1] if ln.strip()][:-1]  # no status line, page footer
        pages.append(" ".join(" ".join(body).split()))
        model.press("down")
    return " ".join([*pages, screen[-1].strip()])  # and its bar: "Esc or any letter: ..."


@pytest.mark.parametrize("lang", LANGS)
def test_every_board_label_names_its_card_and_nothing_else(lang: str) -> None:
    install(lang)
    widest = {room: max(sl[2] for sl in slots) * bd.CELL
              for room, slots in bd.label_slots(False).items()}
    labels = [(bd.room_label(r.index, widest[r.index]), r.index) for r in ROOMS]
    labels += [(bd.weapon_short(w.index), w.index) for w in WEAPONS]
    for label, index in labels:
        assert parse_card(label, lang) == index, (label, card_name(index))
        assert label.split()[0] not in GENERIC or len(label.split()) > 1, label
    for room in ROOMS:  # the label fits the room, uncut
        assert text_width(bd.room_label(room.index, widest[room.index])) \
            <= widest[room.index], room
    # The review's screen: the wrench alone in the kitchen, the billiard room's label.
    pic = bd.BoardPicture({}, {}, {12: (11,), 16: (9, 10, 6)}, frozenset(), None, None)
    drawn = "".join(t for _s, t, *_ in bd.render(pic, tall=False, color=False))
    assert bd.weapon_short(11) in drawn and bd.room_label(16, widest[16]) in drawn, drawn
    if lang == "it":
        assert "Chiave ingl." in drawn and "Biliardo" in drawn
    if lang == "fr":
        assert "Clé angl." in drawn and "Billard" in drawn


@pytest.mark.parametrize("lang", LANGS)
def test_the_help_explains_every_weapon_code_the_board_draws(lang: str) -> None:
    shown = _help(lang)
    for w in WEAPONS:
        code = bd.weapon_tiny(w.index)
        install(lang)
        name = card_name(w.index)
        if code in name.split() or code == bd.weapon_short(w.index):
            continue  # the weapon's own word (Korean: 밧줄, 파이프), not a code
        assert re.fullmatch(r"[^\W\d_]{2}", code) and text_width(code) == 2, code
        assert f"{code} {name}" in shown, (lang, code, name, shown)
    if lang == "en":
        assert "Cs Candlestick" in shown and "Wr Wrench" in shown


def test_korean_weapons_in_a_crowded_room_are_words_not_one_syllable() -> None:
    install("ko")
    for w in WEAPONS:
        assert bd.weapon_tiny(w.index) in card_name(w.index).split(), bd.weapon_tiny(w.index)
    assert bd.weapon_short(8) == "파이프"  # not 납 ("lead")


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_the_rules_preset_is_named_in_the_readers_language(lang: str) -> None:
    install(lang)
    for preset_name in ("classic", "cz"):
        assert rules_label(preset_name) != preset_name, (lang, preset_name)
    model, _state = _model()
    status = "".join(t for _s, t, *_ in view.status_line(model, 120))
    assert rules_label("classic") in status and not re.search(r"\bclassic\b", status), status
    assert f"{rules_label('classic')}." in " ".join(help_text_lines(model))


def help_text_lines(model: object) -> list[str]:
    from p2pclue.tui.model import UIModel

    assert isinstance(model, UIModel)
    lines: list[str] = []
    for page in range(4):
        model.help_page = page
        lines += ["".join(t for _s, t, *_ in help_text(model, 80, 24))]
    return lines


def test_simulate_names_the_preset_for_people_and_keeps_it_in_json() -> None:
    done = run_main("--lang", "it", "simulate", "--seed", "7", "--players", "3", "--json")
    assert done.returncode == 0, done.stderr
    said = done.stdout
    assert "regole classiche" in said.splitlines()[0] and "classic," not in said, said[:300]
    assert json.loads(said.splitlines()[-1])["rules"] == "classic"


@pytest.mark.parametrize("lang", LANGS)
def test_footer_keys_are_the_helps_and_the_arrows_stay(lang: str) -> None:
    install(lang)
    model, state = _model()
    seat = state.current_seat
    model.seat = seat
    from p2pclue.engine.peer import Choice
    from p2pclue.net.api import YourChoice

    model.on_event(YourChoice(Choice("turn")), rg.apply(state, Roll(seat, (4,))), ())
    assert model.mode is Mode.MOVE
    bar = " ".join(screen_of(model)[-1].split())
    assert f"{_('arrows')}:" in bar, (lang, bar)
    shown = _help(lang)
    keys = [a.key for a in model.actions() if len(a.key) > 1]  # arrows, Enter, Esc
    assert keys, model.actions()
    for key in keys:  # every key name the footer writes, the help writes the same way
        assert key in shown, (lang, key)


@pytest.mark.parametrize("lang", LANGS)
def test_the_help_says_one_die_as_the_rules_do(lang: str) -> None:
    """Both presets roll one die (rules R12): "roll the dice" beside "Roll a die" was wrong."""
    shown = _help(lang)
    plural = {"en": r"\bdice\b", "it": r"\bdadi\b", "fr": r"\bdés\b", "sq": r"\bzaret\b",
              "cs": r"\bkostkami\b", "ko": r"주사위 두"}[lang]
    assert not re.search(plural, shown), (lang, re.search(plural, shown))
    single = {"en": "roll the die", "it": "tirare il dado", "fr": "lancer le dé",
              "sq": "hidh zarin", "cs": "hodit kostkou", "ko": "주사위 굴리기"}[lang]
    assert single in shown, (lang, shown)
