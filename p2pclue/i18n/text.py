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


def default_table_name(player: str) -> str:
    """The name of a table its opener did not name ("Anne's table"), in the opener's
    language: others see it as typed, like any name a person chose. A table's name is at
    most ``MAX_NAME_CHARS`` long, as a player's is: a long player name is clipped ("…") so
    that the table's fits."""
    from p2pclue.engine.config import MAX_NAME_CHARS  # the engine's crypto loads on use only

    # Translators: the name a table gets when its opener gives none; {player} is the
    # opener's name, never declined ("tavolo di Anne", "chez Anne", "Anne 님의 테이블").
    pattern = pgettext("the default name of a table", "{player}'s table")
    name = pattern.format(player=player)
    over = len(name) - MAX_NAME_CHARS
    if over > 0:
        name = pattern.format(player=player[:max(1, len(player) - over - 1)] + "…")
    return name[:MAX_NAME_CHARS]


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
    """A rules preset as people read it, in their language ("classiche", "tchèques"), and
    rules matching no preset as "custom"; ``--json``, transcripts and the LAN announcement
    keep the preset's name as typed on the command line (``classic``, ``cz``)."""
    labels = {
        # Translators: the rules of the Italian and French rule texts (--rules classic); it
        # stands alone ("Rules: classic.") and after the word rules ("classic rules").
        "classic": pgettext("rules preset", "classic"),
        # Translators: the rules of the Czech rule text (--rules cz), said as for "classic".
        "cz": pgettext("rules preset", "cz"),
        # Translators: rules that match no preset (the table chose its own variants).
        "custom": pgettext("rules preset", "custom"),
    }
    return labels.get(preset, preset)


def labelled(label: str, text: str) -> str:
    """``label: text`` punctuated as the language does ("R23 : ..." in French)."""
    # Translators: a label and what it labels ("R23: ...", "Billiard Room: Cs Dg Pi");
    # French puts a space before the colon.
    return _("{label}: {text}").format(label=label, text=text)


def key_name(key: str) -> str:
    """A key as keyboards in the reader's language label it ("Invio", "Entrée", "Échap"):
    the footer says it with this word, and the help and prompts write the same one."""
    names = {
        # Translators: the Enter key as your keyboards label it; write the same word in
        # the help and prompts ("arrows, Enter", "Where to? ...; Enter goes.").
        "Enter": pgettext("key", "Enter"),
        # Translators: the Escape key as your keyboards label it, as the help writes it.
        "Esc": pgettext("key", "Esc"),
    }
    return names.get(key, key)


def check_words(check: str) -> str:
    """What a failed protocol check means, for people; the check's name and the engine's
    detail stay beside it in English (they are what a developer or an auditor looks up)."""
    if check.startswith("proof") or check == "crypto":
        return _("a proof that does not verify")
    if check.startswith("R") and check[1:].isdigit():
        # Translators: {rule} is a rule's number in the rules, such as R21.
        return _("a move against rule {rule} of the game").format(rule=check)
    words = {
        "signature": _("a message signed in someone else's name"),
        "equivocation": _("two different messages for the same step"),
        "chain": _("a message replayed or out of order"),
        "turn": _("a message out of turn"),
        "votes": _("a vote that does not count"),
        "randomness": _("a random value that does not verify"),
        "footer": _("an end of the transcript that does not match the game"),
        "false-blame": _("a blame the evidence does not support"),
    }
    if check in ("deal", "envelope", "keys", "reveal", "secrets", "open"):
        return _("a step of the shuffle and deal that does not verify")
    if check == "leave":
        return _("a leave from the table that does not verify")
    return words.get(check, _("a step the protocol does not allow"))
