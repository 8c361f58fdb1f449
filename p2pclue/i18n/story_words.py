"""The pieces the story of a game is told with: places, rolls, hands and the deal's steps.

A place is said as a person finds it on the board (a room, a door and a distance, the
starting square), never as coordinates (those are for ``--json``). Each function gives
a whole value for a message field, in the installed language.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pclue.i18n.phrases import Spoken, card_phrase, card_word
from p2pclue.i18n.text import listing
from p2pclue.i18n.translate import N_, _, ngettext, pgettext
from p2pclue.rules.board import classic_board
from p2pclue.rules.movement import Position

STAGE_WORDS = {
    # Translators: the deal's progress; {step} of {steps} counts its messages.
    "join": (N_("You sit down at the table, {step} of {steps}"),
             N_("{player} sits down at the table, {step} of {steps}")),
    "keys": (N_("You make a secret key and prove it, {step} of {steps}"),
             N_("{player} makes a secret key and proves it, {step} of {steps}")),
    "envelope": (N_("You shuffle the envelope, {step} of {steps}"),
                 N_("{player} shuffles the envelope, {step} of {steps}")),
    "deal": (N_("You shuffle the deck, {step} of {steps}"),
             N_("{player} shuffles the deck, {step} of {steps}")),
    "unlayer": (N_("You unlock the others' cards, {step} of {steps}"),
                N_("{player} unlocks the others' cards, {step} of {steps}")),
    "random": (N_("You draw where the weapons lie, {step} of {steps}"),
               N_("{player} draws where the weapons lie, {step} of {steps}")),
    "reveal": (N_("You draw where the weapons lie, {step} of {steps}"),
               N_("{player} draws where the weapons lie, {step} of {steps}")),
}
"""Per stage of the deal: the sentence when you work, and when someone else does."""
OTHER_STAGE = (N_("You work on {stage}, {step} of {steps}"),
               N_("{player} works on {stage}, {step} of {steps}"))


def cards_text(cards: Sequence[int]) -> str:
    """Cards in the usual order (people, weapons, rooms), joined as a sentence lists them."""
    return listing([card_phrase(c) for c in sorted(cards)])


def dice_text(dice: Sequence[int]) -> Spoken:
    """What was rolled, as the sentences "{player} rolls {dice}" want it (a Korean
    particle after it agrees with the last number as it is read: ``{dice:을}``)."""
    if len(dice) == 1:
        n = dice[0]
        if n in (8, 11, 18):
            # Translators: one die rolled, English "an 8"; write it as "a {n}" is written.
            return Spoken(pgettext("one die", "an {n}").format(n=n))
        # Translators: one die rolled, English "a 4".
        return Spoken(pgettext("one die", "a {n}").format(n=n))
    # Translators: dice rolled and their total: "3 and 4 (7)".
    return Spoken(_("{dice} ({total})").format(dice=Spoken(listing([str(d) for d in dice])),
                                               total=sum(dice)))


def _in_room(room: int) -> str:
    # Translators: where a token stands ("Turn 3: Ada, in the Kitchen"; "stays in the
    # Kitchen"): a place where something is, not where something is done.
    return _("in {room:the}").format(room=card_word(room))


def place(position: Position) -> str:
    """Where a token stands, as a person says it: the room, or the nearest room's door."""
    board = classic_board()
    if isinstance(position, int):
        return _in_room(position)
    room = board.room_at(position)
    if room is not None:
        return _in_room(room)
    if position in board.start_squares.values():
        return _("on the starting square")
    nearest = board.nearest_room(position)
    if nearest is None:
        return _("in the corridor")
    steps, room = nearest
    if steps == 1:
        return _("at the door of {room:the}").format(room=card_word(room))
    return ngettext("{steps} step from the door of {room:the}",
                    "{steps} steps from the door of {room:the}",
                    steps).format(steps=steps, room=card_word(room))
