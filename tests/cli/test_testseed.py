"""``P2PCLUE_TEST_SEED``: the same seed, identity and game give a seat the same nonce and
secret randomness (so a test's networked games repeat); anything else differs, and
without the variable every draw is fresh from the OS."""

from __future__ import annotations

from pathlib import Path

from p2pclue.cli.testseed import VAR, bot_random, seed_of
from p2pclue.net.local import LocalSession
from p2pclue.net.play import Seat
from p2pclue.net.profile import load
from p2pclue.rules.variants import preset


def _seat(tmp_path: Path, profile: str, seed: bytes | None) -> Seat:
    return Seat(load(profile, {"P2PCLUE_HOME": str(tmp_path)}), profile, test_seed=seed)


def test_a_seeded_seat_draws_the_same_for_the_same_game_and_differs_otherwise(
        tmp_path: Path) -> None:
    mina, leo = _seat(tmp_path, "mina", b"s"), _seat(tmp_path, "leo", b"s")
    before = b"\x07" * 32
    assert mina.nonce(None) == _seat(tmp_path, "mina", b"s").nonce(None)
    assert len({mina.nonce(None), mina.nonce(before), leo.nonce(None),
                _seat(tmp_path, "mina", b"t").nonce(None)}) == 4
    game = b"\x09" * 32
    a, b = mina.randomness(game), _seat(tmp_path, "mina", b"s").randomness(game)
    assert a is not None and b is not None
    assert a.random_bytes(64) == b.random_bytes(64)
    other, again = mina.randomness(before), mina.randomness(game)
    assert other is not None and again is not None
    assert other.random_bytes(64) != again.random_bytes(64)


def test_without_the_variable_every_draw_is_fresh(tmp_path: Path) -> None:
    seat = _seat(tmp_path, "mina", seed_of({}))
    assert seed_of({}) is None and seed_of({VAR: ""}) is None
    assert seat.nonce(None) != seat.nonce(None)
    assert seat.randomness(b"\x09" * 32) is None  # the session draws from the OS


def test_a_bots_generator_follows_the_seed_and_its_seat(tmp_path: Path) -> None:
    session = LocalSession(preset("classic"), 3, seed=1, transcript_dir=tmp_path)
    env = {VAR: "s"}
    first = bot_random(session, env).random()
    assert bot_random(session, env).random() == first
    assert bot_random(session, {VAR: "t"}).random() != first
    session.seat = (session.seat or 0) + 1
    assert bot_random(session, env).random() != first
    assert bot_random(session, {}).random() != bot_random(session, {}).random()
