"""The five libsodium calls the group needs, through the fastest binding available.

PyNaCl's public ``nacl.bindings`` checks every argument's type and length on every
call; our ``Point`` and ``Scalar`` types already guarantee both, so by default the
same C functions are called through PyNaCl's cffi module ``nacl._sodium``, which
saves about 15 % of a deal. That module is private: a PyNaCl release may rename or
drop it. The choice is therefore made once, at import: the private module when it
imports and has the functions, else the public bindings. Setting the environment
variable ``P2PCLUE_SODIUM=public`` forces the public bindings (tests run both paths
and compare results). A moved private module costs speed, never correctness.

Every function returns ``None`` where libsodium reports failure (a point outside the
main subgroup, say); the caller turns that into its own typed error.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import nacl.bindings as _nb
import nacl.exceptions as _nexc

ENV_VAR = "P2PCLUE_SODIUM"

ScalarMult = Callable[[bytes, bytes], bytes | None]
BaseMult = Callable[[bytes], bytes | None]
Add = Callable[[bytes, bytes], bytes | None]
IsValid = Callable[[bytes], bool]


def _public() -> tuple[ScalarMult, BaseMult, Add, Add, IsValid]:
    """The documented ``nacl.bindings`` API: argument checks, exceptions on failure."""

    def guard(call: Callable[..., bytes]) -> Callable[..., bytes | None]:
        def run(*args: bytes) -> bytes | None:
            try:
                return bytes(call(*args))
            except _nexc.CryptoError:
                return None

        return run

    return (guard(_nb.crypto_scalarmult_ed25519_noclamp),
            guard(_nb.crypto_scalarmult_ed25519_base_noclamp),
            guard(_nb.crypto_core_ed25519_add),
            guard(_nb.crypto_core_ed25519_sub),
            _nb.crypto_core_ed25519_is_valid_point)


def _private() -> tuple[ScalarMult, BaseMult, Add, Add, IsValid]:
    """Straight cffi calls into libsodium (raises ImportError/AttributeError if missing)."""
    from nacl._sodium import ffi, lib

    def binary(fn: Any) -> Add:
        def run(a: bytes, b: bytes) -> bytes | None:
            out = ffi.new("unsigned char[]", 32)
            if fn(out, a, b) != 0:
                return None
            return bytes(ffi.buffer(out, 32))

        return run

    base_fn = lib.crypto_scalarmult_ed25519_base_noclamp
    valid_fn = lib.crypto_core_ed25519_is_valid_point

    def base(n: bytes) -> bytes | None:
        out = ffi.new("unsigned char[]", 32)
        if base_fn(out, n) != 0:
            return None
        return bytes(ffi.buffer(out, 32))

    def is_valid(p: bytes) -> bool:
        return bool(valid_fn(p) == 1)

    return (binary(lib.crypto_scalarmult_ed25519_noclamp), base,
            binary(lib.crypto_core_ed25519_add), binary(lib.crypto_core_ed25519_sub), is_valid)


def _choose() -> tuple[str, tuple[ScalarMult, BaseMult, Add, Add, IsValid]]:
    if os.environ.get(ENV_VAR, "") != "public":
        try:
            return "private", _private()
        except (ImportError, AttributeError):
            pass
    return "public", _public()


BACKEND, (scalarmult, scalarmult_base, add, sub, is_valid_point) = _choose()
"""``BACKEND`` is "private" (nacl._sodium, fast) or "public" (nacl.bindings)."""
