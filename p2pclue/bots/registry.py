"""The bots a user can pick by name (``simulate --bot``, the bench, later the lobby)."""

from __future__ import annotations

import random

from p2pclue.bots import Bot
from p2pclue.bots.detective import DetectiveBot
from p2pclue.bots.protocol import BotFactory
from p2pclue.bots.random_bot import RandomBot


def _random(seat: int, rng: random.Random) -> Bot:
    return RandomBot(seat, rng)


def _detective(seat: int, rng: random.Random) -> Bot:
    return DetectiveBot(seat, rng)


BOTS: dict[str, BotFactory] = {"detective": _detective, "random": _random}
DEFAULT_BOT = "detective"
