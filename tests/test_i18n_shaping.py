"""Italian writes "ed" and "ad" before a word that starts with the same vowel, whatever the
word is: a name a person typed ("Bruno ed Emma", "mostra una carta ad Ada"), a list's last
item, or the catalog's own words."""

from __future__ import annotations

import re

import pytest

from p2pclue.i18n import _, install, listing, player_word
from p2pclue.i18n.shaping import shaped
from tools.catalogs import po_path, read_catalog


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


def test_the_d_eufonica_before_a_value() -> None:
    said = shaped("{a} e {b}; mostra una carta a {c}; e {d}, a {e}", "it").format(
        a="Ada", b="Emma", c="Ada", d="Ida", e="Elena")
    assert said == "Ada ed Emma; mostra una carta ad Ada; e Ida, a Elena"
    assert shaped("{a} e {b}", "it").format(a="x", b="Èlia") == "x ed Èlia"
    assert shaped("casa {b}", "it").format(b="Emma") == "casa Emma"  # "a" inside a word
    assert shaped("{a} e {b}", "fr").format(a="Ada", b="Emma") == "Ada e Emma"  # Italian only


def test_italian_lists_and_messages_say_it() -> None:
    install("it")
    assert listing(["Bruno", "Emma"]) == "Bruno ed Emma"
    assert listing(["Ada", "Bruno", "Ida"]) == "Ada, Bruno e Ida"
    shown = _("{refuter} shows {suggester} a card {proven}.").format(
        refuter=player_word("Bruno"), suggester=player_word("Ada"), proven="")
    assert " ad Ada " in shown, shown


def test_the_italian_catalog_writes_it_itself() -> None:
    """Words the catalog writes itself: "e entra" must be "ed entra"."""
    found = []
    for message in read_catalog(po_path("it"), "it"):
        strings = message.string if isinstance(message.string, tuple | list) else (
            message.string,)
        found += [text for text in strings if text and re.search(
            r"(?:^|[\s(])(?:e\s+[eEèéÈÉ]|a\s+[aAàÀ])\w", text)]
    assert not found, found
