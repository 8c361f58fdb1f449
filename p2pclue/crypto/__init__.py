"""Group, deck operations, zero-knowledge proofs and shared randomness. No I/O.

Modules: ``group`` (points, scalars, validation), ``errors``, ``rand`` (secret
randomness sources), ``context`` (Fiat-Shamir transcripts), ``cards`` (card points),
``keys``, ``dleq``, ``shuffleproof``, ``show``, ``commitshow``, ``heldopening``,
``sealedopening``, ``holdnone``, ``pet`` (one per proof),
``proofs`` (facade over all proofs), ``randomness`` (dice, weapon placement),
``deck`` (a whole deal in one process), ``vectors`` (test-vector generator).
Proof types and functions are imported from ``p2pclue.crypto.proofs``.
"""

from p2pclue.crypto import proofs
from p2pclue.crypto.cards import CARD_POINTS, card_point, identify
from p2pclue.crypto.context import ProofContext, Transcript, transcript_hash
from p2pclue.crypto.errors import (
    CryptoError,
    CryptoUsageError,
    InvalidPointError,
    InvalidScalarError,
    MalformedProofError,
    NotACardError,
    PeerDataError,
    ProofRejected,
)
from p2pclue.crypto.group import (
    IDENTITY,
    MULT_COUNTER,
    G,
    Point,
    Scalar,
    add,
    base_mul,
    inverse,
    mul,
    point_from_bytes,
    scalar_from_bytes,
    sub,
)
from p2pclue.crypto.rand import OsRandom, ScalarSource, SeededRandom, random_scalar
from p2pclue.crypto.randomness import (
    HashChain,
    random_dice,
    random_weapon_rooms,
    verify_reveal,
)

__all__ = [
    "CARD_POINTS",
    "IDENTITY",
    "MULT_COUNTER",
    "CryptoError",
    "CryptoUsageError",
    "G",
    "HashChain",
    "InvalidPointError",
    "InvalidScalarError",
    "MalformedProofError",
    "NotACardError",
    "OsRandom",
    "PeerDataError",
    "Point",
    "ProofContext",
    "ProofRejected",
    "Scalar",
    "ScalarSource",
    "SeededRandom",
    "Transcript",
    "add",
    "base_mul",
    "card_point",
    "identify",
    "inverse",
    "mul",
    "point_from_bytes",
    "proofs",
    "random_dice",
    "random_scalar",
    "random_weapon_rooms",
    "scalar_from_bytes",
    "sub",
    "transcript_hash",
    "verify_reveal",
]
