"""A person leaves a networked game gracefully, every player its own OS process.

The person is ``p2pclue join --create --plain`` with typed lines on a pipe; two bots are
``p2pclue join --peer 127.0.0.1:PORT --bot random`` processes with their own keys and
loopback links. At its first decision the person types ``q`` and then ``l`` (leave
gracefully): its signed ``leave`` opens its hand with proofs and the bots play the game
to its end without it. Every process must end with the same transcript bytes, which
``p2pclue audit`` finds valid, with the leaver's hand public in it (the replayed
``PlayerLeft`` event) and equal to the hand the person was dealt. (A forged or badly
proven ``leave`` is blamed in tests/engine/test_leave.py, whose attack frames go through
the same ``Peer.receive`` every network peer runs.)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from p2pclue.i18n import card_name

ROOT = Path(__file__).resolve().parents[2]
GAME_TIMEOUT = 240


class Person:
    """``join --plain`` as a process: what it printed so far, and lines typed into it."""

    def __init__(self, env: dict[str, str], transcript: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "p2pclue", "join", "--create", "--plain", "--no-code",
             "--players", "3", "--table", "Leave", "--name", "Pat", "--profile", "person",
             "--transcript", str(transcript)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, cwd=ROOT)
        self._out: list[bytes] = []
        self._err: list[bytes] = []
        self._readers = [threading.Thread(target=self._pump, args=(s, b), daemon=True)
                         for s, b in ((self.proc.stdout, self._out),
                                      (self.proc.stderr, self._err))]
        for r in self._readers:
            r.start()

    @staticmethod
    def _pump(stream: IO[bytes] | None, into: list[bytes]) -> None:
        assert stream is not None
        while chunk := os.read(stream.fileno(), 4096):
            into.append(chunk)

    def text(self) -> str:
        return b"".join(self._out).decode("utf-8", "replace")

    def errors(self) -> str:
        return b"".join(self._err).decode("utf-8", "replace")

    def type(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(f"{line}\n" for line in lines).encode())
        self.proc.stdin.flush()

    def until(self, pattern: str, after: int = 0, timeout: float = 60.0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while True:
            found = re.compile(pattern).search(self.text(), after)
            if found:
                return found
            assert self.proc.poll() is None, self.text()[-3000:] + self.errors()[-3000:]
            assert time.monotonic() < deadline, f"no {pattern!r}:\n" + self.text()[-3000:]
            time.sleep(0.05)


def _cards(listed: str) -> list[str]:
    """The card names of a list the story tells ("Miss Scarlett, the Rope and the Hall")."""
    return [re.sub(r"^the ", "", c) for c in re.split(r", | and ", listed)]


@pytest.fixture
def procs() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    try:
        yield started
    finally:
        for p in started:
            if p.poll() is None:
                p.kill()
            p.wait(10)
            for stream in (p.stdin, p.stdout, p.stderr):
                if stream is not None:
                    stream.close()


def test_a_person_leaves_a_game_of_processes_and_the_bots_finish_it(
        tmp_path: Path, procs: list[subprocess.Popen[bytes]]) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), P2PCLUE_HOME=str(tmp_path / "home"),
               P2PCLUE_INTERFACES="127.0.0.1")
    mine = tmp_path / "person.p2pclue"
    person = Person(env, mine)
    procs.append(person.proc)
    port = person.until(r"--peer 127\.0\.0\.1:(\d+)").group(1)
    bots = [subprocess.Popen(
        [sys.executable, "-m", "p2pclue", "join", "--peer", f"127.0.0.1:{port}", "--table",
         "Leave", "--bot", "random", "--profile", f"bot{k}", "--json"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        cwd=ROOT) for k in range(2)]
    procs.extend(bots)

    dealt = person.until(r"You were dealt: (.*)\.\n", timeout=120)
    hand = _cards(dealt.group(1))
    asked = person.until(r"(Your turn:|asks you to refute)", dealt.end())
    person.type("q", "l")  # the quit question, then: leave gracefully
    left = person.until(r"(You leave the table; your cards, laid face up: (.*)\.\n"
                        r"|Not allowed now)", asked.end())
    while left.group(1) == "Not allowed now":  # the leave waits for a step we do not owe
        person.type("1")
        asked = person.until(r"(Your turn:|asks you to refute)", left.end())
        person.type("q", "l")
        left = person.until(r"(You leave the table; your cards, laid face up: (.*)\.\n"
                            r"|Not allowed now)", asked.end())
    assert sorted(_cards(left.group(2))) == sorted(hand)

    found = []
    for bot in bots:
        out, err = bot.communicate(timeout=GAME_TIMEOUT)
        assert bot.returncode == 0, err.decode()[-3000:]
        found.append(json.loads(out.decode().strip().splitlines()[-1]))
    assert person.proc.wait(timeout=60) == 0, person.text()[-3000:] + person.errors()[-3000:]
    for r in person._readers:
        r.join(60)
        assert not r.is_alive(), "the person's output was read to its end"
    text, errors = person.text(), person.errors()
    assert "Traceback" not in errors, errors[-3000:]
    assert "valid (" in text.split("You leave the table")[1]  # the end, audited by the person

    files = [mine] + [Path(str(r["transcript"])) for r in found]
    assert len({str(f) for f in files}) == 3
    assert len({f.read_bytes() for f in files}) == 1, "one transcript, byte for byte"
    assert all(r["result"] in ("won", "nobody") for r in found)

    audit = subprocess.run([sys.executable, "-m", "p2pclue", "audit", str(mine), "--json"],
                           env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)
    verdict = json.loads(audit.stdout.strip().splitlines()[-1])
    assert audit.returncode == 0 and verdict["valid"] is True, audit.stdout[-3000:]
    pat = next(p["seat"] for p in verdict["players"] if p["name"] == "Pat")
    replay = subprocess.run([sys.executable, "-m", "p2pclue", "audit", str(mine), "--replay",
                             "--json"], env=env, capture_output=True, text=True,
                            timeout=120, cwd=ROOT)
    events = [json.loads(line) for line in replay.stdout.splitlines() if line.startswith("{")]
    gone = [e for e in events if e.get("event") == "PlayerLeft"]
    assert [e["seat"] for e in gone] == [pat]
    assert sorted(card_name(c, "en") for c in gone[0]["hand"]) == sorted(hand)
