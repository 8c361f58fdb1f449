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

from p2pclue.engine.errors import LocalProtocolError
from p2pclue.i18n.phrases import card_word
from p2pclue.i18n.players import player_word
from p2pclue.i18n.text import labelled, outcome_word
from p2pclue.i18n.translate import _, pgettext
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
