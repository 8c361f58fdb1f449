"""Small pieces of sentences that every language builds differently."""

from __future__ import annotations

from collections.abc import Sequence

from p2pclue.i18n.cldr import format_number, format_percent, join_list
from p2pclue.i18n.players import PlayerWord
from p2pclue.i18n.shaping import SHAPES
from p2pclue.i18n.translate import _, current_language, ngettext, pgettext


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` as the installed language lists things (CLDR:
    "a, b e c", "a, b a c"; Italian "ed" before a last item starting with e)."""
    lang = current_language()
    return join_list(list(items), lang=lang, shape=SHAPES.get(lang))


def alternatives(items: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c`` in the installed language (CLDR)."""
    lang = current_language()
    return join_list(list(items), "list_or", lang=lang, shape=SHAPES.get(lang))


def clauses(items: Sequence[str]) -> str:
    """Whole clauses ("Ada plays Miss Scarlett", "two dice are rolled") joined into one
    sentence: a list of things would join them with a word some languages keep for nouns
    (Korean 및), so each language says how clauses are joined."""
    if len(items) <= 1:
        return "".join(items)
    # Translators: two clauses of one sentence, but the last two: "Ada plays Miss
    # Scarlett, Bruno plays Mrs White...". Korean joins clauses with a comma, not 및.
    head = items[0]
    for item in items[1:-1]:
        head = pgettext("joining clauses", "{first}, {second}").format(first=head,
                                                                        second=item)
    # Translators: the last two clauses of one sentence: "... and Chiara plays Mrs White".
    return pgettext("joining clauses", "{first} and {last}").format(first=head,
                                                                   last=items[-1])


def seats(taken: int, wanted: int) -> str:
    """How full a table is ("2/4 seats"), the noun in the form the number asks for."""
    # Translators: how many of a table's seats are taken; the form follows {wanted}
    # (Czech 2/4 místa, 2/5 míst).
    return ngettext("{taken}/{wanted} seat", "{taken}/{wanted} seats", wanted).format(
        taken=taken, wanted=wanted)


def capital(text: str) -> str:
    """A sentence begins with a capital, whatever its first word ("you", a card's article);
    the rest stays as it is (a name keeps its own capitals)."""
    return text[:1].upper() + text[1:]


def number(value: int) -> str:
    """A whole number as the installed language writes it ("12,345", "12 345")."""
    return format_number(value)


def percent(fraction: float) -> str:
    """A share (0.42) as the installed language writes a percentage ("42%", "42 %")."""
    return format_percent(fraction)


def default_table_name(player: str) -> str:
    """The name of a table its opener did not name ("Anne's table"), in the opener's
    language: others see it as typed, like any name a person chose. A table's name is at
    most ``MAX_NAME_CHARS`` long, as a player's is: a long player name is clipped ("…") so
    that the table's fits."""
    from p2pclue.engine.config import MAX_NAME_CHARS  # the engine's crypto loads on use only

    # Translators: the name a table gets when its opener gives none; {player} is the
    # opener's name, never declined ("tavolo di Anne", "chez Anne", "Anne 님의 테이블").
    pattern = pgettext("the default name of a table", "{player}'s table")
    name = pattern.format(player=PlayerWord(player))
    over = len(name) - MAX_NAME_CHARS
    if over > 0:
        name = pattern.format(player=PlayerWord(player[:max(1, len(player) - over - 1)] + "…"))
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
        # Translators: the Page Up key as your keyboards label it (short).
        "PgUp": pgettext("key", "PgUp"),
        # Translators: the Page Down key as your keyboards label it (short).
        "PgDn": pgettext("key", "PgDn"),
        # Translators: the Home key as your keyboards label it.
        "Home": pgettext("key", "Home"),
        # Translators: the End key as your keyboards label it.
        "End": pgettext("key", "End"),
        # Translators: the Tab key as your keyboards label it.
        "Tab": pgettext("key", "Tab"),
        # Translators: the space bar, as a key to press.
        "Space": pgettext("key", "Space"),
    }
    return names.get(key, key)


def yes_key() -> str:
    """The letter that answers yes in the reader's language ("s" for sì, "o" for oui): the
    prompts show it and the answers accept it (and English y)."""
    # Translators: the one letter that answers "yes" to a question (it s, fr o, cs a,
    # sq p); the prompts show it ("[s/n]") and it is what the player types.
    return pgettext("the key for yes, 1 cell", "y")


def no_key() -> str:
    """The letter that answers no in the reader's language (and English n)."""
    # Translators: the one letter that answers "no" (sq j); never the same as yes.
    return pgettext("the key for no, 1 cell", "n")


def is_yes(answer: str) -> bool:
    """A typed answer means yes: the language's key or word, or English y/yes."""
    # Translators: the word for "yes" as a player may type it in answer to a question.
    word = pgettext("a typed answer", "yes")
    return answer.strip().casefold() in {yes_key().casefold(), word.casefold(), "y", "yes"}


def is_no(answer: str) -> bool:
    """A typed answer means no: the language's key or word, or English n/no."""
    # Translators: the word for "no" as a player may type it in answer to a question.
    word = pgettext("a typed answer", "no")
    return answer.strip().casefold() in {no_key().casefold(), word.casefold(), "n", "no"}


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
