"""Write ``p2pclue/i18n/cldr.json``: the CLDR data p2pclue reads at run time (maintainers only).

Players never need Babel: the list patterns, number symbols and the decimal and percent
patterns each language needs are copied here from Babel's CLDR data into a small JSON
file that ships with the package (``p2pclue.i18n.cldr`` reads it). Run it after a Babel
upgrade; ``tests/test_i18n_cldr.py`` fails while the shipped file differs from what the
installed Babel gives.

    python -m tools.cldr_data          # rewrite the file
    python -m tools.cldr_data --check  # exit 1 if it is stale
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "p2pclue" / "i18n" / "cldr.json"
LOCALES = {"cs": "cs", "en": "en_GB", "fr": "fr", "it": "it", "ko": "ko", "sq": "sq"}
"""p2pclue's language -> the CLDR locale whose conventions it follows. English is British
(the UK Cluedo's names, "colour", and lists without a comma before "and")."""
SYMBOLS = ("decimal", "group", "percentSign", "minusSign")


def extract() -> dict[str, Any]:
    """The data, as the installed Babel's CLDR gives it."""
    import babel
    from babel.core import Locale, get_cldr_version

    languages: dict[str, Any] = {}
    for lang, name in sorted(LOCALES.items()):
        locale = Locale.parse(name)
        symbols = locale.number_symbols["latn"]
        languages[lang] = {
            "locale": name,
            "list": dict(sorted(locale.list_patterns["standard"].items())),
            "list_or": dict(sorted(locale.list_patterns["or"].items())),
            "decimal": locale.decimal_formats[None].pattern,
            "percent": locale.percent_formats[None].pattern,
            "symbols": {key: symbols[key] for key in SYMBOLS},
        }
    return {
        "cldr": get_cldr_version(),
        "source": f"Unicode CLDR {get_cldr_version()}, as shipped in Babel {babel.__version__}"
                  " (babel.core.Locale: list_patterns, number_symbols, decimal_formats,"
                  " percent_formats); written by tools/cldr_data.py",
        "languages": languages,
    }


INVISIBLE = ("\u00a0", "\u202f")
"""Spaces written as escapes in the file, so that a reader sees them."""


def render(data: dict[str, Any]) -> str:
    text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    for space in INVISIBLE:
        text = text.replace(space, f"\\u{ord(space):04x}")
    return text


def main(argv: list[str]) -> int:
    text = render(extract())
    if "--check" in argv:
        stale = not OUT.exists() or OUT.read_text(encoding="utf-8") != text
        print(f"{OUT} is {'stale' if stale else 'up to date'}")
        return 1 if stale else 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
