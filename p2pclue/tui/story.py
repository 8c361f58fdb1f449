"""The story of the game in plain words, told to the local player ("you").

A small presenter of its own (the CLI narrator tells a third person's story, and
cli/ sits above tui/ in the layers); it names a triple the way the narrator does.
"""

from __future__ import annotations

from collections.abc import Iterator

from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.rules.board import Square, classic_board
from p2pclue.rules.cards import card
from p2pclue.rules.setup import first_seat

STAGE_WORDS = {
    "join": "sits down at the table",
    "keys": "makes a secret key and proves it",
    "envelope": "shuffles the envelope",
    "deal": "shuffles the deck",
    "unlayer": "unlocks the others' cards",
    "random": "draws where the weapons lie",
    "reveal": "draws where the weapons lie",
}


def triple_text(triple: tuple[int, int, int]) -> str:
    s, w, r = triple
    return f"{card(s).name} with the {card(w).name} in the {card(r).name}"


def square_words(square: Square) -> str:
    """A corridor square as a person can find it: near which room."""
    board = classic_board()
    best: tuple[int, int] | None = None
    for room in board.rooms():
        steps = board.steps_to_room(square, room)
        if steps is not None and (best is None or steps < best[0]):
            best = (steps, room)
    if best is None:
        return "the corridor"
    steps, room = best
    return f"the corridor, {steps} step{'s' if steps != 1 else ''} from the {card(room).name}"


class Story:
    def __init__(self, config: GameConfig, me: int | None) -> None:
        self.config = config
        self.me = me

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        if seat == self.me:
            return "you"
        return self.config.players[seat].name

    def Who(self, seat: int | None) -> str:
        w = self.who(seat)
        return w[:1].upper() + w[1:]

    def suspect_of(self, seat: int) -> str:
        return card(self.config.players[seat].suspect).name

    def progress(self, stage: str, seat: int, step: int, steps: int) -> str:
        verb = STAGE_WORDS.get(stage, f"works on {stage}")
        if seat == self.me:
            verb = {"sits down at the table": "sit down at the table",
                    "makes a secret key and proves it": "make a secret key and prove it",
                    "unlocks the others' cards": "unlock the others' cards",
                    "draws where the weapons lie": "draw where the weapons lie"}.get(
                verb, verb.replace("shuffles", "shuffle"))
        return f"{self.Who(seat)} {verb}, {step} of {steps}"

    def lines(self, event: ev.Event) -> Iterator[str]:
        me = self.me
        match event:
            case ev.HandDealt(cards=cards):
                yield "You were dealt: " + ", ".join(card(c).name for c in cards) + "."
            case ev.LeftoversShown(cards=cards):
                yield "Left over, face up for all: " + ", ".join(card(c).name for c in cards)
            case ev.WeaponsPlaced():
                yield "The weapons are placed. " + ("Your turn first." if self._first() == me
                                                    else f"{self.Who(self._first())} starts.")
            case ev.DiceRolled(seat=seat, dice=dice):
                total = sum(dice)
                shown = " + ".join(map(str, dice)) + (f" = {total}" if len(dice) > 1 else "")
                yield f"{self.Who(seat)} rolled {shown}."
            case ev.PassageTaken(seat=seat, room=room):
                yield f"{self.Who(seat)} took the secret passage to the {card(room).name}."
            case ev.Moved(seat=seat, path=path, room=room):
                where = (f"the {card(room).name}" if room is not None
                         else square_words(path[-1]))
                yield f"{self.Who(seat)} moved to {where}."
            case ev.Suggested(seat=seat, suspect=s, weapon=w, room=r):
                verb = "suggest" if seat == me else "suggests"
                yield f"{self.Who(seat)} {verb}: {triple_text((s, w, r))}."
            case ev.Passed(seat=seat):
                yield ("  You cannot refute (proven)." if seat == me
                       else f"  {self.Who(seat)} cannot refute (proven).")
            case ev.Refuted(refuter=refuter, suggester=suggester):
                if refuter == me:
                    yield f"  You showed {self.who(suggester)} a card (proven)."
                elif suggester != me:
                    yield f"  {self.Who(refuter)} showed {self.who(suggester)} a card (proven)."
            case ev.CardShownToMe(refuter=refuter, card=c):
                yield f"  {self.Who(refuter)} showed you: {card(c).name}."
            case ev.Accused(seat=seat, triple=triple):
                verb = "accuse" if seat == me else "accuses"
                yield f"{self.Who(seat)} {verb}: {triple_text(triple)}!"
            case ev.AccusationDecided(seat=seat, correct=correct):
                if correct:
                    yield "  ...and is right (checked by all together)."
                else:
                    out = "you are" if seat == me else f"{self.who(seat)} is"
                    yield f"  ...wrong: {out} out, but still show cards."
            case ev.GameOver(result=result, winner=winner, envelope=envelope):
                if result == "won":
                    yield f"{self.Who(winner)} {'win' if winner == me else 'wins'}!"
                else:
                    yield "Everybody accused wrongly: nobody wins."
                yield f"The envelope held {triple_text(envelope)}."
            case ev.Finished():
                yield "Every secret was revealed and checked."
            case ev.Halted(blame=blame):
                yield (f"GAME HALTED: {self.who(blame.culprit)} broke {blame.check}: "
                       f"{blame.reason}")
            case ev.PeerSilent(seat=seat):
                yield f"{self.Who(seat)} has gone silent."
            case _:
                return

    def _first(self) -> int:
        return first_seat(self.config.rules, [p.suspect for p in self.config.players])
