"""The installed translation and the accessors the rest of p2pclue calls.

One language is active per process (``install``). Strings are looked up when
they are shown, never when a module is imported: constants are marked with
``N_`` and passed through ``_`` at the point of use.

Compiled catalogs (``locale/<lang>/LC_MESSAGES/p2pclue.mo``) ship inside the
package, so nothing has to be compiled at install time. They are read with
``importlib.resources`` so that a zipped install works too.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

from p2pclue.i18n.languages import DEFAULT_LANGUAGE, LANGUAGES
from p2pclue.i18n.pseudo import PSEUDO
from p2pclue.i18n.shaping import shaped

DOMAIN = "p2pclue"


class CatalogMissingError(RuntimeError):
    """A language is listed but its compiled catalog is not in the package (a broken install)."""


def catalog_resource(lang: str) -> Traversable:
    return resources.files("p2pclue.i18n") / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


@cache
def load(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (cached: catalogs never change while we run)."""
    if lang not in LANGUAGES and lang != PSEUDO:
        raise ValueError(f"no catalog for language {lang!r}")
    try:
        data = catalog_resource(lang).read_bytes()
    except OSError as exc:
        raise CatalogMissingError(
            f"the {lang} catalog is missing from this install ({exc}); "
            "reinstall p2pclue, or in a clone run `python -m tools.catalogs compile`") from exc
    return gettext.GNUTranslations(io.BytesIO(data))


class _Active:
    lang: str = DEFAULT_LANGUAGE
    translations: gettext.NullTranslations = gettext.NullTranslations()


def install(lang: str) -> None:
    """Make ``lang`` the language of everything shown from now on."""
    _Active.translations = load(lang)
    _Active.lang = lang


def current_language() -> str:
    return _Active.lang


def _shaped(text: str) -> str:
    """French elides "de" before a name that starts with a vowel, Italian says "ed Emma":
    the message's words before a value follow the value (``shaping``)."""
    return shaped(text, _Active.lang)


def _(message: str) -> str:
    """The translation of ``message`` in the installed language."""
    return _shaped(_Active.translations.gettext(message))


def N_(message: str) -> str:
    """Mark ``message`` for extraction only; translate it later with ``_``."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message that fits the number ``n`` in the installed language."""
    return _shaped(_Active.translations.ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    """Like ``_`` for a short message whose meaning depends on ``context``."""
    return _shaped(_Active.translations.pgettext(context, message))
