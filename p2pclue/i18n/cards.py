"""Card names for people, in each language, and reading a card name someone typed.

The names, their sources and the story phrases live in ``cards.toml`` (next to
this module); English comes from ``p2pclue.rules.cards``. A card is always
identified by its stable index (``p2pclue.rules.cards``): names are display only.
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from p2pclue.i18n.korean import korean_forms
from p2pclue.i18n.languages import DEFAULT_LANGUAGE, LANGUAGES
from p2pclue.i18n.pseudo import PSEUDO, accent
from p2pclue.i18n.translate import _, current_language
from p2pclue.rules.cards import CARDS, Card, CardNameError, Category


@dataclass(frozen=True, slots=True)
class LocalName:
    """One card as one language names it, with the forms its sentences need."""

    index: int
    name: str
    aliases: tuple[str, ...]
    source: str
    """Key of ``sources`` in cards.toml."""
    gender: str | None
    """``m``, ``f`` or ``n`` where the language's words agree with it; messages select on it."""
    forms: Mapping[str, str]
    """Form name -> the card as a sentence needs it ("def": "la corda", "ins": "lanem")."""
    quote: str | None = None
    note: str | None = None
    board: str | None = None
    """The card's label on the board where its name is too long: a short form that still
    names it ("Biliardo", "Clé angl.", 파이프), never a word that reads as something else."""
    short: str | None = None
    """The card in a narrow notepad (at most ``SHORT_CELLS``) where no other form is as
    short (``initials.short_name``)."""

    def form(self, which: str) -> str:
        """The card in form ``which`` (the bare name for ``""``); ``CardFormError`` if absent."""
        if not which:
            return self.name
        if which in self.forms:
            return self.forms[which]
        if which == "the":  # lists name cards with their article where the language has one
            return self.name
        raise CardFormError(f"{self.name!r} has no form {which!r}")

    def select(self, spec: str) -> str:
        """``m=è stato|f=è stata``: the text for this card's gender."""
        choices = dict(part.split("=", 1) for part in spec.split("|"))
        if self.gender in choices:
            return choices[self.gender]
        if "*" in choices:
            return choices["*"]
        raise CardFormError(f"{self.name!r} ({self.gender}) not selected by {spec!r}")


class CardDataError(RuntimeError):
    """cards.toml is malformed: a packaging or editing mistake, caught by the tests."""


class CardFormError(ValueError):
    """A message asks for a form or a selector a card does not give (caught by the tests)."""


@cache
def _data() -> dict[str, Any]:
    raw = (resources.files("p2pclue.i18n") / "cards.toml").read_text(encoding="utf-8")
    return tomllib.loads(raw)


def sources() -> dict[str, str]:
    """Every source a name can cite, by key."""
    return dict(_data()["sources"])


def _entry(card: Card, lang: str, spec: dict[str, Any]) -> LocalName:
    if lang == DEFAULT_LANGUAGE:
        name, aliases = card.name, card.aliases
    else:
        name, aliases = spec.get("name", ""), tuple(spec.get("aliases", ()))
    source = spec.get("source", "")
    if not name or source not in _data()["sources"]:
        raise CardDataError(f"cards.toml [{lang}] {card.slug}: needs a name and a known source")
    unknown = set(spec) - _KEYS
    if unknown:
        raise CardDataError(f"cards.toml [{lang}] {card.slug}: unknown keys {sorted(unknown)}")
    forms = dict(spec.get("forms", {}))
    if lang == "ko":
        forms = korean_forms(name) | forms
    return LocalName(card.index, name, aliases, source, gender=spec.get("gender"),
                     forms=MappingProxyType(forms), quote=spec.get("quote"),
                     note=spec.get("note"), board=spec.get("board"), short=spec.get("short"))


_KEYS = {"name", "source", "quote", "note", "aliases", "gender", "forms", "board", "short"}


def _check_forms(lang: str, names: tuple[LocalName, ...]) -> None:
    """Every card of a category gives the same forms and a gender or none, as its kind does:
    a message that uses a form for one room then works for every room."""
    for category in Category:
        kind = [n for n in names if CARDS[n.index].category is category]
        shapes = {(frozenset(n.forms), n.gender is None) for n in kind}
        if len(shapes) > 1:
            raise CardDataError(f"cards.toml [{lang}] {category.value}: the cards differ in "
                                f"their forms or gender: {sorted(map(str, shapes))}")


def _pseudo(entry: LocalName) -> LocalName:
    """A card of the pseudo-locale: the English card, every word of it accented."""
    return LocalName(entry.index, accent(entry.name), tuple(map(accent, entry.aliases)),
                     entry.source, entry.gender,
                     MappingProxyType({k: accent(v) for k, v in entry.forms.items()}),
                     board=accent(entry.board) if entry.board else None,
                     short=accent(entry.short) if entry.short else None)


@cache
def local_names(lang: str) -> tuple[LocalName, ...]:
    """All 21 cards as ``lang`` names them, in index order."""
    if lang == PSEUDO:
        return tuple(map(_pseudo, local_names(DEFAULT_LANGUAGE)))
    if lang not in LANGUAGES:
        raise ValueError(f"no card names for language {lang!r}")
    table = _data().get(lang, {})
    missing = [c.slug for c in CARDS if c.slug not in table]
    extra = sorted(set(table) - {c.slug for c in CARDS})
    if missing or extra:
        raise CardDataError(f"cards.toml [{lang}]: missing {missing}, unknown {extra}")
    names = tuple(_entry(c, lang, table[c.slug]) for c in CARDS)
    _check_forms(lang, names)
    return names


def _lang(lang: str | None) -> str:
    return current_language() if lang is None else lang


def card_name(index: int, lang: str | None = None) -> str:
    """The card's name in ``lang`` (default: the installed language), as its card shows it."""
    return local_names(_lang(lang))[index].name


def board_label(index: int, lang: str | None = None) -> str:
    """The card's short label on the board (``board`` in cards.toml), or its name."""
    entry = local_names(_lang(lang))[index]
    return entry.board or entry.name


def card_form(index: int, form: str, lang: str | None = None) -> str:
    """The card in the named form of ``lang`` (see cards.toml); the name for ``""``."""
    return local_names(_lang(lang))[index].form(form)


def fold(text: str) -> str:
    """The form names are compared in: case, accents and punctuation ignored.

    Accents are dropped by decomposing and removing combining marks, then the
    text is recomposed, so Hangul syllables (which decompose into jamo, not
    marks) come back whole.
    """
    decomposed = unicodedata.normalize("NFD", text.casefold())
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    for mark in ".,_-'\u2019":
        kept = kept.replace(mark, " ")
    return " ".join(unicodedata.normalize("NFC", kept).split())


@cache
def _lookup(lang: str) -> dict[str, int]:
    """Folded name -> index for ``lang``; English names and slugs are always understood too."""
    table: dict[str, int] = {}
    owners: dict[str, str] = {}
    langs = [lang] if lang == DEFAULT_LANGUAGE else [lang, DEFAULT_LANGUAGE]
    for source_lang in langs:
        for entry in local_names(source_lang):
            for text in (entry.name, *entry.aliases, CARDS[entry.index].slug):
                key = fold(text)
                if key in table and table[key] != entry.index:
                    if owners[key] == lang and source_lang != lang:
                        continue  # the player's own language wins over English
                    raise CardDataError(f"{text!r} names two cards in [{source_lang}]")
                table.setdefault(key, entry.index)
                owners.setdefault(key, source_lang)
    return table


def _compact(key: str) -> str:
    return key.replace(" ", "")


def parse_card(text: str, lang: str | None = None, category: Category | None = None) -> int:
    """The index of the card a person typed: a name or alias in ``lang`` or English,
    or an unambiguous beginning of one. ``CardNameError`` (translated) otherwise.

    Case, accents, dots and hyphens are ignored; so are spaces when the rest
    matches exactly ("미스스칼렛", "salleamanger").
    """
    lang = _lang(lang)
    key = fold(text)
    if not key:
        raise CardNameError(_("empty card name"))
    pool = {k: i for k, i in _lookup(lang).items()
            if category is None or CARDS[i].category is category}
    if key in pool:
        return pool[key]
    compact = _compact(key)
    exact = {i for k, i in pool.items() if _compact(k) == compact}
    if len(exact) == 1:
        return exact.pop()
    hits = {i for k, i in pool.items()
            if k.startswith(key) or _compact(k).startswith(compact)
            or any(w.startswith(key) for w in k.split())}
    if len(hits) == 1:
        return hits.pop()
    if not hits:
        raise CardNameError(_("no card is called {text!r}").format(text=text))
    names = ", ".join(sorted(card_name(i, lang) for i in hits))
    raise CardNameError(_("{text!r} could be any of: {names}").format(text=text, names=names))
