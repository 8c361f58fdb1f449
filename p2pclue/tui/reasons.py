"""The notepad's explanations in the reader's language.

The deduction layer says why a cell is marked as ``Said`` records (an English template
marked for the catalogs, and typed values: ``p2pclue.deduce.words``). Here each is
translated and its values take the reader's grammar: a card its form (``{card}`` is a
card field, see ``p2pclue.i18n.phrases``), a place the phrase for where a card lies
("in Ann's hand", "v ruce hráče Ann", "Ann 님의 손패에").
"""

from __future__ import annotations

from p2pclue.deduce.explain import Line, layout
from p2pclue.deduce.words import (
    ENVELOPE_KIND,
    LEFTOVERS_KIND,
    MINE_KIND,
    CardsV,
    CardV,
    PlaceV,
    Said,
    SeatV,
    ShareV,
)
from p2pclue.i18n import _, card_name, card_word, ngettext, percent, pgettext, player_word


class PlaceWord:
    """Where a card lies, as a message field: ``{place}`` the subject, ``{place:in}`` where."""

    __slots__ = ("place",)

    def __init__(self, place: PlaceV) -> None:
        self.place = place

    def __format__(self, spec: str) -> str:
        p = self.place
        if spec not in ("", "in"):
            raise ValueError(f"a place has no form {spec!r} (only '' and 'in')")
        if spec == "in":
            # Translators: where a card lies, as in "Rope is in the envelope".
            where = {ENVELOPE_KIND: pgettext("where a card is", "in the envelope"),
                     LEFTOVERS_KIND: pgettext("where a card is", "in the leftovers"),
                     MINE_KIND: pgettext("where a card is", "in your hand")}
            return where.get(p.kind) or pgettext("where a card is", "in {player}'s hand").format(
                player=player_word(p.name))
        if p.category is not None:
            return (pgettext("a place in the notepad", "the envelope's suspect"),
                    pgettext("a place in the notepad", "the envelope's weapon"),
                    pgettext("a place in the notepad", "the envelope's room"))[p.category]
        # Translators: a place as the subject of a sentence, as in "the leftovers hold no cards".
        what = {ENVELOPE_KIND: pgettext("a place in the notepad", "the envelope"),
                LEFTOVERS_KIND: pgettext("a place in the notepad", "the leftovers"),
                MINE_KIND: pgettext("a place in the notepad", "your hand")}
        return what.get(p.kind) or pgettext("a place in the notepad", "{player}'s hand").format(
            player=player_word(p.name))


def _value(value: object) -> object:
    match value:
        case CardV(index):
            return card_word(index)
        case CardsV(indices):
            return ", ".join(card_name(c) for c in indices)
        case SeatV(name, me):
            # Translators: the notepad's owner where a sentence names a player.
            return pgettext("the notepad's owner", "you") if me else player_word(name)
        case PlaceV():
            return PlaceWord(value)
        case ShareV(fraction):
            return percent(fraction)
        case Said():
            return render(value)
    return value


def render(said: Said) -> str:
    """One sentence of the notepad, translated."""
    template = (_(said.template) if said.plural is None
                else ngettext(said.template, said.plural, said.n))
    return template.format(**{k: _value(v) for k, v in said.values})


def _sentence(said: Said) -> str:
    """A line of its own begins with a capital, whatever its first word ("la carta ...")."""
    text = render(said)
    return text[:1].upper() + text[1:]


def explanation_text(lines: list[Line]) -> str:
    """An explanation's lines, translated and laid out as the deduction layer lays them."""
    return layout(lines, _sentence)
