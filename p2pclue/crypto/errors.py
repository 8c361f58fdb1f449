"""Typed errors of the crypto layer.

Two families, so that the engine can tell who is at fault:

* ``CryptoUsageError`` - local: this program called the API wrongly (e.g. asked to
  show a card it does not hold). Never caused by a peer's data.
* ``PeerDataError`` - remote: bytes or a proof that came from a peer are malformed
  or false. The engine attributes these to the peer that sent them.

No message ever contains a secret value: errors name the field and the reason only.
"""

from __future__ import annotations


class CryptoError(Exception):
    """Base of every error raised by ``p2pclue.crypto``."""


class CryptoUsageError(CryptoError, ValueError):
    """Local API misuse (wrong argument types, impossible requests)."""


class PeerDataError(CryptoError):
    """Data received from a peer is unusable or false (remote fault)."""


class InvalidPointError(PeerDataError):
    """A received group element failed validation."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"invalid point in {field!r}: {reason}")
        self.field = field
        self.reason = reason


class InvalidScalarError(PeerDataError):
    """A received scalar failed validation (non-canonical, zero, wrong length/type)."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"invalid scalar in {field!r}: {reason}")
        self.field = field
        self.reason = reason


class MalformedProofError(PeerDataError):
    """A proof's wire shape is wrong (type, keys, list length)."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"malformed proof field {field!r}: {reason}")
        self.field = field
        self.reason = reason


class ProofRejected(PeerDataError):
    """A well-formed proof does not verify for the given statement and context."""

    def __init__(self, proof: str, reason: str) -> None:
        super().__init__(f"{proof} proof rejected: {reason}")
        self.proof = proof
        self.reason = reason


class NotACardError(PeerDataError):
    """A decryption that should yield one of the 21 card points did not."""
