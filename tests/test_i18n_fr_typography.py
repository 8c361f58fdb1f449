"""French puts a narrow no-break space (U+202F) before ``:`` ``;`` ``!`` and ``?`` and inside
« » ("Chiara (bot moyen) : ..."), so that a wrapped line never starts with the punctuation.

What is not punctuation is left alone, and is recognised by its shape: a key legend glued to
its label ("h:conseil", "?:aide"), a time or an address ("12:05", "host:port", "http://"), a
key or the notepad's mark written alone after a comma, a full stop or two spaces ("? aide",
"  ? inconnu"), and the board's "::" mark (reachable squares) in the legend of the monochrome
board. Strings built by code around catalog text (the footer's "key:label") follow the
same shapes.
"""

from __future__ import annotations

import re

from tools.catalogs import po_path, read_catalog

SPACES = " \u00a0\u202f"
MISSING_SPACE = re.compile(rf"(?<=[^{SPACES}:])[:;!?](?=[{SPACES}\"'»)]|$)")
"""A closing ``:;!?`` (followed by a space, a closing mark or the end) glued to a word."""


def test_every_french_message_spaces_its_high_punctuation() -> None:
    found = []
    for message in read_catalog(po_path("fr"), "fr"):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple | list) else (
            message.string,)
        found += [text for text in strings if text and MISSING_SPACE.search(text)]
    assert not found, found


BREAKABLE = re.compile(r"(?<![.,( ])[ \u00a0](?=[:;!?](?!:)(?:[\s\"'»)]|$))|«[ \u00a0]|[ \u00a0]»")
"""An ordinary or a wide no-break space before high punctuation (or inside « »): French
writes U+202F there (an ordinary one lets a wrapped line begin with ":")."""


def test_every_french_punctuation_space_is_narrow_and_unbreakable() -> None:
    found = []
    for message in read_catalog(po_path("fr"), "fr"):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple | list) else (
            message.string,)
        found += [text for text in strings if text and BREAKABLE.search(text)]
    assert not found, found
    assert not BREAKABLE.search("Où aller\u202f? Flèches, n carnet, ? aide  ? inconnu")
    assert BREAKABLE.search("partie ; non") and BREAKABLE.search("« oui»")


def test_a_wrapped_french_line_never_begins_with_punctuation() -> None:
    from p2pclue.i18n import install
    from p2pclue.tui.text import wrap

    assert BREAKABLE.search("Où aller ? Flèches") and not BREAKABLE.search("Où aller\u202f?")
    install("fr")
    try:
        for width in range(8, 30):
            for text in ("Où aller\u202f? Flèches, le numéro d'une pièce ou la souris\u202f;",
                         "Chiara (bot moyen)\u202f: Madame Pervenche, 42\u00a0%"):
                lines = wrap(text, width)
                assert not any(ln.lstrip()[:1] in ":;!?%" for ln in lines), (width, lines)
    finally:
        install("en")


def test_the_rule_sees_what_the_review_saw() -> None:
    assert MISSING_SPACE.search("Chiara (bot moyen): Madame Pervenche")
    assert MISSING_SPACE.search("Où aller?")
    for fine in ("Chiara (bot moyen) : Madame Pervenche", "Où aller\u202f?",
                 "h:conseil ?:aide q:quitter", "--peer 127.0.0.1:4000", "## : portes ; :: où",
                 "? affiche les touches"):
        assert not MISSING_SPACE.search(fine), fine


def test_labels_the_code_builds_are_spaced_in_french() -> None:
    """A refusal's rule id and a crowded room's list were joined by ": " in code."""
    import dataclasses

    from p2pclue.i18n import install, refusal_text
    from p2pclue.rules.actions import EndTurn
    from p2pclue.rules.errors import RuleError
    from p2pclue.rules.game import apply
    from p2pclue.tui import view
    from tests.rules.helpers import start
    from tests.tui.test_ux import _model

    install("fr")
    try:
        state = start()
        try:
            apply(state, EndTurn(state.current_seat))
        except RuleError as error:
            said = refusal_text(error)
        else:
            raise AssertionError("ending the turn before rolling is refused")
        assert re.match(r"R\d+\u202f: ", said), said
        model, game = _model()
        model.state = dataclasses.replace(game, weapons=(16,) * 6)  # one crowded room
        listed = " ".join(t for _s, t in view.crowded_lines(model, 48))
        assert "Salle de billard\u202f: " in listed, listed
    finally:
        install("en")
