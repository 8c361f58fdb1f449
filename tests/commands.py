"""``p2pclue`` commands as the tests run them: through the command's own entry point in
this process (what most tests need: its output and exit status), or as a real
``python -m p2pclue`` process where the process boundary is part of what a test shows
(exit status of the interpreter, a fresh environment, no state shared with the tests)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Mapping
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HANG_GUARD = 600
"""Seconds a real process may take before the test gives up on it: only a hang hits it."""


def in_process(*argv: str) -> subprocess.CompletedProcess[str]:
    """``p2pclue ARGV`` through ``p2pclue.cli.main``, standard output and error captured.

    A usage error or ``--help`` (argparse's ``SystemExit``) gives its exit status; the
    language the command installs is put back afterwards, so no later test inherits it.
    """
    from p2pclue.cli import main
    from p2pclue.i18n.translate import current_language, install

    out, err = io.StringIO(), io.StringIO()
    before = current_language()
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main(list(argv))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        install(before)
    return subprocess.CompletedProcess(["p2pclue", *argv], code, out.getvalue(),
                                       err.getvalue())


def as_process(*argv: str, env: Mapping[str, str] | None = None,
               cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``python -m p2pclue ARGV`` as its own process (``env``: its whole environment)."""
    environ = dict(os.environ if env is None else env, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "p2pclue", *argv], capture_output=True,
                          text=True, encoding="utf-8", env=environ, cwd=cwd,
                          timeout=HANG_GUARD, check=False)


def audit_in_process(*args: str) -> tuple[int, list[str]]:
    """``p2pclue audit ARGS`` in this process: (exit status, standard output lines)."""
    done = in_process("audit", *args)
    return done.returncode, done.stdout.splitlines()


def audit_process(*args: str) -> tuple[int, list[str]]:
    """``python -m p2pclue audit ARGS`` as its own process: (exit status, stdout lines)."""
    done = as_process("audit", *args)
    return done.returncode, done.stdout.splitlines()
