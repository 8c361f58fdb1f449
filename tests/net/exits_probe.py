"""Count how the ways of leaving an internet table end: ``python -m tests.net.exits_probe
WAY [TRIES]`` from the repository root (iroh on 127.0.0.1, relays off).

Each try starts real processes (a person's on a pseudo-terminal read by pyte, or at
``--plain``, bots from other processes), leaves the way named, and prints the exit status
and whether the process aborted ("FATAL: exception not rethrown", SIGABRT, or "Fatal
Python error"); the last line sums them up. ``tests/net/test_iroh_quit.py`` asserts the
lobby's case; this counts every way, as many times as asked.

Ways: ``lobby-q`` and ``lobby-cc`` (q, Ctrl-C in the full-screen lobby with a joiner
linked), ``lobby-alone`` (q with nobody else there), ``game-q`` (q, q in the game: quit,
resume later), ``plain-q`` and ``plain-int`` (``--plain`` lobby: the q line, SIGINT),
``watch-int`` (SIGINT to ``watch --ticket``), ``finished`` (a whole game of bots).
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tests.net.procs import net_env
from tests.tui.drive import PtyProgram

P2PCLUE = [sys.executable, "-m", "p2pclue"]
GUARD = 120.0
"""Seconds any one step may take before the try counts as hung."""
TABLE = ["--no-relay", "--code", "2718", "--players", "3", "--table", "Attic"]
ABORTS = ("FATAL", "Fatal Python")

Ending = tuple[int | None, str]
"""The exit status (None: still running after ``GUARD`` s) and what the process said."""


def _ticket_on(prog: PtyProgram) -> str | None:
    joined = "".join(row.strip() for row in prog.screen.display)
    found = re.search(r"--ticket(clue1[a-z2-7]+) --code", joined)
    return found.group(1) if found else None


def _ended(prog: PtyProgram) -> Ending:
    end = time.monotonic() + GUARD
    while prog.proc.poll() is None and time.monotonic() < end:
        prog.pump(0.1)
    prog.pump(0.2)
    return prog.proc.poll(), bytes(prog.raw).decode("utf-8", "replace")


def _bot(home: Path, ticket: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*P2PCLUE, "join", "--ticket", ticket, "--code", "2718",
                             "--no-relay", "--bot", "detective", "--profile", "guest", "--json"],
                            env=net_env(home / "guest"), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def _person(home: Path, *extra: str) -> PtyProgram:
    env = dict(net_env(home / "home"), TERM="xterm-256color")
    return PtyProgram([*P2PCLUE, "join", "--lang", "en", "--create", "--internet", *TABLE,
                       "--name", "Pat", "--profile", "person", *extra], env=env)


def lobby(home: Path, key: str, joiner: bool = True) -> Ending:
    prog, bots = _person(home), []
    try:
        prog.pump_until(lambda: _ticket_on(prog) is not None, GUARD, "the ticket")
        if joiner:
            bots.append(_bot(home, _ticket_on(prog) or ""))
            prog.pump_until(lambda: "Your links:" in prog.text(), GUARD, "the link")
        prog.pump_quiet(0.3, 2.0)
        prog.press(key)
        return _ended(prog)
    finally:
        prog.close()
        for bot in bots:
            bot.kill()
            bot.wait()


def game_q(home: Path) -> Ending:
    prog = _person(home, "--bots", "2", "--bot-think", "0")
    try:
        prog.pump_until(lambda: prog.text().count("ready") >= 3, GUARD, "the bots ready")
        prog.pump_quiet(0.3, 2.0)
        prog.press("r")
        prog.pump_until(lambda: "?:help" in prog.bar(), GUARD, "the game's screen")
        prog.pump_quiet(0.5, 5.0)
        prog.press("q")
        prog.pump_quiet(0.3, 3.0)
        prog.press("q")
        return _ended(prog)
    finally:
        prog.close()


def plain(home: Path, how: str) -> Ending:
    out = home / "plain.txt"
    with out.open("w") as sink:
        person = subprocess.Popen(
            [*P2PCLUE, "join", "--plain", "--lang", "en", "--create", "--internet", *TABLE,
             "--name", "Pat", "--profile", "person"], stdin=subprocess.PIPE, stdout=sink,
            stderr=subprocess.STDOUT, text=True, env=net_env(home / "home", LANG="C"))
    bots = []
    try:
        end = time.monotonic() + GUARD
        while (found := re.search(r"--ticket (clue1[a-z2-7]+)", out.read_text())) is None:
            assert time.monotonic() < end and person.poll() is None, out.read_text()
            time.sleep(0.05)
        bots.append(_bot(home, found.group(1)))
        while "Your links" not in out.read_text():
            assert time.monotonic() < end and person.poll() is None, out.read_text()
            time.sleep(0.05)
        time.sleep(0.3)
        if how == "q":
            assert person.stdin is not None
            person.stdin.write("q\n")
            person.stdin.flush()
        else:
            person.send_signal(signal.SIGINT)
        try:
            status: int | None = person.wait(GUARD)
        except subprocess.TimeoutExpired:
            status = None
        return status, out.read_text()
    finally:
        if person.poll() is None:
            person.kill()
            person.wait()
        for bot in bots:
            bot.kill()
            bot.wait()


def watch_int(home: Path) -> Ending:
    host = subprocess.Popen([*P2PCLUE, "join", "--create", "--internet", *TABLE, "--bots", "2",
                             "--bot", "detective", "--bot-think", "0.3"],
                            env=net_env(home / "host"), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    prog: PtyProgram | None = None
    try:
        assert host.stdout is not None
        ticket = None
        while ticket is None:
            line = host.stdout.readline()
            assert line, "the opener ended before its ticket"
            found = re.search(r"ticket: (clue1[a-z2-7]+)", line)
            ticket = found.group(1) if found else None
        env = dict(net_env(home / "watcher"), TERM="xterm-256color")
        prog = PtyProgram([*P2PCLUE, "watch", "--ticket", ticket, "--code", "2718",
                           "--no-relay", "--profile", "watcher", "--lang", "en"], env=env)
        watcher = prog
        watcher.pump_until(lambda: "watching" in watcher.text(), GUARD, "watching")
        watcher.pump(1.0)
        watcher.proc.send_signal(signal.SIGINT)
        return _ended(watcher)
    finally:
        if prog is not None:
            prog.close()
        host.kill()
        host.wait()


def finished(home: Path) -> Ending:
    ran = subprocess.run([*P2PCLUE, "join", "--create", "--internet", *TABLE, "--bots", "2",
                          "--bot", "detective", "--bot-think", "0", "--json"],
                         env=net_env(home / "host"), capture_output=True, text=True,
                         timeout=10 * GUARD, check=False)
    return ran.returncode, ran.stdout + ran.stderr


WAYS: dict[str, Callable[[Path], Ending]] = {
    "lobby-q": lambda home: lobby(home, "q"),
    "lobby-cc": lambda home: lobby(home, "\x03"),
    "lobby-alone": lambda home: lobby(home, "q", joiner=False),
    "game-q": game_q,
    "plain-q": lambda home: plain(home, "q"),
    "plain-int": lambda home: plain(home, "int"),
    "watch-int": watch_int,
    "finished": finished,
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in WAYS:
        print(f"usage: python -m tests.net.exits_probe {{{'|'.join(WAYS)}}} [TRIES]",
              file=sys.stderr)
        return 2
    way, tries = argv[0], int(argv[1]) if len(argv) > 1 else 20
    aborted, statuses = 0, []
    for i in range(tries):
        home = Path(tempfile.mkdtemp(prefix="p2pclue-exits-"))
        try:
            status, said = WAYS[way](home)
        finally:
            shutil.rmtree(home, ignore_errors=True)
        bad = status is None or status < 0 or any(a in said for a in ABORTS)
        aborted += bad
        statuses.append(status)
        print(f"{way} {i + 1}/{tries}: exit status {status}" + (
            f"  ABORTED OR HUNG: {said[-200:]!r}" if bad else ""), flush=True)
    print(f"{way}: {aborted} of {tries} aborted or hung; exit statuses "
          f"{sorted({str(s) for s in statuses})}")
    return 1 if aborted else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
