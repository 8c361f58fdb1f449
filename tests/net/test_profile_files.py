"""A profile's files that cannot be used (an identity key p2pclue cannot read, a file where
a folder belongs, a folder where a file belongs) are one clear line, exit 2, in join, watch
and resume: which file, what is wrong, what to do; never a traceback (real processes)."""

from __future__ import annotations

import base64
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.cli.helpers import ROOT, cli_env

COMMANDS = {
    "join": ["join", "--create", "--bot", "random", "--no-code", "--players", "3"],
    "watch": ["watch", "--peer", "127.0.0.1:9", "--table", "t", "--wait", "1"],
    "resume": ["join", "--resume", "list"],
}


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "p2pclue", "--lang", "en", *args],
                          capture_output=True, text=True, timeout=30, cwd=ROOT,
                          env=cli_env(P2PCLUE_HOME=str(home)))


def sec1_pem(curve_oid: bytes) -> bytes:
    """An EC private key (SEC 1 DER) on the curve named by ``curve_oid`` (its DER body)."""
    oid = bytes([0x06, len(curve_oid)]) + curve_oid
    body = bytes([0x02, 0x01, 0x01, 0x04, 14]) + bytes(range(1, 15)) \
        + bytes([0xA0, len(oid)]) + oid
    der = bytes([0x30, len(body)]) + body
    return (b"-----BEGIN EC PRIVATE KEY-----\n" + base64.encodebytes(der)
            + b"-----END EC PRIVATE KEY-----\n")


ENCRYPTED = Ed25519PrivateKey.generate().private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
    serialization.BestAvailableEncryption(b"secret"))
KEYS = {
    "encrypted": (ENCRYPTED, "is protected by a password"),
    "secp112r1": (sec1_pem(bytes([0x2B, 0x81, 0x04, 0x00, 0x06])), "kind of key"),
    "brainpoolP160r1": (sec1_pem(bytes([0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01,
                                        0x01])), "kind of key"),
    "SM2": (sec1_pem(bytes([0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D])), "kind of key"),
    "RSA": (rsa.generate_private_key(65537, 1024).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()), "is not an Ed25519 key"),
}


@pytest.mark.parametrize("kind", sorted(KEYS))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_identity_key_p2pclue_cannot_use_is_one_line(
        tmp_path: Path, kind: str, command: str) -> None:
    pem, words = KEYS[kind]
    key = tmp_path / "profiles" / "default" / "identity.pem"
    key.parent.mkdir(parents=True)
    key.write_bytes(pem)
    key.chmod(0o600)
    done = run(tmp_path, *COMMANDS[command])
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert "Traceback" not in line and "\n" not in line
    assert str(key) in line and words in line and "move it away" in line


def test_a_folder_where_a_file_belongs_is_named(tmp_path: Path) -> None:
    seen = tmp_path / "profiles" / "default" / "seen-sessions"
    seen.mkdir(parents=True)
    done = run(tmp_path, "join", "--create", "--bot", "random", "--bots", "2", "--no-code",
               "--bot-think", "0", "--quiet")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (f"p2pclue join: {seen} is a folder where p2pclue keeps a "
                                   "file; move it away, or use another --profile")


def test_a_file_where_a_folder_belongs_is_named(tmp_path: Path) -> None:
    games = tmp_path / "profiles" / "default" / "games"
    games.parent.mkdir(parents=True)
    games.write_text("not a folder")
    done = run(tmp_path, "join", "--create", "--bot", "random", "--bots", "2", "--no-code",
               "--bot-think", "0", "--quiet")
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert line.startswith(f"p2pclue join: {games}/") and "\n" not in line
    assert "is a file where p2pclue keeps a folder; move it away" in line
    assert "Errno" not in line
