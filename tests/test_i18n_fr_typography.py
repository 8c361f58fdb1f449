"""French puts a space before ``:`` ``;`` ``!`` and ``?`` ("Chiara (bot moyen) : ...").

The French catalog writes an ordinary space there (U+0020), as it always has; a no-break
space (U+00A0) or a narrow one (U+202F) is accepted too. What is not punctuation is left
alone, and is recognised by its shape: a key legend glued to its label ("h:conseil",
"?:aide"), a time or an address ("12:05", "host:port", "http://"), a key written alone
("?", "!"), and the board's "::" mark (reachable squares) in the legend of the monochrome
board. Strings built by code around catalog text (the footer's "key:label") follow the
same shapes.
"""

from __future__ import annotations

import re

from p2pclue.i18n.catalogs import po_path, read_catalog

SPACES = " \u00a0\u202f"
MISSING_SPACE = re.compile(rf"(?<=[^{SPACES}:])[:;!?](?=[{SPACES}\"'»)]|$)")
"""A closing ``:;!?`` (followed by a space, a closing mark or the end) glued to a word."""


def test_every_french_message_spaces_its_high_punctuation() -> None:
    found = []
    for message in read_catalog(po_path("fr"), "fr"):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple | list) else (
            message.string,)
        found += [text for text in strings if text and MISSING_SPACE.search(text)]
    assert not found, found


def test_the_rule_sees_what_the_review_saw() -> None:
    assert MISSING_SPACE.search("Chiara (bot moyen): Madame Pervenche")
    assert MISSING_SPACE.search("Où aller?")
    for fine in ("Chiara (bot moyen) : Madame Pervenche", "Où aller\u202f?",
                 "h:conseil ?:aide q:quitter", "--peer 127.0.0.1:4000", "## : portes ; :: où",
                 "? affiche les touches"):
        assert not MISSING_SPACE.search(fine), fine
