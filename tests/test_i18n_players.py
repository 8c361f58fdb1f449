"""Players reach messages as separate values: each language orders them, places Korean 님
and its particles, and says a bot's level in the reader's own language.

A bot's level travels in its signed name in one fixed form ("Bruno (medium bot)"), never
in the opener's language, so a French opener's bot reads "Bruno 님(중급 봇)" on a Korean
screen; no screen glues two brackets ("Bruno (bot medio) (Colonnello Mustard)").
"""

from __future__ import annotations

import dataclasses
import re
import string

import pytest

from p2pclue.bots.protocol import make_config
from p2pclue.bots.registry import LEVEL_NAMES
from p2pclue.cli.human import bot_label
from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.i18n import LANGUAGES, install
from p2pclue.i18n.narrator import Narrator
from p2pclue.i18n.players import (
    LEVELS,
    PLAYER_FIELDS,
    level_word,
    player_spec,
    player_word,
    roster_name,
    split_name,
    you_word,
)
from p2pclue.rules.variants import preset
from tools.catalogs import po_path, read_catalog


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


def _config(names: list[str]) -> GameConfig:
    config, _keys = make_config(preset("classic"), len(names), 5)
    players = tuple(dataclasses.replace(p, name=n) for p, n in zip(config.players, names,
                                                                     strict=True))
    return dataclasses.replace(config, players=players)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_signed_name_is_the_same_whatever_the_openers_language(lang: str) -> None:
    install(lang)
    for level in LEVEL_NAMES:
        assert bot_label("Bruno", level) == f"Bruno ({level} bot)"
        assert split_name(bot_label("Bruno", level)) == ("Bruno", level)
    assert split_name("Bruno (medium)") == ("Bruno (medium)", None)  # a name, as typed
    with pytest.raises(ValueError):
        roster_name("Bruno", "expert")


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Bruno (medium bot)"), ("it", "Bruno (bot medio)"), ("fr", "Bruno (bot moyen)"),
    ("cs", "Bruno (průměrný bot)"), ("sq", "Bruno (robot mesatar)"),
    ("ko", "Bruno(중급 봇)"),
])
def test_every_reader_reads_the_level_in_their_own_language(lang: str, said: str) -> None:
    install(lang)
    assert str(player_word("Bruno (medium bot)")) == said
    for level in LEVELS:
        assert level_word(level) != f"{level} bot" or lang == "en"


def test_korean_puts_the_honorific_after_the_name_and_before_the_brackets() -> None:
    install("ko")
    bot = player_word("Bruno (medium bot)", suspect=1)
    assert format(bot, "님이") == "Bruno 님(중급 봇, 머스타드 대령)이"
    assert format(player_word("Ada"), "님을") == "Ada 님을"
    assert format(you_word(), "님이") == "내가" and format(you_word(), "님의") == "내"
    config = _config(["Ada", "Bruno (medium bot)", "Chiara"])
    told = [line.text for line in Narrator(config).tell(ev.DiceRolled(1, (4,)))]
    assert told == ["1턴: Bruno(중급 봇, 피콕 부인), 시작 칸에",
                    "Bruno 님(중급 봇)이 주사위를 굴려 4가 나옵니다."]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_no_screen_glues_two_brackets(lang: str) -> None:
    install(lang)
    config = _config(["Ada", "Bruno (hard bot)", "Chiara"])
    narrator = Narrator(config, me=0)
    lines = [line.text for line in narrator.introduction()]
    triple = (0, 6, 12)
    for event in (ev.DiceRolled(1, (4,)), ev.Suggested(1, 0, 6, 12), ev.Passed(2, 1, triple),
                  ev.Accused(1, triple), ev.AccusationDecided(1, triple, True),
                  ev.GameOver("won", 1, triple)):
        lines += [line.text for line in narrator.tell(event)]
    glued = [line for line in lines if re.search(r"\)\s*\(", line)]
    assert not glued, glued
    assert any(level_word("hard") in line for line in lines), lines


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_every_player_spec_in_a_catalog_renders(lang: str) -> None:
    """A translation may give a player field a Korean spec; each one renders with a player,
    a bot with its suspect and seat, and the local player."""
    install(lang)
    values = [player_word("Ada"), player_word("Bruno (easy bot)", seat=1, suspect=2),
              you_word()]
    for message in read_catalog(po_path(lang), lang):
        strings = message.string if isinstance(message.string, tuple | list) else (
            message.string,)
        for text in strings:
            for _lit, field, spec, _conv in string.Formatter().parse(text or ""):
                honorific = (spec or "").startswith("님")
                if field is None or not (honorific or (field in PLAYER_FIELDS
                                         and player_spec(spec))):
                    continue  # a card's particle ({room:에}) is the card's business
                assert field in PLAYER_FIELDS, (message.id, field)
                for value in values:
                    assert format(value, spec or "")


def test_no_korean_honorific_is_left_outside_a_player_field() -> None:
    """"{player} 님이" put 님 after whatever the field held (brackets, a level): every 님 is in
    the field's spec now, so it comes after the name and before the brackets."""
    found = []
    for message in read_catalog(po_path("ko"), "ko"):
        strings = message.string if isinstance(message.string, tuple | list) else (
            message.string,)
        found += [text for text in strings if text and re.search(r"\} 님", text)]
    assert not found, found


def test_albanian_never_declines_a_name_it_cannot_know() -> None:
    """"e Ada" cannot decline a typed name: a noun carries the case ("e lojtarit Ada",
    "pret lojtarin Ada"), as Czech says "hráče Ada"."""
    fields = "|".join(sorted(PLAYER_FIELDS))
    undeclined = re.compile(rf"(?:^|\s)(?:e|i|të|së|pret|priste|pritur) \{{(?:{fields})\}}")
    found = []
    for message in read_catalog(po_path("sq"), "sq"):
        strings = message.string if isinstance(message.string, tuple | list) else (
            message.string,)
        found += [text for text in strings if text and undeclined.search(text)]
    assert not found, found


def test_korean_puts_the_honorific_after_every_players_name() -> None:
    """"Chiara에게" beside "Bruno 님이": a player field with a particle carries 님 too."""
    fields = "|".join(sorted(PLAYER_FIELDS))
    bare = re.compile(rf"\{{(?:{fields})\}}(?!번)[가-힣]")  # {seat}번: a seat number
    found = []
    for message in read_catalog(po_path("ko"), "ko"):
        strings = message.string if isinstance(message.string, tuple | list) else (
            message.string,)
        found += [text for text in strings if text and bare.search(text)]
    assert not found, found
