"""Cards as values of messages: each language's sentence picks the form it needs.

A message names a card by a field and, where its grammar asks for one, a form:
``{room:the}`` in English, ``{room:in}`` ("nella sala da ballo") in Italian,
``{suspect:acc}`` ("Colonela Mustarda") in Czech, ``{weapon:으로}`` ("촛대로")
in Korean. Where words around the card agree with it, a selector picks them by
the card's gender: ``{suspect:m=è stato|f=è stata}``. The forms live in
``cards.toml``; a test renders every message of every language with every card
and fails on a form or gender some card lacks. See docs/translations.md.

The fields that carry cards are the names in ``CARD_FIELDS``; code passes
``card_word(i)`` (or ``triple_word((s, w, r))``) for them, never a plain string, so a form
always has a card to come from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from p2pclue.i18n.cards import local_names
from p2pclue.i18n.korean import FIXED, PAIRS, with_particle
from p2pclue.i18n.translate import _, current_language, pgettext
from p2pclue.rules.cards import Category

CARD_FIELDS: dict[str, Category | None] = {
    "suspect": Category.SUSPECT, "weapon": Category.WEAPON, "room": Category.ROOM,
    "card": None, "triple": None,
}
"""Message fields whose value is a card (None: any card; ``triple``: a whole suggestion)."""


SPOKEN_FIELDS = frozenset({"dice"})
"""Message fields whose value is always a ``Spoken``: a translation may put a Korean particle
after them (``{dice:을}``); the catalogs check allows that spec on these fields only."""


def _plain(text: str) -> str:
    return text


class CardWord:
    """One card as a ``str.format`` value in the installed language."""

    __slots__ = ("default", "index", "wrap")

    def __init__(self, index: int, wrap: Callable[[str], str] | None = None,
                 default: str = "") -> None:
        self.index = index
        self.wrap = wrap or _plain
        self.default = default
        """The form a bare ``{field}`` gives (a triple passes its own form down)."""

    def __format__(self, spec: str) -> str:
        entry = local_names(current_language())[self.index]
        if "=" in spec:
            return entry.select(spec)
        return self.wrap(entry.form(spec or self.default))

    def __str__(self) -> str:
        return format(self, "")


class TripleWord:
    """A suggestion or accusation (who, with what, where) as one ``str.format`` value.

    ``{triple}`` is the language's own sentence piece for the three cards; a form
    (``{triple:acc}``) is the form its suspect takes, a selector picks by the
    suspect's gender, so "è stata la signora White con la corda" can be said.
    """

    __slots__ = ("cards", "wrap")

    def __init__(self, cards: Sequence[int], wrap: Callable[[str], str] | None = None) -> None:
        suspect, weapon, room = cards
        self.cards = (suspect, weapon, room)
        self.wrap = wrap

    def __format__(self, spec: str) -> str:
        suspect, weapon, room = self.cards
        if "=" in spec:
            return local_names(current_language())[suspect].select(spec)
        # Translators: a suggestion or an accusation: "Miss Scarlett with the Rope in the
        # Hall". {suspect} is in the form the sentence around it asks for ({triple:acc}).
        return _("{suspect} with {weapon:the} in {room:the}").format(
            suspect=CardWord(suspect, self.wrap, default=spec),
            weapon=CardWord(weapon, self.wrap), room=CardWord(room, self.wrap))

    def __str__(self) -> str:
        return format(self, "")


class Spoken(str):
    """A value that is not a card (dice, a count) for a message field a Korean particle may
    follow: ``{dice:을}`` is "3을" but "2를", chosen by how the number is read
    (``p2pclue.i18n.korean``); any other spec formats it as ``str`` would. It is the text
    itself everywhere else (compared, joined, printed)."""

    __slots__ = ()

    def __new__(cls, value: object) -> Spoken:
        return super().__new__(cls, str(value))

    def __format__(self, spec: str) -> str:
        if spec in PAIRS or spec in FIXED:
            return with_particle(str(self), spec)
        return format(str(self), spec)


def card_word(index: int, wrap: Callable[[str], str] | None = None) -> CardWord:
    """Card ``index`` for a message's card field (``wrap`` styles whatever form is chosen)."""
    return CardWord(index, wrap)


def triple_word(cards: Sequence[int], wrap: Callable[[str], str] | None = None) -> TripleWord:
    """Suspect, weapon and room for a message's ``{triple}`` field."""
    return TripleWord(cards, wrap)


def card_phrase(index: int) -> str:
    """A card as a list in a sentence names it: people by name, things with their article."""
    # Translators: one card in a list of cards ("Miss Scarlett, the Rope and the Hall"):
    # the form of the card a list takes in your language ({card:def} in Italian).
    return pgettext("a card in a list", "{card:the}").format(card=card_word(index))
