"""A user's profile on this machine: identity key, seen sessions, game directories.

One Ed25519 identity per profile signs every message the user sends and proves who
they are on every link; it lives in the user's data directory (``platformdirs``),
created on first use with mode 0600. ``--profile NAME`` keeps a separate identity and
game directory (several players on one shared computer, tests). ``P2PCLUE_HOME``
moves the whole tree (tests and scripts never touch a real home directory).

Seen session ids are kept so that a replayed old game is refused even across restarts.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import platformdirs
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.engine.config import MAX_NAME_CHARS
from p2pclue.i18n import _, os_error_text

MAX_PROFILE_CHARS = 40
PROFILE_NAME = re.compile(rf"^[A-Za-z0-9_.-]{{1,{MAX_PROFILE_CHARS}}}$")
DEFAULT_PROFILE = "default"
MAX_SEEN = 100_000


class ProfileError(Exception):
    """A profile that cannot be used (bad name, unreadable or foreign key file)."""


def check_profile_name(name: str) -> str:
    """A profile's name becomes a folder's: letters, digits and ``._-``, never ``.``/``..``."""
    if not PROFILE_NAME.match(name) or name in (".", ".."):
        raise ProfileError(_("a profile name is 1-40 letters, digits, '.', '_' or '-' (not "
                             "'.' or '..'): {name}").format(name=repr(name)))
    return name


def bot_profile_name(profile: str, k: int) -> str:
    """The profile of the k-th (0-based) bot a process seats beside the player ``profile``:
    its own keys, its own game folders."""
    return f"{profile}.bot{k + 1}"


def file_error(path: Path, exc: OSError) -> ProfileError:
    """An OS error on one of a profile's files, in words: which file, what is wrong, what
    to do."""
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        text = _("{path} cannot be read or written by you; let your user read and write it "
                 "(chmod u+rw), or use another --profile")
    elif exc.errno == errno.EISDIR:
        text = _("{path} is a folder where p2pclue keeps a file; move it away, or use "
                 "another --profile")
    elif exc.errno in (errno.ENOTDIR, errno.EEXIST):
        text = _("{path} (or a folder above it) is a file where p2pclue keeps a folder; "
                 "move it away, or use another --profile")
    elif exc.errno == errno.ENOSPC:
        text = _("{path} cannot be written: the disk is full; free some space")
    else:
        return ProfileError(_("{path} cannot be used ({error}); check it, or use another "
                              "--profile").format(path=path, error=os_error_text(exc)))
    return ProfileError(text.format(path=path))


def data_root(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    home = env.get("P2PCLUE_HOME")
    if home:
        return Path(home)
    return Path(platformdirs.user_data_dir("p2pclue", appauthor=False))


@dataclass
class Profile:
    name: str
    root: Path
    identity: Ed25519PrivateKey

    @property
    def public(self) -> bytes:
        return self.identity.public_key().public_bytes_raw()

    @property
    def games(self) -> Path:
        return self.root / "games"

    def game_dir(self, session: bytes) -> Path:
        path = self.games / session.hex()[:16]
        try:
            path.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:
            raise file_error(path, exc) from None
        return path

    # -- the player's name, asked once

    @property
    def player_name(self) -> str | None:
        """The name this person chose for the table (kept in the profile), if any."""
        try:
            text = (self.root / "name").read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return None
        return text if 0 < len(text) <= MAX_NAME_CHARS and text.isprintable() else None

    def keep_name(self, name: str) -> None:
        """Keep the chosen name for the next games (a failure to write only means asking
        again next time)."""
        with contextlib.suppress(OSError):
            (self.root / "name").write_text(name + "\n", encoding="utf-8")

    # -- sessions seen before

    def _seen_path(self) -> Path:
        return self.root / "seen-sessions"

    def seen(self, session: bytes) -> bool:
        try:
            text = self._seen_path().read_text(encoding="ascii", errors="replace")
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise file_error(self._seen_path(), exc) from None
        return session.hex() in text.split()

    def remember(self, session: bytes) -> None:
        """Record a session id before its first message is sent (fsynced)."""
        try:
            fd = os.open(self._seen_path(), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                os.write(fd, session.hex().encode("ascii") + b"\n")
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise file_error(self._seen_path(), exc) from None


def load(name: str = DEFAULT_PROFILE, environ: Mapping[str, str] | None = None) -> Profile:
    """Open a profile, creating its directory and identity key on first use."""
    check_profile_name(name)
    root = data_root(environ) / "profiles" / name
    try:
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
        return Profile(name, root, _identity(root / "identity.pem"))
    except OSError as exc:
        raise file_error(Path(exc.filename) if exc.filename else root, exc) from None


def _identity(path: Path) -> Ed25519PrivateKey:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_identity(path)
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    try:
        os.write(fd, pem)
        os.fsync(fd)
    finally:
        os.close(fd)
    return key


def _read_identity(path: Path) -> Ed25519PrivateKey:
    if path.stat().st_mode & 0o077:
        raise ProfileError(_("{path} is readable by others; run: chmod 600 {path}").format(
            path=path))
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except TypeError:  # "Password was not given but private key is encrypted"
        raise ProfileError(_("{path} is protected by a password, which p2pclue cannot use; "
                             "decrypt it (openssl pkey -in {path} -out {path}.new), or move "
                             "it away to get a new identity").format(path=path)) from None
    except UnsupportedAlgorithm:
        raise ProfileError(_("{path} holds a kind of key this system cannot read; p2pclue "
                             "needs an Ed25519 key: move it away to get a new identity").format(
            path=path)) from None
    except ValueError:
        raise ProfileError(_("{path} is not a p2pclue identity key; move it away to get a new "
                             "identity").format(path=path)) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise ProfileError(_("{path} is not an Ed25519 key; p2pclue needs one: move it away "
                             "to get a new identity").format(path=path))
    return key

