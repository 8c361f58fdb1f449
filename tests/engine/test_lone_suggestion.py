"""A seat alone at the table may still suggest: "If everybody else has left, a suggestion is
answered by nobody" (docs/protocol.md, "Leaving the table").

Under the cz rules the last one standing does not win, so after the two others of a three-seat
game leave, the game goes on with one player. Its suggestion has nobody to ask: the rules close
it at once. Before, the engine expected a suggestion still waiting for answers and failed with
an uncaught error in ``act`` (and in every peer's ``receive``).
"""

from __future__ import annotations

import random

from p2pclue.bots.protocol import BotSeat
from p2pclue.bots.random_bot import RandomBot
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.harness import run_game
from p2pclue.engine.peer import Choice, Peer, Status
from p2pclue.rules import game as rg
from tests.engine.leave_games import make_peers


def test_a_suggestion_with_nobody_left_to_ask_is_answered_by_nobody() -> None:
    peers, net = make_peers(3, "cz", seed=1)
    bot = BotSeat(RandomBot(0, random.Random(1), patience=20), 3)
    seen: list[list[ev.Event]] = [[], [], []]
    lone: list[int] = []  # the index, in seat 0's events, of its suggestion made alone

    def sink(seat: int, event: ev.Event) -> None:
        seen[seat].append(event)
        if seat == 0 and not isinstance(event, ev.PlayerLeft):
            bot.feed(event)

    def choose(peer: Peer, choice: Choice) -> ev.Intent:
        if peer.seat != 0:
            return ev.Leave()
        state = peer.rules_state
        assert state is not None
        if not lone and choice.kind == "turn" and len(state.left) == 2 \
                and rg.can_suggest(state):
            lone.append(len(seen[0]))
            return ev.MakeSuggestion(0, 6)
        return bot.choose(peer, choice)

    run_game(net, choose, sink=sink, max_deliveries=20_000)
    assert lone, "seat 0 never got to suggest alone"
    assert [p.status for p in peers] == [Status.COMPLETE] * 3
    assert len({tuple(p.entries) for p in peers}) == 1
    for events in seen:
        both_left = max(i for i, e in enumerate(events) if isinstance(e, ev.PlayerLeft))
        alone = [i for i, e in enumerate(events) if i > both_left and isinstance(e, ev.Suggested)]
        assert alone, "every peer reports the suggestion made alone"
        following = events[alone[0] + 1:]
        until = next((i for i, e in enumerate(following)
                      if isinstance(e, ev.TurnEnded | ev.Accused | ev.Suggested)), len(following))
        answers = [e for e in following[:until] if isinstance(e, ev.Refuted | ev.Passed)]
        assert answers == [], "nobody is left to answer it"
    assert audit(peers[0].transcript()).valid
