"""The bots a user can pick by name (``simulate --bot``, the bench, the lobby).

``easy``, ``medium`` and ``hard`` are the levels for people (``levels``);
``detective`` is another name for ``hard`` and ``random`` the legal baseline.
"""

from __future__ import annotations

import random
from functools import partial

from p2pclue.bots import Bot
from p2pclue.bots.detective import DetectiveBot, Style
from p2pclue.bots.levels import LEVELS
from p2pclue.bots.protocol import BotFactory
from p2pclue.bots.random_bot import RandomBot


def _random(seat: int, rng: random.Random) -> Bot:
    return RandomBot(seat, rng)


def _styled(style: Style, seat: int, rng: random.Random) -> Bot:
    return DetectiveBot(seat, rng, style)


BOTS: dict[str, BotFactory] = {
    **{name: partial(_styled, style) for name, style in LEVELS.items()},
    "detective": partial(_styled, LEVELS["hard"]),
    "random": _random,
}
DEFAULT_BOT = "detective"
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)
"""The names offered to people for ``--level`` and in the lobby, weakest first."""
DEFAULT_LEVEL = "medium"


def make_bot(name: str, seat: int, rng: random.Random) -> Bot:
    """A bot by name (``KeyError`` lists nothing: check ``name in BOTS`` first)."""
    return BOTS[name](seat, rng)
