"""Cards in sentences: every message, in every language, with every card (issue 20).

A message names the form of a card it needs (``{room:in}``, ``{suspect:acc}``,
``{weapon:으로}``) or selects words by the card's gender. These tests render every
translation of every catalog with every card in each card field, so a form or a
gender that one card lacks fails here, not in front of a player.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from p2pclue.cli.narrate import dice_text
from p2pclue.deduce.words import ENVELOPE_KIND, LEFTOVERS_KIND, MINE_KIND, THEIRS_KIND, PlaceV
from p2pclue.i18n import (
    CARD_FIELDS,
    LANGUAGES,
    _,
    card_word,
    check_words,
    install,
    local_names,
    outcome_word,
    player_word,
    rules_label,
    triple_word,
)
from p2pclue.i18n.korean import with_particle
from p2pclue.rules.cards import CARDS, ROOMS, SUSPECTS, WEAPONS
from p2pclue.tui.reasons import PlaceWord
from tools.catalogs import po_path, read_catalog

LANGS = sorted(LANGUAGES)
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


class Anything:
    """A value for a field that is not a card: any spec, any conversion."""

    def __format__(self, spec: str) -> str:
        return "X"

    def __repr__(self) -> str:
        return "'X'"


def _texts(lang: str) -> list[tuple[str, str]]:
    out = []
    for m in read_catalog(po_path(lang), lang):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple | list) else (m.id,)
        strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
        out += [(str(ids[0]), s) for s in (*strings, *ids) if s]
    return out


PLACES = [PlaceV(ENVELOPE_KIND), PlaceV(LEFTOVERS_KIND), PlaceV(MINE_KIND),
          PlaceV(THEIRS_KIND, "Ada"), *(PlaceV(ENVELOPE_KIND, category=k) for k in range(3))]


def _values(field: str) -> list[object]:
    if field == "place":  # where a card lies, in the notepad's explanations
        return [PlaceWord(p) for p in PLACES]
    kind = CARD_FIELDS[field]
    if field == "triple":
        return [triple_word((s.index, w.index, r.index))
                for s, w, r in zip(SUSPECTS * 2, WEAPONS * 2, ROOMS, strict=False)]
    pool = CARDS if kind is None else [c for c in CARDS if c.category is kind]
    return [card_word(c.index) for c in pool]


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_renders_with_every_card(lang: str) -> None:
    install(lang)
    rendered = 0
    for msgid, text in _texts(lang):
        fields = {name for _, name, _, _ in string.Formatter().parse(text) if name}
        base: dict[str, object] = {f: Anything() for f in fields}
        cards = [f for f in fields if f in CARD_FIELDS or f == "place"]
        for f in cards:
            base[f] = _values(f)[0]
        varied: list[str | None] = list(cards) if cards else [None]
        for field in varied:
            for value in _values(field) if field else [None]:
                values = dict(base, **({field: value} if field else {}))
                try:
                    out = text.format(**values)
                except (ValueError, KeyError) as exc:
                    pytest.fail(f"[{lang}] {text!r} (for {msgid!r}) with {field}={value}: {exc}")
                assert "{" not in out, (lang, text)
                rendered += 1
    assert rendered > 500


@pytest.mark.parametrize("lang", LANGS)
def test_a_triple_renders_in_every_form_its_messages_ask(lang: str) -> None:
    install(lang)
    for s in SUSPECTS:
        for w in WEAPONS:
            for r in ROOMS:
                text = format(triple_word((s.index, w.index, r.index)))
                assert local_names(lang)[s.index].name.split()[-1] in text


def test_code_passes_cards_not_names_to_card_fields() -> None:
    """A card field given a plain string would break on the first form a language asks."""
    bad = re.compile(r"\b(suspect|weapon|room|card|triple)=(card_name|str)\(")
    for path in (ROOT / "p2pclue").rglob("*.py"):
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            assert not bad.search(line), f"{path}:{n}: {line.strip()}"


@pytest.mark.parametrize(("word", "particle", "expected"), [
    ("부엌", "으로", "부엌으로"), ("서재", "으로", "서재로"), ("홀", "으로", "홀로"),
    ("미스 스칼렛", "을", "미스 스칼렛을"), ("촛대", "을", "촛대를"),
    ("머스타드 대령", "이", "머스타드 대령이"),
    ("화이트 부인", "은", "화이트 부인은"), ("렌치", "과", "렌치와"), ("식당", "에", "식당에"),
])
def test_korean_particles_follow_the_last_sound(word: str, particle: str, expected: str) -> None:
    assert with_particle(word, particle) == expected


def test_korean_hall_does_not_read_alone() -> None:
    """홀로 reads "alone": the Hall is 현관, and no Korean sentence says 홀로."""
    install("ko")
    hall = next(r.index for r in ROOMS if r.slug == "hall")
    assert format(card_word(hall), "으로") == "현관으로"
    assert not any("홀로" in text for _, text in _texts("ko"))


CHECKS = ["proof:shuffle", "crypto", "R21", "signature", "equivocation", "chain", "turn", "votes",
          "message", "randomness", "footer", "false-blame", "deal", "secrets", "open", "leave",
          "what-is-this"]


@pytest.mark.parametrize("lang", sorted(set(LANGS) - {"en"}))
def test_protocol_checks_won_and_custom_are_said_in_the_language(lang: str) -> None:
    """Issue 20: the meaning of a failed check, "won", "custom" were English everywhere."""
    english = {c: check_words(c) for c in CHECKS}
    words = {"won": outcome_word("won"), "abandoned": outcome_word("abandoned"),
             "custom": rules_label("custom")}
    install(lang)
    for check in CHECKS:
        assert check_words(check) != english[check], (lang, check)
    assert "R21" in check_words("R21")
    for code, word in words.items():
        assert (outcome_word(code) if code != "custom" else rules_label(code)) != word
    # Presets are said in the language too ("regole classiche"); --json keeps "cz"
    # (tests/tui/test_i18n_review_words.py).
    assert rules_label("cz") != "cz" and rules_label("classic") != "classic"


@pytest.mark.parametrize(("number", "expected"), [
    ("0", "0을"), ("1", "1을"), ("2", "2를"), ("3", "3을"), ("4", "4를"), ("5", "5를"),
    ("6", "6을"), ("7", "7을"), ("8", "8을"), ("9", "9를"), ("10", "10을"), ("12", "12를"),
    ("20", "20을"), ("100", "100을"), ("3과 4(합계 7)", "3과 4(합계 7)를"),
])
def test_korean_particle_after_a_number_follows_its_reading(number: str, expected: str) -> None:
    assert with_particle(number, "을") == expected


@pytest.mark.parametrize("lang", LANGS)
def test_dice_sentences_say_the_roll_with_its_particle(lang: str) -> None:
    """"3이 나옵니다" but "2가": the particle after a roll follows how its last die is read."""
    install(lang)
    for dice, particle in (((3,), "이"), ((2,), "가"), ((6, 4), "가"), ((5, 5), "가")):
        rolled = dice_text(dice)
        told = [_("{player} rolls {dice}.").format(player=player_word("Ada"), dice=rolled),
                _("You roll {dice}.").format(dice=rolled)]
        assert all(str(dice[-1]) in text and str(sum(dice)) in text for text in told), told
        assert not any(p in text for text in told for p in ("(이)", "(가)", "{")), told
        if lang == "ko":  # one die: "3이"; two: "6과 4(합계 10)가", as the last die is read
            subject = with_particle(str(rolled), "이")
            assert subject[-1] == particle and all(subject in text for text in told), told
