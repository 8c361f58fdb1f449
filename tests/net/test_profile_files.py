"""A profile's files that cannot be used (an identity key p2pclue cannot read, a file where
a folder belongs, a folder where a file belongs) are one clear line, exit 2, in join, watch
and resume: which file, what is wrong, what to do; never a traceback. Each command once as a
real process, every case in this one (``p2pclue.cli.main``: the same answer and status)."""

from __future__ import annotations

import base64
from functools import cache
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.net.inproc import Ran, run_main
from tests.net.procs import Procs

COMMANDS = {
    "join": ["join", "--create", "--bot", "random", "--no-code", "--players", "3"],
    "watch": ["watch", "--peer", "127.0.0.1:9", "--table", "t", "--wait", "1"],
    "resume": ["join", "--resume", "list"],
}


def sec1_pem(curve_oid: bytes) -> bytes:
    """An EC private key (SEC 1 DER) on the curve named by ``curve_oid`` (its DER body)."""
    oid = bytes([0x06, len(curve_oid)]) + curve_oid
    body = bytes([0x02, 0x01, 0x01, 0x04, 14]) + bytes(range(1, 15)) \
        + bytes([0xA0, len(oid)]) + oid
    der = bytes([0x30, len(body)]) + body
    return (b"-----BEGIN EC PRIVATE KEY-----\n" + base64.encodebytes(der)
            + b"-----END EC PRIVATE KEY-----\n")


WORDS = {"encrypted": "is protected by a password", "secp112r1": "kind of key",
         "brainpoolP160r1": "kind of key", "SM2": "kind of key",
         "RSA": "is not an Ed25519 key"}
"""Each kind of key p2pclue cannot use, and what the line says about it."""


@cache
def key_pem(kind: str) -> bytes:
    """The PEM of a key of ``kind`` (made when a test first asks for it)."""
    if kind == "encrypted":
        return Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"secret"))
    if kind == "RSA":
        return rsa.generate_private_key(65537, 1024).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption())
    oids = {"secp112r1": [0x2B, 0x81, 0x04, 0x00, 0x06],
            "brainpoolP160r1": [0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x01],
            "SM2": [0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D]}
    return sec1_pem(bytes(oids[kind]))


def _bad_key(home: Path, kind: str) -> Path:
    key = home / "profiles" / "default" / "identity.pem"
    key.parent.mkdir(parents=True)
    key.write_bytes(key_pem(kind))
    key.chmod(0o600)
    return key


def _one_line_about(key: Path, kind: str, code: int, err: str) -> None:
    assert code == 2, err
    line = err.strip()
    assert "Traceback" not in line and "\n" not in line, line
    assert str(key) in line and WORDS[kind] in line and "move it away" in line, line


@pytest.mark.parametrize("kind", sorted(WORDS))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_identity_key_p2pclue_cannot_use_is_one_line(
        tmp_path: Path, kind: str, command: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    key = _bad_key(tmp_path, kind)
    ran = run_main(monkeypatch, capsys, tmp_path, "--lang", "en", *COMMANDS[command])
    _one_line_about(key, kind, ran.code, ran.err)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_real_command_says_it_in_one_line(procs: Procs, command: str) -> None:
    home = procs.folder.parent / "home"
    key = _bad_key(home, "RSA")
    code, _out, err = procs.p2pclue(command, "--lang", "en", *COMMANDS[command]).finish()
    _one_line_about(key, "RSA", code, err)


def _run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], home: Path,
         *args: str) -> Ran:
    return run_main(monkeypatch, capsys, home, "--lang", "en", *args)


def test_a_folder_where_a_file_belongs_is_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    seen = tmp_path / "profiles" / "default" / "seen-sessions"
    seen.mkdir(parents=True)
    done = _run(monkeypatch, capsys, tmp_path, "join", "--create", "--bot", "random",
                "--bots", "2", "--no-code", "--bot-think", "0", "--quiet")
    assert done.code == 2, done.err
    assert done.err.strip() == (f"p2pclue join: {seen} is a folder where p2pclue keeps a "
                                   "file; move it away, or use another --profile")


def test_a_file_where_a_folder_belongs_is_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "profiles" / "default" / "games"
    games.parent.mkdir(parents=True)
    games.write_text("not a folder")
    done = _run(monkeypatch, capsys, tmp_path, "join", "--create", "--bot", "random",
                "--bots", "2", "--no-code", "--bot-think", "0", "--quiet")
    assert done.code == 2, done.err
    line = done.err.strip()
    assert line.startswith(f"p2pclue join: {games}/") and "\n" not in line
    assert "is a file where p2pclue keeps a folder; move it away" in line
    assert "Errno" not in line
