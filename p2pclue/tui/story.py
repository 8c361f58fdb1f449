"""The story pane's words: the shared narrator's sentences, laid out for the pane.

What each event says is ``p2pclue.i18n.narrator``'s (the same sentences ``simulate``
and ``audit --replay`` print), told to the local player as "you". The pane leaves out
the turn headings (the status line names the turn and whose it is) and indents only
the answers to a suggestion or an accusation, so that the few rows it has hold the most.
"""

from __future__ import annotations

from collections.abc import Iterator

from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.i18n import PlayerWord, _, card_word, ngettext, player_word
from p2pclue.i18n.narrator import Line, Narrator
from p2pclue.i18n.players import you_word
from p2pclue.rules.board import Square, classic_board


def square_words(square: Square) -> str:
    """A corridor square as a person can find it: near which room."""
    board = classic_board()
    best: tuple[int, int] | None = None
    for room in board.rooms():
        steps = board.steps_to_room(square, room)
        if steps is not None and (best is None or steps < best[0]):
            best = (steps, room)
    if best is None:
        return _("the corridor")
    steps, room = best
    return ngettext("the corridor, {steps} step from the door of {room:the}",
                    "the corridor, {steps} steps from the door of {room:the}",
                    steps).format(steps=steps, room=card_word(room))


def pane_text(line: Line) -> str:
    """One sentence as the pane shows it: a turn's own moves flush left, answers indented."""
    return "  " * max(0, line.depth - 1) + line.text


class Story:
    """The local player's story, one event at a time (see the module docstring)."""

    def __init__(self, config: GameConfig, me: int | None) -> None:
        self.config = config
        self.me = me
        self.narrator = Narrator(config, me)

    def who(self, seat: int | None) -> PlayerWord:
        """A player as a sentence names them in the middle: a name (with a bot's level), or
        "you" (as a subject: where "you" would be an object, the message has a "you" form of
        its own)."""
        if seat is None:
            return PlayerWord(_("nobody"), honorific=False)
        if seat == self.me:
            return you_word()
        return player_word(self.config.players[seat].name)

    def i_show(self, card: int) -> None:
        """The local player chose to show ``card``: told when the proof is accepted."""
        self.narrator.i_show(card)

    def progress(self, stage: str, seat: int, step: int, steps: int) -> str:
        return self.narrator.progress(stage, seat, step, steps)

    def lines(self, event: ev.Event) -> Iterator[str]:
        for line in self.narrator.tell(event):
            if not line.heading:
                yield pane_text(line)
