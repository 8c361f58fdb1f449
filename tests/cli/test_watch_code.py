"""``p2pclue watch`` asks for a coded table's code as ``join`` does: a spectator who ran
``watch --table NAME`` without ``--code`` is asked on the terminal, told when a code was
wrong (and how many they tried), and watches once the right one is typed. Real processes:
an opener with a code and one bot (its table waits for a fourth seat), and ``watch`` on a
pseudo-terminal; zeroconf and every link stay on 127.0.0.1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.table_names import unique_table
from tests.tui.drive import ROOT, PtyProgram
from tests.tui.test_join_e2e import _net_env

CODE = "573921"


def test_watch_asks_for_the_code_again_after_a_wrong_one(tmp_path: Path) -> None:
    env = _net_env(tmp_path)
    table = unique_table("Den")
    opener = subprocess.Popen(
        [sys.executable, "-m", "p2pclue", "join", "--create", "--code", CODE, "--players", "4",
         "--bot", "random", "--bots", "1", "--table", table, "--profile", "opener", "--quiet"],
        env=env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    watch = PtyProgram([sys.executable, "-m", "p2pclue", "watch", "--table", table,
                        "--profile", "watcher"], env=env)
    try:
        watch.pump_until(lambda: "Table code:" in watch.text(), 180, "the code question")
        assert f"The table '{table}'" in watch.text() and "needs its table code" in watch.text()
        watch.press("000000\r")
        watch.pump_until(lambda: "wrong code" in watch.text(), 120, "the wrong code said")
        watch.pump_until(lambda: "you tried 1 wrong code" in watch.text(), 30, "the count")
        watch.pump_until(lambda: watch.text().rstrip().endswith("Table code:"), 30,
                         "the question again")
        watch.press(CODE + "\r")
        watch.pump_until(lambda: f"Table '{table}'" in watch.text(), 120, "the lobby, watched")
        assert watch.proc.poll() is None
    finally:
        watch.close()
        if opener.poll() is None:
            opener.kill()
        opener.wait(10)


def test_watch_without_a_terminal_still_says_the_code_is_needed(tmp_path: Path) -> None:
    """No terminal to ask on (a script): the refusal is the answer, one line, exit 2."""
    env = _net_env(tmp_path)
    table = unique_table("Loft")
    opener = subprocess.Popen(
        [sys.executable, "-m", "p2pclue", "join", "--create", "--code", CODE, "--players", "4",
         "--bot", "random", "--bots", "1", "--table", table, "--profile", "opener", "--quiet"],
        env=env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    try:
        done = subprocess.run([sys.executable, "-m", "p2pclue", "watch", "--table", table,
                               "--profile", "watcher"], env=env, cwd=ROOT, timeout=240,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True)
    finally:
        if opener.poll() is None:
            opener.kill()
        opener.wait(10)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "p2pclue watch:" in done.stderr and "Traceback" not in done.stderr
    assert "Table code:" not in done.stdout
