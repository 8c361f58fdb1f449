"""The pseudo-locale's catalog, and the messages that must fit a few cells in every language.

The pseudo catalog is made from the English one (``catalogs update``; ``catalogs check``
fails while it is stale): every message between ``⟦`` ``⟧``, accented, at least 40 % longer
than its English text, so that its screens show any text that escaped the catalogs and
any layout that only just holds English (``tests/tui/test_pseudo_screens.py``). A message
whose context names its cells ("2 cells": the notepad's own column) is accented only: it
must fit, and so must every language's translation of it.
"""

from __future__ import annotations

import re
import string

from p2pclue.i18n import LANGUAGES, install, language_code
from p2pclue.i18n.pseudo import CLOSE, GROWTH, OPEN, PSEUDO, cell_limit
from p2pclue.i18n.width import text_width
from tests.pseudo_check import untranslated
from tools.catalogs import po_path, read_catalog

_FIELDS = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[sdr]|%[sdr]")


def _strings(message: object) -> tuple[str, ...]:
    value = getattr(message, "string", "")
    return tuple(value) if isinstance(value, tuple | list) else (value,)


def test_every_pseudo_message_is_marked_accented_and_longer() -> None:
    english = {(m.id if isinstance(m.id, str) else m.id[0], m.context): _strings(m)
               for m in read_catalog(po_path("en"), "en") if m.id}
    checked = 0
    for message in read_catalog(po_path(PSEUDO), "en"):
        if not message.id:
            continue
        key = (message.id if isinstance(message.id, str) else message.id[0], message.context)
        for source, pseudo in zip(english[key], _strings(message), strict=True):
            if not source.strip():
                continue
            checked += 1
            if cell_limit(message.context) is not None:
                assert OPEN not in pseudo and text_width(pseudo) == text_width(source)
                continue
            body = pseudo.strip()
            assert body.startswith(OPEN) and body.endswith(CLOSE), pseudo
            assert len(pseudo) >= GROWTH * len(source) - 1, (source, pseudo)
            left = untranslated(_FIELDS.sub(" ", pseudo))  # only options, ids, VERBATIM
            assert not left, (source, pseudo, left)
    assert checked > 700


def test_the_pseudo_locale_is_chosen_by_lang_but_never_offered() -> None:
    assert language_code("qps") == PSEUDO and language_code("pseudo") == PSEUDO
    assert PSEUDO not in LANGUAGES
    install(PSEUDO)
    try:
        from p2pclue.i18n import _

        assert _("Notepad").startswith(OPEN)
    finally:
        install("en")


def test_messages_given_cells_fit_them_in_every_language() -> None:
    found = []
    for lang in sorted(LANGUAGES):
        for message in read_catalog(po_path(lang), lang):
            limit = cell_limit(message.context)
            if limit is None:
                continue
            for text in _strings(message):
                literal = "".join(lit for lit, *_ in string.Formatter().parse(text))
                if text_width(literal) > limit:
                    found.append((lang, message.context, text))
    assert not found, found
