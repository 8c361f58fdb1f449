"""A person at ``join --plain``, played by a test as a careful player would.

The process reads typed lines on a pipe and prints the story (stdout and stderr go to one
file). ``play_until`` types one answer to each numbered question as it appears: the first
option that is not an accusation (so the game goes on), unless the test's ``on_ask`` says
something else; the last seat's suspect question gets Enter (any free suspect). Shared by
the process tests of leaving, quitting and resuming. Every wait is for a line printed;
``timeout`` is only a hang guard.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tests.net.procs import HANG_GUARD, POLL, ROOT, net_env

PROMPT_END = "q quit): "
SUSPECT_QUESTION = "q to leave):\n"
"""The end of the lobby's question for the last seat's suspect."""
OPTION = re.compile(r"^  (\d+)\. (.*)$", re.M)


def env_for(home: Path) -> dict[str, str]:
    return net_env(home, LANG="C")


class PlainPerson:
    """``p2pclue join --plain --lang en ARGS`` as a process, its home ``home``."""

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

    def play_until(self, pattern: str, timeout: float = HANG_GUARD,
                   on_ask: Callable[[str, str], list[str] | None] | None = None) -> str:
        """Answer every question until ``pattern`` is printed; returns the story so far.

        ``on_ask(question, story)`` may return the lines to type instead of the default
        (the first option that is not "accuse")."""
        end = time.monotonic() + timeout
        while True:
            ended = self.proc.poll() is not None  # looked at before the last read
            text = self.said()
            if re.search(pattern, text):
                return text
            assert not ended, text[-3000:]
            assert time.monotonic() < end, f"no {pattern!r} within {timeout} s:\n" + text[-3000:]
            if len(text) > self._answered and text.endswith(SUSPECT_QUESTION):
                self._answered = len(text)
                self.type("")
            elif len(text) > self._answered and text.endswith(PROMPT_END):
                self._answered = len(text)
                first = text.rfind("\n  1. ")
                question = text[text.rfind("\n", 0, first) + 1:]  # its title, options, prompt
                lines = on_ask(question, text) if on_ask is not None else None
                if lines is None:
                    options = OPTION.findall(question)
                    lines = [next(n for n, o in options if "accuse" not in o)]
                self.type(*lines)
            time.sleep(POLL)

    def at_question(self, timeout: float = HANG_GUARD) -> None:
        """Wait until a question waits for its answer (the prompt is the last thing said)."""
        end = time.monotonic() + timeout
        while not self.said().endswith(PROMPT_END):
            assert self.proc.poll() is None, self.said()[-3000:]
            assert time.monotonic() < end, "no question:\n" + self.said()[-3000:]
            time.sleep(POLL)

    def finish(self, timeout: float = HANG_GUARD) -> int:
        """The exit status, once the process ended by itself."""
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running after {timeout} s:\n"
                                 + self.said()[-3000:]) from None

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        if self.proc.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                self.proc.stdin.close()
