"""The story of a game in plain words, for ``simulate`` and ``audit --replay``.

Only what every player saw is told, unless the caller passes what the end-of-game
reveal made public (``hands`` and the cards behind each ``show``). Players are
called by their names; places are rooms, doors and distances (the squares'
coordinates are for ``--json``); what looks odd to a newcomer is explained where
it happens: a player brought into a room by someone else's suggestion suggests
without rolling (R22), a player who rolls may stay where the rules allow it.

The narrator follows the tokens itself (start squares, moves, passages, R20 and
R28), so it needs nothing but the public events.

Every sentence is a whole translatable message (``p2pclue.i18n``): no sentence is
glued from translated fragments, and cards enter sentences through the forms each
language gives them ("into the Kitchen", "do kuchyně", "부엌으로").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

from p2pclue.cli.terminal import Style
from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import Blame
from p2pclue.i18n import (
    N_,
    Spoken,
    _,
    card_phrase,
    card_word,
    check_words,
    listing,
    ngettext,
    pgettext,
    rules_label,
    triple_word,
)
from p2pclue.rules.board import Square, classic_board
from p2pclue.rules.movement import Position

INDENT = "   "


def cards_text(cards: Sequence[int]) -> str:
    """Cards in the usual order (people, weapons, rooms), joined as a sentence lists them."""
    return listing([card_phrase(c) for c in sorted(cards)])


def dice_text(dice: Sequence[int]) -> Spoken:
    """What was rolled, as the sentences "{player} rolls {dice} ..." want it (a Korean
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
        self, config: GameConfig, *, shown_cards: Sequence[int | None] | None = None,
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
        # Translators: a player and the suspect they play: "Alice (Miss Scarlett)".
        return self.style.suspect(_("{player} ({suspect})").format(
            player=p.name, suspect=card_word(p.suspect)), p.suspect)

    def _proven(self) -> str:
        # Translators: said of a refutation (or "I cannot refute") proven in zero knowledge.
        return self.style.event(_("(proven)"), "proof")

    def _card(self, index: int) -> object:
        return card_word(index, lambda text: self.style.event(text, "card"))

    # ---- the story ---------------------------------------------------------------------

    def introduction(self) -> Iterator[str]:
        """Who plays whom, before the deal starts."""
        yield _("Around the table: {players}.").format(players=listing([
            _("{player} plays {suspect}").format(player=self.name(i),
                                                 suspect=card_word(p.suspect))
            for i, p in enumerate(self.config.players)]))
        rules = self.config.rules
        # Translators: items of the list "House rules (cz): ..."; each a clause of its own.
        notes = [_(text) for on, text in (
            (rules.two_dice, N_("two dice are rolled")),
            (rules.enter_exact, N_("a room is entered only with the exact roll")),
            (rules.must_leave, N_("a player in a room must leave it on the next turn")),
            (rules.weapon_swap, N_("a named weapon swaps places with one already in the room")),
        ) if on]
        if notes:
            yield _("House rules ({preset}): {notes}.").format(preset=rules_label(rules.name()),
                                                               notes=listing(notes))

    def lines(self, event: ev.Event) -> Iterator[str]:
        match event:
            case ev.WeaponsPlaced(rooms=rooms):
                yield _("The weapons are hidden around the house: {places}.").format(
                    # Translators: one item of the list of where the weapons lie.
                    places=listing([_("{weapon:the} in {room:the}").format(
                        weapon=card_word(w), room=card_word(r)) for w, r in rooms]))
                if self._hands is not None:
                    for seat, hand in sorted(self._hands.items()):
                        yield INDENT + _("{player} was dealt {cards}.").format(
                            player=self.name(seat), cards=cards_text(hand))
            case ev.LeftoversShown(cards=cards):
                yield _("Cards left over, shown to everyone: {cards}.").format(
                    cards=cards_text(cards))
            case ev.DiceRolled(seat=seat, dice=dice):
                yield from self._turn_start(seat)
                self._roll = (seat, dice)
            case ev.PassageTaken(seat=seat, room=room):
                yield from self._turn_start(seat)
                self._token_to(seat, room)
                self._moved_this_turn = True
                yield INDENT + _("{player} takes the secret passage into {room:the}.").format(
                    player=self.name(seat), room=card_word(room))
            case ev.Moved(seat=seat, path=path, room=room):
                yield self._move(seat, path, room)
            case ev.Suggested(seat=seat, suspect=s, weapon=w, room=r):
                yield from self._turn_start(seat)
                yield from self._suggestion(seat, s, w, r)
            case ev.Passed(seat=seat):
                yield INDENT * 2 + _("{player} has none of them {proven}.").format(
                    player=self.name(seat), proven=self._proven())
                self._passes += 1
                if self._passes == self.config.n_players - 1:
                    yield INDENT * 2 + _("Nobody can show a card!")
            case ev.Refuted(refuter=refuter, suggester=suggester):
                card = self._shown.pop(0) if self._shown else None  # None: never opened
                if card is not None:
                    yield INDENT * 2 + _("{refuter} shows {suggester} {card:the} {proven}.").format(
                        refuter=self.name(refuter), suggester=self.name(suggester),
                        card=self._card(card), proven=self._proven())
                else:
                    yield INDENT * 2 + _("{refuter} shows {suggester} a card {proven}.").format(
                        refuter=self.name(refuter), suggester=self.name(suggester),
                        proven=self._proven())
            case ev.Accused(seat=seat, triple=triple):
                yield from self._turn_start(seat)
                yield from self._stay()
                yield INDENT + _("{player} accuses: it was {triple}!").format(
                    player=self.name(seat), triple=triple_word(triple))
            case ev.AccusationDecided(seat=seat, correct=correct):
                yield from self._decided(seat, correct)
            case ev.TurnEnded(seat=seat):
                yield from self._stay()
                self._in_turn = False
                self._brought.pop(seat, None)
            case ev.GameOver(result=result, winner=winner, envelope=envelope):
                yield from self._stay()
                if result == "won" and winner is not None:
                    verdict = (_("{player} wins!") if self._last_accusation_right  # R29
                               else _("{player} is the last player still in the game, and wins!"))
                    who = self.style.event(verdict.format(player=self.who(winner)), "win")
                else:
                    who = _("Everybody accused wrongly: nobody wins.")
                yield _("{verdict} The envelope held {triple}.").format(
                    verdict=who, triple=triple_word(envelope))
            case ev.Finished():
                yield _("After the game every hand was revealed and checked against every "
                        "proof: nobody cheated.")
            case ev.PlayerLeft(seat=seat, hand=hand):
                self._in_turn = False
                yield _("{player} has to go and leaves the table; their cards, laid face up: "
                        "{cards}.").format(player=self.name(seat), cards=cards_text(hand))
            case ev.LeaveQueued():
                yield INDENT + _("You will leave as soon as the table waits for you.")
            case ev.VoteCounted(seat=seat, choice=choice, silent=silent, abandon=ab,
                                needed=needed):
                vote = (_("{player} votes to end the game while waiting for {silent} ({count} "
                          "of {needed} needed to end it).") if choice == "abandon"
                        else _("{player} votes to wait for {silent} ({count} of {needed} needed "
                               "to end it)."))
                yield INDENT + vote.format(player=self.name(seat), silent=self.name(silent),
                                           count=len(ab), needed=needed)
            case ev.Abandoned(silent=silent, voters=voters, forfeit=forfeit, result=result,
                              winner=winner):
                yield _("The table ended the game as abandoned while waiting for {silent} "
                        "(signed by {voters}).").format(
                    silent=self.name(silent), voters=listing([self.name(v) for v in voters]))
                if forfeit:
                    yield _("{player} withheld the last step of checking their own accusation: "
                            "it counts as wrong, and they are out.").format(
                        player=self.name(silent))
                    if winner is not None:
                        yield self.style.event(_(
                            "{player} is the last player still in the game, and wins!").format(
                            player=self.who(winner)), "win")
                    elif result == "nobody":
                        yield _("Everybody accused wrongly: nobody wins.")
            case ev.Halted(blame=blame):
                yield from self._stay()
                culprit = (self.who(blame.culprit) if blame.culprit is not None
                           else _("a player who cannot be identified"))
                # Translators: {check} and {reason} come from the protocol checks, in English
                # (a developer's words); {what} says what they mean.
                yield _("{halted} {culprit} broke the protocol: {what} ({check}: {reason})"
                        ).format(halted=self.style.event(_("GAME HALTED:"), "halt"),
                                 culprit=culprit, what=check_words(blame.check),
                                 check=blame.check, reason=blame.reason)
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
        heading = self.style.event(_("Turn {number}:").format(number=self.turn), "heading")
        if where is None:
            yield _("{heading} {player}").format(heading=heading, player=self.who(seat))
        else:
            yield _("{heading} {player}, {place}").format(
                heading=heading, player=self.who(seat), place=place(where))

    def _move(self, seat: int, path: tuple[Square, ...], room: int | None) -> str:
        dice = dice_text(self._roll[1]) if self._roll else None
        self._roll = None
        self._moved_this_turn = True
        player = self.name(seat)
        if room is not None:
            self._token_to(seat, room)
            text = (_("{player} goes into {room:the}.") if dice is None
                    else _("{player} rolls {dice} and goes into {room:the}."))
            return INDENT + text.format(player=player, dice=dice, room=card_word(room))
        self._token_to(seat, path[-1])
        n = len(path)
        if dice is None:
            text = ngettext("{player} moves {n} square, stopping {place}.",
                            "{player} moves {n} squares, stopping {place}.", n)
        else:
            text = ngettext("{player} rolls {dice} and moves {n} square, stopping {place}.",
                            "{player} rolls {dice} and moves {n} squares, stopping {place}.", n)
        return INDENT + text.format(player=player, dice=dice, n=n, place=place(path[-1]))

    def _stay(self) -> Iterator[str]:
        """A roll with no move after it: say why the player did not move."""
        if self._roll is None:
            return
        seat, dice = self._roll
        self._roll = None
        where = self.tokens.get(self.config.players[seat].suspect)
        if isinstance(where, int) and not self.config.rules.must_leave:
            yield INDENT + _("{player} rolls {dice} and chooses to stay {place} (a player may "
                             "stay in a room).").format(player=self.name(seat),
                                                        dice=dice_text(dice), place=place(where))
        elif where is not None:
            yield INDENT + _("{player} rolls {dice} but every way is blocked by other players, "
                             "so stays {place}.").format(player=self.name(seat),
                                                         dice=dice_text(dice), place=place(where))

    def _suggestion(self, seat: int, suspect: int, weapon: int, room: int) -> Iterator[str]:
        yield from self._stay()
        if not self._moved_this_turn and seat in self._brought:
            yield INDENT + _("{player} was brought into {room:the} by {other}'s suggestion, so may "
                             "suggest there without rolling.").format(
                player=self.name(seat), room=card_word(room),
                other=self.name(self._brought[seat]))
        self._passes = 0
        yield INDENT + _("{player} suggests it was {triple}.").format(
            player=self.name(seat), triple=triple_word((suspect, weapon, room)))
        before = self.tokens.get(suspect)
        if before is None or before == room:
            return
        self.tokens[suspect] = room
        other = self._seat_of(suspect)
        if other is not None and other != seat:
            self._brought[other] = seat
            yield INDENT + _("{player} is brought into {room:the}.").format(
                player=self.who(other), room=card_word(room))
        elif other is None:
            yield INDENT + _("{suspect}'s token is brought into {room:the}.").format(
                suspect=card_word(suspect), room=card_word(room))

    def _decided(self, seat: int, correct: bool) -> Iterator[str]:
        self._last_accusation_right = correct
        if correct:
            yield INDENT * 2 + self.style.event(_("Right!"), "win")
            return
        self._in_turn = False  # an eliminated player's turn ends at once (R27)
        self._brought.pop(seat, None)
        yield INDENT * 2 + _("{wrong} {player} is out of the game, but still answers the "
                             "others' suggestions.").format(
            wrong=self.style.event(_("Wrong!"), "wrong"), player=self.name(seat))
        suspect = self.config.players[seat].suspect
        where = self.tokens.get(suspect)
        board = classic_board()
        if where is None or isinstance(where, int) or not board.doors_from(where):
            return
        nearest = board.nearest_room(where)
        if nearest is not None:  # R28: the token must not block a door
            self.tokens[suspect] = nearest[1]
            moved = _("{player}'s token is moved off the doorway into {room:the}.")
            yield INDENT * 2 + moved.format(player=self.name(seat), room=card_word(nearest[1]))

    def _token_to(self, seat: int, position: Position) -> None:
        self.tokens[self.config.players[seat].suspect] = position

    def _seat_of(self, suspect: int) -> int | None:
        return next((i for i, p in enumerate(self.config.players) if p.suspect == suspect),
                    None)
