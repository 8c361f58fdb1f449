"""Words that change with the value after them, which a message cannot know in advance.

French elides "de" and "que" before a vowel ("la main d'Ada", "de Bruno"); Italian
writes "ed" and "ad" before a word that starts with the same vowel ("Bruno ed Emma",
"mostra una carta ad Ada"). Cards carry their own articles and contractions
(``cards.toml``), but a player's name is typed by a person and a list's last item may be
anything, so a message in these languages is a ``str`` whose ``format`` looks at each
value and changes the literal words just before it (``Shaped``). ``listing`` does the
same between a list's items.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Callable
from typing import Any

Shape = Callable[[str, str], str]
"""(the literal text before a value, the value) -> that literal, changed where it must."""

_ELIDES = re.compile(r"(?:^|(?<=[\s(«]))([dD]e|[qQ]ue) $")
"""A literal ending in the word "de" or "que" and one space, just before a field."""
_VOWEL = re.compile(r"[aeiouâàäéèêëîïôöûùüœæ]", re.IGNORECASE)
_EUPHONIC = re.compile(r"(?:^|(?<=[\s(]))([eEaA]) $")
"""A literal ending in Italian "e" (and) or "a" (to) and one space, just before a field."""


def french(literal: str, value: str) -> str:
    """ "de Ada" -> "d'Ada", "que Émile" -> "qu'Émile"; a name starting with h or y is left
    alone (whether it elides depends on the word)."""
    match = _ELIDES.search(literal)
    if match and _VOWEL.match(value):
        return literal[:match.start()] + match.group(1)[:-1] + "'"
    return literal


def _first_letter(value: str) -> str:
    decomposed = unicodedata.normalize("NFD", value.lstrip()[:1])
    return decomposed[:1].casefold()


def italian(literal: str, value: str) -> str:
    """ "e Emma" -> "ed Emma", "a Ada" -> "ad Ada": the d eufonica before the same vowel
    (the use the Crusca recommends; "e Ida", "a Elena" stay)."""
    match = _EUPHONIC.search(literal)
    if match and _first_letter(value) == match.group(1).casefold():
        return literal[:match.start()] + match.group(1) + "d "
    return literal


SHAPES: dict[str, Shape] = {"fr": french, "it": italian}
"""The languages whose words change with the value after them."""


class _Formatter(string.Formatter):
    def __init__(self, shape: Shape) -> None:
        self.shape = shape

    def vformat(self, format_string: str, args: Any, kwargs: Any) -> str:
        out: list[str] = []
        for literal, field, spec, conversion in self.parse(format_string):
            if field is None:
                out.append(literal)
                continue
            if not field or field.isdigit():  # positional fields: no shaping needed here
                return super().vformat(format_string, args, kwargs)
            obj, _key = self.get_field(field, args, kwargs)
            value = self.format_field(self.convert_field(obj, conversion),
                                      self.vformat(spec or "", args, kwargs))
            out += (self.shape(literal, value), value)
        return "".join(out)


_FORMATTERS = {lang: _Formatter(shape) for lang, shape in SHAPES.items()}


class Shaped(str):
    """A message of a language in ``SHAPES``: ``format`` as ``str.format`` does, with the
    words before each value shaped by it."""

    __slots__ = ("lang",)
    lang: str

    def __new__(cls, text: str, lang: str) -> Shaped:
        made = super().__new__(cls, text)
        made.lang = lang
        return made

    def format(self, /, *args: Any, **kwargs: Any) -> str:
        return _FORMATTERS[self.lang].vformat(self, args, kwargs)


def shaped(text: str, lang: str) -> str:
    """``text`` as a message of ``lang``: ``Shaped`` where the language shapes its words."""
    return Shaped(text, lang) if lang in SHAPES and "{" in text else text


__all__ = ["SHAPES", "Shape", "Shaped", "french", "italian", "shaped"]
