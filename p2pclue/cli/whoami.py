"""The name a person plays under when no ``--name`` is given.

Everybody used to be "default" (the profile's name). Now the first game asks once,
offering the account's own name, and the profile keeps the answer; a program reading
from a pipe is never asked (its input is its moves) and plays under the account's name.
"""

from __future__ import annotations

import getpass
import os
import sys

from p2pclue.engine.config import MAX_NAME_CHARS
from p2pclue.i18n import _
from p2pclue.net.profile import Profile


def account_name() -> str:
    """The user's full name from the account (its GECOS field), else the login name."""
    try:
        import pwd  # Unix only

        full = pwd.getpwuid(os.getuid()).pw_gecos.split(",")[0].strip()
    except (ImportError, KeyError, OSError):
        full = ""
    if not full:
        try:
            full = getpass.getuser()
        except (OSError, KeyError, ImportError):
            full = ""
    full = "".join(ch for ch in full if ch.isprintable())[:MAX_NAME_CHARS].strip()
    return full or _("player")


def valid_name(text: str) -> bool:
    return 0 < len(text) <= MAX_NAME_CHARS and text.isprintable() and not text.isspace()


def player_name(profile: Profile, given: str | None) -> str:
    """``--name``, else the profile's kept name, else asked once (on a terminal)."""
    if given:
        return given
    kept = profile.player_name
    if kept is not None:
        return kept
    default = account_name()
    if not sys.stdin.isatty():
        return default
    while True:
        try:
            typed = input(_("Your name at the table [{name}]: ").format(name=default)).strip()
        except EOFError:
            return default
        name = typed or default
        if valid_name(name):
            profile.keep_name(name)
            return name
        print(_("A name is 1-{most} printable characters.").format(most=MAX_NAME_CHARS))
