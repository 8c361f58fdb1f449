"""The rules in short follow the table's variants, in every language."""

from __future__ import annotations

import pytest

from p2pclue.i18n import LANGUAGES, card_name, install, rules_summary
from p2pclue.rules.cards import BY_SLUG
from p2pclue.rules.variants import CLASSIC, CZ


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


def test_variants_change_the_summary() -> None:
    classic, cz = " ".join(rules_summary(CLASSIC)), " ".join(rules_summary(CZ))
    assert "Miss Scarlett's player starts" in classic and "Mrs White's player starts" in cz
    assert "fewer steps" in classic and "exact roll" in cz
    assert "last player wins" in classic and "last player wins" not in cz
    assert "left over are shown" in cz and "left over" not in classic
    assert "must leave that room" in cz and "must leave" not in classic
    assert "two dice" in " ".join(rules_summary(CLASSIC.override(two_dice=True)))


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_summary_in_every_language(lang: str) -> None:
    english = rules_summary(CZ)
    install(lang)
    local = rules_summary(CZ)
    assert len(local) == len(english)
    assert all(a != b for a, b in zip(local, english, strict=True))
    assert english[0].startswith("The goal:")  # what the game is about comes first
    assert card_name(BY_SLUG["white"].index, lang).split()[-1] in local[1]  # in its case
