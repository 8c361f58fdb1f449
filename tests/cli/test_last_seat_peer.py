"""Issue 20 (8, last): a person whose seat fills the table unasked is asked its suspect then.

``join --peer`` reads no discovery record, so nothing says the seat is the last one: the
opener (``--plain``, one bot guest) has 2 of 3 seats taken, and the person who dials it
with ``--peer`` fills the table. The start waits while ``--plain``, or the full screen at
80 x 24 (read by pyte), asks the suspect; the answer (Plum, not the White the table gave)
is the suspect the game starts with. Real processes on 127.0.0.1; every process is stopped
at the end.
"""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.table_names import unique_table
from tests.tui.drive import ROOT, PtyProgram
from tests.tui.test_join_e2e import _net_env

HANG = 180
"""Seconds before a wait fails: a hang guard, generous for a loaded machine."""
TABLE = unique_table("Porch")
"""This run's table: another run's opener on this machine announces its own."""


def _lines(proc: subprocess.Popen[str]) -> queue.Queue[str]:
    got: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            got.put(line)

    threading.Thread(target=read, daemon=True).start()
    return got


def _until(got: queue.Queue[str], out: list[str], pattern: str, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no {pattern!r} in:\n{''.join(out[-30:])}"
        try:
            out.append(got.get(timeout=left))
        except queue.Empty:
            continue
        if re.search(pattern, out[-1]):
            return out[-1]


def _plain(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "p2pclue", "join", "--plain", "--lang", "en",
                             *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)


def _opener(env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    """The opener with its bot guest (2 of 3 seats), and the address to dial it at."""
    opener = _plain(env, "--create", "--no-code", "--players", "3", "--bots", "1",
                    "--bot-think", "0", "--name", "Ada", "--table", TABLE)
    said: list[str] = []
    got = _lines(opener)
    port = _until(got, said, r"--peer 127\.0\.0\.1:\d+", HANG)
    peer = re.search(r"127\.0\.0\.1:\d+", port)
    assert peer is not None
    _until(got, said, r"Bruno \(medium bot\)", HANG)  # its bot sat down: one seat left
    return opener, peer.group(0)


def _stop(opener: subprocess.Popen[str]) -> None:
    if opener.stdin is not None:
        opener.stdin.close()
    if opener.poll() is None:
        opener.kill()
    opener.wait(10)
    if opener.stdout is not None:
        opener.stdout.close()


def test_the_full_screen_asks_the_suspect_of_the_seat_that_fills_the_table(
        tmp_path: Path) -> None:
    env = _net_env(tmp_path)
    opener, peer = _opener(env)
    prog = PtyProgram([sys.executable, "-m", "p2pclue", "join", "--peer", peer, "--table",
                       TABLE, "--name", "Bea", "--profile", "bea", "--lang", "en"], env=env)
    try:
        deadline = time.monotonic() + HANG
        while "You took the last seat" not in prog.text():
            assert time.monotonic() < deadline and "Notepad" not in prog.text(), prog.text()
            assert prog.proc.poll() is None, prog.text()
            prog.pump(0.2)
        assert "Mrs White (yours)" in prog.text(), prog.text()
        prog.press("6\r")
        while "Notepad" not in prog.text():  # the game's screen: the start was signed
            assert time.monotonic() < deadline, prog.text()
            assert prog.proc.poll() is None, prog.text()
            prog.pump(0.2)
        assert "you: Professor Plum" in prog.screen.display[0], prog.screen.display[0]
    finally:
        prog.close()
        _stop(opener)


def test_the_seat_that_fills_the_table_by_peer_is_asked_its_suspect(tmp_path: Path) -> None:
    env = _net_env(tmp_path)
    opener, peer = _opener(env)
    joiner: subprocess.Popen[str] | None = None
    try:
        joiner = _plain(env, "--peer", peer, "--table", TABLE, "--name", "Bea",
                        "--profile", "bea")
        got, out = _lines(joiner), list[str]()
        asked = _until(got, out, r"Type the suspect's number|Table check", HANG)
        assert "Enter: keep Mrs White" in asked, "".join(out)
        assert any("You took the last seat" in line for line in out)
        assert joiner.stdin is not None
        joiner.stdin.write("6\n")
        joiner.stdin.flush()
        _until(got, out, r"The roster is signed", HANG)
        mine = [line for line in out if line.startswith("  Bea (you)")]
        assert mine and "Professor Plum" in mine[-1], "".join(out)
        dealt = _until(got, out, r"You were dealt", HANG)
        assert dealt and not any("Traceback" in line for line in out)
    finally:
        if joiner is not None:
            _stop(joiner)
        _stop(opener)
