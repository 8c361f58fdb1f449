"""A --bots bot's name carries its level in the opener's language (review: a French table
read "Bruno (medium bot)" on every line of the story)."""

from __future__ import annotations

import pytest

from p2pclue.bots.registry import LEVEL_NAMES
from p2pclue.cli.human import bot_label
from p2pclue.i18n import install


@pytest.mark.parametrize(("lang", "level", "label"), [
    ("en", "medium", "Bruno (medium bot)"),
    ("fr", "medium", "Bruno (bot moyen)"),
    ("it", "easy", "Bruno (bot facile)"),
    ("ko", "hard", "Bruno (고급 봇)"),
    ("cs", "hard", "Bruno (silný bot)"),
    ("sq", "easy", "Bruno (robot i lehtë)"),
])
def test_the_level_is_said_in_the_table_language(lang: str, level: str, label: str) -> None:
    try:
        install(lang)
        assert bot_label("Bruno", level) == label
    finally:
        install("en")


@pytest.mark.parametrize("lang", ["it", "ko", "fr", "sq", "cs"])
def test_every_offered_level_is_translated(lang: str) -> None:
    try:
        install(lang)
        for level in LEVEL_NAMES:
            said = bot_label("Bruno", level)
            assert said.startswith("Bruno (") and said != f"Bruno ({level} bot)"
    finally:
        install("en")
