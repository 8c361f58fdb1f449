"""The ``p2pclue`` command run in the test's own process: ``p2pclue.cli.main`` with the
arguments, the environment and the streams a process would have had.

For the tests of a command's answers (an exit status, one line on stderr) where the
process boundary is not what is tested: ``python -m p2pclue`` is ``sys.exit(main())``, so
the status is the same, and an exception that would have been a traceback there fails
the test here. Each command keeps a few real-process cases (tests/net/procs.py).
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

import pytest

from p2pclue.i18n import install


class HangGuard(BaseException):
    """A command that should have answered at once is still running (a BaseException, so
    that no ``except Exception`` in the command can turn it into an answer)."""


@contextlib.contextmanager
def hang_guard(seconds: float) -> Iterator[None]:
    """Interrupt the main thread after ``seconds`` (a blocking call included)."""
    def ring(signum: int, frame: FrameType | None) -> None:
        raise HangGuard(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             home: Path, *argv: str, guard: float = 60.0, **env: str) -> Ran:
    """``p2pclue ARGV`` with ``P2PCLUE_HOME=home`` on loopback; the language goes back to
    English afterwards (the command installs the one it was asked for)."""
    from p2pclue.cli import main

    monkeypatch.setenv("P2PCLUE_HOME", str(home))
    monkeypatch.setenv("P2PCLUE_INTERFACES", "127.0.0.1")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    capsys.readouterr()  # what the test printed before is not the command's
    try:
        with hang_guard(guard):
            code: int | str | None = main(list(argv))
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code
    finally:
        install("en")
    out, err = capsys.readouterr()
    assert isinstance(code, int), code
    return Ran(code, out, err)
