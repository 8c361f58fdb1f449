"""What the pseudo-locale (``--lang qps``) shows, read for text that escaped the catalogs.

Every message of the pseudo catalog is accented and sits between ``⟦`` and ``⟧``; every
card name is accented (``p2pclue.i18n.pseudo``). So on a screen, or in printed output:

- a run of two or more plain ASCII letters that is not a name a person typed, an option
  (``--plain``), a word of ``VERBATIM`` or data the test names (a file's path, a table
  code, a key's fingerprint) never went through a catalog;
- a ``⟦`` without its ``⟧`` (or a ``⟧`` without its ``⟦``) is a message cut off;
- a digit glued to ``%`` is a percentage written by hand (the pseudo-locale writes
  ``42 %`` through CLDR, ``p2pclue.i18n.cldr``).

Single letters are keys (r, y, n...), the same in every language but y/n, and allowed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from p2pclue.i18n.pseudo import CLOSE, OPEN, VERBATIM

_TECHNICAL = re.compile(
    r"(?<![\w-])--?[a-z][a-z0-9-]*"          # an option
    r"|\bp2pclue(?:\.[a-z0-9_]+)*(?: (?:join|watch|simulate|audit|bench)\b)?"  # a command
    r"|\bR\d+\b"                             # a rule's id
    r"|\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b"    # a variant's id (ENTER-EXACT)
)
_ASCII_WORD = re.compile(r"[A-Za-z]{2,}")
_HAND_PERCENT = re.compile(r"\d%")


def _without(text: str, allowed: Iterable[str]) -> str:
    for value in sorted(set(allowed), key=len, reverse=True):
        if value:  # as a whole word: "a" of a reason must not clear the a of "--plain"
            text = re.sub(rf"(?<!\w){re.escape(value)}(?!\w)", " " * len(value), text)
    text = _TECHNICAL.sub(lambda m: " " * len(m.group()), text)
    return re.sub(r"[A-Za-z][\w.-]*", lambda m: " " * len(m.group())
                  if m.group().rstrip(".-") in VERBATIM else m.group(), text)


def untranslated(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` that no catalog gave (see the module docstring)."""
    rest = _without(text, allowed)
    found = [f"English {m.group()!r} in {_around(text, m.start())!r}"
             for m in _ASCII_WORD.finditer(rest)]
    found += [f"a percentage by hand in {_around(text, m.start())!r}"
              for m in _HAND_PERCENT.finditer(rest)]
    return found


def _around(text: str, at: int) -> str:
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    return text[line_start:line_end if line_end >= 0 else len(text)].strip()


def unbalanced(text: str) -> list[str]:
    """Messages cut off: a ``⟧`` before any ``⟦``, or a ``⟦`` never closed."""
    depth = 0
    for at, ch in enumerate(text):
        if ch == OPEN:
            depth += 1
        elif ch == CLOSE:
            depth -= 1
            if depth < 0:
                return [f"a message's start is missing before {_around(text, at)!r}"]
    if depth:
        last = text.rfind(OPEN)
        return [f"{depth} message(s) cut off, the last opened in {_around(text, last)!r}"]
    return []


def panes(lines: Sequence[str], separator: str = "\u2502") -> list[str]:
    """A screen's text pane by pane: rows split at a vertical separator (``│``), each
    column of panes read top to bottom, so a message wrapped over rows in one pane reads
    whole; rows without the separator are read across."""
    columns: dict[int, list[str]] = {}
    order: list[int] = []
    for row in lines:
        for k, part in enumerate(row.split(separator)):
            if k not in columns:
                columns[k] = []
                order.append(k)
            columns[k].append(part)
    return ["\n".join(columns[k]) for k in order]


def screen_problems(lines: Sequence[str], allowed: Iterable[str] = (),
                    separator: str = "\u2502") -> list[str]:
    """Everything wrong with one screen (or one output) in the pseudo-locale."""
    allowed = list(allowed)
    found: list[str] = []
    for pane in panes(lines, separator):
        found += untranslated(pane, allowed) + unbalanced(pane)
    return found




def catalog_ellipses(lang: str) -> set[str]:
    """The words with an ellipsis that ``lang``'s catalog writes itself ("pensando…",
    "…e"): any other word ending in one on a screen was cut by a layout."""
    from tools.catalogs import po_path, read_catalog

    found: set[str] = set()
    for message in read_catalog(po_path(lang), lang):
        strings = message.string if isinstance(message.string, tuple | list) else (
            message.string,)
        for text in strings:
            found.update(w for w in (text or "").split() if "…" in w)
    return found


def cut_words(lines: Sequence[str], legit: set[str], separator: str = "\u2502",
              names: Iterable[str] = ()) -> list[str]:
    """Words a layout cut ("Colonnello Musta…"): an ellipsis the catalog did not write. A
    catalog's word with a field ("{player}…") is the catalog's own only with one of
    ``names`` whole in the field's place ("Massimiliano…", never "Massimi…")."""
    found = []
    whole = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True) if n)
    fields = [re.compile(f"(?:{whole})".join(re.escape(part) for part in
                                               re.split(r"\{[^{}]*\}", w.rstrip(").,:;!?"))))
              for w in legit if "{" in w] if whole else []
    for pane in panes(lines, separator):
        for word in pane.split():
            if "…" in word and not any(word.startswith(w.rstrip(").,:;!?")) or
                                       w.lstrip("(").startswith(word) for w in legit) \
                    and not any(f.fullmatch(word.rstrip(").,:;!?")) for f in fields):
                found.append(f"{word!r} cut in {_around(pane, pane.find(word))!r}")
    return found


__all__ = ["catalog_ellipses", "cut_words", "panes", "screen_problems", "unbalanced",
           "untranslated"]
