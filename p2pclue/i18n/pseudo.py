"""The pseudo-locale ``qps``: English made visibly foreign, to find text that escapes the catalogs.

Every message of the English catalog becomes accented ("Ŕóĺĺ ţĥé đíé"), at least 40 %
longer, between ``⟦`` and ``⟧`` (``pseudo_message``), and every card name is accented
too (``accent``), so on a screen in ``--lang qps``:

- a word of plain ASCII letters was never translated (names people typed, options such as
  ``--plain`` and the words of ``VERBATIM`` aside),
- a ``⟦`` whose ``⟧`` is missing is a message cut off, and
- a layout that holds English only just overflows.

``tools`` and the catalogs tool write ``locale/qps/LC_MESSAGES/p2pclue.po`` from the English
catalog (``python -m tools.catalogs update``) and compile it like any other; it is
selectable with ``--lang qps`` but never offered to players (``LANGUAGES`` leaves it out).

A message whose context says it must fit a few cells ("2 cells": a notepad column) is
accented only, neither bracketed nor lengthened, and keeps single letters (keys): those
fit by construction, and ``tests/test_pseudo_catalog.py`` checks that every language's
translation fits too.
"""

from __future__ import annotations

import math
import re

PSEUDO = "qps"
"""The pseudo-locale's code (as Microsoft's qps-ploc): no real language uses it."""
OPEN, CLOSE = "\u27e6", "\u27e7"
"""Where each pseudo message starts and ends: ``⟦`` ``⟧`` (one cell each, in no message)."""
FILLER = "\u00b7"
"""What lengthens a message: ``·`` (one cell, no letter)."""
GROWTH = 1.4
"""A pseudo message is at least this many times as long as its English text."""

_LOWER = "áḃçḋéḟĝĥíĵķĺṁñóṗqŕšţúṽŵẋýž"
_UPPER = "ÁḂÇḊÉḞĜĤÍĴĶĹṀÑÓṖQŔŠŢÚṼŴẊÝŽ"
ACCENTS = str.maketrans("abcdefghijklmnopqrstuvwxyz" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                        _LOWER + _UPPER)
"""Each letter with a mark it decomposes into (NFD), so ``fold`` reads the English back: a
room's initial and a typed card name work as in English (q has no such letter: it stays)."""

VERBATIM = frozenset({
    # what is typed as it is on a command line or read as a name in every language
    "p2pclue", "python", "HOST", "PORT", "NAME", "GAME", "KIND", "CODE", "PATH", "SEAT",
    "PHASE", "ADDR", "SECONDS", "COMMAND", "DIR", "LANG", "LC_ALL", "LC_MESSAGES",
    "P2PCLUE_INTERFACES", "NO_COLOR", "JSON", "LAN", "IP", "F1", "Ctrl", "Noise", "PAKE",
    "Clue", "Cluedo", "zeroconf", "multicast", "Wi-Fi", "IPv4",
})
"""Words a pseudo message keeps as English writes them; the screen checks allow them."""

_KEEP = re.compile(
    r"\{[^{}]*\}"                            # a str.format field: {player}, {room:the}
    r"|%\([a-z_]+\)[sdr]|%[sdr]"             # argparse's own fields: %(prog)s, %s
    r"|(?<![\w-])--?[a-z][a-z0-9-]*"         # a command-line option: --plain, -h
    r"|\bp2pclue(?:\.[a-z0-9_]+)+"           # a module: p2pclue.i18n.catalogs
    r"|\bp2pclue (?:join|watch|simulate|audit|bench)\b"  # a command, typed as it is
    r"|\bR\d+\b"                             # a rule's id: R23
    r"|\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b"    # a variant's id: ENTER-EXACT, TWO-DICE
    r"|\b(?<![\w-])[A-Za-z]\b(?![\w-])"      # a letter alone: a key (r, y, n)
    r"|(?P<word>[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9])"  # a word: kept if VERBATIM
)
_CELLS = re.compile(r"\b(\d+) cells?\b")


def accent(text: str) -> str:
    """``text`` with every letter accented, except fields, options and ``VERBATIM`` words."""
    out: list[str] = []
    at = 0
    for match in _KEEP.finditer(text):
        out.append(text[at:match.start()].translate(ACCENTS))
        token = match.group()
        word = match.group("word") is not None and token not in VERBATIM
        out.append(token.translate(ACCENTS) if word else token)
        at = match.end()
    out.append(text[at:].translate(ACCENTS))
    return "".join(out)


def cell_limit(context: str | None) -> int | None:
    """The cells a message must fit in, when its context says so ("2 cells")."""
    found = _CELLS.search(context or "")
    return int(found.group(1)) if found else None


def pseudo_message(english: str, context: str | None = None) -> str:
    """One message of the pseudo catalog, from its English text (see the module docstring)."""
    if not english.strip():
        return english
    if cell_limit(context) is not None:
        return accent(english)
    body = english.strip()
    lead = english[:len(english) - len(english.lstrip())]
    trail = english[len(english.rstrip()):]
    short = max(0, math.ceil(GROWTH * len(english)) - len(english) - 2)
    filler = ""
    while len(filler) < short:  # words of up to five, so a narrow pane can still wrap
        filler += " " + FILLER * min(5, max(1, short - len(filler) - 1))
    return f"{lead}{OPEN}{accent(body)}{filler}{CLOSE}{trail}"


__all__ = ["ACCENTS", "CLOSE", "FILLER", "GROWTH", "OPEN", "PSEUDO", "VERBATIM", "accent",
           "cell_limit", "pseudo_message"]
