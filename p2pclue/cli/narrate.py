"""The story of a game in plain words, for ``simulate`` and ``audit --replay``.

Only what every player saw is told, unless the caller passes what the end-of-game
reveal made public (``hands`` and the cards behind each ``show``). Players are
called by their names; places are rooms, doors and distances (the squares'
coordinates are for ``--json``); what looks odd to a newcomer is explained where
it happens: a player brought into a room by someone else's suggestion suggests
without rolling (R22), a player who rolls may stay where the rules allow it.

The narrator follows the tokens itself (start squares, moves, passages, R20 and
R28), so it needs nothing but the public events.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

from p2pclue.cli.terminal import Style
from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import Blame
from p2pclue.rules.board import Square, classic_board
from p2pclue.rules.cards import Category, card
from p2pclue.rules.movement import Position

INDENT = "   "


def card_phrase(index: int) -> str:
    """A card as a sentence names it: people by name, things and rooms with "the"."""
    c = card(index)
    return c.name if c.category is Category.SUSPECT else f"the {c.name}"


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def cards_text(cards: Sequence[int]) -> str:
    return listing([card_phrase(c) for c in cards])


def triple_text(triple: Sequence[int]) -> str:
    s, w, r = triple
    return f"{card_phrase(s)} with {card_phrase(w)} in {card_phrase(r)}"


def number(n: int) -> str:
    """"a 4", "an 8", "an 11"."""
    return f"an {n}" if n in (8, 11, 18) else f"a {n}"


def place(position: Position) -> str:
    """Where a token stands, as a person says it: the room, or the nearest room's door."""
    board = classic_board()
    if isinstance(position, int):
        return f"in {card_phrase(position)}"
    room = board.room_at(position)
    if room is not None:
        return f"in {card_phrase(room)}"
    if position in board.start_squares.values():
        return "on the starting square"
    nearest = board.nearest_room(position)
    if nearest is None:
        return "in the corridor"
    steps, room = nearest
    if steps == 1:
        return f"at the door of {card_phrase(room)}"
    return f"{steps} steps from {card_phrase(room)}"


def event_json(event: ev.Event) -> dict[str, Any]:
    """A public event for machines: its type and fields, squares as [row, col].

    Blame evidence (raw frames) is left out: ``audit --json`` carries the verdict.
    """
    out: dict[str, Any] = {"event": type(event).__name__}
    for f in dataclasses.fields(event):
        value = getattr(event, f.name)
        if isinstance(value, Blame):
            value = {"culprit": value.culprit, "check": value.check, "reason": value.reason,
                     "index": value.index}
        out[f.name] = _plain(value)
    return out


def _plain(value: object) -> object:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


class Narrator:
    def __init__(
        self, config: GameConfig, *, shown_cards: Sequence[int] | None = None,
        hands: dict[int, tuple[int, ...]] | None = None, style: Style | None = None,
    ) -> None:
        self.config = config
        self.style = style or Style(False)
        self.turn = 0
        self._shown = list(shown_cards) if shown_cards is not None else None
        self._hands = hands
        self._in_turn = False
        self._roll: tuple[int, tuple[int, ...]] | None = None
        """A roll not yet told: it is told together with the move (or the stay) it led to."""
        self._moved_this_turn = False
        self._passes = 0
        self._last_accusation_right = True
        self._brought: dict[int, int] = {}
        """Seat -> the seat whose suggestion brought its token into a room (R22)."""
        board = classic_board()
        played = {p.suspect for p in config.players}
        self.tokens: dict[int, Position | None] = {
            s: sq if (s in played or not config.rules.tokens_played_only) else None
            for s, sq in board.start_squares.items()}

    # ---- names ------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        """A player's name, in the colour of the suspect they play."""
        p = self.config.players[seat]
        return self.style.suspect(p.name, p.suspect)

    def who(self, seat: int) -> str:
        """A player's name and suspect, for headings and the end of the game."""
        p = self.config.players[seat]
        return self.style.suspect(f"{p.name} ({card(p.suspect).name})", p.suspect)

    def _proven(self) -> str:
        return self.style.event("(proven)", "proof")

    def _card(self, index: int) -> str:
        return self.style.event(card_phrase(index), "card")

    # ---- the story ---------------------------------------------------------------------

    def introduction(self) -> Iterator[str]:
        """Who plays whom, before the deal starts."""
        yield "Around the table: " + listing([
            f"{self.name(i)} plays {card(p.suspect).name}"
            for i, p in enumerate(self.config.players)]) + "."

    def lines(self, event: ev.Event) -> Iterator[str]:
        match event:
            case ev.WeaponsPlaced(rooms=rooms):
                yield "The weapons are hidden around the house: " + listing(
                    [f"{card_phrase(w)} in {card_phrase(r)}" for w, r in rooms]) + "."
                if self._hands is not None:
                    for seat, hand in sorted(self._hands.items()):
                        yield f"{INDENT}{self.name(seat)} was dealt {cards_text(hand)}."
            case ev.LeftoversShown(cards=cards):
                yield f"Cards left over, shown to everyone: {cards_text(cards)}."
            case ev.DiceRolled(seat=seat, dice=dice):
                yield from self._turn_start(seat)
                self._roll = (seat, dice)
            case ev.PassageTaken(seat=seat, room=room):
                yield from self._turn_start(seat)
                self._token_to(seat, room)
                self._moved_this_turn = True
                yield (f"{INDENT}{self.name(seat)} takes the secret passage to "
                       f"{card_phrase(room)}.")
            case ev.Moved(seat=seat, path=path, room=room):
                yield self._move(seat, path, room)
            case ev.Suggested(seat=seat, suspect=s, weapon=w, room=r):
                yield from self._turn_start(seat)
                yield from self._suggestion(seat, s, w, r)
            case ev.Passed(seat=seat):
                yield f"{INDENT * 2}{self.name(seat)} has none of them {self._proven()}."
                self._passes += 1
                if self._passes == self.config.n_players - 1:
                    yield f"{INDENT * 2}Nobody can show a card!"
            case ev.Refuted(refuter=refuter, suggester=suggester):
                what = "a card"
                if self._shown:
                    what = self._card(self._shown.pop(0))
                yield (f"{INDENT * 2}{self.name(refuter)} shows {self.name(suggester)} {what} "
                       f"{self._proven()}.")
            case ev.Accused(seat=seat, triple=triple):
                yield from self._turn_start(seat)
                yield from self._stay()
                yield f"{INDENT}{self.name(seat)} accuses: it was {triple_text(triple)}!"
            case ev.AccusationDecided(seat=seat, correct=correct):
                yield from self._decided(seat, correct)
            case ev.TurnEnded(seat=seat):
                yield from self._stay()
                self._in_turn = False
                self._brought.pop(seat, None)
            case ev.GameOver(result=result, winner=winner, envelope=envelope):
                yield from self._stay()
                verdict = (self.style.event("wins!", "win")
                           if result == "won" and winner is not None else "")
                if verdict and not self._last_accusation_right:  # R29
                    verdict = "is the last player still in the game, and " + verdict
                who = (f"{self.who(winner)} {verdict}" if winner is not None and verdict
                       else "Everybody accused wrongly: nobody wins.")
                yield f"{who} The envelope held {triple_text(envelope)}."
            case ev.Finished():
                yield ("After the game every hand was revealed and checked against every "
                       "proof: nobody cheated.")
            case ev.Halted(blame=blame):
                yield from self._stay()
                culprit = (self.who(blame.culprit) if blame.culprit is not None
                           else "a player who cannot be identified")
                yield self.style.event("GAME HALTED: ", "halt") + (
                    f"{culprit} broke the protocol ({blame.check}): {blame.reason}")
            case _:
                return

    def flush(self) -> Iterator[str]:
        """Anything still held back (a roll whose outcome never came)."""
        yield from self._stay()

    # ---- the pieces -------------------------------------------------------------------

    def _turn_start(self, seat: int) -> Iterator[str]:
        if self._in_turn:
            return
        self._in_turn = True
        self._moved_this_turn = False
        self.turn += 1
        where = self.tokens.get(self.config.players[seat].suspect)
        at = f", {place(where)}" if where is not None else ""
        yield self.style.event(f"Turn {self.turn}: ", "heading") + self.who(seat) + at

    def _rolled(self, dice: tuple[int, ...]) -> str:
        if len(dice) == 1:
            return f"rolls {number(dice[0])}"
        return f"rolls {' and '.join(map(str, dice))} ({sum(dice)})"

    def _move(self, seat: int, path: tuple[Square, ...], room: int | None) -> str:
        rolled = f"{self._rolled(self._roll[1])} and " if self._roll else ""
        self._roll = None
        self._moved_this_turn = True
        steps = len(path)
        squares = f"{steps} square{'s' if steps != 1 else ''}"
        if room is not None:
            self._token_to(seat, room)
            return f"{INDENT}{self.name(seat)} {rolled}goes into {card_phrase(room)}."
        self._token_to(seat, path[-1])
        return f"{INDENT}{self.name(seat)} {rolled}moves {squares}, stopping {place(path[-1])}."

    def _stay(self) -> Iterator[str]:
        """A roll with no move after it: say why the player did not move."""
        if self._roll is None:
            return
        seat, dice = self._roll
        self._roll = None
        where = self.tokens.get(self.config.players[seat].suspect)
        rolled = self._rolled(dice)
        if isinstance(where, int) and not self.config.rules.must_leave:
            yield (f"{INDENT}{self.name(seat)} {rolled} and chooses to stay "
                   f"{place(where)} (a player may stay in a room).")
        elif where is not None:
            yield (f"{INDENT}{self.name(seat)} {rolled} but every way is blocked by other "
                   f"players, so stays {place(where)}.")

    def _suggestion(self, seat: int, suspect: int, weapon: int, room: int) -> Iterator[str]:
        yield from self._stay()
        if not self._moved_this_turn and seat in self._brought:
            yield (f"{INDENT}{self.name(seat)} was brought into {card_phrase(room)} by "
                   f"{self.name(self._brought[seat])}'s suggestion, so may suggest there "
                   "without rolling.")
        self._passes = 0
        yield (f"{INDENT}{self.name(seat)} suggests it was "
               f"{triple_text((suspect, weapon, room))}.")
        before = self.tokens.get(suspect)
        if before is None or before == room:
            return
        self.tokens[suspect] = room
        other = self._seat_of(suspect)
        if other is not None and other != seat:
            self._brought[other] = seat
            yield f"{INDENT}{self.who(other)} is brought into {card_phrase(room)}."
        elif other is None:
            yield f"{INDENT}{card(suspect).name}'s token is brought into {card_phrase(room)}."

    def _decided(self, seat: int, correct: bool) -> Iterator[str]:
        self._last_accusation_right = correct
        if correct:
            yield f"{INDENT * 2}" + self.style.event("Right!", "win")
            return
        self._in_turn = False  # an eliminated player's turn ends at once (R27)
        self._brought.pop(seat, None)
        yield (f"{INDENT * 2}" + self.style.event("Wrong!", "wrong") + f" {self.name(seat)} is "
               "out of the game, but still answers the others' suggestions.")
        suspect = self.config.players[seat].suspect
        where = self.tokens.get(suspect)
        board = classic_board()
        if where is None or isinstance(where, int) or not board.doors_from(where):
            return
        nearest = board.nearest_room(where)
        if nearest is not None:  # R28: the token must not block a door
            self.tokens[suspect] = nearest[1]
            yield (f"{INDENT * 2}{self.name(seat)}'s token is moved off the doorway into "
                   f"{card_phrase(nearest[1])}.")

    def _token_to(self, seat: int, position: Position) -> None:
        self.tokens[self.config.players[seat].suspect] = position

    def _seat_of(self, suspect: int) -> int | None:
        return next((i for i, p in enumerate(self.config.players) if p.suspect == suspect),
                    None)
