"""Schnorr proof of knowledge of a player's secret key.

Publishing a key without proving knowledge of its discrete log would let the last
player pick ``Y = k*G - sum(others)`` style rogue keys; the proof rules that out.
Compact form: the proof carries the challenge and the response, the verifier
recomputes the commitment ``R = s*G - c*Y`` and checks the hash.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from p2pclue.crypto.context import ProofContext, Transcript
from p2pclue.crypto.errors import CryptoUsageError, ProofRejected
from p2pclue.crypto.group import Point, Scalar, base_mul, mul
from p2pclue.crypto.rand import ScalarSource, random_scalar
from p2pclue.crypto.wire import ChallengeResponse

TAG = "key"


@dataclass(frozen=True, slots=True)
class KeyProof(ChallengeResponse):
    WIRE_NAME: ClassVar[str] = "key_proof"


def _challenge(ctx: ProofContext, public_key: Point, commitment: Point) -> Scalar:
    t = Transcript(TAG, ctx).point("Y", public_key).point("R", commitment)
    return t.challenge("c")


def keypair(src: ScalarSource) -> tuple[Scalar, Point]:
    k = random_scalar(src)
    return k, base_mul(k)


def prove_key(ctx: ProofContext, secret: Scalar, src: ScalarSource) -> KeyProof:
    if secret.value == 0:
        raise CryptoUsageError("a secret key must be non-zero")
    public_key = base_mul(secret)
    nonce = random_scalar(src)
    c = _challenge(ctx, public_key, base_mul(nonce))
    return KeyProof(c, nonce + c * secret)


def verify_key(ctx: ProofContext, public_key: Point, proof: KeyProof) -> None:
    if public_key.is_identity:
        raise ProofRejected(TAG, "public key is the identity")
    commitment = base_mul(proof.response) - mul(proof.challenge, public_key)
    if _challenge(ctx, public_key, commitment) != proof.challenge:
        raise ProofRejected(TAG, "challenge mismatch")
