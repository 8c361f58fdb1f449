"""Stage management for cheat runs: the cheating seat must get its chance.

A cheat that the cheating peer cannot bring about by itself needs the game to go on
long enough, and a refutation cheat needs another seat's suggestion to reach the
cheater with the right cards named. In a cheat run (``simulate --cheat``, tests)
this wrapper adjusts the other bots' *choices* until the cheat has happened:

- nobody accuses (the game would end, or the cheater be eliminated, first), except
  when the cheat is the layer removal at the end of the game (``bad-decrypt`` at
  ``open``), which needs the game to end;
- a cheat at the end of the game (``bad-held``) holds accusations only until the cheater
  has made a show, which it then lies about when the game ends;
- for a refutation cheat, a suggestion names a suspect and weapon that no seat
  between the suggester and the cheater holds, and that give the cheat something
  to lie about (a named card the cheater holds, for ``false-cannot-refute``).

It reads the hands from the peers of this one-process simulation, which no real
player could; it changes only what honest players choose, never a message: every
frame still goes through the full protocol and its checks.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pclue.bots import Bot, Decision, Observation, RollIntent
from p2pclue.engine.cheats import END_CHEATS, OPENING_CHEATS, REFUTATION_CHEATS
from p2pclue.engine.peer import Peer
from p2pclue.rules.actions import Accuse, EndTurn, Move, Suggest
from p2pclue.rules.cards import SUSPECTS, WEAPONS
from p2pclue.rules.game import can_suggest, legal_destinations
from p2pclue.rules.state import GameState, Phase

HOLD_TURNS = 200
"""After this many turns the stage manager gives up, so that a game always ends (and a
cheat run whose cheat never came says so) instead of running on without accusations."""


class StagedBot:
    """A bot whose choices are adjusted until the cheater has had its chance."""

    def __init__(self, inner: Bot, peers: Sequence[Peer], cheater: int, kind: str,
                 phase: str | None) -> None:
        self.inner = inner
        self.seat = inner.seat
        self.peers = peers
        self.cheater = cheater
        self.kind = kind
        self.hold_accusations = not (kind == "bad-decrypt" and phase == "open")

    def observe(self, event: Observation) -> None:
        self.inner.observe(event)

    def _done(self) -> bool:
        if self.kind in END_CHEATS:  # its chance comes at the end: once it has shown a card
            return any(rec.refuter == self.cheater for rec in self.peers[self.cheater].shows)
        return bool(getattr(self.peers[self.cheater], "cheated", True))

    def decide(self, state: GameState) -> Decision:
        decision = self.inner.decide(state)
        if self._done() or state.turn_number > HOLD_TURNS:
            return decision
        if isinstance(decision, Accuse) and self.hold_accusations:
            decision = self._instead_of_accusing(state)
        if isinstance(decision, Suggest) and self.kind in REFUTATION_CHEATS:
            decision = self._steer(state, decision)
        return decision

    def _instead_of_accusing(self, state: GameState) -> Decision:
        if state.phase is Phase.AWAIT_TURN_START:
            return RollIntent(self.seat)
        if state.phase is Phase.AWAIT_MOVE:
            options = legal_destinations(state)
            if options:
                return Move(self.seat, options[min(options)])
            return EndTurn(self.seat)
        if can_suggest(state):
            return Suggest(self.seat, SUSPECTS[0].index, WEAPONS[0].index)
        return EndTurn(self.seat)

    def _steer(self, state: GameState, decision: Suggest) -> Suggest:
        """A suggestion that reaches the cheater and gives its cheat something to do."""
        if self.seat == self.cheater:
            return decision
        room = state.token_of(self.seat)
        assert isinstance(room, int)
        n = len(self.peers)
        between = [(self.seat + k) % n for k in range(1, n)]
        between = between[:between.index(self.cheater)]
        held_between = {c for s in between for c in self.peers[s].hand}
        mine = set(self.peers[self.cheater].hand)
        for suspect in SUSPECTS:
            for weapon in WEAPONS:
                named = {suspect.index, weapon.index, room}
                if named & held_between or not self._useful(named, mine):
                    continue
                return Suggest(self.seat, suspect.index, weapon.index)
        return decision

    def _useful(self, named: set[int], mine: set[int]) -> bool:
        if self.kind == "false-cannot-refute" or self.kind in OPENING_CHEATS:
            return bool(named & mine)  # something to show (or to deny holding)
        if self.kind == "show-unheld-card":
            return bool(named - mine)
        return bool(mine - named)  # show-unnamed-card
