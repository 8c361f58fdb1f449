"""Command lines in the reader's language: ``--lang``, and argparse's own words.

``p2pclue --lang cs simulate`` and ``p2pclue simulate --lang cs`` must both
work: the top-level parser owns the default, each subcommand parser adds the
same option without a default so that it does not overwrite the top-level one.
The language is found (``prescan_lang``) and installed before any parser is
built, so that help texts written with ``_()`` are translated when argparse
stores them.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NoReturn

from p2pclue.i18n.languages import LANGUAGES, resolve_language
from p2pclue.i18n.translate import N_, _, install, ngettext
from p2pclue.i18n.width import words, wrap

LANG_DEST = "lang"


class ColumnsHelpFormatter(argparse.HelpFormatter):
    """argparse help wrapped by terminal columns, not characters (Korean takes two each),
    with the "usage:" prefix in the reader's language."""

    def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                  groups: Iterable[argparse._MutuallyExclusiveGroup],
                  prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)

    def start_section(self, heading: str | None) -> None:
        """argparse glues ":" to a section's title ("options:"); French puts a narrow
        no-break space before it, so the title is punctuated as the language's own
        "{label}: {text}" says and argparse's colon follows that space."""
        if heading:
            punctuated = _("{label}: {text}").format(label=heading, text="").rstrip()
            if punctuated.endswith(":"):
                heading = punctuated[:-1]
        super().start_section(heading)

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap(" ".join(words(text)), width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrap(" ".join(words(text)), width))


ARGPARSE_ERRORS = (
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("not allowed with argument %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"),
)
"""argparse's detailed errors a person can meet, exactly as argparse writes them (Python
3.11-3.13): argparse looks each up through its module's ``_`` before formatting it, so
translating these msgids translates the errors; a wording another Python version changed
is simply not found, and stays English."""


def _route_argparse_words() -> None:
    """argparse's own ``gettext`` reads the default domain, which p2pclue never installs:
    point it at p2pclue's catalogs, so a person reads "argument --players: invalid choice"
    in their language. Unknown msgids come back unchanged (English)."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


_route_argparse_words()


class LocalizedArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose own words (usage, section titles, --help, "error:", and
    the detailed errors of ``ARGPARSE_ERRORS``) are translated, wrapped by columns.
    Subcommand parsers made from it are of the same kind.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", ColumnsHelpFormatter)
        super().__init__(*args, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        for action in self._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = _("show this help message and exit")

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, _("{prog}: error: {message}").format(prog=self.prog, message=message)
                  + "\n")


def add_lang_option(parser: argparse.ArgumentParser, *, top_level: bool = False) -> None:
    """Add ``--lang CODE``; ``top_level`` for the main parser, not for subcommands.

    A parser that already has ``--lang`` is left as it is (calling this twice is harmless).
    """
    if "--lang" in parser._option_string_actions:
        return
    help_text = _("language of everything shown to people: {languages} (default: LC_ALL, "
                  "LC_MESSAGES or LANG, else en); never changes --json output").format(
        languages=", ".join(sorted(LANGUAGES)))
    parser.add_argument("--lang", metavar="CODE", dest=LANG_DEST, help=help_text,
                        default=None if top_level else argparse.SUPPRESS)


def apply_language(
    cli_value: str | None, environ: Mapping[str, str] | None = None,
    notify: Callable[[str], None] | None = None,
) -> str:
    """Choose the language (``resolve_language``), install it, return its code."""
    lang = resolve_language(cli_value, os.environ if environ is None else environ, notify)
    install(lang)
    return lang


def prescan_lang(argv: Sequence[str]) -> str | None:
    """The value of the last ``--lang`` in ``argv``, found before the parser exists.

    The language must be installed before the parsers are built, so that their
    help is translated; argparse itself then parses the same option properly.
    """
    found: str | None = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif arg.startswith("--lang="):
            found = arg.split("=", 1)[1]
    return found
