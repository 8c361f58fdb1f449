"""Plain-words narration of a game's public events, for ``simulate`` and ``audit --replay``.

Only what every player saw is told, unless the caller passes what the end-of-game
reveal made public (``hands`` and the cards behind each ``show``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.rules.cards import card


def _names(cards: Sequence[int]) -> str:
    return ", ".join(card(c).name for c in cards)


def triple_text(triple: Sequence[int]) -> str:
    s, w, r = triple
    return f"{card(s).name} with the {card(w).name} in the {card(r).name}"


class Narrator:
    def __init__(
        self, config: GameConfig, *, shown_cards: Sequence[int] | None = None,
        hands: dict[int, tuple[int, ...]] | None = None,
    ) -> None:
        self.config = config
        self.turn = 0
        self._shown = list(shown_cards) if shown_cards is not None else None
        self._hands = hands
        self._in_turn = False

    def who(self, seat: int) -> str:
        p = self.config.players[seat]
        return f"{p.name} ({card(p.suspect).name})"

    def lines(self, event: ev.Event) -> Iterator[str]:
        match event:
            case ev.WeaponsPlaced(rooms=rooms):
                yield "Weapons: " + "; ".join(f"{card(w).name} in the {card(r).name}"
                                              for w, r in rooms)
                if self._hands is not None:
                    for seat, hand in sorted(self._hands.items()):
                        yield f"  {self.who(seat)} was dealt: {_names(hand)}"
            case ev.LeftoversShown(cards=cards):
                yield f"Cards left over, shown to all: {_names(cards)}"
            case ev.DiceRolled(seat=seat, dice=dice):
                yield from self._turn_start(seat)
                yield f"  rolls {' + '.join(map(str, dice))}"
            case ev.PassageTaken(seat=seat, room=room):
                yield from self._turn_start(seat)
                yield f"  takes the secret passage to the {card(room).name}"
            case ev.Moved(path=path, room=room):
                where = f"the {card(room).name}" if room is not None else f"square {path[-1]}"
                yield f"  moves {len(path)} to {where}"
            case ev.Suggested(seat=seat, suspect=s, weapon=w, room=r):
                yield from self._turn_start(seat)
                yield f"  suggests {triple_text((s, w, r))}"
            case ev.Passed(seat=seat):
                yield f"    {self.who(seat)} cannot refute (proven)"
            case ev.Refuted(refuter=refuter):
                what = "a card"
                if self._shown:
                    what = f"the {card(self._shown.pop(0)).name}"
                yield f"    {self.who(refuter)} shows {what} (proven)"
            case ev.Accused(seat=seat, triple=triple):
                yield from self._turn_start(seat)
                yield f"  accuses {triple_text(triple)}"
            case ev.AccusationDecided(correct=correct):
                yield ("    ...right! (checked by all players together)" if correct
                       else "    ...wrong: out of the game, still refutes")
            case ev.TurnEnded():
                self._in_turn = False
            case ev.GameOver(result=result, winner=winner, envelope=envelope):
                verdict = (f"{self.who(winner)} wins." if result == "won" and winner is not None
                           else "Everybody accused wrongly: nobody wins.")
                yield f"{verdict} The envelope held {triple_text(envelope)}."
            case ev.PlayerLeft(seat=seat, hand=hand):
                self._in_turn = False
                yield f"{self.who(seat)} leaves the table; their cards, face up: {_names(hand)}"
            case ev.LeaveQueued():
                yield "  you will leave as soon as the table waits for you"
            case ev.VoteCounted(seat=seat, choice=choice, silent=silent, abandon=ab,
                                needed=needed):
                what = "end the game" if choice == "abandon" else "wait"
                yield (f"  {self.who(seat)} votes to {what} for {self.who(silent)} "
                       f"({len(ab)}/{needed} to end it)")
            case ev.Abandoned(silent=silent, voters=voters):
                yield (f"The table ended the game as abandoned while waiting for "
                       f"{self.who(silent)} (signed by {', '.join(self.who(v) for v in voters)}).")
            case ev.Halted(blame=blame):
                who = self.who(blame.culprit) if blame.culprit is not None else "nobody"
                yield f"GAME HALTED: {who} broke {blame.check}: {blame.reason}"
            case _:
                return

    def _turn_start(self, seat: int) -> Iterator[str]:
        if not self._in_turn:
            self._in_turn = True
            self.turn += 1
            yield f"Turn {self.turn}: {self.who(seat)}"
