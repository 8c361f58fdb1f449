"""Lists, numbers and percentages as each language writes them (Unicode CLDR data).

"Ada, Bruno and Chiara" is "Ada, Bruno e Chiara" in Italian and "Ada, Bruno a Chiara" in
Czech (a no-break space after the one-letter "a"); 42 % is "42 %" in French and Czech,
"42%" elsewhere; 12 345 is "12,345", "12.345", "12 345". The rules are CLDR's, copied
from Babel's locale data by ``python -m tools.cldr_data`` into ``cldr.json`` (with the CLDR
version it came from), so players need no Babel: ``tests/test_i18n_cldr.py`` checks the
file against Babel where Babel is installed.

The pseudo-locale (``p2pclue.i18n.pseudo``) writes English's rules accented, and its
percentages with a narrow no-break space ("42 %"): a percentage formatted by hand
("42%") then stands out on its screens.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from functools import cache
from importlib import resources
from typing import Any

from p2pclue.i18n.pseudo import PSEUDO, accent
from p2pclue.i18n.translate import current_language

Shape = Callable[[str, str], str]
"""How a language changes the words before a value, knowing the value (``shaping``)."""


@cache
def _data() -> dict[str, Any]:
    raw = (resources.files("p2pclue.i18n") / "cldr.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(raw)
    return data


def cldr_version() -> str:
    """The CLDR release the shipped data comes from."""
    return str(_data()["cldr"])


@cache
def rules(lang: str) -> dict[str, Any]:
    """One language's data: ``list``, ``list_or``, ``decimal``, ``percent``, ``symbols``."""
    languages: dict[str, Any] = _data()["languages"]
    if lang == PSEUDO:
        english = languages["en"]
        return {**english,
                "list": {k: accent(v) for k, v in english["list"].items()},
                "list_or": {k: accent(v) for k, v in english["list_or"].items()},
                "percent": english["percent"].replace("%", "\u202f%")}
    return dict(languages[lang])


def _fill(pattern: str, first: str, second: str, shape: Shape | None) -> str:
    """A CLDR pattern (``{0} and {1}``) with its two values; ``shape`` may change the words
    before each value ("e" -> "ed" before "Emma" in Italian)."""
    out: list[str] = []
    for literal, field in re.findall(r"([^{]*)(\{[01]\}|$)", pattern):
        value = {"{0}": first, "{1}": second}.get(field, "")
        out += (shape(literal, value) if shape is not None and value else literal, value)
    return "".join(out)


def join_list(items: Sequence[str], kind: str = "list", lang: str | None = None,
              shape: Shape | None = None) -> str:
    """``items`` as one list in ``lang``'s words (``kind``: "list" for and, "list_or")."""
    patterns = rules(lang or current_language())[kind]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return _fill(patterns["2"], items[0], items[1], shape)
    tail = _fill(patterns["end"], items[-2], items[-1], shape)
    for item in reversed(items[1:-2]):
        tail = _fill(patterns["middle"], item, tail, shape)
    return _fill(patterns["start"], items[0], tail, shape)


def _grouped(digits: str, group: str, size: int) -> str:
    if size <= 0 or len(digits) <= size:
        return digits
    head, tail = digits[:-size], digits[-size:]
    return _grouped(head, group, size) + group + tail


def _number_part(pattern: str) -> tuple[str, str, int]:
    """A pattern's text before and after its number, and the size of its digit groups."""
    found = re.search(r"[#0,.]+", pattern)
    if found is None:
        raise ValueError(f"no number in the pattern {pattern!r}")
    number = found.group().split(".", 1)[0]
    size = len(number) - number.rindex(",") - 1 if "," in number else 0
    return pattern[:found.start()], pattern[found.end():], size


def format_number(value: int, lang: str | None = None) -> str:
    """A whole number as ``lang`` writes it (its digit groups and minus sign)."""
    data = rules(lang or current_language())
    symbols = data["symbols"]
    _before, _after, size = _number_part(data["decimal"])
    text = _grouped(str(abs(value)), symbols["group"], size)
    return symbols["minusSign"] + text if value < 0 else text


def format_decimal(value: float, lang: str | None = None, places: int = 3) -> str:
    """``value`` with at most ``places`` decimals as ``lang`` writes it ("121.5", "121,5")."""
    data = rules(lang or current_language())
    symbols = data["symbols"]
    _before, _after, size = _number_part(data["decimal"])
    whole, _dot, fraction = f"{abs(value):.{places}f}".partition(".")
    fraction = fraction.rstrip("0")
    text = _grouped(whole, symbols["group"], size) + (
        symbols["decimal"] + fraction if fraction else "")
    return symbols["minusSign"] + text if value < 0 and text.strip("0,.") else text


def format_percent(fraction: float, lang: str | None = None) -> str:
    """``fraction`` (0.42) as a whole percentage in ``lang`` ("42%", "42 %")."""
    data = rules(lang or current_language())
    symbols = data["symbols"]
    before, after, size = _number_part(data["percent"])
    percent = round(fraction * 100)
    text = _grouped(str(abs(percent)), symbols["group"], size)
    sign = symbols["minusSign"] if percent < 0 else ""
    return (sign + before.replace("%", symbols["percentSign"]) + text
            + after.replace("%", symbols["percentSign"]))


__all__ = ["Shape", "cldr_version", "format_decimal", "format_number", "format_percent",
           "join_list", "rules"]
