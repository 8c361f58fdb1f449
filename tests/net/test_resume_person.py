"""A person's ``p2pclue join`` killed with SIGKILL comes back by running ``join`` again.

The opener and its bot are one process (``--bot detective --bots 1``); the person plays
``--plain`` over a pipe (the same front end as the full screen, as lines), answering each
question as it is asked. Once the game is under way the person's process is killed with no
clean-up; the same ``join`` command then offers to resume, the answer "y" replays the game
folder and re-links, and the person plays to the end. Every seat ends with the same
transcript, which the audit finds valid; the table saw the person away and back. Everything
binds 127.0.0.1, and every wait is for a line printed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from tests.net.plain_person import PlainPerson
from tests.net.procs import ROOT, Procs


class Person:
    """``join --plain`` fed "1" (and "y" every third line) as a hurried person would, never
    looking at the questions (tests/tui/test_local_bots_stay.py uses it)."""

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


def test_a_killed_person_runs_join_again_resumes_and_finishes(
        tmp_path: Path, procs: Procs) -> None:
    home = tmp_path / "home"
    table = f"r-{uuid.uuid4().hex[:6]}"
    host = procs.p2pclue("host", "join", "--create", "--table", table, "--no-code",
                         "--players", "3", "--bot", "detective", "--bots", "1", "--profile",
                         "host", "--json")
    port = host.wait_for(r"open at 127\.0\.0\.1:(\d+)").group(1)
    peer = ["--peer", f"127.0.0.1:{port}", "--table", table, "--profile", "me",
            "--pass-delay", "0"]  # its automatic passes at once: not what is tested
    first = PlainPerson(home, tmp_path / "first.txt", *peer)
    try:
        first.play_until(r"Table check:")
        first.play_until(r" suggests: ")  # the game is under way
    finally:
        first.stop()  # SIGKILL: no clean-up of any kind
    again = PlainPerson(home, tmp_path / "again.txt", *peer)
    try:
        again.type("y")  # "Resume it now?"
        again.play_until(r"(?m)^valid \(")
        said = again.said()
        assert again.finish() == 0, said[-3000:]
    finally:
        again.stop()
    said = again.said()
    assert "An unfinished game can be resumed" in said and "Resumed:" in said, said[-3000:]
    assert "Traceback" not in said
    code, out, err = host.finish()
    assert code == 0, host.said()
    found = json.loads(out.strip().splitlines()[-1])
    profiles = home / "profiles"
    mine = [sorted((profiles / p / "games").glob("*/transcript.p2pclue"))
            for p in ("me", "host.bot1")]
    assert all(len(m) == 1 for m in mine), mine
    data = {Path(found["transcript"]).read_bytes()} | {m[0].read_bytes() for m in mine}
    assert len(data) == 1, "one byte-identical transcript at every seat"
    raw = data.pop()
    assert audit(parse(raw), raw).valid
    assert " is away" in err and " is back" in err, host.said()
