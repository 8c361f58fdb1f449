"""Group layer: validation of untrusted bytes, arithmetic, card points."""

from __future__ import annotations

import nacl.bindings as nb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pclue.crypto.cards import CARD_POINTS, card_point, generator, identify, product_base
from p2pclue.crypto.errors import CryptoUsageError, InvalidPointError, InvalidScalarError
from p2pclue.crypto.group import (
    IDENTITY,
    MULT_COUNTER,
    G,
    L,
    Scalar,
    base_mul,
    inverse,
    mul,
    own_points,
    point_from_bytes,
    scalar_from_bytes,
)
from p2pclue.crypto.rand import OsRandom, SeededRandom, random_permutation, random_scalar
from tests.profiles import examples
from tests.torsion import ORDER_8

P_FIELD = 2**255 - 19
scalars = st.integers(min_value=1, max_value=L - 1).map(Scalar)

# ORDER_8 is a point of order 8 (from libsodium's small-order blocklist); y = 0 encodes a
# point of order 4; y = p - 1 = -1 encodes the point of order 2.
ORDER_4 = bytes(32)


def test_point_validation_rejects_identity() -> None:
    with pytest.raises(InvalidPointError) as e:
        point_from_bytes(IDENTITY.data, "deck[0]")
    assert e.value.field == "deck[0]"
    assert "identity" in e.value.reason


@pytest.mark.parametrize("raw", [ORDER_8, ORDER_4, (P_FIELD - 1).to_bytes(32, "little")])
def test_point_validation_rejects_small_order(raw: bytes) -> None:
    with pytest.raises(InvalidPointError):
        point_from_bytes(raw, "Y")


def test_point_validation_rejects_off_subgroup() -> None:
    # A valid point plus a point of order 8 is on the curve but outside the main subgroup.
    mixed = bytes(nb.crypto_core_ed25519_add(G.data, ORDER_8))
    with pytest.raises(InvalidPointError):
        point_from_bytes(mixed, "B")


def test_own_points_skip_only_the_subgroup_check_and_only_inside() -> None:
    """A peer reading back its own frame (issue 21) skips the hidden multiplication by L;
    lengths and the identity are still refused, and the check is back right after."""
    mixed = bytes(nb.crypto_core_ed25519_add(G.data, ORDER_8))
    with own_points():
        assert point_from_bytes(G.data, "c") == G
        with pytest.raises(InvalidPointError):
            point_from_bytes(IDENTITY.data, "c")
        with pytest.raises(InvalidPointError):
            point_from_bytes(G.data[:31], "c")
    with pytest.raises(InvalidPointError):
        point_from_bytes(mixed, "B")
    with pytest.raises(ZeroDivisionError), own_points():
        _ = 1 // 0
    with pytest.raises(InvalidPointError):  # reset even when the block raised
        point_from_bytes(mixed, "B")


def test_point_validation_rejects_non_canonical() -> None:
    # y >= p (here p + 1, an alias of y = 1) and a "negative zero" x sign bit are
    # non-canonical encodings.
    negative_zero = bytearray(IDENTITY.data)
    negative_zero[31] |= 0x80
    for raw in ((P_FIELD + 1).to_bytes(32, "little"), bytes(negative_zero)):
        with pytest.raises(InvalidPointError):
            point_from_bytes(raw, "c")
    flipped = bytearray(G.data)
    flipped[31] ^= 0x80  # -G: still valid, so validation is not merely "any change fails"
    assert point_from_bytes(bytes(flipped), "c") == IDENTITY - G


@pytest.mark.parametrize("bad", [b"", bytes(31), bytes(33), "ab" * 16, 7, None, [1, 2]])
def test_point_validation_rejects_wrong_length_and_type(bad: object) -> None:
    with pytest.raises(InvalidPointError) as e:
        point_from_bytes(bad, "field_x")
    assert e.value.field == "field_x"


def test_point_validation_accepts_group_elements() -> None:
    for p in (G, *CARD_POINTS, generator(3)):
        assert point_from_bytes(p.data, "p") == p
    assert point_from_bytes(bytearray(G.data), "p") == G


def test_scalar_validation() -> None:
    assert scalar_from_bytes((5).to_bytes(32, "little"), "s").value == 5
    assert scalar_from_bytes((L - 1).to_bytes(32, "little"), "s").value == L - 1
    cases = [
        (L.to_bytes(32, "little"), "not canonical"),
        ((L + 5).to_bytes(32, "little"), "not canonical"),
        ((2**256 - 1).to_bytes(32, "little"), "not canonical"),
        (bytes(32), "zero"),
        (bytes(31), "expected 32 bytes"),
        ("x" * 32, "expected 32 bytes"),
        (12, "expected 32 bytes"),
    ]
    for raw, reason in cases:
        with pytest.raises(InvalidScalarError) as e:
            scalar_from_bytes(raw, "proof.s")
        assert e.value.field == "proof.s"
        assert reason in e.value.reason


def test_errors_never_contain_secret_values() -> None:
    secret = Scalar(123456789123456789)
    assert "123456789" not in repr(secret)
    with pytest.raises(CryptoUsageError) as e:
        inverse(Scalar(0))
    assert "123456789" not in str(e.value)


def test_card_points_are_distinct_valid_and_not_small_multiples_of_G() -> None:
    assert len(set(CARD_POINTS)) == 21
    small = {base_mul(Scalar(i)) for i in range(1, 64)}
    for i, p in enumerate(CARD_POINTS):
        assert point_from_bytes(p.data, "card") == p
        assert identify(p) == i
        assert p not in small
    assert product_base() not in CARD_POINTS
    assert generator(0) != generator(1)
    assert identify(G) is None
    with pytest.raises(CryptoUsageError):
        card_point(21)


@settings(max_examples=examples(25))
@given(a=scalars, b=scalars)
def test_commutative_encryption_property(a: Scalar, b: Scalar) -> None:
    c = card_point(4)
    assert mul(a, mul(b, c)) == mul(b, mul(a, c))
    assert mul(inverse(a), mul(a, c)) == c
    assert mul(a, G) == base_mul(a)
    assert base_mul(a) + base_mul(b) == base_mul(a + b)
    assert base_mul(a) - base_mul(b) == base_mul(a - b)


def test_identity_and_zero_are_handled_without_libsodium_errors() -> None:
    assert mul(Scalar(0), G) == IDENTITY
    assert mul(Scalar(3), IDENTITY) == IDENTITY
    assert base_mul(Scalar(0)) == IDENTITY
    assert (G - G) == IDENTITY
    with pytest.raises(CryptoUsageError):
        Scalar(L)


def test_mult_counter_counts_variable_and_fixed_base() -> None:
    MULT_COUNTER.reset()
    mul(Scalar(7), card_point(0))
    base_mul(Scalar(7))
    mul(Scalar(7), G)  # routed to the fixed-base path
    assert (MULT_COUNTER.var, MULT_COUNTER.base) == (1, 2)


def test_seeded_random_is_deterministic_and_os_random_varies() -> None:
    a, b = SeededRandom(b"seed"), SeededRandom(b"seed")
    assert [random_scalar(a) for _ in range(3)] == [random_scalar(b) for _ in range(3)]
    assert random_scalar(SeededRandom(b"other")) != random_scalar(SeededRandom(b"seed"))
    assert OsRandom().random_bytes(32) != OsRandom().random_bytes(32)
    perm = random_permutation(21, SeededRandom(b"p"))
    assert sorted(perm) == list(range(21))
