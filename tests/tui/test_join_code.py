"""Issue 20.1: picking a coded table from the ``p2pclue join`` list asks for its code.

Another process opens a table with a code (a bot seat and a bot guest); a person runs
``join`` alone, picks the table from the list, types a wrong code (told so, and counted
for the whole table), then the right one, and sits down. Once at 80x24 in a real
pseudo-terminal read by pyte, once with ``--plain`` over pipes. Zeroconf and every link
stay on 127.0.0.1.
"""

from __future__ import annotations

import queue
import secrets
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.tui.drive import ROOT, PtyProgram
from tests.tui.test_join_e2e import _net_env

CODE = "482913"


def _opener(env: dict[str, str], table: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "p2pclue", "join", "--create", "--code", CODE, "--players", "3",
         "--bot", "random", "--bots", "1", "--table", table, "--profile", "opener",
         "--quiet"], env=env, cwd=ROOT, stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(10)
    if proc.stderr:
        proc.stderr.close()


def _wait_screen(prog: PtyProgram, text: str, seconds: float) -> None:
    """Read the screen until ``text`` is on it; ``seconds`` is a hang guard."""
    deadline = time.monotonic() + seconds
    while text not in prog.text():
        assert time.monotonic() < deadline, f"no {text!r} on:\n{prog.text()}"
        assert prog.proc.poll() is None, prog.text()
        prog.pump(0.2)


def _wait_screen_any(prog: PtyProgram, texts: tuple[str, ...], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not any(text in prog.text() for text in texts):
        assert time.monotonic() < deadline, f"none of {texts!r} on:\n{prog.text()}"
        assert prog.proc.poll() is None, prog.text()
        prog.pump(0.2)


def _number(lines: list[str], table: str) -> str:
    """The list number of ``table`` (other tables on this machine's loopback may be listed)."""
    line = next(line for line in lines if f". {table} " in line)
    return line.split(".")[0].strip(" >")


def test_the_full_screen_asks_for_the_code_and_again_after_a_wrong_one(tmp_path: Path) -> None:
    env = _net_env(tmp_path)
    table = f"Attic-{secrets.token_hex(3)}"
    opener = _opener(env, table)
    prog = PtyProgram([sys.executable, "-m", "p2pclue", "join", "--name", "Pat"], env=env)
    try:
        _wait_screen(prog, table, 120)
        number = _number(prog.screen.display, table)
        prog.press(number)
        _wait_screen(prog, f"> {number}. {table}", 120)  # picked by its number
        prog.press("\r")
        # Its suspect first (any one) when the record already says one seat is free; a
        # record read before the opener's bot guest sat down says two, and goes to the code.
        _wait_screen_any(prog, ("You take the last seat", "needs its table"), 120)
        asked_first = "You take the last seat" in prog.text()
        if asked_first:
            prog.press("\r")
            _wait_screen(prog, "needs its table", 120)
        assert "Type the code" in prog.bar()
        prog.press("111111")
        _wait_screen(prog, "Table code: 111111_", 120)
        prog.press("\x7f\r")  # a backspace, then Enter: "11111" is wrong too
        _wait_screen(prog, "Wrong code", 120)
        assert "needs its table" in prog.text()  # asked again, nothing typed yet
        assert "Table code: _" in prog.text()
        assert "So far you tried 1 wrong code at this table." in prog.text()  # counted
        prog.press(CODE + "\r")
        deadline = time.monotonic() + 240  # a hang guard, for a loaded machine
        seen = set()
        while "Notepad" not in prog.text():  # the lobby, the check, then the game screen
            assert time.monotonic() < deadline, prog.text()
            assert prog.proc.poll() is None, prog.text()
            seen |= {w for w in ("failed attempt with a wrong code", "Table check:")
                     if w in prog.text()}
            if "You took the last seat" in prog.text():  # the record was stale: asked now
                assert not asked_first
                prog.press("\r")
            prog.pump(0.2)
        assert seen == {"failed attempt with a wrong code", "Table check:"}, seen
        prog.press("q")
        _wait_screen(prog, "y: quit", 120)
        prog.press("y")
        prog.proc.wait(60)
        assert prog.proc.returncode == 0, prog.text()
    finally:
        prog.close()
        _stop(opener)


def test_plain_asks_for_the_code_and_again_after_a_wrong_one(tmp_path: Path) -> None:
    env = _net_env(tmp_path)
    table = f"Cellar-{secrets.token_hex(3)}"
    opener = _opener(env, table)
    proc = subprocess.Popen([sys.executable, "-m", "p2pclue", "join", "--plain", "--name", "Pat"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    out: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()

    def until(text: str | tuple[str, ...], seconds: float) -> None:
        """Read lines until a new one holds ``text`` (or one of them)."""
        texts = (text,) if isinstance(text, str) else text
        deadline = time.monotonic() + seconds
        start = len(out)
        while len(out) == start or not any(t in out[-1] for t in texts):
            left = deadline - time.monotonic()
            assert left > 0, f"no {text!r} in:\n{''.join(out[-40:])}"
            try:
                out.append(lines.get(timeout=left))
            except queue.Empty:
                continue

    def type_line(text: str) -> None:
        assert proc.stdin is not None
        proc.stdin.write(text + "\n")
        proc.stdin.flush()

    try:
        while True:  # look again until the table is listed
            until("Enter to look again", 120)
            if any(table in line for line in out[-12:]):
                break
            type_line("")
        type_line(_number(out[-12:], table))
        # The last seat: its suspect first; a record read before the opener's bot guest sat
        # down still says two free seats, and goes straight to the code.
        until(("Type the suspect's number", "Type the table code"), 120)
        asked_first = "Type the suspect's number" in out[-1]
        if asked_first:
            type_line("")
            until("Type the table code", 120)
        assert any("needs its table code" in line for line in out[-3:])
        type_line("111111")
        until("Type the table code", 120)
        assert any("Wrong code" in line for line in out[-4:]), "".join(out[-10:])
        assert sum("Wrong code" in line for line in out[-8:]) == 1, "".join(out[-10:])  # once
        assert any("needs its table code" in line for line in out[-3:])
        assert any("So far you tried 1 wrong code at this table." in line for line in out[-3:])
        type_line(CODE)
        until("Type", 180)  # the lobby's question, or the last seat's (a stale record)
        if "Enter: keep" in out[-1]:
            assert not asked_first
            type_line("")
        until("Table check:", 180)
        assert any("failed attempt with a wrong code" in line for line in out)
        proc.stdin.close()  # the end of input: the person leaves the table
        proc.wait(60)
        err = proc.stderr.read() if proc.stderr else ""
        assert "Traceback" not in err and "needs its table code" not in err, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        _stop(opener)
