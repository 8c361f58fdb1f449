"""A trusted table: one process deals, rolls, checks accusations and drives bots.

This is the simulator's dealer, not the protocol: it knows every hand, so the
rules engine checks every refutation fully (R21). All chance comes from one
``random.Random(seed)``, so a seed reproduces a whole game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from p2pclue.bots import (
    AccusationMade,
    Bot,
    CardShown,
    HandDealt,
    LeftoversShown,
    Observation,
    RollIntent,
    SuggestionAnswered,
    ThinksAhead,
)
from p2pclue.bots.random_bot import RandomBot
from p2pclue.rules.actions import AccusationResult, Action, Roll
from p2pclue.rules.cards import ROOMS, SUSPECTS, WEAPONS
from p2pclue.rules.game import apply, new_game
from p2pclue.rules.setup import deal, deal_sizes
from p2pclue.rules.state import GameState, Phase
from p2pclue.rules.variants import Rules

BotFactory = Callable[[int, random.Random], Bot]


class TableError(RuntimeError):
    """The game did not end within the action limit (a bot that never accuses)."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    seed: int
    rules: Rules
    envelope: tuple[int, int, int]
    initial: GameState
    actions: tuple[Action, ...]
    final: GameState


def deal_table(
    rules: Rules, n_players: int, rng: random.Random
) -> tuple[GameState, tuple[int, int, int]]:
    """Choose seats, envelope, hands and weapon rooms at random: the start of a game."""
    envelope = (
        rng.choice(SUSPECTS).index, rng.choice(WEAPONS).index, rng.choice(ROOMS).index
    )
    rest = [c for c in range(21) if c not in envelope]
    rng.shuffle(rest)
    hands, leftovers = deal(rules, n_players, rest)
    seats = rng.sample(range(6), n_players)
    rooms = rng.sample([r.index for r in ROOMS], 6)
    weapon_rooms = dict(zip(range(6, 12), rooms, strict=True)) if rules.weapons_random else None
    state = new_game(
        rules, seats, hand_sizes=deal_sizes(rules, n_players)[0], weapon_rooms=weapon_rooms,
        hands=hands, leftovers=leftovers,
    )
    return state, envelope


def play_game(
    rules: Rules,
    n_players: int,
    seed: int,
    *,
    bot_factory: BotFactory | None = None,
    patience: int = 150,
    max_actions: int = 20_000,
    on_action: Callable[[GameState, Action, GameState], None] | None = None,
    think_ahead: bool = False,
) -> GameRecord:
    """Play one whole game; ``on_action(before, action, after)`` sees every step.

    ``think_ahead``: after every step, give each bot that has any its work to do before it
    is asked (``ThinksAhead``), as a networked seat's thinking thread does."""
    rng = random.Random(seed)
    state, envelope = deal_table(rules, n_players, rng)
    initial = state
    bots: list[Bot] = [
        bot_factory(seat, random.Random(rng.getrandbits(64))) if bot_factory
        else RandomBot(seat, random.Random(rng.getrandbits(64)), patience=patience)
        for seat in range(n_players)
    ]
    assert state.hands is not None
    for seat, bot in enumerate(bots):
        bot.observe(HandDealt(seat, state.hands[seat]))
        if state.leftovers:
            bot.observe(LeftoversShown(state.leftovers))
    actions: list[Action] = []
    while state.phase is not Phase.GAME_OVER:
        if len(actions) >= max_actions:
            raise TableError(f"no end after {max_actions} actions (seed {seed})")
        if think_ahead:
            _think_ahead(bots, state)
        action = _next_action(state, bots, envelope, rng)
        after = apply(state, action)
        actions.append(action)
        if on_action is not None:
            on_action(state, action, after)
        for event, seats in _observations(state, action, after):
            for seat in seats:
                bots[seat].observe(event)
        state = after
    return GameRecord(seed, rules, envelope, initial, tuple(actions), state)


def _think_ahead(bots: list[Bot], state: GameState) -> None:
    """Each bot's work to do before it is asked, done now and handed back at once (a
    networked seat's thinking thread does it alongside and hands it back between events)."""
    for bot in bots:
        work = bot.think_ahead(state) if isinstance(bot, ThinksAhead) else None
        if work is not None:
            work()()


def _next_action(
    state: GameState, bots: list[Bot], envelope: tuple[int, int, int], rng: random.Random
) -> Action:
    if state.phase is Phase.AWAIT_ACCUSATION_RESULT:
        a = state.pending_accusation
        assert a is not None
        return AccusationResult(a.seat, (a.suspect, a.weapon, a.room) == envelope)
    seat = state.awaiting_seat
    assert seat is not None
    decision = bots[seat].decide(state)
    if isinstance(decision, RollIntent):
        n_dice = 2 if state.rules.two_dice else 1
        return Roll(seat, tuple(rng.randint(1, 6) for _ in range(n_dice)))
    return decision


def _observations(
    before: GameState, action: Action, after: GameState
) -> list[tuple[Observation, range | tuple[int, ...]]]:
    everyone = range(before.n_players)
    out: list[tuple[Observation, range | tuple[int, ...]]] = []
    if before.phase is Phase.AWAIT_REFUTATION and after.phase is not Phase.AWAIT_REFUTATION:
        s = after.last_suggestion
        assert s is not None
        out.append((SuggestionAnswered(s.suggester, s.suspect, s.weapon, s.room, s.passed,
                                       s.shower), everyone))
        if s.shower is not None and s.card is not None:
            out.append((CardShown(s.suggester, s.shower, s.card), (s.suggester,)))
    if isinstance(action, AccusationResult):
        a = before.pending_accusation
        assert a is not None
        out.append((AccusationMade(a.seat, a.suspect, a.weapon, a.room, action.correct),
                    everyone))
    return out
