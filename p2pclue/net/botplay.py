"""A bot in a networked seat: reads the session's events, answers its choices.

The bot sees only what its own peer learned (``bots.protocol.BotSeat``); it plays
through ``Session.submit`` like any front end, so a bot game exercises exactly the
path a person's game takes.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from p2pclue.bots.protocol import BotFactory, BotSeat, to_intent
from p2pclue.engine import events as ev
from p2pclue.net import api


async def drive_bot(session: api.Session, factory: BotFactory, rng: random.Random,
                    on_event: Callable[[api.SessionEvent], None] | None = None) -> api.Ended:
    """Play the session's seat until it ends; returns the ``Ended`` event."""
    seat = session.seat
    if seat is None:
        raise ValueError("a spectator has no seat for a bot")
    bot = BotSeat(factory(seat, rng), session.config.n_players)
    while True:
        event = await session.events.get()
        if on_event is not None:
            on_event(event)
        if isinstance(event, api.Engine):
            bot.feed(event.event)
        elif isinstance(event, api.YourChoice):
            state = session.state
            if state is not None and session.choice() == event.choice:
                await session.submit(to_intent(bot.bot.decide(state)))
        elif isinstance(event, api.Ended):
            return event


async def follow(session: api.Session,
                 on_event: Callable[[api.SessionEvent], None] | None = None) -> api.Ended:
    """Read a spectator's (or any) session to its end."""
    while True:
        event = await session.events.get()
        if on_event is not None:
            on_event(event)
        if isinstance(event, api.Ended):
            return event


def is_private(event: api.SessionEvent) -> bool:
    return isinstance(event, api.Engine) and isinstance(
        event.event, (ev.HandDealt, ev.CardShownToMe, ev.Accepted))
