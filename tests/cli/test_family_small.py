"""Issue 20, point 8: the small things a family tripped over: in a real process where a
terminal, a signal, the end of input or the network is at stake; ``p2pclue`` in this process
for the checks made before anything opens.

- Ctrl-C at "Resume it now?" stops at once (it used to be lost inside the event loop);
- ``--transcript`` is checked before a table is opened or joined, and neither ``join`` nor
  ``simulate`` silently replaces an earlier game;
- ``--plain`` whose input runs dry in the lobby says so and exits 2 (it exited 0, silently).
"""

from __future__ import annotations

import fcntl
import os
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pyte
import pytest

from tests.cli.helpers import ROOT, cli_env, run_main
from tests.tui.drive import PtyProgram


class ControllingTerminal(PtyProgram):
    """The program with the pty as its controlling terminal, as in a real shell: a typed
    Ctrl-C reaches it as SIGINT (``PtyProgram``'s own session has no controlling
    terminal, which full-screen tests do not need)."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))

        def take_terminal() -> None:
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            # as a shell starts a command: Ctrl-C interrupts (a runner started in the
            # background, SIGINT ignored, would hand that on and the test would hang)
            signal.signal(signal.SIGINT, signal.SIG_DFL)

        self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     preexec_fn=take_terminal, cwd=ROOT)
        os.close(slave)
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()


def _unfinished_game(home: Path) -> None:
    game = home / "profiles" / "default" / "games" / "0123456789abcdef"
    game.mkdir(parents=True)
    for name in ("start.bin", "secrets.bin", "transcript.p2pclue"):
        (game / name).write_bytes(b"not finished")


def test_ctrl_c_at_resume_it_now_stops_at_once(tmp_path: Path) -> None:
    _unfinished_game(tmp_path)
    env = cli_env(P2PCLUE_HOME=str(tmp_path), LANG="C", TERM="xterm-256color")
    prog = ControllingTerminal([sys.executable, "-m", "p2pclue", "join", "--create",
                                "--no-code", "--bots", "2", "--name", "Pat", "--lang", "en"],
                               env)
    try:
        deadline = time.monotonic() + 120
        while "Resume it now?" not in prog.text():
            assert time.monotonic() < deadline, prog.text()
            prog.pump(0.2)
        prog.press("\x03")  # one Ctrl-C
        stopped = time.monotonic() + 60  # at once; a loaded machine is slow, not stuck
        while prog.proc.poll() is None and time.monotonic() < stopped:
            prog.pump(0.2)
        assert prog.proc.poll() == 130, prog.text()
        assert "interrupted" in prog.text() and "lobby" not in prog.text()
    finally:
        prog.close()


def test_simulate_never_replaces_an_earlier_transcript(tmp_path: Path) -> None:
    earlier = tmp_path / "game.p2pclue"
    earlier.write_bytes(b"an earlier game")
    done = run_main("simulate", "--players", "3", "--seed", "1", "--transcript", str(earlier))
    assert done.returncode == 2 and "already exists" in done.stderr, done.stderr
    assert done.stdout == "" and earlier.read_bytes() == b"an earlier game"


def test_join_checks_its_transcript_before_opening_a_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("P2PCLUE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("P2PCLUE_INTERFACES", "127.0.0.1")
    earlier = tmp_path / "game.p2pclue"
    earlier.write_bytes(b"an earlier game")
    for path, message in ((earlier, "already exists"),
                          (tmp_path / "nowhere" / "g.p2pclue", "does not exist")):
        done = run_main("join", "--create", "--bot", "random", "--no-code", "--transcript",
                        str(path))
        assert done.returncode == 2 and message in done.stderr, done.stderr
        assert "open at" not in done.stdout + done.stderr, "checked before the table opened"
    assert earlier.read_bytes() == b"an earlier game"


def test_plain_input_running_dry_in_the_lobby_says_so(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "p2pclue", "join", "--plain", "--create", "--no-code",
         "--players", "3", "--lang", "en"], stdin=subprocess.DEVNULL, capture_output=True,
        text=True, env=cli_env(P2PCLUE_HOME=str(tmp_path)), timeout=240, cwd=ROOT)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "the input ended before the game started" in done.stderr


def test_watch_tells_each_arrival_once_and_wraps_between_words(tmp_path: Path) -> None:
    """The watcher is at the table before the game can start, whatever the machine's load:
    the table wants four players, and the fourth is sent only once the opener lists the
    watcher. (Racing a three-bot table, which starts at once and plays a game in about three
    seconds, failed on a loaded CI machine: the watcher found it as it closed.)"""
    from tests.cli.helpers import on_terminal

    env = cli_env(P2PCLUE_HOME=str(tmp_path))
    table = f"W{os.getpid()}"  # two runs at once on one machine must not meet each other
    procs: list[subprocess.Popen[bytes]] = []
    opener_log, late_log = tmp_path / "opener.log", tmp_path / "late.log"
    watcher_seen = threading.Event()
    stop = threading.Event()

    def fill_the_last_seat() -> None:
        while not stop.wait(0.2):
            if "Watcher watching" in opener_log.read_text(errors="replace"):
                watcher_seen.set()
                with late_log.open("wb") as late:
                    procs.append(subprocess.Popen(
                        [sys.executable, "-m", "p2pclue", "join", "--bot", "random", "--table",
                         table, "--profile", "late", "--name", "Late", "--wait", "60"],
                        stdout=late, stderr=subprocess.STDOUT, env=env, cwd=ROOT))
                return

    with opener_log.open("wb") as log:  # read back if the watcher fails
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "p2pclue", "join", "--create", "--bot", "random", "--bots",
             "2", "--players", "4", "--no-code", "--table", table, "--profile", "op",
             "--lang", "en"], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT))
    filler = threading.Thread(target=fill_the_last_seat)
    filler.start()
    try:
        status, out = on_terminal("watch", "--table", table, "--profile", "watcher", "--name",
                                  "Watcher", "--wait", "60", "--lang", "en",
                                  P2PCLUE_HOME=str(tmp_path))
    finally:
        stop.set()
        filler.join()
        for proc in procs:
            try:
                proc.wait(60 if watcher_seen.is_set() else 1)
            except subprocess.TimeoutExpired:  # never left behind, even when the test fails
                proc.kill()
                proc.wait()
    told_by = ("\n--- the opener:\n" + opener_log.read_text()[-3000:]
               + "\n--- the last player:\n"
               + (late_log.read_text()[-2000:] if late_log.exists() else "(not started)"))
    assert watcher_seen.is_set(), out[-2000:] + told_by
    lines = out.replace("\r", "").splitlines()
    assert status == 0, out[-2000:] + told_by
    for who in ("Ada (random bot)", "Bruno (random bot)", "Chiara (random bot)", "Late"):
        assert sum(line == f"{who} is here" for line in lines) == 1, out[:2000]
    told_lines = [ln for ln in lines if "transcript" not in ln]  # a path is not cut
    assert all(len(line) <= 79 for line in told_lines), max(told_lines, key=len)
    told = " ".join(" ".join(lines).split())
    assert "the Candlestick in the" in told or "Candlestick" not in told
    assert "The weapons are hidden around the house:" in told


def test_plain_input_running_dry_in_the_game_says_how_to_come_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A --plain player whose input ends mid-game quits to resume later (the file stays
    unfinished and is offered by --resume list): the last lines say so, not only "Leaving"."""
    env = cli_env(P2PCLUE_HOME=str(tmp_path))
    proc = subprocess.Popen(
        [sys.executable, "-m", "p2pclue", "join", "--plain", "--create", "--no-code",
         "--bots", "2", "--bot-think", "0", "--name", "Pia", "--lang", "en"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
        cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        seen = ""
        deadline = time.monotonic() + 240
        while "roll the die" not in seen and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            seen += line.decode(errors="replace")
        assert "roll the die" in seen, seen[-2000:]
        proc.stdin.close()  # the input ends on this person's turn
        rest = proc.stdout.read().decode(errors="replace")
        assert proc.wait(240) == 0, rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Leaving the table." in rest
    assert "come back with p2pclue join --resume" in rest, rest
    monkeypatch.setenv("P2PCLUE_HOME", str(tmp_path))
    listed = run_main("join", "--resume", "list")
    assert listed.returncode == 0 and listed.stdout.strip(), listed.stdout + listed.stderr
