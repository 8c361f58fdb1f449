"""A person at ``join --plain`` with ``--bots K``, played by a test as a careful player would.

The process reads typed lines on a pipe and prints the story (stdout and stderr go to one
file). ``answer`` types one answer to each numbered question as it appears: the first
option that is not an accusation (so the game goes on), unless the test's ``on_ask`` says
something else. Shared by the process tests of leaving, quitting and resuming.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tests.cli.helpers import ROOT
from tests.tui.drive import pty_env

PROMPT_END = "q quit): "
OPTION = re.compile(r"^  (\d+)\. (.*)$", re.M)


def env_for(home: Path) -> dict[str, str]:
    env = pty_env()
    env.update(P2PCLUE_HOME=str(home), P2PCLUE_INTERFACES="127.0.0.1", LANG="C")
    env.pop("LC_ALL", None)
    return env


class PlainPerson:
    """``p2pclue join --create --plain --bots K --bot-think 0`` as a process."""

    def __init__(self, home: Path, out: Path, *args: str) -> None:
        self.out = out
        with out.open("w") as sink:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "p2pclue", "join", "--plain", "--lang", "en", *args],
                stdin=subprocess.PIPE, stdout=sink, stderr=subprocess.STDOUT, text=True,
                env=env_for(home), cwd=ROOT)
        self._answered = 0

    def said(self) -> str:
        return self.out.read_text("utf-8", "replace")

    def type(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(f"{line}\n" for line in lines))
        self.proc.stdin.flush()

    def play_until(self, pattern: str, timeout: float,
                   on_ask: Callable[[str, str], list[str] | None] | None = None) -> str:
        """Answer every question until ``pattern`` is printed; returns the story so far.

        ``on_ask(question, story)`` may return the lines to type instead of the default
        (the first option that is not "accuse")."""
        end = time.monotonic() + timeout
        while True:
            text = self.said()
            if re.search(pattern, text):
                return text
            assert self.proc.poll() is None, text[-3000:]
            assert time.monotonic() < end, f"no {pattern!r} within {timeout} s:\n" + text[-3000:]
            if text.endswith(PROMPT_END) and len(text) > self._answered:
                self._answered = len(text)
                first = text.rfind("\n  1. ")
                question = text[text.rfind("\n", 0, first) + 1:]  # its title, options, prompt
                lines = on_ask(question, text) if on_ask is not None else None
                if lines is None:
                    options = OPTION.findall(question)
                    lines = [next(n for n, o in options if "accuse" not in o)]
                self.type(*lines)
            time.sleep(0.1)

    def at_question(self, timeout: float) -> None:
        """Wait until a question waits for its answer (the prompt is the last thing said)."""
        end = time.monotonic() + timeout
        while not self.said().endswith(PROMPT_END):
            assert self.proc.poll() is None, self.said()[-3000:]
            assert time.monotonic() < end, "no question:\n" + self.said()[-3000:]
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        if self.proc.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                self.proc.stdin.close()
