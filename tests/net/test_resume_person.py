"""A person's ``p2pclue join`` killed with SIGKILL comes back by running ``join`` again.

Two detective bots are their own processes; the person plays ``--plain`` over pipes (the
same front end as the full screen, as lines). Mid-game the person's process is killed
with no clean-up; the same ``join`` command then offers to resume, the answer "y" replays
the game folder and re-links, and the person plays to the end. Every process ends with
the same transcript, which ``p2pclue audit`` finds valid; the table saw the person away
and back. Everything binds 127.0.0.1.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.cli.helpers import ROOT, cli_env

TIMEOUT = 240


class Person:
    """``join --plain`` fed "1" (and "y" every third line) as a hurried person would."""

    def __init__(self, env: dict[str, str], out: Path, *args: str, first: str = "") -> None:
        self.out = out
        with out.open("w") as sink:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "p2pclue", "join", "--plain", *args],
                stdin=subprocess.PIPE, stdout=sink, stderr=subprocess.STDOUT, text=True,
                env=env, cwd=ROOT)
        self.first = first
        self.feeder = threading.Thread(target=self._answer, daemon=True)
        self.feeder.start()

    def _answer(self) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            if self.first:
                stdin.write(self.first + "\n")
            for n in range(1_000_000):
                if self.proc.poll() is not None:
                    return
                stdin.write("y\n" if n % 3 == 2 else "1\n")
                stdin.flush()
                time.sleep(0.05)
        except (BrokenPipeError, ValueError, OSError):
            pass

    def said(self) -> str:
        return self.out.read_text("utf-8", "replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.feeder.join(5)


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[str] | Person]]:
    running: list[subprocess.Popen[str] | Person] = []
    try:
        yield running
    finally:
        for p in running:
            if isinstance(p, Person):
                p.stop()
            elif p.poll() is None:
                p.kill()
                p.communicate()


def _wait(what: Callable[[], str], pattern: str, timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pattern in what():
            return
        time.sleep(0.1)
    raise AssertionError(f"no {pattern!r} within {timeout} s:\n{what()[-3000:]}")


def test_a_killed_person_runs_join_again_resumes_and_finishes(
        tmp_path: Path, started: list[subprocess.Popen[str] | Person]) -> None:
    env = cli_env(P2PCLUE_HOME=str(tmp_path / "home"), LANG="C", LC_ALL=None,
                  LC_MESSAGES=None)
    table = f"r-{uuid.uuid4().hex[:6]}"
    bots = []
    host = subprocess.Popen(
        [sys.executable, "-m", "p2pclue", "join", "--create", "--table", table, "--no-code",
         "--players", "3", "--bot", "detective", "--profile", "host", "--json"],
        env=env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    started.append(host)
    assert host.stderr is not None
    port = None
    end = time.monotonic() + 60
    host_said: list[str] = []
    while port is None and time.monotonic() < end:
        line = host.stderr.readline()
        host_said.append(line)
        if "open at 127.0.0.1:" in line:
            port = line.split("open at 127.0.0.1:")[1].split()[0].rstrip(";")
    assert port, "".join(host_said)
    peer = ["--peer", f"127.0.0.1:{port}", "--table", table]
    bots.append(subprocess.Popen(
        [sys.executable, "-m", "p2pclue", "join", *peer, "--bot", "detective", "--profile",
         "bot", "--json"], env=env, cwd=ROOT, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    started.extend(bots)
    first = Person(env, tmp_path / "first.txt", *peer, "--profile", "me")
    started.append(first)
    _wait(first.said, "Table check:", 90)
    _wait(first.said, " suggests: ", 90)  # the game is under way
    first.proc.send_signal(signal.SIGKILL)  # no clean-up of any kind
    first.stop()
    time.sleep(0.5)
    again = Person(env, tmp_path / "again.txt", *peer, "--profile", "me", first="y")
    started.append(again)
    again.proc.wait(TIMEOUT)
    said = again.said()
    assert again.proc.returncode == 0, said[-3000:]
    assert "An unfinished game can be resumed" in said and "Resumed:" in said, said[-3000:]
    assert "valid (" in said and "Traceback" not in said
    results = []
    for p in (host, *bots):
        out, err = p.communicate(timeout=TIMEOUT)
        if p is host:
            host_said.append(err)
        assert p.returncode == 0, err[-3000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    mine = list((tmp_path / "home" / "profiles" / "me" / "games").glob("*/transcript.p2pclue"))
    assert len(mine) == 1
    data = {Path(r["transcript"]).read_bytes() for r in results} | {mine[0].read_bytes()}
    assert len(data) == 1, "one byte-identical transcript at every seat"
    audit = subprocess.run([sys.executable, "-m", "p2pclue", "audit", str(mine[0])], env=env,
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert audit.returncode == 0 and "VALID" in audit.stdout, audit.stdout + audit.stderr
    told = "".join(host_said)
    assert " is away" in told and " is back" in told, told[-3000:]
