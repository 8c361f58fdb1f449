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
