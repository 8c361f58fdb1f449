"""Czech addresses the player formally, and one person is singular (issue 20, point 9).

With vykání the verb "jste" is plural, but a past participle or a passive adjective stays
singular and agrees with the person: "vyvrátil(a) jste", "jste vyřazen(a)", never
"vyvrátili jste" or "jste vyřazeni" to one reader (the reading pass found nineteen of them).
Where the gender would show, the story says it in the present ("Házíte 5.") or writes both
endings, as it does for other players.
"""

from __future__ import annotations

import re

from tools.catalogs import po_path, read_catalog

PLURAL_WITH_JSTE = re.compile(
    r"\b\w+(?:li|ni) jste\b|\b[Jj]ste (?:\S+ ){0,3}\w+(?:li|ni)\b|\bbudete \w+(?:li|ni)\b")
"""A plural l-participle or passive form beside the formal "you" ("jste", "budete")."""


def test_formal_you_takes_singular_participles() -> None:
    found = []
    for message in read_catalog(po_path("cs"), "cs"):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple | list) else (
            message.string,)
        found += [text for text in strings if text and PLURAL_WITH_JSTE.search(text)]
    assert not found, found
