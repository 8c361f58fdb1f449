"""The hint key: the most informative suggestion for a person's seat, and why.

It is the detective's own choice (``choose.Advice``) made from what that seat
knows: its notepad and the public game state. It never looks at anything else,
so a hint can be shown to the person it is for and to nobody else.

``hint(notepad, state)`` returns a ``Hint``:
- ``kind == "accuse"`` when the notepad already proves the envelope;
- ``kind == "suggest"`` when the seat may suggest now (the triple names the
  room the token is in, so it is a legal ``Suggest``);
- ``kind == "head_for"`` otherwise: the room where the best suggestion is worth
  most now, and what to ask there;
- None when there is nothing to advise (a contradictory notepad, or a
  suggestion would teach nothing anywhere).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from p2pclue.bots.choose import Advice, rivals_away
from p2pclue.deduce import ENVELOPE, Mark, Notepad, Triple
from p2pclue.rules.cards import CARDS, ROOMS
from p2pclue.rules.game import can_suggest
from p2pclue.rules.state import GameState

HintKind = Literal["suggest", "head_for", "accuse"]


@dataclass(frozen=True, slots=True)
class Hint:
    """What to do, with the expected information in bits and one sentence saying why."""

    kind: HintKind
    suspect: int
    weapon: int
    room: int
    bits: float
    reason: str

    @property
    def triple(self) -> Triple:
        return (self.suspect, self.weapon, self.room)


def _name(card: int) -> str:
    return CARDS[card].name


def _percent(p: float) -> str:
    return f"{round(100 * p)} %"


def _reason(notepad: Notepad, advice: Advice, triple: Triple, bits: float,
            where: str) -> str:
    odds = advice.known.envelope
    open_cards = [c for c in triple if notepad.cell(c, ENVELOPE) is Mark.UNKNOWN]
    held = [c for c in triple if notepad.cell(c, notepad.me) is Mark.YES]
    asked = ", ".join(f"{_name(c)} ({_percent(odds[c])} likely in the envelope)"
                      for c in open_cards) or "cards you have not placed yet"
    blocking = (f"; naming your own {', '.join(_name(c) for c in held)} keeps "
                "the answer on the others") if held else ""
    return (f"{where} {_name(triple[0])}, {_name(triple[1])}, {_name(triple[2])} "
            f"is expected to teach you most ({bits:.2f} bits): it asks about {asked}"
            f"{blocking}.")


def hint(notepad: Notepad, state: GameState, seat: int | None = None) -> Hint | None:
    """The hint for ``seat`` (default: the notepad's owner) in the public ``state``.

    ``notepad`` is that seat's deduction notepad (``p2pclue.deduce.Notepad``) with
    every fact the seat has observed; ``state`` is the rules state everyone
    shares (its ``hands`` are not read). Pure and deterministic; fast enough
    for a key press (tens of milliseconds).
    """
    me = notepad.me if seat is None else seat
    if notepad.contradiction is not None:
        return None
    solution = notepad.solution()
    if solution is not None:
        s, w, r = solution
        return Hint("accuse", s, w, r, 0.0,
                    f"Your notepad proves the envelope: {_name(s)}, {_name(w)}, {_name(r)}; "
                    "accuse now.")
    advice = Advice.of(notepad)
    here = state.token_of(me)
    if isinstance(here, int) and state.current_seat == me and can_suggest(state):
        bits, triple = advice.best_in_room(here, rivals_away(state, me, here))
        if bits <= 0:
            return None
        return Hint("suggest", *triple, bits, _reason(notepad, advice, triple, bits,
                                                      "Suggesting"))
    best: tuple[float, Triple] | None = None
    for room in (r.index for r in ROOMS):
        if room == here:
            continue
        found = advice.best_in_room(room, rivals_away(state, me, room))
        if best is None or found[0] > best[0] + 1e-9:
            best = found
    if best is None or best[0] <= 0:
        return None
    bits, triple = best
    return Hint("head_for", *triple, bits, _reason(
        notepad, advice, triple, bits, f"Head for the {_name(triple[2])}: suggesting"))
