"""A player's gender is unknown, so no word agrees with it (review of issue 20's catalogs).

Player names are typed by people ("Chiara (bot medio)", "Bruno"), and the local player is
"you" of unknown gender too. Italian and French past participles with *essere* / *être*
agree with the subject ("si è spostato/spostata", "est allé/allée"), so a sentence about a
player says what happened with a verb that does not agree: *avere* / *avoir* ("ha
raggiunto", "a atteint"), or the present. Czech writes both endings ("připraven(a)") where
it cannot avoid a participle (docs/translations.md).
"""

from __future__ import annotations

import re

from tools.catalogs import po_path, read_catalog

WHO = r"(?<!di )(?<!de )(?:\{player\}|\{name\}|\{silent\}|\{culprit\}|\{other\})"
AGREES = {
    # {player} è entrato / si è spostato / ti sei spostato / sei bloccato
    "it": re.compile(WHO + r" (?:si |ti )?è (?:stat[oa] )?\w+(?:at|ut|it)[oa]\b"
                     r"|\b(?:[Ss]ei|[Tt]i sei) \w+(?:at|ut|it)[oa]\b"
                     r"|" + WHO + r" è tornat[oa]\b"),
    # {player} est allé / s'est absenté / s'est tu / vous êtes entré / éliminé
    "fr": re.compile(WHO + r" (?:est|s'est) (?:\w+é|allé|venu|tu|éliminé)\b"
                     r"|\b[Vv]ous êtes \w+é\b"),
    # {player} se posunul / je připraven: a masculine or feminine ending alone
    "cs": re.compile(r"\b(?:připraven|vyřazen|posunul|přesunul|vstoupil|hodil)\b(?!\(a\))"),
}


def _strings(lang: str) -> list[tuple[str, str]]:
    out = []
    for message in read_catalog(po_path(lang), lang):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (
            message.string,)
        out += [(ids[0], text) for text in strings if text]
    return out


def test_no_participle_agrees_with_a_player() -> None:
    found = [(lang, msgid, text) for lang, pattern in AGREES.items()
             for msgid, text in _strings(lang) if pattern.search(text)]
    assert not found, found


def test_a_move_into_the_corridor_says_where_the_token_is() -> None:
    """Italian "verso" and French "vers" said "towards": the token is in the corridor."""
    for lang in ("it", "fr"):
        moved = [text for msgid, text in _strings(lang)
                 if msgid in ("You move {n} square, stopping {place}.",
                              "{player} moves {n} square, stopping {place}.")]
        assert len(moved) == 6  # both sentences, in the three plural forms of it and fr
        assert not any(re.search(r"\bvers[oa]?\b", text) for text in moved), moved


GUESSED = {
    # words a native reader found guessing a player's gender: "pronto", "l'ultimo giocatore
    # rimasto"; "prêt", "éliminé", "silencieux", "le dernier joueur", "il est éliminé"
    "it": re.compile(r"\bpront[oi]\b|\bultimo giocatore\b|(?<!posto )\bsilenzios[oi]\b"
                     r"|\bgiocatore eliminato\b"),
    "fr": re.compile(r"\bprêts?\b|\béliminés?\b|\bsilencieux\b|\bdernier joueur\b"
                     r"|\bil est éliminé\b|\bcelui qui\b|\bprouvé\b"),
}


def test_no_word_guesses_a_players_gender() -> None:
    """A player's status is said by what they did ("ha dato il via", "a donné le départ")
    or by a phrase that does not agree ("hors jeu", "fuori dal gioco", "la personne qui")."""
    found = [(lang, msgid, text) for lang, pattern in GUESSED.items()
             for msgid, text in _strings(lang) if pattern.search(text)]
    assert not found, found
