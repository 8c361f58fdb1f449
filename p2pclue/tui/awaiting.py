"""What the table waits for, said in words: "Mum is choosing a card to show", not a bare
counter. The engine says whose message is due (``UIState.awaited``); the rules' phase says
what that message decides. Pure: the screen and ``--plain`` both read it."""

from __future__ import annotations

from p2pclue.i18n import PlayerWord, _
from p2pclue.rules.state import GameState, Phase


def awaited_doing(state: GameState | None, seat: int, name: PlayerWord) -> str:
    """What ``seat`` (named ``name``) is doing while the table waits for its message."""
    if state is not None and seat == state.awaiting_seat:
        if state.phase is Phase.AWAIT_REFUTATION:
            return _("{player} is choosing a card to show.").format(player=name)
        if state.phase is Phase.AWAIT_TURN_START:
            return _("{player} is starting a turn.").format(player=name)
        if state.phase is Phase.AWAIT_MOVE:
            return _("{player} is moving.").format(player=name)
        if state.phase is Phase.AWAIT_SUGGESTION_OR_END:
            return _("{player} is choosing: a suggestion, an accusation or the end of the "
                     "turn.").format(player=name)
    # a step of the protocol (the deal, an acknowledgement, a verdict's part): a machine's
    # work, said as before
    return _("Waiting for {player}...").format(player=name)
