"""The subcommands' parser action, apart from the package so that each subcommand's
light options module can name it without importing the command line that lists them."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from p2pclue.i18n import add_lang_option

Arguments = Callable[[argparse.ArgumentParser], None]
"""Adds one subcommand's arguments to its parser."""

if TYPE_CHECKING:
    _SubParsersBase = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    _SubParsersBase = argparse._SubParsersAction


class Subcommands(_SubParsersBase):
    """The subcommands' action: a subcommand's arguments are added when it is chosen.

    ``p2pclue --help`` lists the subcommands by their one-line help only, and the
    subcommand being run is the only one whose parser must be complete.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending: dict[str, Arguments] = {}

    def later(self, name: str, arguments: Arguments) -> None:
        """Add ``arguments`` to the parser of subcommand ``name`` once it is chosen."""
        self._pending[name] = arguments

    def complete(self, name: str | None = None) -> None:
        """Add the arguments of subcommand ``name`` (all of them: None) now; the language
        option comes last, after a subcommand's own, as in its help."""
        for each in list(self._pending) if name is None else [name]:
            arguments = self._pending.pop(each, None)
            if arguments is not None:
                parser = self._name_parser_map[each]
                arguments(parser)
                add_lang_option(parser)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        if isinstance(values, list | tuple) and values:
            self.complete(str(values[0]))
        super().__call__(parser, namespace, values, option_string)
