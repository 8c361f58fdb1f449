"""Lists, numbers and percentages follow CLDR, from data shipped without Babel.

``p2pclue/i18n/cldr.json`` is what ``python -m tools.cldr_data`` extracts from Babel's CLDR
data; these tests fail while it differs from what the installed Babel gives, and compare what the
runtime formats with what Babel itself formats.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2pclue.i18n import LANGUAGES, install, listing, number, percent
from p2pclue.i18n.cldr import (
    cldr_version,
    format_number,
    format_percent,
    join_list,
)
from p2pclue.i18n.cldr import format_decimal as cldr_decimal
from tools import cldr_data

babel = pytest.importorskip("babel")
from babel.lists import format_list  # noqa: E402
from babel.numbers import format_decimal  # noqa: E402
from babel.numbers import format_percent as babel_percent  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


def test_the_shipped_data_is_what_babel_gives() -> None:
    shipped = (ROOT / "p2pclue" / "i18n" / "cldr.json").read_text(encoding="utf-8")
    assert shipped == cldr_data.render(cldr_data.extract()), "run: python -m tools.cldr_data"
    data = json.loads(shipped)
    assert set(data["languages"]) == set(LANGUAGES)
    assert cldr_version() == data["cldr"] and "CLDR" in data["source"]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_lists_numbers_and_percentages_as_babel_formats_them(lang: str) -> None:
    locale = cldr_data.LOCALES[lang]
    for items in (["Ada"], ["Ada", "Bruno"], ["Ada", "Bruno", "Chiara"],
                  ["a", "b", "c", "d", "e"]):
        assert join_list(items, lang=lang) == format_list(items, locale=locale)
        assert join_list(items, "list_or", lang=lang) == format_list(items, "or",
                                                                     locale=locale)
    for value in (0, 7, 999, 1000, 12345, 1234567, -4200):
        assert format_number(value, lang) == format_decimal(value, locale=locale)
    for share in (0.0, 0.004, 0.05, 0.125, 0.42, 0.995, 1.0, 12.5):
        assert format_percent(share, lang) == babel_percent(share, locale=locale), share
    for seconds in (0.0, 0.5, 3.0, 121.5, 1234.25, 0.001, -2.5):
        assert cldr_decimal(seconds, lang) == format_decimal(seconds, locale=locale), seconds


def test_an_audit_notes_seconds_in_the_readers_decimal_sign() -> None:
    from p2pclue.engine.errors import Note, Seconds
    from p2pclue.i18n.refusals import note_text

    note = Note("seat {seat} signed after waiting {waited} s (its own timeout {timeout} s)",
                seat=2, waited=Seconds(121.5), timeout=Seconds(60.0))
    assert str(note) == "seat 2 signed after waiting 121.5 s (its own timeout 60 s)"
    try:
        install("cs")
        told = note_text(note)
        assert "121,5" in told and "121.5" not in told, told
    finally:
        install("en")


def test_what_readers_see_in_each_language() -> None:
    said = {}
    for lang in sorted(LANGUAGES):
        install(lang)
        said[lang] = (listing(["Ada", "Bruno", "Emma"]), percent(0.42), number(12345))
    assert said["en"] == ("Ada, Bruno and Emma", "42%", "12,345")
    assert said["it"] == ("Ada, Bruno ed Emma", "42%", "12.345")  # "ed" before a vowel e
    assert said["fr"] == ("Ada, Bruno et Emma", "42\u00a0%", "12\u202f345")
    assert said["cs"] == ("Ada, Bruno a\u00a0Emma", "42\u00a0%", "12\u00a0345")
    assert said["ko"][1:] == ("42%", "12,345")
