"""The user's identity: created once with mode 0600, one per profile, never world-readable."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from p2pclue.net.profile import ProfileError, load
from tests.net.inproc import run_main


def test_identity_is_created_once_with_mode_0600(tmp_path: Path) -> None:
    env = {"P2PCLUE_HOME": str(tmp_path)}
    first = load("alice", env)
    again = load("alice", env)
    assert first.public == again.public
    key_file = tmp_path / "profiles" / "alice" / "identity.pem"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert load("bob", env).public != first.public, "each profile has its own key"


def test_a_readable_key_or_a_bad_name_is_refused(tmp_path: Path) -> None:
    env = {"P2PCLUE_HOME": str(tmp_path)}
    load("carol", env)
    key_file = tmp_path / "profiles" / "carol" / "identity.pem"
    os.chmod(key_file, 0o644)
    with pytest.raises(ProfileError, match="chmod 600"):
        load("carol", env)
    with pytest.raises(ProfileError):
        load("../escape", env)
    os.chmod(key_file, 0o600)
    key_file.write_bytes(b"not a key")
    with pytest.raises(ProfileError, match="not a p2pclue identity"):
        load("carol", env)


def test_seen_sessions_persist(tmp_path: Path) -> None:
    env = {"P2PCLUE_HOME": str(tmp_path)}
    p = load("dave", env)
    s = bytes(range(32))
    assert not p.seen(s)
    p.remember(s)
    assert load("dave", env).seen(s)
    assert not load("erin", env).seen(s)


@pytest.mark.parametrize("args", [
    ["join", "--peer", "127.0.0.1:1", "--bot", "random"],
    ["join", "--peer", "nonsense", "--table", "x", "--bot", "random"],
    ["join", "--bots", "2", "--bot", "random"],
    ["join", "--create", "--code", "1", "--no-code", "--bot", "random"],
    ["join", "--create", "--interface", "8.8.8.8", "--bot", "random"],
    ["join", "--table", "x", "--profile", "../x", "--bot", "random"],
    ["watch", "--peer", "127.0.0.1:9"],
])
def test_bad_command_lines_get_a_clear_error(
        tmp_path: Path, args: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """In this process (the command's answer is what is tested; tests/net/test_bad_hosts.py
    and test_profile_files.py run such answers as real processes too)."""
    ran = run_main(monkeypatch, capsys, tmp_path, *args)
    assert ran.code == 2, ran.err
    assert ran.err.strip()
