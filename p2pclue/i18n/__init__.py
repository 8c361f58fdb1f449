"""Translations: the language p2pclue speaks to people, card names, display width.

Usage from the outer layers::

    from p2pclue.i18n import _, ngettext, install, resolve_language
    install(resolve_language(args.lang, os.environ))
    print(_("Turn {number}: {player}").format(number=n, player=who))

Messages are ``str.format`` templates with named fields; translators may
reorder the fields but never rename them (a test checks every catalog).
Machine-readable output must never pass through these functions.

Each name below is imported from its module on first use (PEP 562), not with the package:
``p2pclue --help`` needs the translation functions and argparse's words, and would
otherwise read the card names' TOML and load the whole cryptography stack (``text`` needs
the engine's name limit) before printing a line.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from p2pclue.i18n.cards import (
        board_label,
        card_form,
        card_name,
        fold,
        local_names,
        parse_card,
    )
    from p2pclue.i18n.languages import (
        DEFAULT_LANGUAGE,
        LANGUAGES,
        LanguageChoice,
        choose_language,
        language_code,
        resolve_language,
    )
    from p2pclue.i18n.options import (
        ColumnsHelpFormatter,
        LocalizedArgumentParser,
        add_lang_option,
        apply_language,
        prescan_lang,
    )
    from p2pclue.i18n.oserrors import os_error_line, os_error_text
    from p2pclue.i18n.phrases import CARD_FIELDS, Spoken, card_phrase, card_word, triple_word
    from p2pclue.i18n.players import (
        PlayerWord,
        display_name,
        plain_name,
        player_word,
        roster_name,
    )
    from p2pclue.i18n.refusals import note_text, refusal_text, transcript_error_text
    from p2pclue.i18n.rules_text import rules_summary
    from p2pclue.i18n.text import (
        alternatives,
        capital,
        check_words,
        clauses,
        default_table_name,
        is_no,
        is_yes,
        key_name,
        labelled,
        listing,
        no_key,
        number,
        outcome_word,
        percent,
        rules_label,
        seats,
        yes_key,
    )
    from p2pclue.i18n.translate import N_, _, current_language, install, ngettext, pgettext
    from p2pclue.i18n.width import fit, pad, text_width, truncate, wrap

_MODULE_OF: dict[str, str] = {
    **dict.fromkeys(("board_label", "card_form", "card_name", "fold", "local_names",
                     "parse_card"), "cards"),
    **dict.fromkeys(("DEFAULT_LANGUAGE", "LANGUAGES", "LanguageChoice", "choose_language",
                     "language_code", "resolve_language"), "languages"),
    **dict.fromkeys(("ColumnsHelpFormatter", "LocalizedArgumentParser", "add_lang_option",
                     "apply_language", "prescan_lang"), "options"),
    **dict.fromkeys(("os_error_line", "os_error_text"), "oserrors"),
    **dict.fromkeys(("CARD_FIELDS", "Spoken", "card_phrase", "card_word", "triple_word"),
                    "phrases"),
    **dict.fromkeys(("PlayerWord", "display_name", "plain_name", "player_word",
                     "roster_name"), "players"),
    **dict.fromkeys(("note_text", "refusal_text", "transcript_error_text"), "refusals"),
    "rules_summary": "rules_text",
    **dict.fromkeys(("alternatives", "capital", "check_words", "clauses", "default_table_name",
                     "is_no", "is_yes", "key_name", "labelled", "listing", "no_key", "number",
                     "outcome_word", "percent", "rules_label", "seats", "yes_key"), "text"),
    **dict.fromkeys(("N_", "_", "current_language", "install", "ngettext", "pgettext"),
                    "translate"),
    **dict.fromkeys(("fit", "pad", "text_width", "truncate", "wrap"), "width"),
}
"""The module of ``p2pclue.i18n`` that defines each public name."""


def __getattr__(name: str) -> object:
    module = _MODULE_OF.get(name)
    if module is None:  # also how ``from p2pclue.i18n import cards`` finds a submodule
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_MODULE_OF})


__all__ = [
    "CARD_FIELDS",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "N_",
    "ColumnsHelpFormatter",
    "LanguageChoice",
    "LocalizedArgumentParser",
    "PlayerWord",
    "Spoken",
    "_",
    "add_lang_option",
    "alternatives",
    "apply_language",
    "board_label",
    "capital",
    "card_form",
    "card_name",
    "card_phrase",
    "card_word",
    "check_words",
    "choose_language",
    "clauses",
    "current_language",
    "default_table_name",
    "display_name",
    "fit",
    "fold",
    "install",
    "is_no",
    "is_yes",
    "key_name",
    "labelled",
    "language_code",
    "listing",
    "local_names",
    "ngettext",
    "no_key",
    "note_text",
    "number",
    "os_error_line",
    "os_error_text",
    "outcome_word",
    "pad",
    "parse_card",
    "percent",
    "pgettext",
    "plain_name",
    "player_word",
    "prescan_lang",
    "refusal_text",
    "resolve_language",
    "roster_name",
    "rules_label",
    "rules_summary",
    "seats",
    "text_width",
    "transcript_error_text",
    "triple_word",
    "truncate",
    "wrap",
    "yes_key",
]
