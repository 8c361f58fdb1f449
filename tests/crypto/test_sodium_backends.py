"""Both libsodium paths (PyNaCl's private cffi module and its public bindings) compute
the same results, and the program still works when the private module is gone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pclue.crypto import sodium
from p2pclue.crypto.group import G, L, Scalar, base_mul, mul
from tests.profiles import examples
from tests.torsion import ORDER_8

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = sodium._public()
try:
    PRIVATE = sodium._private()
except (ImportError, AttributeError):  # a PyNaCl without the private module: nothing to compare
    PRIVATE = PUBLIC
needs_private = pytest.mark.skipif(PRIVATE is PUBLIC, reason="nacl._sodium is not available")
scalars = st.integers(min_value=1, max_value=L - 1).map(lambda v: v.to_bytes(32, "little"))


@needs_private
@settings(max_examples=examples(40))
@given(scalars, scalars)
def test_private_and_public_paths_agree(a: bytes, b: bytes) -> None:
    p = mul(Scalar(int.from_bytes(a, "little")), G).data
    q = base_mul(Scalar(int.from_bytes(b, "little"))).data
    assert PRIVATE[0](b, p) == PUBLIC[0](b, p) is not None
    assert PRIVATE[1](a) == PUBLIC[1](a) is not None
    assert PRIVATE[2](p, q) == PUBLIC[2](p, q) is not None
    assert PRIVATE[3](p, q) == PUBLIC[3](p, q) is not None
    assert PRIVATE[4](p) is PUBLIC[4](p) is True


@needs_private
def test_both_paths_report_failure_the_same_way() -> None:
    one = (1).to_bytes(32, "little")
    assert PRIVATE[0](one, ORDER_8) is None and PUBLIC[0](one, ORDER_8) is None
    assert PRIVATE[4](ORDER_8) is False and PUBLIC[4](ORDER_8) is False
    assert PRIVATE[4](bytes(32)) is False and PUBLIC[4](bytes(32)) is False


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    return subprocess.run([sys.executable, "-c", code], env=full, capture_output=True,
                          text=True, timeout=300, check=False)


def test_environment_variable_forces_the_public_bindings() -> None:
    out = _run("from p2pclue.crypto import sodium; print(sodium.BACKEND)",
               P2PCLUE_SODIUM="public")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "public"
    public = os.environ.get(sodium.ENV_VAR) == "public" or PRIVATE is PUBLIC
    assert sodium.BACKEND == ("public" if public else "private")  # noqa: SIM300


def test_a_pynacl_without_its_private_module_still_reproduces_the_vectors() -> None:
    # As if a PyNaCl release had renamed nacl._sodium: its public bindings still load
    # (they hold the cffi module already), but importing the private name fails.
    code = (
        "import sys, nacl.bindings; sys.modules['nacl._sodium'] = None\n"
        "from p2pclue.crypto import sodium; assert sodium.BACKEND == 'public'\n"
        "from p2pclue.crypto.vectors import dumps, generate\n"
        "sys.stdout.write(dumps(generate()))\n"
    )
    out = _run(code)
    assert out.returncode == 0, out.stderr
    expected = (ROOT / "protocol" / "vectors" / "crypto-v1.json").read_text(encoding="utf-8")
    assert out.stdout == expected


@pytest.mark.skipif(os.environ.get(sodium.ENV_VAR) == "public", reason="already forced")
def test_group_and_vector_tests_pass_on_the_public_bindings() -> None:
    full = {**os.environ, "PYTHONPATH": str(ROOT), sodium.ENV_VAR: "public"}
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
         "tests/crypto/test_group.py", "tests/crypto/test_vectors.py"],
        cwd=ROOT, env=full, capture_output=True, text=True, timeout=600, check=False)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
