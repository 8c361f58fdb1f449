"""Small pieces of sentences that every language builds differently."""

from __future__ import annotations

from collections.abc import Sequence

from p2pclue.i18n.translate import _, pgettext


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` in the installed language."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    # Translators: the separator between the items of a list but the last two.
    head = pgettext("list separator", ", ").join(items[:-1])
    # Translators: the last two items of a list: "Miss Scarlett, the Rope and the Hall".
    return _("{head} and {last}").format(head=head, last=items[-1])


def outcome_word(code: str) -> str:
    """How a game ended ("won", "complete", "abandoned"...) as people read it; the codes
    themselves stay English in ``--json`` and transcripts."""
    words = {
        "won": pgettext("how a game ended", "won"),
        "nobody": pgettext("how a game ended", "nobody won"),
        "complete": pgettext("how a game ended", "complete"),
        "halted": pgettext("how a game ended", "halted"),
        "abandoned": pgettext("how a game ended", "abandoned"),
    }
    return words.get(code, code)


def rules_label(preset: str) -> str:
    """A rules preset as people read it: presets by the name typed on the command line
    (``classic``, ``cz``), rules matching none of them as "custom" in their language."""
    # Translators: rules that match no preset (the table chose its own variants).
    return pgettext("rules preset", "custom") if preset == "custom" else preset
