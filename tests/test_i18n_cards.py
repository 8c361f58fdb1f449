"""Card names in every language: sourced, distinct, and read back from what people type."""

from __future__ import annotations

import unicodedata

import pytest

from p2pclue.i18n import (
    LANGUAGES,
    _,
    card_form,
    card_name,
    card_word,
    install,
    local_names,
    parse_card,
)
from p2pclue.i18n.cards import sources
from p2pclue.rules.cards import BY_SLUG, CARDS, CardNameError, Category

LANGS = sorted(LANGUAGES)


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


def _typed(lang: str) -> list[tuple[str, int]]:
    out = []
    for entry in local_names(lang):
        for text in (entry.name, *entry.aliases):
            out.append((text, entry.index))
    return out


def _strip_accents(text: str) -> str:
    return unicodedata.normalize(
        "NFC", "".join(c for c in unicodedata.normalize("NFD", text)
                       if not unicodedata.combining(c)))


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_has_a_sourced_name(lang: str) -> None:
    names = local_names(lang)
    assert [n.index for n in names] == list(range(21))
    known = sources()
    for n in names:
        assert n.name.strip() == n.name and n.name
        assert n.source in known
        assert not n.source.startswith("seed-") or n.source == f"seed-{lang}", n
        assert not n.source.startswith("edition-") or n.source.startswith(f"edition-{lang}")
        if n.source.startswith("seed-"):
            assert n.quote, f"{n.name}: a seed name quotes the seed"
    assert len({n.name.casefold() for n in names}) == 21, "two cards share a name"


def test_english_is_the_rules_module() -> None:
    assert [card_name(c.index, "en") for c in CARDS] == [c.name for c in CARDS]


@pytest.mark.parametrize("lang", LANGS)
def test_forms_are_given_per_category(lang: str) -> None:
    """Every card of a category gives the same forms (checked on load) and they name it."""
    names = local_names(lang)
    for c in CARDS:
        n = names[c.index]
        assert card_form(c.index, "", lang) == n.name
        for form, text in n.forms.items():
            assert text.strip() == text and text, (lang, c.slug, form)
    if lang in ("en", "fr", "it"):  # languages with articles say "the Rope", "la corde"
        form = "the" if lang == "en" else "def"
        assert all(card_form(c.index, form, lang) != card_name(c.index, lang)
                   for c in CARDS if c.category is not Category.SUSPECT)


@pytest.mark.parametrize(("lang", "slug", "form", "text"), [
    ("it", "white", "def", "la signora White"), ("it", "hall", "in", "nell'ingresso"),
    ("it", "study", "di", "dello studio"), ("it", "kitchen", "in", "in cucina"),
    ("fr", "green", "def", "le révérend Olive"), ("fr", "lounge", "de", "du salon"),
    ("cs", "mustard", "acc", "Colonela Mustarda"), ("cs", "conservatory", "v", "ve skleníku"),
    ("cs", "candlestick", "s", "se svícnem"), ("cs", "kitchen", "do", "do kuchyně"),
    ("sq", "white", "gen", "Zonjës White"), ("sq", "rope", "me", "me litarin"),
    ("ko", "rope", "으로", "밧줄로"), ("ko", "kitchen", "으로", "부엌으로"),
    ("ko", "scarlett", "을", "미스 스칼렛을"), ("ko", "candlestick", "을", "촛대를"),
])
def test_grammatical_forms(lang: str, slug: str, form: str, text: str) -> None:
    assert card_form(BY_SLUG[slug].index, form, lang) == text


@pytest.mark.parametrize("lang", ["cs", "sq"])
def test_men_keep_the_seed_title_in_every_case(lang: str) -> None:
    """The seeds write "Colonel Mustard" and decline it as such ("figurka Reverenda
    Greena"): no case may swap the title for another word ("plukovníka", "Kolonelin")."""
    for slug in ("mustard", "green", "plum"):
        entry = local_names(lang)[BY_SLUG[slug].index]
        title, surname = entry.name.split()[0], entry.name.split()[-1][:4]
        for form, text in entry.forms.items():
            assert text.startswith(title) and surname in text, (lang, slug, form, text)
    install(lang)
    played = {"cs": "Ada hraje za Colonela Mustarda", "sq": "Colonel Mustard"}[lang]
    source = "{player} plays {suspect}"
    assert played in _(source).format(player="Ada", suspect=card_word(BY_SLUG["mustard"].index))


@pytest.mark.parametrize("lang", LANGS)
def test_every_name_and_alias_round_trips(lang: str) -> None:
    for text, index in _typed(lang):
        assert parse_card(text, lang) == index, text
        assert parse_card(text.upper(), lang) == index, text
        assert parse_card(f"  {text.lower()} ", lang) == index, text
        assert parse_card(text, lang, CARDS[index].category) == index, text
        assert parse_card(_strip_accents(text), lang) == index, text
        assert parse_card(text.replace(" ", ""), lang) == index, text
    for c in CARDS:  # English names and slugs are understood in every language
        assert parse_card(c.slug, lang) == c.index
        assert parse_card(c.name, lang) == c.index


@pytest.mark.parametrize(("lang", "text", "slug"), [
    ("cs", "dyka", "dagger"), ("cs", "KUCHYN", "kitchen"), ("cs", "hasak", "wrench"),
    ("cs", "salonek", "lounge"), ("cs", "Peakcock", "peacock"),
    ("sq", "kame", "dagger"), ("sq", "celes anglez", "wrench"), ("sq", "serre", "conservatory"),
    ("fr", "salle a manger", "dining_room"), ("fr", "moutarde", "mustard"),
    ("fr", "Véranda", "conservatory"), ("fr", "veranda", "conservatory"),
    ("it", "biblio", "library"), ("it", "rivoltella", "revolver"), ("it", "Pavone", "peacock"),
    ("ko", "미스스칼렛", "scarlett"), ("ko", "라이브러리", "library"), ("ko", "매화 교수", "plum"),
    ("ko", "플럼", "plum"), ("ko", "밧", "rope"),
])
def test_what_people_type(lang: str, text: str, slug: str) -> None:
    assert CARDS[parse_card(text, lang)].slug == slug


def test_ambiguous_and_unknown_names_are_errors_in_the_language() -> None:
    with pytest.raises(CardNameError, match="Sala da ballo, Sala da pranzo, Sala del biliardo"):
        parse_card("sala", "it")
    assert CARDS[parse_card("sala da bal", "it")].slug == "ballroom"
    assert CARDS[parse_card("sala del", "it")].slug == "billiard_room"
    install("cs")
    with pytest.raises(CardNameError, match="žádná karta se nejmenuje 'xyzzy'"):
        parse_card("xyzzy")
    with pytest.raises(CardNameError, match="prázdný"):
        parse_card("  ")
    install("ko")
    with pytest.raises(CardNameError, match="카드는 없습니다"):
        parse_card("없는카드")


def test_category_narrows_the_search() -> None:
    assert CARDS[parse_card("w", "en", Category.SUSPECT)].slug == "white"
    assert CARDS[parse_card("w", "en", Category.WEAPON)].slug == "wrench"
    assert CARDS[parse_card("sv", "cs", Category.WEAPON)].slug == "candlestick"


def test_default_language_is_the_installed_one() -> None:
    install("fr")
    assert card_name(17) == "Bibliothèque"
    assert parse_card("bibliotheque") == 17
    install("sq")
    assert card_form(18, "ne") == "në sallë pritjeje"


def test_docs_list_every_name() -> None:
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[1] / "docs" / "translations.md").read_text("utf-8")
    for lang in LANGS:
        for n in local_names(lang):
            assert n.name in doc, (lang, n.name)
