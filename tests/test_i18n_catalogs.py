"""The translation catalogs: complete, in sync with the source, compiled, with the right plurals."""

from __future__ import annotations

import fnmatch
import gettext
import tomllib
from pathlib import Path

import pytest
from babel.messages.catalog import Message

from p2pclue.i18n import LANGUAGES, _, install, ngettext
from p2pclue.i18n.translate import load
from tools import catalogs

ROOT = Path(__file__).resolve().parents[1]
LANGS = sorted(LANGUAGES)

# (nplurals, {n: form index}) per language, from the CLDR plural rules Babel follows:
# it/fr have a "many" form for round millions, cs a "few" form for 2-4, ko no plural.
PLURALS: dict[str, tuple[int, dict[int, int]]] = {
    "en": (2, {0: 1, 1: 0, 2: 1, 5: 1, 21: 1}),
    "sq": (2, {0: 1, 1: 0, 2: 1, 5: 1, 21: 1}),
    "it": (3, {0: 2, 1: 0, 2: 2, 5: 2, 1_000_000: 1}),
    "fr": (3, {0: 0, 1: 0, 2: 2, 5: 2, 1_000_000: 1}),
    "cs": (3, {0: 2, 1: 0, 2: 1, 3: 1, 4: 1, 5: 2, 21: 2, 22: 2}),
    "ko": (1, {0: 0, 1: 0, 2: 0, 5: 0}),
}


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


def test_template_matches_the_source() -> None:
    extracted = {(m.id, m.context) for m in catalogs.extract_template() if m.id}
    shipped = {(m.id, m.context) for m in catalogs.read_catalog(catalogs.TEMPLATE) if m.id}
    assert extracted, "nothing is marked for translation"
    assert extracted == shipped, "run `python -m tools.catalogs update`"


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated(lang: str) -> None:
    template = {(m.id, m.context) for m in catalogs.read_catalog(catalogs.TEMPLATE) if m.id}
    catalog = catalogs.read_catalog(catalogs.po_path(lang), lang)
    assert {(m.id, m.context) for m in catalog if m.id} == template
    assert not catalog.obsolete
    found = [p for m in catalog if m.id for p in catalogs.message_problems(m, catalog.num_plurals)]
    assert found == []


@pytest.mark.parametrize("lang", LANGS)
def test_shipped_mo_is_exactly_the_compiled_po(lang: str) -> None:
    assert catalogs.mo_path(lang).read_bytes() == catalogs.compiled(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms_header(lang: str) -> None:
    nplurals, expected = PLURALS[lang]
    catalog = catalogs.read_catalog(catalogs.po_path(lang), lang)
    assert catalog.num_plurals == nplurals
    choose = gettext.c2py(catalog.plural_expr)
    assert {n: choose(n) for n in expected} == expected
    runtime = load(lang)
    assert isinstance(runtime, gettext.GNUTranslations)
    assert {n: runtime.plural(n) for n in expected} == expected  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LANGS)
def test_plural_messages_have_every_form(lang: str) -> None:
    catalog = catalogs.read_catalog(catalogs.po_path(lang), lang)
    install(lang)
    messages = [m for m in catalog if m.id and m.pluralizable]
    assert len(messages) >= 5
    for m in messages:
        assert isinstance(m.id, tuple) and isinstance(m.string, tuple | list), m.id
        singular, plural = m.id
        forms = list(m.string)
        assert len(forms) == PLURALS[lang][0]
        for n, index in PLURALS[lang][1].items():
            assert ngettext(singular, plural, n) == forms[index]


def test_translations_are_used_at_run_time() -> None:
    install("cs")
    assert _("empty card name") == "prázdný název karty"
    install("ko")
    assert _("empty card name") == "카드 이름이 비어 있습니다"
    install("en")
    assert _("empty card name") == "empty card name"


def _message(msgid: object, string: object, fuzzy: bool = False) -> Message:
    return Message(msgid, string, flags=["fuzzy"] if fuzzy else [])  # type: ignore[arg-type]


def test_the_checker_rejects_what_it_must() -> None:
    assert catalogs.message_problems(_message("a {x}", "b {x}"), 2) is not None
    assert list(catalogs.message_problems(_message("a {x}", "b {x}"), 2)) == []
    assert any("fuzzy" in p for p in catalogs.message_problems(
        _message("a {x}", "b {x}", fuzzy=True), 2))
    assert any("not translated" in p for p in catalogs.message_problems(_message("a", ""), 2))
    assert any("placeholders" in p for p in catalogs.message_problems(
        _message("a {x}", "b {y}"), 2))
    assert any("placeholders" in p for p in catalogs.message_problems(
        _message("a {x!r}", "b {x}"), 2))
    assert any("plural forms" in p for p in catalogs.message_problems(
        _message(("{n} turn", "{n} turns"), ("{n} tah", "{n} tahy")), 3))
    assert any("not translated" in p for p in catalogs.message_problems(
        _message(("{n} turn", "{n} turns"), ("{n} tah", "", "{n} tahů")), 3))
    assert any("malformed" in p for p in catalogs.message_problems(_message("a {x}", "b {x"), 2))



@pytest.mark.parametrize("lang", LANGS)
def test_no_english_is_copied_into_a_translation(lang: str) -> None:
    catalog = catalogs.read_catalog(catalogs.po_path(lang), lang)
    assert [c for m in catalog if m.id and (c := catalogs.english_copy(lang, m))] == []


def test_the_english_copy_check_rejects_what_it_must() -> None:
    copied = _message("wait more", "wait more")
    assert catalogs.english_copy("it", copied) is not None
    assert catalogs.english_copy("ko", copied) is not None
    assert catalogs.english_copy("en", copied) is None  # English is its own source
    assert catalogs.english_copy("it", _message("wait more", "aspetta ancora")) is None
    plural = _message(("{n} turn", "{n} turns"), ("{n} turno", "{n} turns", "{n} turni"))
    assert catalogs.english_copy("it", plural) is not None  # one form left in English
    assert catalogs.english_copy("fr", _message("{dice} ({total})", "{dice} ({total})")) is None
    assert catalogs.english_copy("cs", _message(", ", ", ")) is None
    assert catalogs.english_copy("fr", _message("passage", "passage")) is None  # allowed in fr
    assert catalogs.english_copy("it", _message("passage", "passage")) is not None  # not in it
    assert catalogs.english_copy("sq", _message("r / p", "r / p")) is None  # keys, everywhere


def test_every_allowed_english_text_is_in_the_source_with_a_reason() -> None:
    msgids = {m.id if isinstance(m.id, str) else m.id[0]
              for m in catalogs.read_catalog(catalogs.TEMPLATE) if m.id}
    for (lang, msgid), reason in catalogs.SAME_AS_ENGLISH.items():
        assert lang == catalogs.ANY_LANGUAGE or lang in LANGUAGES, lang
        assert msgid in msgids, f"{msgid!r} is allowed as English but no longer in the source"
        assert len(reason) > 10, msgid



def test_update_leaves_a_new_message_untranslated_outside_english(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Babel adds a new message as the template's own object; English fills in its own
    copy only (it once leaked into every catalog updated after ``en``)."""
    source, locale = tmp_path / "pkg", tmp_path / "locale"
    source.mkdir()
    monkeypatch.setattr(catalogs, "PACKAGE_DIR", source)
    monkeypatch.setattr(catalogs, "LOCALE_DIR", locale)
    monkeypatch.setattr(catalogs, "TEMPLATE", locale / "p2pclue.pot")
    (source / "m.py").write_text('_("The first message")\n', encoding="utf-8")
    catalogs.update()  # every catalog created
    (source / "m.py").write_text('_("The first message")\n_("Zebra crossing 42")\n',
                                 encoding="utf-8")
    catalogs.update()  # then merged
    for lang in LANGS:
        new = catalogs.read_catalog(catalogs.po_path(lang), lang).get("Zebra crossing 42")
        assert new is not None, lang
        assert new.string == ("Zebra crossing 42" if lang == "en" else ""), lang


def test_compiled_catalogs_are_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["p2pclue"]
    shipped = [catalogs.mo_path(lang).relative_to(ROOT / "p2pclue").as_posix() for lang in LANGS]
    shipped.append("i18n/cards.toml")
    for path in shipped:
        assert any(fnmatch.fnmatch(path, p) for p in patterns), path


def test_check_command_passes() -> None:
    assert catalogs.main(["check"]) == 0
