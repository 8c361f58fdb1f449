"""An evening at one table: several games in a row ("play again"), and its score.

Each game is its own session (its own signed start, its own transcript, audit-valid on
its own); the evening only links them: the next game's table names the session id of the
game before (``TableInfo.after``). The score is games won per player, counted here from
this member's own verified games: a display, not evidence. Anyone can recount it from the
evening's transcripts (each one's verdict names its winner), and nobody signs it.
Pure: no I/O, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pclue.engine.config import GameConfig
from p2pclue.i18n import display_name, ngettext
from p2pclue.rules.state import GameState


@dataclass
class Evening:
    """The games played at this table tonight, as this member saw them end."""

    names: dict[bytes, str] = field(default_factory=dict)
    """Every player of the evening's games by identity key, in the order they first sat."""
    wins: dict[bytes, int] = field(default_factory=dict)
    games: int = 0
    last_session: bytes | None = None
    """The session id of the last game played: the next game's table names it."""

    def record(self, config: GameConfig, state: GameState | None) -> None:
        """One game over: its players join the score; its winner, if any, gains a game."""
        self.games += 1
        self.last_session = config.session
        for p in config.players:
            self.names[p.identity] = p.name
            self.wins.setdefault(p.identity, 0)
        if state is not None and state.result == "won" and state.winner is not None:
            winner = config.players[state.winner].identity
            self.wins[winner] = self.wins.get(winner, 0) + 1

    def line(self) -> str:
        """The score on one line, most wins first (empty before the first game ends)."""
        if not self.games:
            return ""
        order = sorted(self.names, key=lambda k: -self.wins.get(k, 0))
        # a name and its wins never split over two rows (a no-break space between them)
        scores = ", ".join(f"{display_name(self.names[k])}\u00a0{self.wins.get(k, 0)}"
                           for k in order)
        # Translators: {scores} is "Name 2, Name 1, ..." (games won); {games}: games played.
        return ngettext("Games won this evening (of {games} game): {scores}",
                        "Games won this evening (of {games} games): {scores}",
                        self.games).format(
            games=self.games, scores=scores)
