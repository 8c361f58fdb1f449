"""``P2PCLUE_TEST_SEED``: a test plays the same networked games on every run.

A networked seat draws its lobby nonce, its keys, shuffles, proofs and hash chains from
the OS, and a bot its choices from a fresh generator: two runs of one test deal different
cards. With this variable set, the command line gives each seat a seed
(``Seat.test_seed``: its nonce and secret randomness come from the seed, its identity key
and the game) and each bot a generator seeded the same way. Only the command line reads
it; the engine never does. Anyone who knows the seed can work out every seeded seat's
cards, so it is for tests on one machine, never for play.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Mapping

from p2pclue.net import api

VAR = "P2PCLUE_TEST_SEED"


def seed_of(environ: Mapping[str, str] | None = None) -> bytes | None:
    """The seed the environment sets (None: the OS's randomness, as in play)."""
    value = (os.environ if environ is None else environ).get(VAR, "")
    return value.encode("utf-8") if value else None


def bot_random(session: api.Session, environ: Mapping[str, str] | None = None,
               ) -> random.Random:
    """A bot's generator for this game: seeded by ``P2PCLUE_TEST_SEED``, the game and the
    bot's seat, or fresh."""
    seed = seed_of(environ)
    if seed is None:
        return random.Random()
    seat = session.seat if session.seat is not None else -1
    digest = hashlib.sha256(b"p2pclue/test-seed/v1\x00bot\x00" + seed + b"\x00"
                            + session.config.session + seat.to_bytes(2, "big", signed=True))
    return random.Random(digest.digest())
