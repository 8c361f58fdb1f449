"""The story of a game in plain words: the one narrator of every front end.

The terminal UI's story pane, ``simulate``, ``audit --replay`` and ``join``/``watch``
all tell a game through ``Narrator``: it turns each engine event into the sentences a
reader sees, in the installed language, and the front ends only choose how to show
them (a pane or printed lines, indentation, colour through a ``Painter``). The reader
may sit at the table (``me``): sentences whose subject or object is that player have
"you" forms of their own, since languages conjugate "you" and "she" differently.

Only what the reader saw is told, unless the caller passes what the end-of-game reveal
made public (``hands`` and the cards behind each show). Players are called by their
names; places are rooms, doors and distances. What looks odd to a newcomer is explained
where it happens: a player brought into a room by someone else's suggestion suggests
without rolling (R22), a player who rolls may stay where the rules allow it, a wrong
accuser's token leaves the doorway (R28). The narrator follows the tokens itself (start
squares, moves, passages, suggestions), so it needs nothing but the events.

Every sentence is a whole translatable message: no sentence is glued from translated
fragments, and cards enter sentences through the forms each language gives them ("into
the Kitchen", "do kuchyně", "부엌으로").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.i18n.phrases import card_word, triple_word
from p2pclue.i18n.players import PlayerWord, player_word
from p2pclue.i18n.story_words import OTHER_STAGE, STAGE_WORDS, cards_text, dice_text, place
from p2pclue.i18n.text import check_words, clauses, listing, rules_label
from p2pclue.i18n.translate import N_, _, ngettext, pgettext
from p2pclue.rules.board import classic_board
from p2pclue.rules.movement import Position
from p2pclue.rules.setup import first_seat


@dataclass(frozen=True)
class Line:
    """One sentence of the story. ``depth``: 0 the game's own moments, 1 what a player
    does in a turn, 2 the answers to it. ``heading``: a turn's title ("Turn 3: Ada, in
    the Kitchen"), which a front end with a status line of its own may leave out."""

    text: str
    depth: int = 0
    heading: bool = False


class Painter(Protocol):
    """Colours for the story (``p2pclue.cli.terminal.Style`` is one)."""

    def suspect(self, text: str, suspect: int) -> str: ...

    def event(self, text: str, kind: str) -> str: ...


class Plain:
    """No colour: the words alone."""

    def suspect(self, text: str, suspect: int) -> str:
        return text

    def event(self, text: str, kind: str) -> str:
        return text


class Narrator:
    """Tells one game to one reader; feed it every event of the game in order."""

    def __init__(self, config: GameConfig, me: int | None = None, *,
                 paint: Painter | None = None, shown_cards: Sequence[int | None] | None = None,
                 hands: dict[int, tuple[int, ...]] | None = None) -> None:
        self.config = config
        self.me = me
        self.paint = paint or Plain()
        self.turn = 0
        self._shown = list(shown_cards) if shown_cards is not None else None
        """The cards behind the shows, in transcript order, once the reveal opened them."""
        self._hands = hands
        self._showing: int | None = None
        self._in_turn = False
        self._rolled: int | None = None
        """Who rolled and has not moved yet: ending the turn then is staying, told so."""
        self._moved_this_turn = False
        self._passes = 0
        self._left: set[int] = set()
        self._right_accuser: int | None = None
        self._brought: dict[int, int] = {}
        """Seat -> the seat whose suggestion brought its token into a room (R22)."""
        board = classic_board()
        played = {p.suspect for p in config.players}
        self.tokens: dict[int, Position | None] = {
            s: sq if (s in played or not config.rules.tokens_played_only) else None
            for s, sq in board.start_squares.items()}

    # ---- names ------------------------------------------------------------------------

    def name(self, seat: int) -> PlayerWord:
        """A player (with a bot's level), in the colour of the suspect they play."""
        p = self.config.players[seat]
        return player_word(p.name, wrap=lambda text: self.paint.suspect(text, p.suspect))

    def who(self, seat: int) -> PlayerWord:
        """A player and their suspect, for headings and the end of the game."""
        p = self.config.players[seat]
        return player_word(p.name, suspect=p.suspect,
                           wrap=lambda text: self.paint.suspect(text, p.suspect))

    def _signer(self, seat: int) -> str:
        """A player in the list of those who signed an end: a name, or "you"."""
        if seat == self.me:
            # Translators: the local player among those who signed ("signed by Ada and you").
            return pgettext("one of those who signed", "you")
        return str(self.name(seat))

    def _say(self, seat: int, mine: str, theirs: str, **fields: object) -> str:
        """``mine`` when the reader is the subject, else ``theirs`` with {player}."""
        if seat == self.me:
            return _(mine).format(**fields)
        return _(theirs).format(player=self.name(seat), **fields)

    def _proven(self) -> str:
        # Translators: said of a refutation (or "I cannot refute") proven in zero knowledge.
        return self.paint.event(_("(proven)"), "proof")

    def _card(self, index: int) -> object:
        return card_word(index, lambda text: self.paint.event(text, "card"))

    # ---- what the front ends call ------------------------------------------------------

    def i_show(self, card: int) -> None:
        """The reader chose to show ``card``: its refutation is told with the card."""
        self._showing = card

    def tell(self, event: ev.Event) -> list[Line]:
        """The sentences of one event (none for an event a reader does not see)."""
        teller = TELLERS.get(type(event))
        return list(teller(self, event)) if teller is not None else []

    def introduction(self) -> list[Line]:
        """Who plays whom and the house rules, before the deal starts."""
        out = [Line(_("Around the table: {players}.").format(players=clauses([
            _("{player} plays {suspect}").format(player=self.name(i),
                                                 suspect=card_word(p.suspect))
            for i, p in enumerate(self.config.players)])))]
        rules = self.config.rules
        # Translators: items of the list "House rules (cz): ..."; each a clause of its own.
        notes = [_(text) for on, text in (
            (rules.two_dice, N_("two dice are rolled")),
            (rules.enter_exact, N_("a room is entered only with the exact roll")),
            (rules.must_leave, N_("a player in a room must leave it on the next turn")),
            (rules.weapon_swap, N_("a named weapon swaps places with one already in the room")),
        ) if on]
        if notes:
            out.append(Line(_("House rules ({preset}): {notes}.").format(
                preset=rules_label(rules.name()), notes=clauses(notes))))
        return out

    def progress(self, stage: str, seat: int, step: int, steps: int) -> str:
        """Who works on which step of the deal (a session's progress report)."""
        mine, theirs = STAGE_WORDS.get(stage, OTHER_STAGE)
        return self._say(seat, mine, theirs, stage=stage, step=step, steps=steps)

    # ---- the deal ---------------------------------------------------------------------

    def _hand_dealt(self, e: ev.HandDealt) -> Iterator[Line]:
        if self.me is not None:  # private to its seat: others learn hands from the reveal
            yield Line(_("You were dealt: {cards}.").format(cards=cards_text(e.cards)))

    def _leftovers(self, e: ev.LeftoversShown) -> Iterator[Line]:
        yield Line(_("Cards left over, shown to everyone: {cards}.").format(
            cards=cards_text(e.cards)))

    def _weapons(self, e: ev.WeaponsPlaced) -> Iterator[Line]:
        yield Line(_("The weapons are hidden around the house: {places}.").format(
            # Translators: one item of the list of where the weapons lie.
            places=clauses([_("{weapon:the} in {room:the}").format(
                weapon=card_word(w), room=card_word(r)) for w, r in e.rooms])))
        for seat, hand in sorted((self._hands or {}).items()):
            yield Line(_("{player} was dealt {cards}.").format(
                player=self.name(seat), cards=cards_text(hand)), 1)
        first = first_seat(self.config.rules, [p.suspect for p in self.config.players])
        yield Line(self._say(first, N_("You play first."), N_("{player} plays first.")))

    # ---- a turn -----------------------------------------------------------------------

    def _turn_start(self, seat: int) -> Iterator[Line]:
        if self._in_turn:
            return
        self._in_turn, self._moved_this_turn, self._rolled = True, False, None
        self.turn += 1
        where = self.tokens.get(self.config.players[seat].suspect)
        heading = self.paint.event(_("Turn {number}:").format(number=self.turn), "heading")
        if where is None:
            text = _("{heading} {player}").format(heading=heading, player=self.who(seat))
        else:
            text = _("{heading} {player}, {place}").format(
                heading=heading, player=self.who(seat), place=place(where))
        yield Line(text, heading=True)

    def _rolled_dice(self, e: ev.DiceRolled) -> Iterator[Line]:
        yield from self._turn_start(e.seat)
        self._rolled = e.seat
        yield Line(self._say(e.seat, N_("You roll {dice}."), N_("{player} rolls {dice}."),
                             dice=dice_text(e.dice)), 1)

    def _moved(self, e: ev.Moved) -> Iterator[Line]:
        yield from self._turn_start(e.seat)
        self._rolled, self._moved_this_turn = None, True
        if e.room is not None:
            self._token_to(e.seat, e.room)
            yield Line(self._say(e.seat, N_("You go into {room:the}."),
                                 N_("{player} goes into {room:the}."),
                                 room=card_word(e.room)), 1)
            return
        self._token_to(e.seat, e.path[-1])
        n = len(e.path)
        if e.seat == self.me:
            text = ngettext("You move {n} square, stopping {place}.",
                            "You move {n} squares, stopping {place}.", n)
        else:
            text = ngettext("{player} moves {n} square, stopping {place}.",
                            "{player} moves {n} squares, stopping {place}.", n)
        yield Line(text.format(player=self.name(e.seat), n=n, place=place(e.path[-1])), 1)

    def _passage(self, e: ev.PassageTaken) -> Iterator[Line]:
        yield from self._turn_start(e.seat)
        self._rolled, self._moved_this_turn = None, True
        self._token_to(e.seat, e.room)
        yield Line(self._say(e.seat, N_("You take the secret passage into {room:the}."),
                             N_("{player} takes the secret passage into {room:the}."),
                             room=card_word(e.room)), 1)

    def _stay(self) -> Iterator[Line]:
        """A roll with no move after it: say why the player did not move."""
        seat, self._rolled = self._rolled, None
        if seat is None:
            return
        where = self.tokens.get(self.config.players[seat].suspect)
        if where is None:
            return
        if isinstance(where, int) and not self.config.rules.must_leave:
            text = self._say(seat, N_("You choose to stay {place} (a player may stay in a "
                                      "room)."),
                             N_("{player} chooses to stay {place} (a player may stay in a "
                                "room)."), place=place(where))
        else:
            text = self._say(seat, N_("Every way is blocked by other players, so you stay "
                                      "{place}."),
                             N_("Every way is blocked by other players, so {player} stays "
                                "{place}."), place=place(where))
        yield Line(text, 1)

    def _turn_ended(self, e: ev.TurnEnded) -> Iterator[Line]:
        yield from self._stay()
        self._in_turn = False
        self._brought.pop(e.seat, None)

    # ---- suggestions and their answers ------------------------------------------------

    def _suggested(self, e: ev.Suggested) -> Iterator[Line]:
        yield from self._turn_start(e.seat)
        yield from self._stay()
        seat, room = e.seat, e.room
        other = self._brought.get(seat)
        if not self._moved_this_turn and other is not None:
            if seat == self.me:
                text = _("You were brought into {room:the} by {other}'s suggestion, so you may "
                         "suggest there without rolling.")
            elif other == self.me:
                text = _("{player} was brought into {room:the} by your suggestion, so may "
                         "suggest there without rolling.")
            else:
                text = _("{player} was brought into {room:the} by {other}'s suggestion, so may "
                         "suggest there without rolling.")
            yield Line(text.format(player=self.name(seat), room=card_word(room),
                                   other=self.name(other)), 1)
        self._passes = 0
        yield Line(self._say(seat, N_("You suggest: {triple}."), N_("{player} suggests: {triple}."),
                             triple=triple_word((e.suspect, e.weapon, room))), 1)
        before = self.tokens.get(e.suspect)
        if before is None or before == room:
            return
        self.tokens[e.suspect] = room
        called = self._seat_of(e.suspect)
        if called is None:
            yield Line(_("{suspect}'s token is brought into {room:the}.").format(
                suspect=card_word(e.suspect), room=card_word(room)), 1)
        elif called != seat:
            self._brought[called] = seat
            if called == self.me:
                yield Line(_("You are brought into {room:the}.").format(room=card_word(room)), 1)
            else:
                yield Line(_("{player} is brought into {room:the}.").format(
                    player=self.who(called), room=card_word(room)), 1)

    def _passed(self, e: ev.Passed) -> Iterator[Line]:
        yield Line(self._say(e.seat, N_("You have none of them {proven}."),
                             N_("{player} has none of them {proven}."), proven=self._proven()), 2)
        self._passes += 1
        if self._passes == self.config.n_players - 1 - len(self._left - {e.suggester}):
            yield Line(_("Nobody can show a card!"), 2)

    def _refuted(self, e: ev.Refuted) -> Iterator[Line]:
        card = self._shown.pop(0) if self._shown else None  # None: never opened
        showing, self._showing = self._showing, None
        refuter, suggester = e.refuter, e.suggester
        if refuter == self.me:
            card = showing if showing is not None else card
            if card is None:
                text = _("You show {player} a card {proven}.").format(
                    player=self.name(suggester), proven=self._proven())
            else:
                text = _("You show {player} {card:the} {proven}.").format(
                    player=self.name(suggester), card=self._card(card), proven=self._proven())
            yield Line(text, 2)
        elif suggester == self.me:
            return  # the card itself follows, shown to the reader alone (CardShownToMe)
        elif card is not None:
            yield Line(_("{refuter} shows {suggester} {card:the} {proven}.").format(
                refuter=self.name(refuter), suggester=self.name(suggester),
                card=self._card(card), proven=self._proven()), 2)
        else:
            yield Line(_("{refuter} shows {suggester} a card {proven}.").format(
                refuter=self.name(refuter), suggester=self.name(suggester),
                proven=self._proven()), 2)

    def _shown_to_me(self, e: ev.CardShownToMe) -> Iterator[Line]:
        if self.me is None:
            return  # private to the suggester's seat
        yield Line(_("{player} shows you {card:the} {proven}.").format(
            player=self.name(e.refuter), card=self._card(e.card), proven=self._proven()), 2)

    # ---- accusations and the end ------------------------------------------------------

    def _accused(self, e: ev.Accused) -> Iterator[Line]:
        yield from self._turn_start(e.seat)
        self._rolled = None  # accusing instead of moving is no stay
        yield Line(self._say(e.seat, N_("You accuse: {triple}!"), N_("{player} accuses: {triple}!"),
                             triple=triple_word(e.triple)), 1)

    def _decided(self, e: ev.AccusationDecided) -> Iterator[Line]:
        seat = e.seat
        if e.correct:
            self._right_accuser = seat
            text = (_("...and you are right (checked by all together).") if seat == self.me
                    else _("...and is right (checked by all together)."))
            yield Line(self.paint.event(text, "win"), 2)
            return
        self._in_turn = False  # an eliminated player's turn ends at once (R27)
        self._brought.pop(seat, None)
        yield Line(self._say(seat, N_("{wrong} You are out of the game, but still answer the "
                                      "others' suggestions."),
                             N_("{wrong} {player} is out of the game, but still answers the "
                                "others' suggestions."),
                             wrong=self.paint.event(_("Wrong!"), "wrong")), 2)
        yield from self._off_the_doorway(seat)

    def _off_the_doorway(self, seat: int) -> Iterator[Line]:
        """R28: a wrong accuser's token must not block a door; it goes into the room."""
        suspect = self.config.players[seat].suspect
        where = self.tokens.get(suspect)
        board = classic_board()
        if where is None or isinstance(where, int) or not board.doors_from(where):
            return
        nearest = board.nearest_room(where)
        if nearest is not None:
            self.tokens[suspect] = nearest[1]
            yield Line(self._say(seat, N_("Your token is moved off the doorway into {room:the}."),
                                 N_("{player}'s token is moved off the doorway into {room:the}."),
                                 room=card_word(nearest[1])), 2)

    def _winner(self, winner: int) -> str:
        """Who won: by a right accusation, or as the last player still in the game (R29)."""
        if winner == self._right_accuser:
            mine, theirs = N_("You win!"), N_("{player} wins!")
        else:
            mine = N_("You are the last player still in the game, and win!")
            theirs = N_("{player} is the last player still in the game, and wins!")
        text = _(mine) if winner == self.me else _(theirs).format(player=self.who(winner))
        return self.paint.event(text, "win")

    def _game_over(self, e: ev.GameOver) -> Iterator[Line]:
        self._rolled = None
        verdict = (self._winner(e.winner) if e.result == "won" and e.winner is not None
                   else _("Everybody accused wrongly: nobody wins."))
        yield Line(_("{verdict} The envelope held {triple}.").format(
            verdict=verdict, triple=triple_word(e.envelope)))

    def _finished(self, e: ev.Finished) -> Iterator[Line]:
        yield Line(_("After the game every hand was revealed and checked against every "
                     "proof: nobody cheated."))

    def _halted(self, e: ev.Halted) -> Iterator[Line]:
        self._rolled = None
        blame = e.blame
        what = check_words(blame.check)
        if blame.culprit is not None and blame.culprit == self.me:
            text = _("GAME HALTED: you broke the protocol: {what} ({check}: {reason})").format(
                what=what, check=blame.check, reason=blame.reason)
            yield Line(self.paint.event(text, "halt"))
            return
        culprit = (self.who(blame.culprit) if blame.culprit is not None
                   else PlayerWord(_("a player who cannot be identified"), honorific=False))
        # Translators: {check} and {reason} come from the protocol checks, in English
        # (a developer's words); {what} says what they mean.
        yield Line(_("{halted} {culprit} broke the protocol: {what} ({check}: {reason})").format(
            halted=self.paint.event(_("GAME HALTED:"), "halt"), culprit=culprit, what=what,
            check=blame.check, reason=blame.reason))

    # ---- leaving, silence and votes ---------------------------------------------------

    def _left_table(self, e: ev.PlayerLeft) -> Iterator[Line]:
        self._left.add(e.seat)
        self._in_turn, self._rolled = False, None
        yield Line(self._say(e.seat, N_("You leave the table; your cards, laid face up: "
                                        "{cards}."),
                             N_("{player} has to go and leaves the table; their cards, laid "
                                "face up: {cards}."), cards=cards_text(e.hand)))

    def _leave_queued(self, e: ev.LeaveQueued) -> Iterator[Line]:
        yield Line(_("You will leave as soon as the table waits for you."), 1)

    def _silent(self, e: ev.PeerSilent) -> Iterator[Line]:
        yield Line(self._say(e.seat, N_("The table has heard nothing from you for a while."),
                             N_("{player} has gone silent.")))

    def _vote(self, e: ev.VoteCounted) -> Iterator[Line]:
        """A signed vote about a silent seat, with the count of votes to end so far."""
        count, needed = len(e.abandon), e.needed
        if e.silent == self.me:  # others vote about the reader: "you" as an object
            theirs = (N_("{player} votes to end the game while waiting for you ({count} of "
                         "{needed} needed to end it).") if e.choice == "abandon"
                      else N_("{player} votes to wait for you ({count} of {needed} needed to "
                              "end it)."))
            yield Line(_(theirs).format(player=self.name(e.seat), count=count, needed=needed), 1)
            return
        if e.choice == "abandon":
            mine = N_("You vote to end the game while waiting for {silent} ({count} of "
                      "{needed} needed to end it).")
            theirs = N_("{player} votes to end the game while waiting for {silent} ({count} "
                        "of {needed} needed to end it).")
        else:
            mine = N_("You vote to wait for {silent} ({count} of {needed} needed to end it).")
            theirs = N_("{player} votes to wait for {silent} ({count} of {needed} needed "
                        "to end it).")
        yield Line(self._say(e.seat, mine, theirs, silent=self.name(e.silent), count=count,
                             needed=needed), 1)

    def _abandoned(self, e: ev.Abandoned) -> Iterator[Line]:
        silent = e.silent
        ended = (_("The table ended the game as abandoned while waiting for you "
                   "(signed by {voters}).") if silent == self.me
                 else _("The table ended the game as abandoned while waiting for {silent} "
                        "(signed by {voters})."))
        yield Line(ended.format(silent=self.name(silent),
                                voters=listing([self._signer(v) for v in e.voters])))
        if not e.forfeit:
            return
        yield Line(self._say(silent, N_("You withheld the last step of checking your own "
                                        "accusation: it counts as wrong, and you are out."),
                             N_("{player} withheld the last step of checking their own "
                                "accusation: it counts as wrong, and they are out.")))
        if e.winner is not None:
            yield Line(self._winner(e.winner))
        elif e.result == "nobody":
            yield Line(_("Everybody accused wrongly: nobody wins."))

    def _accepted(self, e: ev.Accepted) -> Iterator[Line]:
        """A verified frame is no news to a reader: the events it caused are told instead."""
        return iter(())

    # ---- the tokens -------------------------------------------------------------------

    def _token_to(self, seat: int, position: Position) -> None:
        self.tokens[self.config.players[seat].suspect] = position

    def _seat_of(self, suspect: int) -> int | None:
        return next((i for i, p in enumerate(self.config.players) if p.suspect == suspect),
                    None)


TELLERS: dict[type[Any], Callable[[Narrator, Any], Iterator[Line]]] = {
    ev.Accepted: Narrator._accepted,
    ev.HandDealt: Narrator._hand_dealt,
    ev.LeftoversShown: Narrator._leftovers,
    ev.WeaponsPlaced: Narrator._weapons,
    ev.DiceRolled: Narrator._rolled_dice,
    ev.Moved: Narrator._moved,
    ev.PassageTaken: Narrator._passage,
    ev.TurnEnded: Narrator._turn_ended,
    ev.Accused: Narrator._accused,
    ev.Suggested: Narrator._suggested,
    ev.Refuted: Narrator._refuted,
    ev.Passed: Narrator._passed,
    ev.CardShownToMe: Narrator._shown_to_me,
    ev.AccusationDecided: Narrator._decided,
    ev.GameOver: Narrator._game_over,
    ev.Finished: Narrator._finished,
    ev.Halted: Narrator._halted,
    ev.PeerSilent: Narrator._silent,
    ev.PlayerLeft: Narrator._left_table,
    ev.LeaveQueued: Narrator._leave_queued,
    ev.VoteCounted: Narrator._vote,
    ev.Abandoned: Narrator._abandoned,
}
"""Every engine event and how it is told: a new event without a telling fails
``tests/test_narrator_events.py``."""

SILENT_EVENTS = frozenset({ev.Accepted})
"""Events told with no sentence at all, on purpose."""

__all__ = ["SILENT_EVENTS", "TELLERS", "Line", "Narrator", "Painter", "Plain"]
