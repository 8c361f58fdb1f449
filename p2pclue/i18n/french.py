"""French elision before a value the message cannot know: "la main d'Ada", "de Bruno".

A card's French forms carry their own article and contraction ("du salon", "de la
cuisine", ``cards.toml``), but a player's name is typed by a person, so a translation can
only write "de {player}". French elides that "de" (and "que") before a vowel: "d'Ada",
"qu'Émile". A French template is therefore a ``str`` whose ``format`` elides where the
word before a field is "de" or "que" and the value starts with a vowel sound. Names
starting with "h" or "y" are left alone: whether they elide depends on the word.
"""

from __future__ import annotations

import re
import string
from typing import Any

_ELIDES = re.compile(r"(?:^|(?<=[\s(«]))([dD]e|[qQ]ue) $")
"""A literal ending in the word "de" or "que" and one space, just before a field."""
_VOWEL = re.compile(r"[aeiouâàäéèêëîïôöûùüœæ]", re.IGNORECASE)


class _Formatter(string.Formatter):
    def vformat(self, format_string: str, args: Any, kwargs: Any) -> str:
        out: list[str] = []
        for literal, field, spec, conversion in self.parse(format_string):
            if field is None:
                out.append(literal)
                continue
            if not field or field.isdigit():  # positional fields: no elision needed here
                return super().vformat(format_string, args, kwargs)
            obj, _key = self.get_field(field, args, kwargs)
            value = self.format_field(self.convert_field(obj, conversion),
                                      self.vformat(spec or "", args, kwargs))
            match = _ELIDES.search(literal)
            if match and _VOWEL.match(value):
                literal = literal[:match.start()] + match.group(1)[:-1] + "'"
            out += (literal, value)
        return "".join(out)


_FORMATTER = _Formatter()


class FrenchTemplate(str):
    """A French message: ``format`` as ``str.format`` does, with "de"/"que" elided before a
    value that starts with a vowel."""

    __slots__ = ()

    def format(self, /, *args: Any, **kwargs: Any) -> str:
        return _FORMATTER.vformat(self, args, kwargs)
