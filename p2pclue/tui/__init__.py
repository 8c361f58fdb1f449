"""The terminal user interface: a full-screen table (prompt_toolkit) or ``--plain`` lines.

``run_ui`` is what ``p2pclue join`` calls with its session; ``python -m p2pclue.tui``
opens it against local bots.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from p2pclue.i18n import N_, _
from p2pclue.net.api import Session
from p2pclue.tui.evening import Evening

NOT_A_TERMINAL = N_(
    "p2pclue: standard output is not a terminal, so the full-screen table cannot be drawn.\n"
    "Use --plain for line-by-line play (screen readers, pipes), --bot to let a bot play "
    "this seat, or watch to follow a game as a spectator."
)
"""Marked for translation; print ``_(NOT_A_TERMINAL)``."""
PLAY_AGAIN = 100
"""What ``run_ui`` returns when the person asked to play again at the table (never an
exit status: the caller seats them at the table's next game)."""


async def run_ui(session: Session, *, plain: bool = False, notice: str | None = None,
                 read: Callable[[], str] | None = None,
                 evening: Evening | None = None) -> int:
    """Play ``session`` in this terminal until it ends or the player leaves.

    ``run_ui`` starts ``session.run()`` itself, awaits it, and closes the session
    at the end (also when the player leaves with ``q``): the caller hands over a
    session that is not running yet. Returns the exit status: 0 after a complete
    game or a chosen leave, 1 when the saved transcript did not audit, 2 when no
    screen can be drawn here. ``notice`` opens the story (the table check, say);
    ``read`` gives the plain mode its lines (default: standard input). ``evening``: the
    table's games so far; the game is added to it when it ends, its score is shown, and
    the person may play again (then ``PLAY_AGAIN`` is returned).
    """
    if plain:
        from p2pclue.tui.plain import run_plain

        return await run_plain(session, read=read, notice=notice, evening=evening)
    if not (sys.stdout.isatty() and sys.stdin.isatty()):
        print(_(NOT_A_TERMINAL), file=sys.stderr)
        await session.close()
        return 2
    from p2pclue.tui.app import TableApp

    app = TableApp(session)
    app.model.evening = evening
    if notice:
        app.model.tell(notice)
    return await app.run()


__all__ = ["NOT_A_TERMINAL", "PLAY_AGAIN", "run_ui"]
