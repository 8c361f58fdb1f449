"""Korean particles after values the catalog cannot predict (issue 20, point 9).

A Korean particle's shape depends on the sound before it: 키가 but 값이, 서재로 but
부엌으로. Cards carry computed particles (``{room:으로}``), but any other value (a number, a
key, a table's name, a path) may end either way, so a translation must not glue a
one-shaped particle to it ("{players}가" reads wrong for 3 and 6, "{key}이어야" for a key
ending in a vowel sound): it writes both shapes ("{dice}이(가)") or lets the particle follow
a word of its own ("연 사람의 키({expected})와"). A corridor square is the one value whose
ending is known (its words end in 복도), and that is checked too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from p2pclue.i18n.korean import final_consonant
from tools.catalogs import po_path, read_catalog

PARTICLE_AFTER_FIELD = re.compile(
    r"\{(\w+)(?:![rsa])?(?::[^}]*)?\}(으로|이|가(?!지)|을|를|은|는|과|와|로)(?!\()")
"""A field directly followed by a particle written in one shape only (가지 is a counter)."""
CORRIDOR = ("the corridor", "the corridor, {steps} step from the door of {room:the}")
"""The Korean words of a corridor square, the value of ``{place}`` in "{place}로"."""


def _korean() -> Iterator[tuple[object, str]]:
    for message in read_catalog(po_path("ko"), "ko"):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple | list) else (
            message.string,)
        for text in strings:
            yield message.id, text or ""


def test_no_one_shaped_particle_after_a_value_of_unknown_sound() -> None:
    glued = [(field, particle, text) for _msgid, text in _korean()
             for field, particle in PARTICLE_AFTER_FIELD.findall(text) if field != "place"]
    assert not glued, glued


def test_a_corridor_square_ends_in_a_vowel_so_it_takes_ro() -> None:
    corridor = {text for msgid, text in _korean()
                if (msgid[0] if isinstance(msgid, tuple | list) else msgid) in CORRIDOR}
    assert len(corridor) == 2, corridor
    for text in corridor:
        assert final_consonant(text) == 0, text
    uses = [text for _msgid, text in _korean() if "{place}로" in text]
    assert uses, "the {place}로 messages moved: re-check which particle they need"
