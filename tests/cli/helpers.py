"""Run the ``p2pclue`` command: in this process (``run_main``: the same ``main(argv)`` a
process runs, its output captured) where the process boundary is not what a test is about,
or as a real process: through a pipe, or on a real terminal."""

from __future__ import annotations

import contextlib
import io
import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 300


def cli_env(**extra: str | None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env["P2PCLUE_INTERFACES"] = "127.0.0.1"  # never the machine's real network
    env.pop("NO_COLOR", None)
    for key, value in extra.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def p2pclue(*args: str, cwd: Path | None = None,
            **env: str | None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "p2pclue", *args], capture_output=True,
                          text=True, env=cli_env(**env), timeout=TIMEOUT, cwd=cwd)


@dataclass(frozen=True)
class Ran:
    """What ``p2pclue ARGS`` did in this process: as ``subprocess.CompletedProcess``."""

    returncode: int
    stdout: str
    stderr: str


def run_main(*args: str) -> Ran:
    """``p2pclue ARGS`` through ``p2pclue.cli.main`` in this process, its standard output and
    error captured as a pipe would hold them (not a terminal: no colour, no progress line).

    argparse's exits (``--help``, usage errors) become the return code, as in a process.
    ``main`` installs the language it was asked for; English is put back after it. The
    environment is the test's (``monkeypatch.setenv`` for ``P2PCLUE_HOME`` and the like)."""
    from p2pclue.cli import main
    from p2pclue.i18n import install

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(list(args))
            except SystemExit as exc:
                code = exc.code
                status = code if isinstance(code, int) else (0 if code is None else 1)
    finally:
        install("en")
    return Ran(status, out.getvalue(), err.getvalue())


def last_json(out: str) -> dict[str, Any]:
    obj = json.loads(out.strip().splitlines()[-1])
    assert isinstance(obj, dict)
    return obj


def on_terminal(*args: str, **env: str | None) -> tuple[int, str]:
    """Run with standard output and error on a real pseudo-terminal; all it wrote."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "p2pclue", *args], stdin=subprocess.DEVNULL,
                            stdout=slave, stderr=slave, env=cli_env(TERM="xterm", **env),
                            start_new_session=True)
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + TIMEOUT
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1.0)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not data:
                    break
                chunks.append(data)
            elif proc.poll() is not None:
                break
        status = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(master)
    return status, b"".join(chunks).decode("utf-8", "replace")
