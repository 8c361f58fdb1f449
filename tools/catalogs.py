"""Maintainer tool for the translation catalogs (needs Babel; players never run it).

Run from a clone of the repository (it reads the source and writes into ``p2pclue/``)::

    python -m tools.catalogs update    # extract messages, merge them into every .po
    python -m tools.catalogs compile   # write every .mo from its .po
    python -m tools.catalogs check     # exit 1 if anything is stale, missing, fuzzy
                                       # or English copied into a translation

Workflow: mark a string with ``_``/``ngettext``/``N_``, run ``update``, translate
the new entries in each ``locale/<lang>/LC_MESSAGES/p2pclue.po``, run ``compile``,
commit the .po and .mo files. The tests run the same checks as ``check``.

Output is kept reproducible so that the shipped .mo can be compared byte for
byte with a fresh compilation: no line numbers in references, the template's
creation date kept while its messages do not change, and a fixed
``Generated-By`` header instead of the Babel version.
"""

from __future__ import annotations

import argparse
import copy
import io
import string
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

try:
    from babel.messages.catalog import Catalog, Message
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po, write_po
except ImportError:  # players never need this tool; say what maintainers must install
    sys.exit("tools.catalogs needs Babel: python3 -m pip install -c constraints.txt '.[test]'")

from p2pclue import __version__
from p2pclue.i18n.korean import FIXED, PAIRS
from p2pclue.i18n.languages import DEFAULT_LANGUAGE, LANGUAGES
from p2pclue.i18n.phrases import CARD_FIELDS, SPOKEN_FIELDS
from p2pclue.i18n.players import PLAYER_FIELDS, player_spec
from p2pclue.i18n.pseudo import PSEUDO, pseudo_message
from p2pclue.i18n.translate import DOMAIN

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "p2pclue"
LOCALE_DIR = PACKAGE_DIR / "i18n" / "locale"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
COMMENT_TAG = "Translators:"
GENERATED_BY = "p2pclue tools.catalogs (Babel)\n"
BUGS = "the p2pclue issue tracker"
KEYWORDS = {**DEFAULT_KEYWORDS, "counted": (1, 2)}
"""gettext's keywords, and ``counted`` (p2pclue.deduce.words): the deduction layer's plural
sentences, marked there because that layer may not import the translation functions."""
_HEADER = ("# {name} messages of p2pclue.\n"
           "# Written for p2pclue; see docs/translations.md for how each catalog was made\n"
           "# and checked. Edit msgstr lines only; `python -m tools.catalogs update`\n"
           "# rewrites the rest.\n#")


class StableCatalog(Catalog):
    """A Babel catalog whose header does not name the Babel version that wrote it."""

    def _get_mime_headers(self) -> list[tuple[str, str]]:
        return [(k, GENERATED_BY if k == "Generated-By" else v)
                for k, v in super()._get_mime_headers()]


def _stable(catalog: Catalog) -> Catalog:
    catalog.__class__ = StableCatalog
    return catalog


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return po_path(lang).with_suffix(".mo")


def read_catalog(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return _stable(read_po(f, locale=lang, domain=DOMAIN))


def _message_keys(catalog: Catalog) -> list[tuple[object, str | None, object]]:
    return [(m.id, m.context, sorted(m.locations)) for m in catalog if m.id]


def extract_template() -> Catalog:
    """Every translatable message in the package source, as a template catalog."""
    template = StableCatalog(project="p2pclue", version=__version__, domain=DOMAIN,
                             msgid_bugs_address=BUGS, copyright_holder="p2pclue developers",
                             charset="utf-8", fuzzy=False,
                             header_comment=_HEADER.format(name="Template"))
    for filename, _lineno, message, comments, context in extract_from_dir(
            PACKAGE_DIR, method_map=[("**.py", "python")], keywords=KEYWORDS,
            comment_tags=(COMMENT_TAG,), strip_comment_tags=True):
        template.add(message, None, [(f"p2pclue/{filename}", None)],  # type: ignore[list-item]
                     auto_comments=comments, context=context)
    if TEMPLATE.exists():
        old = read_catalog(TEMPLATE)
        if _message_keys(old) == _message_keys(template):
            template.creation_date = old.creation_date
    return template


def _write_po(catalog: Catalog, path: Path) -> bool:
    buf = io.BytesIO()
    write_po(buf, catalog, width=96, include_lineno=False, ignore_obsolete=True)
    return _write_if_changed(path, buf.getvalue())


def _write_if_changed(path: Path, data: bytes) -> bool:
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def _english_is_the_source(catalog: Catalog) -> None:
    """The English catalog translates every message as itself (so wording fixes need no code)."""
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            message.string = tuple(message.id)
        else:
            message.string = message.id
        message.flags.discard("fuzzy")


def update() -> list[str]:
    """Extract, rewrite the template, merge it into every catalog. Returns what changed."""
    template = extract_template()
    changed = []
    if _write_po(template, TEMPLATE):
        changed.append(str(TEMPLATE))
    for lang in sorted(LANGUAGES):
        path = po_path(lang)
        if path.exists():
            catalog = read_catalog(path, lang)
            # A copy each: Babel adds a new message by reference to the template's own
            # object, and English then fills it in (``_english_is_the_source``); shared,
            # that English would reach every catalog updated after ``en``.
            catalog.update(copy.deepcopy(template), update_creation_date=True)
            catalog.creation_date = template.creation_date
        else:
            catalog = StableCatalog(locale=lang, domain=DOMAIN, project="p2pclue",
                                    version=__version__, copyright_holder="p2pclue developers",
                                    charset="utf-8", creation_date=template.creation_date,
                                    revision_date=template.creation_date,
                                    last_translator="p2pclue developers (no native speaker review)",
                                    language_team=f"{LANGUAGES[lang]} <none>",
                                    msgid_bugs_address=BUGS, fuzzy=False,
                                    header_comment=_HEADER.format(name=LANGUAGES[lang]))
            for m in template:
                if m.id:
                    catalog.add(m.id, None, m.locations, auto_comments=m.auto_comments,
                                context=m.context)
        if lang == DEFAULT_LANGUAGE:
            _english_is_the_source(catalog)
        if _write_po(catalog, path):
            changed.append(str(path))
    if _write_po(pseudo_catalog(), po_path(PSEUDO)):
        changed.append(str(po_path(PSEUDO)))
    return changed


def pseudo_catalog() -> Catalog:
    """The pseudo-locale's catalog, made from the English one (``p2pclue.i18n.pseudo``):
    written by ``update``, never edited by hand."""
    english = read_catalog(po_path(DEFAULT_LANGUAGE), DEFAULT_LANGUAGE)
    catalog = StableCatalog(locale=DEFAULT_LANGUAGE, domain=DOMAIN, project="p2pclue",
                            version=__version__, copyright_holder="p2pclue developers",
                            charset="utf-8", creation_date=english.creation_date,
                            revision_date=english.creation_date,
                            last_translator="p2pclue.i18n.pseudo (generated)",
                            language_team="pseudo-locale <none>", msgid_bugs_address=BUGS,
                            fuzzy=False, header_comment=_HEADER.format(name="Pseudo-locale")
                            .replace("Edit msgstr lines only", "Generated: never edit"))
    for m in english:
        if not m.id:
            continue
        strings = _forms(m.string)
        text: str | tuple[str, ...] = tuple(pseudo_message(t, m.context) for t in strings)
        if not isinstance(m.id, tuple | list):
            text = text[0]
        catalog.add(m.id, text, m.locations, auto_comments=m.auto_comments,
                    context=m.context)
    return catalog


def compiled(lang: str) -> bytes:
    """The .mo that compiling this language's .po gives (fuzzy entries left out)."""
    buf = io.BytesIO()
    read_as = DEFAULT_LANGUAGE if lang == PSEUDO else lang  # English's plural forms
    write_mo(buf, read_catalog(po_path(lang), read_as), use_fuzzy=False)
    return buf.getvalue()


CATALOG_LANGUAGES = (*sorted(LANGUAGES), PSEUDO)
"""Every catalog shipped: the languages, and the pseudo-locale."""


def compile_all() -> list[str]:
    return [str(mo_path(lang)) for lang in CATALOG_LANGUAGES
            if _write_if_changed(mo_path(lang), compiled(lang))]


FORM_FIELDS = {*CARD_FIELDS, "place"}
"""Fields whose spec is a grammatical form the language chooses: the cards, and the
notepad's places (``{place:in}``, ``p2pclue.tui.reasons``)."""


def placeholders(text: str) -> set[tuple[str, str | None, str]]:
    """The ``str.format`` fields of ``text`` (name, conversion, spec); ValueError if malformed.

    A card field's spec is the form or selector the language chooses (``{room:in}``,
    ``{suspect:acc}``), so it is left out here: the translation may pick any, and the test
    that renders every message with every card checks that the card gives it.
    """
    return {(name, conversion, "" if name in FORM_FIELDS or _particle_on_spoken(name, spec)
             or (name in PLAYER_FIELDS and player_spec(spec)) else spec or "")
            for _, name, spec, conversion in string.Formatter().parse(text) if name is not None}


def _particle_on_spoken(name: str, spec: str | None) -> bool:
    """A Korean particle after a field whose value is a ``Spoken`` (``{dice:을}``)."""
    return name in SPOKEN_FIELDS and (spec in PAIRS or spec in FIXED)


def _forms(value: object) -> tuple[str, ...]:
    if isinstance(value, tuple | list):
        return tuple(str(v) for v in value)
    return (str(value),) if value else ()


def message_problems(message: Message, nplurals: int) -> Iterable[str]:
    """Why one entry of a catalog is not a finished translation."""
    ids = _forms(message.id)
    where = repr(ids[0])
    if message.fuzzy:
        yield f"{where}: fuzzy"
    strings = _forms(message.string)
    if not strings or not all(strings):
        yield f"{where}: not translated"
        return
    if len(ids) > 1 and len(strings) != nplurals:
        yield f"{where}: {len(strings)} plural forms, the header says {nplurals}"
    try:
        wanted = placeholders(ids[-1]) | placeholders(ids[0])
        for form in strings:
            if placeholders(form) != wanted:
                yield f"{where}: placeholders {sorted(placeholders(form))} in {form!r}, " \
                      f"source has {sorted(wanted)}"
    except ValueError as exc:
        yield f"{where}: malformed braces ({exc})"


ANY_LANGUAGE = "*"
SAME_AS_ENGLISH: dict[tuple[str, str], str] = {
    # (language or "*", msgid): why the translation may be the English text itself.
    # Text with no letters outside its {fields} (", ", "{dice} ({total})") needs no entry.
    ("*", "p2pclue audit: {message}"): "the program and its command, typed as they are",
    ("*", "p2pclue join: {error}"): "the program and its command, typed as they are",
    ("*", "p2pclue watch: {error}"): "the program and its command, typed as they are",
    ("*", "p2pclue simulate: {error}"): "the program and its command, typed as they are",
    ("*", "r / p"): "keys, which are the same whatever the language",
    ("*", "s / a"): "keys, which are the same whatever the language",
    ("*", "? F1 / q"): "keys, which are the same whatever the language",
    ("*", "Enter"): "a key as keyboards label it: English on Czech, Albanian and Korean ones",
    ("*", "Esc"): "a key as keyboards label it: English on most (French ones say Échap)",
    ("*", "PgUp"): "a key as keyboards label it: English on Czech, Albanian and Korean ones",
    ("*", "PgDn"): "a key as keyboards label it: English on Czech, Albanian and Korean ones",
    ("*", "Home"): "a key as keyboards label it: English on Czech, Albanian and Korean ones",
    ("*", "End"): "a key as keyboards label it: English on Czech, Albanian and Korean ones",
    ("*", "Tab"): "a key as keyboards label it, in every language here",
    ("*", "n"): "the letter that answers no: no, non, ne (Albanian says j, for jo)",
    ("ko", "y"): "Korean terminals answer y/n",
    ("it", "no"): "the same word in Italian",
    ("fr", "VIOLATION"): "the same word in French (the audit's verdict)",
    ("fr", "options"): "the same word in French",
    ("fr", "passage"): "the same word in French (the secret passage)",
}
"""Translations that are rightly the English text; anything else equal to it is a copy."""


def _has_words(text: str) -> bool:
    """Letters outside the ``{fields}``: something a translator has to translate."""
    try:
        literal = "".join(lit for lit, *_ in string.Formatter().parse(text))
    except ValueError:
        literal = text
    return any(ch.isalpha() for ch in literal)


def english_copy(lang: str, message: Message) -> str | None:
    """Why ``message`` looks like English copied into ``lang``'s catalog, if it does.

    ``update`` once filled new entries with their English text; a copy reads as
    translated to every other check, and the player sees English.
    """
    if lang == DEFAULT_LANGUAGE:
        return None
    ids = _forms(message.id)
    copied = [form for form in _forms(message.string) if form in ids and _has_words(form)]
    if not copied or {(lang, ids[0]), (ANY_LANGUAGE, ids[0])} & SAME_AS_ENGLISH.keys():
        return None
    return f"{ids[0]!r}: the English text, not a translation (or list it in SAME_AS_ENGLISH)"


def problems() -> list[str]:
    """Everything ``check`` complains about; empty when the catalogs are complete and in sync."""
    found: list[str] = []
    template = extract_template()
    wanted = {(m.id, m.context) for m in template if m.id}
    if not TEMPLATE.exists() or {(m.id, m.context) for m in read_catalog(TEMPLATE) if m.id} \
            != wanted:
        found.append(f"{TEMPLATE.name}: stale; run `python -m tools.catalogs update`")
    for lang in sorted(LANGUAGES):
        path = po_path(lang)
        if not path.exists():
            found.append(f"{lang}: no catalog at {path}")
            continue
        catalog = read_catalog(path, lang)
        have = {(m.id, m.context) for m in catalog if m.id}
        for msgid, _ in sorted(wanted - have, key=str):
            found.append(f"{lang}: missing {msgid!r}")
        for msgid, _ in sorted(have - wanted, key=str):
            found.append(f"{lang}: {msgid!r} is no longer in the source")
        if catalog.obsolete:
            found.append(f"{lang}: {len(catalog.obsolete)} obsolete entries")
        for message in catalog:
            if message.id:
                found.extend(f"{lang}: {p}" for p in message_problems(message,
                                                                     catalog.num_plurals))
                copy_of_english = english_copy(lang, message)
                if copy_of_english:
                    found.append(f"{lang}: {copy_of_english}")
        mo = mo_path(lang)
        if not mo.exists() or mo.read_bytes() != compiled(lang):
            found.append(f"{lang}: {mo.name} differs from its .po; run `... catalogs compile`")
    found += _pseudo_problems()
    return found


def _pseudo_problems() -> list[str]:
    """The pseudo catalog is exactly what ``update`` makes of the English one, compiled."""
    buf = io.BytesIO()
    write_po(buf, pseudo_catalog(), width=96, include_lineno=False, ignore_obsolete=True)
    path = po_path(PSEUDO)
    if not path.exists() or path.read_bytes() != buf.getvalue():
        return [f"{PSEUDO}: the pseudo-locale is stale; run `... catalogs update`"]
    mo = mo_path(PSEUDO)
    if not mo.exists() or mo.read_bytes() != compiled(PSEUDO):
        return [f"{PSEUDO}: {mo.name} differs from its .po; run `... catalogs compile`"]
    return []


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.catalogs",
                                     description="Extract, merge, compile and check the "
                                                 "p2pclue translation catalogs (Babel).")
    parser.add_argument("action", choices=("update", "compile", "check"))
    args = parser.parse_args(argv)
    if args.action == "update":
        for path in update():
            print(f"updated {path}")
        return 0
    if args.action == "compile":
        for path in compile_all():
            print(f"compiled {path}")
        return 0
    found = problems()
    for line in found:
        print(line)
    print(f"{len(found)} problem(s) in {len(LANGUAGES)} catalogs" if found
          else f"all {len(LANGUAGES)} catalogs complete and compiled")
    return 1 if found else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
