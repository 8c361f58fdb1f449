"""A bot in a networked seat: reads the session's events, answers its choices.

The bot sees only what its own peer learned (``bots.protocol.BotSeat``); it plays
through ``Session.submit`` like any front end, so a bot game exercises exactly the
path a person's game takes.

A turn's thinking (deductions, the next room, whether to accuse: tens of
milliseconds) runs on a helper thread whose OS priority is below even the slow lane's
(``net.lanes``), while the session's loop goes on. On a machine shared by several
seats it therefore never holds a core that another seat needs to check the show the
bot has just been given: the table's "refutation known by all" waited 2-4 ms for it.
Which card to show stays on the loop thread, at once: the whole table waits for it. The
bot works out its answer to the next suggester ahead, on the same thread
(``BotSeat.think_ahead``); a choice waits for that work in every case, so that how long
a show takes never depends on the cards held.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from p2pclue.bots.protocol import BotFactory, BotSeat, to_intent
from p2pclue.engine import events as ev
from p2pclue.net import api
from p2pclue.net.lanes import lowered

THINK_NICE = 10
"""How much lower a bot's turn thinking runs than the loop (the slow lane runs at
``lanes.SLOW_NICE``, 5): CFS weight 110 against 1024 and 335."""


async def drive_bot(session: api.Session, factory: BotFactory, rng: random.Random,
                    on_event: Callable[[api.SessionEvent], None] | None = None) -> api.Ended:
    """Play the session's seat until it ends; returns the ``Ended`` event."""
    seat = session.seat
    if seat is None:
        raise ValueError("a spectator has no seat for a bot")
    bot = BotSeat(factory(seat, rng), session.config.n_players)
    loop = asyncio.get_running_loop()
    ahead: asyncio.Future[Callable[[], None]] | None = None
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="p2pclue-bot",
                            initializer=lowered(THINK_NICE)) as thinker:
        while True:
            event = await session.events.get()
            if on_event is not None:
                on_event(event)
            if isinstance(event, api.Engine):
                bot.feed(event.event)
                if ahead is not None and ahead.done():
                    ahead.result()()  # hand the work's result to the bot, here between events
                    ahead = None
                work = bot.think_ahead(session.state)
                if work is not None:
                    if ahead is not None:
                        ahead.cancel()  # superseded: the bot learned more since
                    ahead = loop.run_in_executor(thinker, work)
            elif isinstance(event, api.YourChoice):
                if ahead is not None:
                    (await ahead)()
                    ahead = None
                state = session.state
                if state is None or session.choice() != event.choice:
                    continue
                if event.choice.kind == "show":
                    await session.submit(to_intent(bot.bot.decide(state)))
                    continue
                while True:
                    decision = await loop.run_in_executor(thinker, bot.bot.decide, state)
                    now = session.state
                    if now is None or session.choice() != event.choice:
                        break  # no longer ours: a later YourChoice says when it is again
                    if now is state:
                        await session.submit(to_intent(decision))
                        break
                    state = now  # the table moved on while the bot thought: think again
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
