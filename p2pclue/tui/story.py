"""The story of the game in plain words, told to the local player ("you").

A small presenter of its own (the CLI narrator tells a third person's story, and
cli/ sits above tui/ in the layers); it names a triple the way the narrator does.
Every sentence is a whole translatable message, with a "you" form where the local
player is the subject (languages conjugate differently for "you" and "she").
"""

from __future__ import annotations

from collections.abc import Iterator

from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.i18n import (
    N_,
    Spoken,
    _,
    card_name,
    card_word,
    check_words,
    listing,
    ngettext,
    pgettext,
    triple_word,
)
from p2pclue.rules.board import Square, classic_board
from p2pclue.rules.setup import first_seat

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


class Story:
    def __init__(self, config: GameConfig, me: int | None) -> None:
        self.config = config
        self.me = me
        self.shown: int | None = None
        """The card the local player chose to show, told when the proof is accepted."""
        self.rolled: int | None = None
        """Who rolled and has not moved yet: ending the turn then is staying, told so."""
        self.room_of: dict[int, int | None] = {}
        """The room each seat's token is in, as the story has told it (a suspect called
        into the room it already stands in is not "called into" it)."""

    def who(self, seat: int | None) -> str:
        """A player as a sentence names them in the middle: a name, or "you" (as a subject:
        where "you" would be an object, the message has a "you" form of its own)."""
        if seat is None:
            return _("nobody")
        if seat == self.me:
            return _("you")
        return self.config.players[seat].name

    def signer(self, seat: int) -> str:
        """A player in the list of those who signed an end: a name, or "you"."""
        if seat == self.me:
            # Translators: the local player among those who signed ("signed by Ada and you").
            return pgettext("one of those who signed", "you")
        return self.config.players[seat].name

    def Who(self, seat: int | None) -> str:
        w = self.who(seat)
        return w[:1].upper() + w[1:]

    def suspect_of(self, seat: int) -> str:
        return card_name(self.config.players[seat].suspect)

    def _say(self, seat: int | None, mine: str, theirs: str, **fields: object) -> str:
        """``mine`` when the local player is the subject, else ``theirs`` with {player}."""
        if seat is not None and seat == self.me:
            return _(mine).format(**fields)
        return _(theirs).format(player=self.Who(seat), **fields)

    def progress(self, stage: str, seat: int, step: int, steps: int) -> str:
        mine, theirs = STAGE_WORDS.get(stage, (
            N_("You work on {stage}, {step} of {steps}"),
            N_("{player} works on {stage}, {step} of {steps}")))
        return self._say(seat, mine, theirs, stage=stage, step=step, steps=steps)

    def lines(self, event: ev.Event) -> Iterator[str]:
        me = self.me
        match event:
            case ev.HandDealt(cards=cards):
                yield _("You were dealt: {cards}.").format(
                    cards=", ".join(card_name(c) for c in cards))
            case ev.LeftoversShown(cards=cards):
                yield _("Left over, face up for all: {cards}").format(
                    cards=", ".join(card_name(c) for c in cards))
            case ev.WeaponsPlaced():
                yield self._say(self._first(), N_("The weapons are placed. Your turn first."),
                                N_("The weapons are placed. {player} starts."))
                if me is not None:  # the first screen says what the game is about
                    yield _("Find the three cards in the envelope: who, with which weapon, "
                            "in which room. ? shows the keys and rules.")
            case ev.DiceRolled(seat=seat, dice=dice):
                total = sum(dice)
                shown = " + ".join(map(str, dice)) + (f" = {total}" if len(dice) > 1 else "")
                yield self._say(seat, N_("You rolled {dice}."), N_("{player} rolled {dice}."),
                                dice=Spoken(shown))
                self.rolled = seat
            case ev.TurnEnded(seat=seat):
                if self.rolled == seat:
                    yield self._say(seat, N_("You stay where you are."),
                                    N_("{player} stays where they are."))
                self.rolled = None
            case ev.PassageTaken(seat=seat, room=room):
                self.rolled, self.room_of[seat] = None, room
                yield self._say(seat, N_("You took the secret passage into {room:the}."),
                                N_("{player} took the secret passage into {room:the}."),
                                room=card_word(room))
            case ev.Moved(seat=seat, path=path, room=room):
                self.rolled, self.room_of[seat] = None, room
                if room is not None:
                    yield self._say(seat, N_("You moved into {room:the}."),
                                    N_("{player} moved into {room:the}."), room=card_word(room))
                else:
                    yield self._say(seat, N_("You moved to {place}."),
                                    N_("{player} moved to {place}."),
                                    place=square_words(path[-1]))
            case ev.Suggested(seat=seat, suspect=s, weapon=w, room=r):
                yield self._say(seat, N_("You suggest: {triple}."),
                                N_("{player} suggests: {triple}."), triple=triple_word((s, w, r)))
                called = self._seat_of(s)
                if called is not None and called != seat and self.room_of.get(called) != r:
                    # the suspect's token is brought into the room: say so, or a player
                    # finds their token somewhere else without knowing why
                    yield "  " + self._say(called, N_("You are called into {room:the}."),
                                           N_("{player} is called into {room:the}."),
                                           room=card_word(r))
                if called is not None:
                    self.room_of[called] = r
            case ev.Passed(seat=seat):
                yield "  " + self._say(seat, N_("You cannot refute (proven)."),
                                       N_("{player} cannot refute (proven)."))
            case ev.Refuted(refuter=refuter, suggester=suggester):
                if refuter == me and self.shown is not None:
                    yield "  " + _("You showed {player}: {card} (proven).").format(
                        player=self.who(suggester), card=card_word(self.shown))
                    self.shown = None
                elif refuter == me:
                    yield "  " + _("You showed {player} a card (proven).").format(
                        player=self.who(suggester))
                elif suggester != me:
                    yield "  " + _("{refuter} showed {suggester} a card (proven).").format(
                        refuter=self.Who(refuter), suggester=self.who(suggester))
            case ev.CardShownToMe(refuter=refuter, card=c):
                yield "  " + _("{player} showed you: {card}.").format(
                    player=self.Who(refuter), card=card_word(c))
            case ev.Accused(seat=seat, triple=triple):
                self.rolled = None
                yield self._say(seat, N_("You accuse: {triple}!"),
                                N_("{player} accuses: {triple}!"), triple=triple_word(triple))
            case ev.AccusationDecided(seat=seat, correct=correct):
                if correct:
                    yield "  " + (_("...and you are right (checked by all together).")
                                  if seat == me else
                                  _("...and is right (checked by all together)."))
                else:
                    yield "  " + self._say(seat, N_("...wrong: you are out, but still show cards."),
                                           N_("...wrong: {player} is out, but still shows cards."))
            case ev.GameOver(result=result, winner=winner, envelope=envelope):
                if result == "won":
                    yield self._say(winner, N_("You win!"), N_("{player} wins!"))
                else:
                    yield _("Everybody accused wrongly: nobody wins.")
                yield _("The envelope held {triple}.").format(triple=triple_word(envelope))
            case ev.Finished():
                yield _("Every secret was revealed and checked.")
            case ev.Halted(blame=blame):
                yield self._say(
                    blame.culprit, N_("GAME HALTED: you broke the protocol: {what} ({check}: "
                                      "{reason})"),
                    N_("GAME HALTED: {player} broke the protocol: {what} ({check}: {reason})"),
                    what=check_words(blame.check), check=blame.check, reason=blame.reason)
            case ev.PeerSilent(seat=seat):
                yield self._say(seat, N_("The table has heard nothing from you for a while."),
                                N_("{player} has gone silent."))
            case ev.PlayerLeft(seat=seat, hand=hand):
                yield self._say(seat, N_("You leave the table; your cards, laid face up: "
                                         "{cards}."),
                                N_("{player} has to go and leaves the table; their cards, "
                                   "laid face up: {cards}."),
                                cards=", ".join(card_name(c) for c in sorted(hand)))
            case ev.VoteCounted():
                yield "  " + self._vote(event)
            case ev.Abandoned(silent=silent, voters=voters, forfeit=forfeit, winner=winner):
                ended = (_("The table ended the game as abandoned while waiting for you "
                           "(signed by {voters}).") if silent == me
                         else _("The table ended the game as abandoned while waiting for "
                                "{silent} (signed by {voters})."))
                yield ended.format(silent=self.who(silent),
                                   voters=listing([self.signer(v) for v in voters]))
                if forfeit:
                    yield _("{player} withheld the last step of checking their own accusation: "
                            "it counts as wrong, and they are out.").format(
                        player=self.Who(silent))
                    if winner is not None:
                        yield self._say(winner, N_("You win!"), N_("{player} wins!"))
            case _:
                return

    def _vote(self, vote: ev.VoteCounted) -> str:
        """A signed vote about a silent seat, with the count of votes to end so far."""
        if vote.silent == self.me:  # others vote about you: "you" as an object
            theirs = (N_("{player} votes to end the game while waiting for you ({count} of "
                         "{needed} needed to end it).") if vote.choice == "abandon"
                      else N_("{player} votes to wait for you ({count} of {needed} needed to "
                              "end it)."))
            return _(theirs).format(player=self.Who(vote.seat), count=len(vote.abandon),
                                    needed=vote.needed)
        if vote.choice == "abandon":
            mine = N_("You vote to end the game while waiting for {silent} ({count} of "
                      "{needed} needed to end it).")
            theirs = N_("{player} votes to end the game while waiting for {silent} ({count} "
                        "of {needed} needed to end it).")
        else:
            mine = N_("You vote to wait for {silent} ({count} of {needed} needed to end it).")
            theirs = N_("{player} votes to wait for {silent} ({count} of {needed} needed "
                        "to end it).")
        return self._say(vote.seat, mine, theirs, silent=self.who(vote.silent),
                         count=len(vote.abandon), needed=vote.needed)

    def _seat_of(self, suspect: int) -> int | None:
        return next((s for s, p in enumerate(self.config.players) if p.suspect == suspect),
                    None)

    def _first(self) -> int:
        return first_seat(self.config.rules, [p.suspect for p in self.config.players])
