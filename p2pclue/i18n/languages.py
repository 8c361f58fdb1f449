"""Which language p2pclue speaks: ``--lang``, else the locale variables, else English.

The choice only changes what people read. Machine-readable output (``--json``,
transcripts, the protocol) never depends on it.
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from p2pclue.i18n.pseudo import PSEUDO

DEFAULT_LANGUAGE = "en"
LANGUAGES: dict[str, str] = {
    "cs": "čeština",
    "en": "English",
    "fr": "français",
    "it": "italiano",
    "ko": "한국어",
    "sq": "shqip",
}
"""Every language with a catalog, by code, with its name in that language."""

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""Looked at in this order; the first one set (and not empty) decides, as POSIX says."""

_ALIASES = {
    "cz": "cs", "czech": "cs", "cestina": "cs",
    "english": "en",
    "french": "fr", "francais": "fr",
    "italian": "it", "italiano": "it",
    "korean": "ko", "kr": "ko", "한국어": "ko",
    "albanian": "sq", "shqip": "sq",
    "pseudo": PSEUDO, PSEUDO: PSEUDO,
}
"""Other names people give a language; ``qps`` (also ``pseudo``) is the pseudo-locale, which
``--lang`` accepts but no list of languages offers (``p2pclue.i18n.pseudo``)."""
_NEUTRAL = {"c", "posix"}
"""Locale names that mean "no particular language": English, without a notice."""


@dataclass(frozen=True, slots=True)
class LanguageChoice:
    code: str
    origin: str
    """Where it came from: ``--lang``, a variable name, or ``default``."""
    notice: str | None = None
    """Set when what was asked for has no catalog and English is used instead."""


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def language_code(value: str) -> str | None:
    """The catalog code a locale or language name stands for, or ``None``.

    Accepts ``cs``, ``cs_CZ.UTF-8``, ``cs-CZ``, ``fr_FR@euro``, ``Italiano``, ``cz``.
    """
    folded = _fold(value)
    if folded in _ALIASES:
        return _ALIASES[folded]
    base = folded.split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0]
    if base in LANGUAGES:
        return base
    return _ALIASES.get(base)


def choose_language(cli_value: str | None, environ: Mapping[str, str]) -> LanguageChoice:
    """Decide the language and say why, without printing anything."""
    available = ", ".join(sorted(LANGUAGES))
    if cli_value is not None and cli_value.strip():
        code = language_code(cli_value)
        if code is not None:
            return LanguageChoice(code, "--lang")
        return LanguageChoice(
            DEFAULT_LANGUAGE, "--lang",
            f"p2pclue: no translation for --lang {cli_value!r}; using English "
            f"(available: {available})")
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "").strip()
        if not value:
            continue
        if _fold(value).split(".", 1)[0] in _NEUTRAL:
            return LanguageChoice(DEFAULT_LANGUAGE, name)
        code = language_code(value)
        if code is not None:
            return LanguageChoice(code, name)
        return LanguageChoice(
            DEFAULT_LANGUAGE, name,
            f"p2pclue: no translation for {name}={value!r}; using English "
            f"(choose one with --lang: {available})")
    return LanguageChoice(DEFAULT_LANGUAGE, "default")


def resolve_language(
    cli_value: str | None, environ: Mapping[str, str],
    notify: Callable[[str], None] | None = None,
) -> str:
    """The language code to use; a fallback to English is reported through ``notify``.

    ``notify`` defaults to writing one line on standard error, so that a person
    who asked for a language we do not have learns why they read English.
    """
    choice = choose_language(cli_value, environ)
    if choice.notice is not None:
        if notify is None:
            print(choice.notice, file=sys.stderr)
        else:
            notify(choice.notice)
    return choice.code
