"""What issue 20 left in English or ungrammatical: table names, refusals, board initials,
French "de"/"à" before a card. Each is rendered in every language and read back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from p2pclue.i18n import LANGUAGES, default_table_name, install

LANGS = sorted(LANGUAGES)
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Anne's table"), ("it", "tavolo di Anne"), ("fr", "chez Anne"),
    ("ko", "Anne 님의 테이블"), ("sq", "tavolina e Anne"), ("cs", "stůl hráče Anne"),
])
def test_a_table_without_a_name_is_named_in_the_openers_language(lang: str, expected: str) -> None:
    install(lang)
    assert default_table_name("Anne") == expected


def test_no_table_name_is_built_as_an_english_possessive() -> None:
    english = re.compile("f\"[^\"]*'s table\"")
    for path in (ROOT / "p2pclue").rglob("*.py"):
        assert not english.search(path.read_text("utf-8")), path
