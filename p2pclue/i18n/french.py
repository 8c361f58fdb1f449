"""French elision before a value the message cannot know: "la main d'Ada", "de Bruno".

The rule lives in ``shaping`` (with Italian's "ed"/"ad"); this keeps its French name.
"""

from __future__ import annotations

from typing import Any

from p2pclue.i18n.shaping import Shaped


class FrenchTemplate(Shaped):
    """A French message: ``format`` as ``str.format`` does, with "de"/"que" elided before a
    value that starts with a vowel."""

    __slots__ = ()

    def __new__(cls, text: str, lang: str = "fr") -> FrenchTemplate:
        return super().__new__(cls, text, "fr")  # type: ignore[return-value]

    def format(self, /, *args: Any, **kwargs: Any) -> str:
        return super().format(*args, **kwargs)
