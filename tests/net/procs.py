"""Real ``p2pclue`` processes for the tests that are about processes: started with this
checkout on loopback, watched through what they print, always ended.

Each process writes its standard output and error to files of its own, read as they grow,
so a test waits for the line it needs (an event) and never for a fixed time. The only
clock is ``HANG_GUARD``: a bound no healthy process comes near, even on a loaded machine,
that turns a hang into a failure that shows what the process said.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HANG_GUARD = 600.0
"""Seconds before a wait gives up: only a hung process or game takes this long."""
POLL = 0.05
"""Seconds between two looks at a growing output file."""


def net_env(home: Path, **extra: str | None) -> dict[str, str]:
    """A process's environment: this checkout, its own home, loopback only, English (a
    test that wants another language asks with ``--lang``)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), P2PCLUE_HOME=str(home),
               P2PCLUE_INTERFACES="127.0.0.1", LANG="C.UTF-8")
    for name in ("LC_ALL", "LC_MESSAGES", "NO_COLOR"):
        env.pop(name, None)
    for name, value in extra.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def _as_from_a_terminal() -> None:
    """Ctrl-C works in the child as in a person's terminal: a test runner started in the
    background (SIGINT ignored, which children inherit) must not make it a no-op."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Proc:
    """One process; what it prints goes to ``NAME.out`` and ``NAME.err`` in ``folder``."""

    def __init__(self, argv: list[str], env: dict[str, str], folder: Path, name: str, *,
                 stdin: int | None = subprocess.DEVNULL) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.out_path = folder / f"{name}.out"
        self.err_path = folder / f"{name}.err"
        with self.out_path.open("wb") as out, self.err_path.open("wb") as err:
            self.proc = subprocess.Popen(argv, env=env, cwd=ROOT, stdin=stdin, stdout=out,
                                         stderr=err, preexec_fn=_as_from_a_terminal)

    def out(self) -> str:
        return self.out_path.read_text("utf-8", "replace")

    def err(self) -> str:
        return self.err_path.read_text("utf-8", "replace")

    def said(self) -> str:
        """Both streams, for a failure's message."""
        return f"[{self.name} stdout]\n{self.out()[-2000:]}\n[{self.name} stderr]\n" \
               f"{self.err()[-3000:]}"

    def wait_for(self, pattern: str, *, stream: str = "err",
                 guard: float = HANG_GUARD) -> re.Match[str]:
        """The first match of ``pattern`` (multi-line) in what the process printed, once it
        is there; fails at once if the process ends without printing it."""
        read = self.err if stream == "err" else self.out
        found_re = re.compile(pattern, re.MULTILINE)
        end = time.monotonic() + guard
        while True:
            ended = self.proc.poll() is not None  # looked at before the last read
            found = found_re.search(read())
            if found:
                return found
            assert not ended, f"{self.name} ended ({self.proc.returncode}) without " \
                              f"{pattern!r}:\n{self.said()}"
            assert time.monotonic() < end, f"no {pattern!r} within {guard} s:\n{self.said()}"
            time.sleep(POLL)

    def finish(self, guard: float = HANG_GUARD) -> tuple[int, str, str]:
        """Wait for the end: the exit status and both streams."""
        try:
            code = self.proc.wait(guard)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{self.name} still running after {guard} s:\n"
                                 f"{self.said()}") from None
        return code, self.out(), self.err()

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, as a crash."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


class Procs:
    """Every process a test started, killed at its end whatever happened."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.folder = folder
        self.env = env
        self.started: list[Proc] = []

    def p2pclue(self, name: str, *args: str, env: dict[str, str] | None = None,
                stdin: int | None = subprocess.DEVNULL) -> Proc:
        return self.command(name, sys.executable, "-m", "p2pclue", *args, env=env,
                            stdin=stdin)

    def command(self, name: str, *argv: str, env: dict[str, str] | None = None,
                stdin: int | None = subprocess.DEVNULL) -> Proc:
        p = Proc(list(argv), env or self.env, self.folder, name, stdin=stdin)
        self.started.append(p)
        return p

    def kill_all(self) -> None:
        for p in self.started:
            p.kill()
            if p.proc.stdin is not None:
                with contextlib.suppress(OSError):
                    p.proc.stdin.close()

