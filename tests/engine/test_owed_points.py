"""Points read from a peer owe their subgroup test to the proof's multiplications.

The engine no longer tests each point as it reads it (``crypto.group.Owed``): libsodium's
multiplication tests it, and what none took is tested before anything is accepted or any
other fault reported. These tests attack with real re-signed frames (a sample's own entry,
changed, signed by that seat's key) and compare every verdict, culprit, check and reason
with the verdict of a peer that tests every point as it reads it.
"""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import p2pclue.engine.ending as ending_module
import p2pclue.engine.peer as peer_module
from p2pclue.crypto import sodium
from p2pclue.crypto.errors import InvalidPointError
from p2pclue.crypto.group import (
    MULT_COUNTER,
    L,
    Owed,
    Scalar,
    base_mul,
    is_valid_point_bytes,
    mul,
    owing,
    point_from_bytes,
)
from p2pclue.engine.errors import Blame
from p2pclue.engine.peer import Peer
from p2pclue.engine.wire import read_payload, split_frame
from tests.engine.test_spec_points import forge, load, replay
from tests.torsion import ORDER_8, torsion

NON_CANONICAL = (2**255 - 19 + 1).to_bytes(32, "little")  # y = p + 1: the point y = 1 misspelt


# ---- libsodium's multiplication tests what point_from_bytes tests ------------------------


def test_the_multiplication_refuses_exactly_the_points_the_reader_refuses() -> None:
    rng = random.Random("owed points")  # the same candidates on every run
    valid = [base_mul(Scalar(rng.randrange(1, L))).data for _ in range(60)]
    candidates = valid + [torsion(v) for v in valid] + [rng.randbytes(32) for _ in range(300)]
    candidates += [ORDER_8, bytes(32), NON_CANONICAL, (2**255 - 20).to_bytes(32, "little")]
    # tiny y and y >= p (non-canonical), each with the sign bit clear and set (x = 0 included)
    for y in [*range(64), *range(2**255 - 64, 2**255)]:
        candidates += [(y | sign).to_bytes(32, "little") for sign in (0, 1 << 255)
                       if (y, sign) != (1, 0)]  # the identity: refused as read, on both paths
    seen = {True: 0, False: 0}
    for raw in candidates:
        expected = is_valid_point_bytes(raw)
        seen[expected] += 1
        owed = Owed()
        with owing(owed):
            point = point_from_bytes(raw, "p")
            try:
                mul(Scalar(3), point)
                accepted = True
            except InvalidPointError:
                accepted = False
        assert accepted == expected, raw.hex()
        assert (raw in owed.points) == (not expected)  # a multiplication settles what it took
    assert seen[True] >= 60 and seen[False] >= 60


def test_owed_points_are_reported_in_the_order_read() -> None:
    good = base_mul(Scalar(5)).data
    bad1, bad2 = torsion(good), torsion(base_mul(Scalar(6)).data)
    owed = Owed()
    with owing(owed):
        for name, raw in (("a", good), ("b", bad1), ("c", bad2)):
            owed.where = f"body.{name}"
            point_from_bytes(raw, name)
    MULT_COUNTER.reset()
    first = owed.first_bad()
    assert first is not None
    error, where = first
    assert (error.field, where) == ("b", "body.b")
    assert good not in owed.points  # checked and settled on the way
    with pytest.raises(InvalidPointError):
        point_from_bytes(bad1, "b")  # outside ``owing`` a point is tested as read


# ---- the engine's verdicts do not change --------------------------------------------------


@contextlib.contextmanager
def reading_tests_every_point() -> Iterator[None]:
    """The reference: every point tested as the body is read (``owing`` lends nothing)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(peer_module, "owing", lambda owed: owing(None))
        yield


def _entry(name: str, index: int) -> tuple[int, str, dict[str, Any]]:
    raw = load(name).entries[index]
    _, payload, _ = split_frame(raw)
    header, body = read_payload(payload)
    return header.sender, header.type, body


def _blame(name: str, index: int, change: Callable[[dict[str, Any]], None]) -> Blame | None:
    seat, msg_type, body = _entry(name, index)
    body = copy.deepcopy(body)
    change(body)
    peer, at = replay(name, lambda p: len(p.entries) == index)
    assert at == index
    peer.receive(forge(peer, name, seat, msg_type, body), 1e6)
    return peer.blame


def _bump(raw: bytes) -> bytes:
    return ((int.from_bytes(raw, "little") + 1) % L).to_bytes(32, "little")


def _set(path: tuple[Any, ...], value: Callable[[bytes], bytes]) -> Callable[[Any], None]:
    def change(body: Any) -> None:
        node = body
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value(node[path[-1]])
    return change


def _both(*changes: Callable[[Any], None]) -> Callable[[Any], None]:
    def change(body: Any) -> None:
        for one in changes:
            one(body)
    return change


T = torsion
CASES: dict[str, tuple[int, Callable[[Any], None], str]] = {
    # entry 7: seat 1's envelope (three decks, three shuffle proofs)
    "proof point": (7, _set(("proofs", 1, "c", 2), T), "proof:shuffle"),
    "last chain point": (7, _set(("proofs", 2, "chat", -1), T), "proof:shuffle"),
    "deck point": (7, _set(("decks", 2, 3), T), "message"),
    "non-canonical proof point": (7, _set(("proofs", 0, "c", 0), lambda _: NON_CANONICAL),
                                  "proof:shuffle"),
    "proof point, then a wrong response": (7, _both(_set(("proofs", 0, "chat", 0), T),
                                                    _set(("proofs", 2, "s1"), _bump)),
                                           "proof:shuffle"),
    "deck point, then a wrong response": (7, _both(_set(("decks", 0, 1), T),
                                                   _set(("proofs", 0, "s1"), _bump)), "message"),
    "proof point, then an unreadable scalar": (7, _both(_set(("proofs", 2, "c", 0), T),
                                                        _set(("proofs", 2, "sprime", 1),
                                                             lambda _: b"\xff" * 32)),
                                               "proof:shuffle"),
    "two bad points: the first read decides": (7, _both(_set(("proofs", 2, "chat", 4), T),
                                                        _set(("decks", 1, 0), T)), "message"),
    # entry 10: seat 1's deal (R, S, deck, link, proof)
    "R": (10, _set(("R",), T), "message"),
    "deal deck point": (10, _set(("deck", 17), T), "message"),
    # entry 13: seat 1's unlayering; 48: seat 2's "cannot refute"; 49: seat 0's show
    "stripped point": (13, _set(("points", 5), T), "message"),
    "cannot-refute Y": (48, _set(("proof", "y", 1), T), "proof:none"),
    "cannot-refute Q": (48, _set(("proof", "q", 2), T), "proof:none"),
    "show commitment": (49, _set(("C",), T), "proof:commit-show"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_bad_point_is_blamed_exactly_as_when_reading_tests_every_point(case: str) -> None:
    index, change, check = CASES[case]
    owed_blame = _blame("classic-3p", index, change)
    with reading_tests_every_point():
        reference = _blame("classic-3p", index, change)
    seat, _, _ = _entry("classic-3p", index)
    assert reference is not None and owed_blame is not None
    assert (reference.culprit, reference.check) == (seat, check)
    assert owed_blame == reference


def test_an_honest_entry_is_accepted_with_fewer_tests() -> None:
    """The sample replays to the same state, and the reader tested far fewer points."""
    t = load("classic-3p")
    calls = {"n": 0}
    real = sodium.is_valid_point

    def counting(raw: bytes) -> bool:
        calls["n"] += 1
        return real(raw)

    def run() -> tuple[Peer, int]:
        calls["n"] = 0
        peer = Peer(t.config, None, relay=False)
        for i, raw in enumerate(t.entries):
            peer.receive(raw, float(i))
        return peer, calls["n"]

    saved = sodium.is_valid_point
    sodium.is_valid_point = counting
    try:
        owed_peer, owed_tests = run()
        with reading_tests_every_point():
            read_peer, read_tests = run()
    finally:
        sodium.is_valid_point = saved
    assert owed_peer.blame is None and read_peer.blame is None
    assert owed_peer.entries == read_peer.entries == list(t.entries)
    assert owed_tests < read_tests / 3, (owed_tests, read_tests)


def test_a_check_settles_what_it_was_given_before_the_handler_changes_anything() -> None:
    """A point a check was given but did not multiply (a show's commitment is only used
    through ``C - (t+1)*G``) is tested when the check returns, before the handler goes on."""
    peer, _ = replay("classic-3p", lambda p: len(p.entries) == 49)
    good = base_mul(Scalar(11))
    bad_raw = torsion(base_mul(Scalar(12)).data)
    owed = Owed()
    with owing(owed):
        owed.where = "body.C"
        point_from_bytes(good.data, "C")
        bad = point_from_bytes(bad_raw, "C")
        peer.verify(lambda *args: None, [good], ("x", 3))
        assert good.data not in owed.points  # tested and settled
        with pytest.raises(InvalidPointError):
            peer.verify(lambda *args: None, {"not searched": bad}, [[bad]])
    assert bad_raw in owed.points  # left for the reader, which names it as read


def test_a_fault_found_when_a_round_ends_is_still_blamed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The end of a round (the envelope opened by the last ``open``) runs its checks when the
    entry is committed: a fault there halts the game with a blame; it never escapes
    ``receive``. With sound proofs an envelope always opens to cards, so the fault is caused
    the one way it can be: the card lookup made to fail."""
    monkeypatch.setattr(ending_module, "identify", lambda point: None)
    t = load("classic-3p")
    peer = Peer(t.config, None, relay=False)
    for i, raw in enumerate(t.entries):
        peer.receive(raw, float(i))  # must not raise
        if peer.blame is not None:
            break
    assert peer.blame is not None and peer.blame.check == "open"
    assert len(peer.entries) == peer.blame.index < len(t.entries)
