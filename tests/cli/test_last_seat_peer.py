"""Issue 20 (8, last): a person whose seat fills the table unasked is asked its suspect then.

``join --peer`` reads no discovery record, so nothing says the seat is the last one: the
opener (``--plain``, one bot guest) has 2 of 3 seats taken, and the person who dials it
with ``--peer`` fills the table. The start waits while ``--plain`` asks the suspect; the
answer (Plum, not the White the table gave) is the suspect the game starts with. Real
processes on 127.0.0.1; every process is stopped at the end.
"""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.tui.drive import ROOT
from tests.tui.test_join_e2e import _net_env


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


def test_the_seat_that_fills_the_table_by_peer_is_asked_its_suspect(tmp_path: Path) -> None:
    env = _net_env(tmp_path)
    opener = _plain(env, "--create", "--no-code", "--players", "3", "--bots", "1",
                    "--bot-think", "0", "--name", "Ada", "--table", "Porch")
    joiner: subprocess.Popen[str] | None = None
    try:
        said: list[str] = []
        port = _until(_lines(opener), said, r"--peer 127\.0\.0\.1:\d+", 60)
        peer = re.search(r"127\.0\.0\.1:\d+", port)
        assert peer is not None
        time.sleep(2.0)  # the opener's bot sits down: one seat left
        joiner = _plain(env, "--peer", peer.group(0), "--table", "Porch", "--name", "Bea",
                        "--profile", "bea")
        got, out = _lines(joiner), []
        asked = _until(got, out, r"Type the suspect's number|Table check", 60)
        assert "Enter: keep Mrs White" in asked, "".join(out)
        assert any("You took the last seat" in line for line in out)
        assert joiner.stdin is not None
        joiner.stdin.write("6\n")
        joiner.stdin.flush()
        _until(got, out, r"The roster is signed", 60)
        mine = [line for line in out if line.startswith("  Bea (you)")]
        assert mine and "Professor Plum" in mine[-1], "".join(out)
        dealt = _until(got, out, r"You were dealt", 60)
        assert dealt and not any("Traceback" in line for line in out)
    finally:
        for proc in (joiner, opener):
            if proc is not None:
                if proc.stdin is not None:
                    proc.stdin.close()
                if proc.poll() is None:
                    proc.kill()
                proc.wait(10)
                if proc.stdout is not None:
                    proc.stdout.close()
