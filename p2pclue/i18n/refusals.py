"""Why an action was refused, in the reader's language.

The rules and the engine may not import the translations, yet what they refuse reaches a
person ("Not allowed now: R23: ..."). So a ``RuleError`` and a ``LocalProtocolError``
carry an English template marked ``N_`` and typed values (``SeatNo``, ``CardNo``); here the
template is translated and each value takes the reader's words: a seat its player's name,
a card its form, a game's end its word. The rule id stays as it is, the way the rules
name it. ``str()`` of the error stays English for peers, logs and auditors.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pclue.engine.errors import (
    CardsNo,
    LocalProtocolError,
    Note,
    Notes,
    SeatsNo,
    Seconds,
    TranscriptError,
    WireError,
    Words,
)
from p2pclue.i18n.cldr import format_decimal
from p2pclue.i18n.phrases import card_word
from p2pclue.i18n.players import player_word
from p2pclue.i18n.story_words import cards_text
from p2pclue.i18n.text import clauses, labelled, listing, outcome_word
from p2pclue.i18n.translate import _, ngettext, pgettext
from p2pclue.rules.errors import CardNo, RuleError, SeatNo


def _value(key: str, value: object, names: Sequence[str]) -> object:
    if isinstance(value, SeatNo):
        if 0 <= value < len(names):
            return player_word(names[value])
        # Translators: a seat where a refusal cannot name its player ("seat 2").
        return pgettext("a seat in a refusal", "seat {number}").format(number=int(value))
    if isinstance(value, CardNo):
        return card_word(int(value))
    if key == "status" and isinstance(value, str):
        return outcome_word(value)
    return value


def refusal_text(error: RuleError | LocalProtocolError, names: Sequence[str] = ()) -> str:
    """``error``'s explanation translated, its rule id first; ``names`` are the players'
    names by seat (a seat outside them is said as "seat N")."""
    if not error.values:
        text = _(error.template)
    else:
        text = _(error.template).format(
            **{k: _value(k, v, names) for k, v in error.values.items()})
    return labelled(error.rule, text) if error.rule else text


def _words(value: object) -> object:
    if isinstance(value, Words):
        return _(value.template).format(**{k: _words(v) for k, v in value.values})
    if isinstance(value, WireError):  # its reason is the engine's English: the field alone
        return (pgettext("what cannot be read", "the field {field}").format(field=value.field)
                if value.field else pgettext("what cannot be read", "its encoding"))
    return value


def transcript_error_text(error: TranscriptError) -> str:
    """Why a file is not a readable transcript, in the reader's language (``str(error)`` is
    the English the JSON verdict keeps)."""
    return _(error.template).format(**{k: _words(v) for k, v in error.values.items()})


def _note_value(key: str, value: object) -> object:
    if isinstance(value, Note):
        return note_text(value)
    if isinstance(value, Notes):
        return clauses([note_text(n) for n in value])
    if isinstance(value, SeatsNo):
        return listing([str(seat) for seat in value])
    if isinstance(value, CardsNo):
        return cards_text(list(value))
    if isinstance(value, Seconds):
        return format_decimal(value)
    if key == "result" and isinstance(value, str):
        return outcome_word(value)
    return value


def note_text(note: str) -> str:
    """An audit's note in the reader's language: cards by name, lists joined as the language
    joins them (``str(note)`` stays the English the JSON verdict keeps)."""
    if not isinstance(note, Note):
        return note
    template = (_(note.template) if note.plural is None or note.n is None
                else ngettext(note.template, note.plural, note.n))
    return template.format(**{k: _note_value(k, v) for k, v in note.values.items()})
