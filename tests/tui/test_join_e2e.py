"""End to end over the network: ``p2pclue join`` with a person's seat and local bot peers.

The program runs as its own process; its two bots are real peers with their own keys and
loopback links, found and linked exactly as people's machines are (zeroconf and every
link on 127.0.0.1 only). A person's keys drive the lobby and the game in a real
pseudo-terminal read by pyte (or, with ``--plain``, typed lines over pipes), to the end
screen; the saved transcript must then pass ``p2pclue audit``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.cli.helpers import run_main
from tests.table_names import unique_table
from tests.tui.drive import ROOT, PtyProgram, play_to_the_end

TABLE = unique_table("e2e")
"""This run's table (another run on this machine announces its own)."""
JOIN = [sys.executable, "-m", "p2pclue", "join", "--create", "--no-code", "--bots", "2",
        "--players", "3", "--bot-think", "0", "--pass-delay", "0.05", "--table", TABLE,
        "--name", "Pat"]
"""The person's "cannot refute" held 0.05 s, not 1-3 s: the pacing has its own tests."""


def _net_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(PYTHONPATH=str(ROOT), TERM="xterm-256color", P2PCLUE_INTERFACES="127.0.0.1",
               P2PCLUE_HOME=str(home / "p2pclue"), XDG_DATA_HOME=str(home / "data"),
               XDG_CONFIG_HOME=str(home / "config"), XDG_CACHE_HOME=str(home / "cache"))
    env.pop("NO_COLOR", None)
    return env


def _audit(path: Path) -> None:
    audit = run_main("audit", str(path))  # in this process: the audit is not tested here
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "VALID" in audit.stdout


def test_a_person_plays_a_networked_game_by_keys(tmp_path: Path) -> None:
    env = _net_env(tmp_path)
    transcript = tmp_path / "game.p2pclue"
    prog = PtyProgram([*JOIN, "--level", "hard", "--transcript", str(transcript)], env=env)
    try:
        presses, seen = play_to_the_end(prog, 600, watch_for=("the lobby", "Table check:"))
        prog.pump_until(lambda: "valid (" in prog.text(), what="the audit's verdict")
        end = prog.text()
        assert seen == {"the lobby", "Table check:"}
        assert "The game is over" in end and "valid (" in end
        assert presses > 5
        prog.press("q")
        prog.proc.wait(60)
        assert prog.proc.returncode == 0
        prog.pump(1.0)
        # the full screen gone, the terminal keeps the transcript's path on one line
        after = prog.raw[prog.raw.rfind(b"\x1b[?1049l"):].decode()
        assert f"Transcript (complete): {transcript}\r\n" in after, repr(after)
    finally:
        prog.close()
    _audit(transcript)


def test_plain_mode_plays_a_networked_game_over_pipes(tmp_path: Path) -> None:
    env = _net_env(tmp_path)
    transcript = tmp_path / "plain.p2pclue"
    out_file, err_file = tmp_path / "out.txt", tmp_path / "err.txt"
    with out_file.open("w") as out_w, err_file.open("w") as err_w:
        proc = subprocess.Popen([*JOIN, "--plain", "--level", "hard", "--transcript",
                                 str(transcript)],
                                stdin=subprocess.PIPE, stdout=out_w, stderr=err_w, text=True,
                                env=env, cwd=ROOT)
    assert proc.stdin is not None

    def answer() -> None:  # "1" now and then (and "y" when asked to confirm), to the end
        try:
            for n in range(1_000_000):
                if proc.poll() is not None:
                    return
                proc.stdin.write("y\n" if n % 3 == 2 else "1\n")  # type: ignore[union-attr]
                proc.stdin.flush()  # type: ignore[union-attr]
                time.sleep(0.05)
        except (BrokenPipeError, ValueError, OSError):
            pass

    feeder = threading.Thread(target=answer, daemon=True)
    feeder.start()
    try:
        proc.wait(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        feeder.join(5)
        proc.stdin.close()
    out, err = out_file.read_text(), err_file.read_text()
    assert proc.returncode == 0, out[-3000:] + err[-3000:]
    assert f"Table '{TABLE}'" in out and "Bruno (hard bot)" in out
    assert "Table check:" in out
    assert "Your turn:" in out
    assert "valid (" in out
    assert "Traceback" not in err
    _audit(transcript)


def test_not_a_terminal_suggests_the_other_ways(tmp_path: Path) -> None:
    """A real process whose standard input is no terminal."""
    proc = subprocess.run([*JOIN], capture_output=True, text=True, timeout=120,
                          env=_net_env(tmp_path), cwd=ROOT, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert "not a terminal" in proc.stderr
    assert "--plain" in proc.stderr and "--bot" in proc.stderr and "watch" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_level_is_checked() -> None:
    bad = run_main(*JOIN[3:], "--level", "genius")  # ``join ...``: a usage error, exit 2
    assert bad.returncode == 2 and "--level" in bad.stderr and "medium" in bad.stderr
    helped = run_main("join", "--help")
    assert helped.returncode == 0
    assert "--level" in helped.stdout and "easy" in helped.stdout


def test_join_alone_lists_the_tables_and_sits_at_the_one_chosen(tmp_path: Path) -> None:
    """Another process opens a table (a bot seat and a bot guest); a person runs ``join``,
    picks it, and (taking its last seat) picks a suspect before sitting down. Other tables
    on this machine (another run's, another test's) may be listed too: the person picks
    this one by its number."""
    env = _net_env(tmp_path)
    table = unique_table("Attic")
    opener = subprocess.Popen(
        [sys.executable, "-m", "p2pclue", "join", "--create", "--no-code", "--players", "3",
         "--bot", "random", "--bots", "1", "--table", table, "--profile", "opener",
         "--quiet"], env=env, cwd=ROOT, stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    prog = PtyProgram([sys.executable, "-m", "p2pclue", "join", "--name", "Pat"], env=env)
    try:
        deadline = time.monotonic() + 180  # hang guards, for a loaded machine
        row = re.compile(rf"([> ]) (\d)\. {re.escape(table)}  .*2/3 seats, lobby")
        while not row.search(prog.text()):
            assert time.monotonic() < deadline, prog.text()
            assert prog.proc.poll() is None, prog.text()
            prog.pump(0.3)
        assert "Tables found:" in prog.text()
        while (found := row.search(prog.text())) is None or found.group(1) != ">":
            assert time.monotonic() < deadline, prog.text()
            if found is not None:
                prog.press(found.group(2))  # the cursor to this table's row
            prog.pump(0.3)
        prog.press("\r")
        # the last seat: the game starts as soon as it is taken, so the suspect comes first
        while "You take the last seat" not in prog.text():
            assert time.monotonic() < deadline, prog.text()
            prog.pump(0.2)
        prog.pump_quiet()
        # the table's record says which two suspects are sat as already
        marks = [ln.split()[-1] for ln in prog.screen.display if ln[2:4] in
                 [f"{k}." for k in range(1, 7)]]
        assert sorted(marks) == ["free"] * 4 + ["taken"] * 2, prog.text()
        prog.press("5")
        prog.press("\r")
        deadline = time.monotonic() + 240
        seen_check = False
        while "Notepad" not in prog.text():  # the lobby, the check, then the game screen
            assert time.monotonic() < deadline, prog.text()
            seen_check = seen_check or "Table check:" in prog.text()
            prog.pump(0.2)
        assert seen_check
        prog.pump_until(lambda: "you: " in prog.screen.display[0], what="the status line")
        assert "you: Mrs Peacock" in prog.screen.display[0], prog.text()
        prog.press("q")
        prog.pump_until(lambda: "y: quit" in prog.text(), what="the quit question")
        prog.press("y")
        prog.proc.wait(60)
        assert prog.proc.returncode == 0, prog.text()
        # the others now wait for the seat that left (the runner's silences); not this test's
    finally:
        prog.close()
        if opener.poll() is None:
            opener.kill()
        opener.wait(10)
        if opener.stderr:
            opener.stderr.close()
