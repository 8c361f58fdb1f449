"""Verifiable shuffle of known exponent (a Terelius-Wikstrom style argument).

Statement: ``B_i = k * A_perm[i]`` for a permutation ``perm`` and the secret ``k`` of the
public key ``Y = k*G``. The prover

1. commits to the permutation matrix column by column with Pedersen commitments over
   independent generators h_i: ``c_j = r_j*G + h_{perm^-1(j)}``;
2. receives (Fiat-Shamir) weights ``e_j`` on the inputs and sets ``e'_i = e_perm[i]``;
3. proves in one sigma protocol: ``sum c_j - sum h_i`` opens to 0 (every row of the
   matrix sums to one); ``sum e_j c_j`` opens to ``e'`` (the permuted weights);
   ``prod e'_i = prod e_j`` through a chain ``C^_i = r^_i*G + e'_i*C^_{i-1}`` from a
   base U (so the matrix is a permutation matrix); ``sum e'_i B_i = k * sum e_j A_j`` and
   ``Y = k*G`` (so every output is k times its input).

The n chain links are checked as one random linear combination with weights
``alpha_i`` hashed after the chain is fixed, which makes the chain cost one
multiplication per card to verify instead of three.

Costs (libsodium multiplications per card): prove 4 variable-base + 2 fixed-base (the
prover knows the logs of its chain links and that ``B_i = k*A_perm[i]``, which folds
``that`` and ``t4``), verify 5 variable-base. The soundness argument is in docs/protocol.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from p2pclue.crypto.cards import generator, generator_sum, product_base
from p2pclue.crypto.context import ProofContext, Transcript
from p2pclue.crypto.errors import CryptoUsageError, MalformedProofError, ProofRejected
from p2pclue.crypto.group import (
    ONE,
    L,
    Point,
    Scalar,
    base_mul,
    lincomb,
    mul,
    point_sum,
)
from p2pclue.crypto.rand import ScalarSource, random_permutation, random_scalar
from p2pclue.crypto.wire import (
    expect_dict,
    points_from_wire,
    points_to_wire,
    scalar_field,
    scalars_from_wire,
    scalars_to_wire,
)

TAG = "shuffle"
_NAME = "shuffle_proof"
_KEYS = ("c", "chat", "ch", "s1", "s2", "s3", "sk", "sh", "sprime")


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    commitments: tuple[Point, ...]  # c_j, one per input position
    chain: tuple[Point, ...]  # C^_1..C^_n
    challenge: Scalar
    s1: Scalar
    s2: Scalar
    s3: Scalar
    sk: Scalar
    s_hat: Scalar
    s_prime: tuple[Scalar, ...]

    def to_wire(self) -> dict[str, Any]:
        return {
            "c": points_to_wire(self.commitments),
            "chat": points_to_wire(self.chain),
            "ch": bytes(self.challenge),
            "s1": bytes(self.s1),
            "s2": bytes(self.s2),
            "s3": bytes(self.s3),
            "sk": bytes(self.sk),
            "sh": bytes(self.s_hat),
            "sprime": scalars_to_wire(self.s_prime),
        }

    @classmethod
    def from_wire(cls, obj: object) -> Self:
        d = expect_dict(obj, _NAME, _KEYS)
        commitments = points_from_wire(d["c"], f"{_NAME}.c")
        n = len(commitments)
        if n == 0:
            raise MalformedProofError(f"{_NAME}.c", "empty")
        return cls(
            tuple(commitments),
            tuple(points_from_wire(d["chat"], f"{_NAME}.chat", n)),
            scalar_field(d, "ch", _NAME),
            scalar_field(d, "s1", _NAME),
            scalar_field(d, "s2", _NAME),
            scalar_field(d, "s3", _NAME),
            scalar_field(d, "sk", _NAME),
            scalar_field(d, "sh", _NAME),
            tuple(scalars_from_wire(d["sprime"], f"{_NAME}.sprime", n)),
        )


def _weights(
    ctx: ProofContext, deck_in: Sequence[Point], deck_out: Sequence[Point], public_key: Point,
    commitments: Sequence[Point],
) -> tuple[Transcript, list[Scalar]]:
    t = Transcript(TAG, ctx).point("Y", public_key)
    t.points("A", deck_in).points("B", deck_out).points("c", commitments)
    return t, t.challenges("e", len(deck_in))


def _dot(a: Sequence[Scalar], b: Sequence[Scalar]) -> Scalar:
    """sum a_i*b_i over the shorter length (plain integers, one reduction)."""
    return Scalar(sum(x.value * y.value for x, y in zip(a, b, strict=False)) % L)


def _product(values: Sequence[Scalar]) -> Scalar:
    acc = ONE
    for v in values:
        acc = acc * v
    return acc


def shuffle(
    ctx: ProofContext, deck_in: Sequence[Point], secret: Scalar, src: ScalarSource
) -> tuple[list[Point], list[int], ShuffleProof]:
    """Permute ``deck_in`` at random, multiply every point by ``secret``, prove it.

    Returns ``(deck_out, perm, proof)`` with ``deck_out[i] = secret * deck_in[perm[i]]``.
    """
    perm = random_permutation(len(deck_in), src)
    deck_out = [mul(secret, deck_in[j]) for j in perm]
    return deck_out, perm, prove_shuffle(ctx, deck_in, deck_out, perm, secret, src)


def prove_shuffle(
    ctx: ProofContext, deck_in: Sequence[Point], deck_out: Sequence[Point], perm: Sequence[int],
    secret: Scalar, src: ScalarSource,
) -> ShuffleProof:
    """The argument for a given ``(deck_out, perm)``; does not check the claim is true."""
    n = len(deck_in)
    if n == 0 or len(deck_out) != n or sorted(perm) != list(range(n)):
        raise CryptoUsageError("shuffle needs a non-empty deck and a permutation of it")
    public_key = base_mul(secret)
    h = [generator(i) for i in range(n)]
    inv = [0] * n
    for i, j in enumerate(perm):
        inv[j] = i
    r = [random_scalar(src) for _ in range(n)]
    commitments = [base_mul(r[j]) + h[inv[j]] for j in range(n)]
    t, e = _weights(ctx, deck_in, deck_out, public_key, commitments)
    e_prime = [e[j] for j in perm]

    r_hat = [random_scalar(src) for _ in range(n)]
    chain: list[Point] = []
    prev = product_base()
    # Link i-1 is C^_{i-1} = g_log[i]*G + u_log[i]*U, both logs known to the prover.
    g_log, u_log = [Scalar(0)], [ONE]
    for i in range(n):
        prev = base_mul(r_hat[i]) + mul(e_prime[i], prev)
        chain.append(prev)
        g_log.append(r_hat[i] + e_prime[i] * g_log[i])
        u_log.append(e_prime[i] * u_log[i])
    r_chain = g_log[n]
    alpha = t.points("chat", chain).challenges("alpha", n)
    w_prime = [random_scalar(src) for _ in range(n)]
    w_hat = random_scalar(src)
    weights = [alpha[i] * w_prime[i] for i in range(n)]
    # that = w^*G + sum weights_i C^_{i-1}, through the known logs: 1 multiplication, not n.
    t_hat = base_mul(w_hat + _dot(weights, g_log)) + mul(_dot(weights, u_log), product_base())
    rho = Scalar(0)
    r_bar = Scalar(0)
    r_tilde = Scalar(0)
    for j in range(n):
        rho = rho + alpha[j] * r_hat[j]
        r_bar = r_bar + r[j]
        r_tilde = r_tilde + r[j] * e[j]

    w1, w2, w3, wk = (random_scalar(src) for _ in range(4))
    t.point("t1", base_mul(w1)).point("t2", base_mul(w2))
    t.point("t3", base_mul(w3) + lincomb(w_prime, h))
    # t4 = sum w'_i B_i - wk*sum e_j A_j, with B_i = k*A_perm[i]: one term per input card
    # (n multiplications, not 2n + 1). For a false claim this is not the t4 a verifier
    # recomputes, and the proof fails, as it must whichever way t4 is computed.
    t4_coeffs = [secret * w_prime[inv[j]] - wk * e[j] for j in range(n)]
    t.point("t4", lincomb(t4_coeffs, list(deck_in)))
    t.point("tY", base_mul(wk)).point("that", t_hat)
    c = t.challenge("c")
    return ShuffleProof(
        tuple(commitments), tuple(chain), c,
        w1 + c * r_bar, w2 + c * r_chain, w3 + c * r_tilde, wk + c * secret,
        w_hat + c * rho,
        tuple(w_prime[i] + c * e_prime[i] for i in range(n)),
    )


def verify_shuffle(
    ctx: ProofContext, deck_in: Sequence[Point], deck_out: Sequence[Point], public_key: Point,
    proof: ShuffleProof,
) -> None:
    n = len(deck_in)
    if n == 0 or len(deck_out) != n:
        raise ProofRejected(TAG, "decks are empty or differ in length")
    if not len(proof.commitments) == len(proof.chain) == len(proof.s_prime) == n:
        raise ProofRejected(TAG, f"proof sized for another deck length (expected {n})")
    if public_key.is_identity:
        raise ProofRejected(TAG, "public key is the identity")
    h = [generator(i) for i in range(n)]
    t, e = _weights(ctx, deck_in, deck_out, public_key, proof.commitments)
    c = proof.challenge
    c_bar = point_sum(list(proof.commitments)) - generator_sum(n)
    chain_end = proof.chain[-1] - mul(_product(e), product_base())

    # sum_i alpha_i (s'_i C^_{i-1} - c C^_i), grouped so that each C^_i costs one mult.
    alpha = t.points("chat", proof.chain).challenges("alpha", n)
    sp = proof.s_prime
    coeffs = [alpha[0] * sp[0]]
    coeffs += [alpha[i + 1] * sp[i + 1] - c * alpha[i] for i in range(n - 1)]
    coeffs.append(-(c * alpha[n - 1]))
    t_hat = base_mul(proof.s_hat) + lincomb(coeffs, [product_base(), *proof.chain])
    t.point("t1", base_mul(proof.s1) - mul(c, c_bar))
    t.point("t2", base_mul(proof.s2) - mul(c, chain_end))
    # -c*C_tilde and -sk*A_bar folded into the sums: one multiplication fewer each.
    t.point("t3", base_mul(proof.s3) + lincomb([*sp, *(-(c * x) for x in e)],
                                               [*h, *proof.commitments]))
    t.point("t4", lincomb([*sp, *(-(proof.sk * x) for x in e)], [*deck_out, *deck_in]))
    t.point("tY", base_mul(proof.sk) - mul(c, public_key)).point("that", t_hat)
    if t.challenge("c") != c:
        raise ProofRejected(TAG, "challenge mismatch")
