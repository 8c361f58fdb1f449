"""A player who leaves lays its hand face up, and a person's notepad on screen marks it.

The bots always learnt a leaver's cards; a person's notepad once ignored them ("?" beside
a card everyone had just seen), so people played at a disadvantage. Here a real seeded
game runs through the engine (four seats, real cryptography, random bots); seat 1 leaves
the first time it is asked to act after twelve turns. The events seat 0's engine peer
gave, with its state after each, drive the terminal UI's model as a session would;
prompt_toolkit draws the game screen into a terminal emulator (pyte) at 80 x 24, and the
notepad is read off that screen: the leaver's column shows "?" for cards it held before
the leave, and after it every card of the hand laid face up is marked held there, every
other card not held.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from p2pclue.bots.protocol import BotSeat, make_config
from p2pclue.bots.random_bot import RandomBot
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine import events as ev
from p2pclue.engine.harness import Network, run_game
from p2pclue.engine.peer import Choice, Peer
from p2pclue.net.api import Engine
from p2pclue.rules.cards import CARDS
from p2pclue.rules.state import GameState
from p2pclue.rules.variants import CLASSIC
from p2pclue.tui.knowledge import build_snapshot
from p2pclue.tui.model import UIModel
from tests.tui.model_screen import screen_of

PLAYERS, ME, LEAVER, LEAVES_AFTER_TURN, SEED = 4, 0, 1, 12, 5


@dataclass(frozen=True)
class Seen:
    """One event of seat ``ME``'s peer, with the peer's state and hand just after it."""

    event: ev.Event
    state: GameState | None
    hand: tuple[int, ...]


class LeaveSeen(Exception):
    """Seat ``ME`` has seen the leave: the rest of the game is not what this test reads."""


def events_of_my_seat_until_the_leave() -> list[Seen]:
    config, keys = make_config(CLASSIC, PLAYERS, SEED)
    peers = [Peer(config, s, keys[s], SeededRandom(b"leaver-notepad/%d" % s))
             for s in range(PLAYERS)]
    net = Network(peers)
    rng = random.Random(SEED)
    seats = [BotSeat(RandomBot(s, random.Random(rng.getrandbits(64))), PLAYERS)
             for s in range(PLAYERS)]
    seen: list[Seen] = []

    def sink(seat: int, event: ev.Event) -> None:
        seats[seat].feed(event)
        if seat == ME:
            seen.append(Seen(event, peers[ME].rules_state, peers[ME].hand))
            if isinstance(event, ev.PlayerLeft):
                raise LeaveSeen

    def choose(peer: Peer, choice: Choice) -> ev.Intent:
        state = peer.rules_state
        assert state is not None and peer.seat is not None
        if peer.seat == LEAVER and state.turn_number >= LEAVES_AFTER_TURN:
            return ev.Leave()
        return seats[peer.seat].choose(peer, choice)

    try:
        run_game(net, choose, sink=sink)
    except LeaveSeen:
        return seen
    raise AssertionError("the game ended without the leave")


def notepad_column(screen: list[str], seat: int, label: str) -> list[str]:
    """The marks of one seat's column of the notepad, a card a row (in card order)."""
    top = next(i for i, line in enumerate(screen) if "Notepad" in line)
    header = screen[top]
    column = header.index(" " + label, header.index("Notepad")) + 1
    return [screen[top + 1 + k][column] for k in range(len(CARDS))]


def test_the_cards_a_leaver_lays_face_up_are_marked_in_my_notepad_on_screen() -> None:
    seen = events_of_my_seat_until_the_leave()
    left = seen[-1].event
    assert isinstance(left, ev.PlayerLeft) and left.seat == LEAVER
    model = UIModel(make_config(CLASSIC, PLAYERS, SEED)[0], ME, color=False)
    label = model.config.players[LEAVER].name[:2]
    for item in seen[:-1]:
        model.on_event(Engine(item.event), item.state, item.hand)
    model.view = build_snapshot(model.knowledge.frozen())
    before = notepad_column(screen_of(model), LEAVER, label)
    assert [before[c] for c in left.hand].count("?") >= 2, before

    model.on_event(Engine(left), seen[-1].state, seen[-1].hand)
    model.view = build_snapshot(model.knowledge.frozen())
    screen = screen_of(model)
    after = notepad_column(screen, LEAVER, label)
    assert [after[c] for c in left.hand] == ["✓"] * len(left.hand), after
    assert all(mark == "·" for c, mark in enumerate(after) if c not in left.hand), after
    name = model.config.players[LEAVER].name
    assert any(f"{name} has to go and leaves the table" in line for line in screen), screen
