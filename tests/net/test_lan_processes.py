"""Whole networked games between separate OS processes on 127.0.0.1.

Each player is its own ``p2pclue join ... --bot`` process with its own profile (keys),
listener and links; discovery is real zeroconf confined to loopback (skipped, with the
reason, where multicast on lo does not work), and the ``--peer`` path is tested
without multicast. Every process must end with the same transcript bytes, which
``p2pclue audit`` finds valid.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pclue.net.discovery import multicast_available

ROOT = Path(__file__).resolve().parents[2]
GAME_TIMEOUT = 240


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT)
    e["P2PCLUE_HOME"] = str(tmp_path / "home")
    e["P2PCLUE_INTERFACES"] = "127.0.0.1"
    return e


class Procs:
    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.procs: list[subprocess.Popen[str]] = []

    def start(self, *args: str) -> subprocess.Popen[str]:
        p = subprocess.Popen([sys.executable, "-m", "p2pclue", *args], env=self.env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.procs.append(p)
        return p

    def finish(self, p: subprocess.Popen[str]) -> tuple[int, str, str]:
        out, err = p.communicate(timeout=GAME_TIMEOUT)
        return p.returncode, out, err

    def kill_all(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.communicate()


@pytest.fixture
def procs(env: dict[str, str]) -> Iterator[Procs]:
    ps = Procs(env)
    try:
        yield ps
    finally:
        ps.kill_all()


def needs_multicast() -> None:
    if not multicast_available("127.0.0.1"):
        pytest.skip("multicast on the loopback interface does not work here "
                    "(no route for 224.0.0.0/4 on lo, or no MULTICAST flag)")


def results(procs: Procs, started: list[subprocess.Popen[str]]) -> list[dict[str, object]]:
    out = []
    for p in started:
        code, stdout, stderr = procs.finish(p)
        assert code == 0, f"exit {code}\n{stderr[-3000:]}"
        out.append(json.loads(stdout.strip().splitlines()[-1]))
    return out


def check_same_and_valid(env: dict[str, str], found: list[dict[str, object]],
                         players: int) -> None:
    files = [Path(str(r["transcript"])) for r in found]
    assert len(set(files)) == len(files), "each process saves its own file"
    data = {f.read_bytes() for f in files}
    assert len(data) == 1, "every honest peer ends with a byte-identical transcript"
    assert {r["transcript_sha256"] for r in found} == {found[0]["transcript_sha256"]}
    assert all(r["players"] == players and r["result"] in ("won", "nobody") for r in found)
    audit = subprocess.run([sys.executable, "-m", "p2pclue", "audit", str(files[0]), "--json"],
                           env=env, capture_output=True, text=True, timeout=120)
    verdict = json.loads(audit.stdout.strip().splitlines()[-1])
    assert audit.returncode == 0 and verdict["valid"] is True, audit.stdout


def zeroconf_game(procs: Procs, env: dict[str, str], n: int, *, watchers: int = 0) -> None:
    needs_multicast()
    table, code = f"t-{uuid.uuid4().hex[:8]}", "314159"
    # Joiners first: they wait for the table to appear (scripts start everyone at once).
    joiners = [procs.start("join", "--table", table, "--code", code, "--bot", "random",
                           "--profile", f"p{i}", "--json", "--wait", "60")
               for i in range(1, n)]
    time.sleep(0.5)
    host = procs.start("join", "--create", "--table", table, "--code", code, "--players",
                       str(n), "--bot", "detective", "--profile", "p0", "--json")
    watching = [procs.start("watch", "--table", table, "--code", code, "--profile",
                            f"w{i}", "--wait", "60") for i in range(watchers)]
    found = results(procs, [host, *joiners])
    check_same_and_valid(env, found, n)
    for w in watching:
        code_, out, err = procs.finish(w)
        assert code_ == 0, err[-2000:]
        path = re.search(r"transcript (\S+); audit: valid", out)
        assert path, out[-2000:]
        assert Path(path.group(1)).read_bytes() == Path(str(found[0]["transcript"])).read_bytes()


def test_three_processes_find_each_other_with_zeroconf(procs: Procs,
                                                        env: dict[str, str]) -> None:
    zeroconf_game(procs, env, 3)


def test_four_processes_and_a_spectator(procs: Procs, env: dict[str, str]) -> None:
    zeroconf_game(procs, env, 4, watchers=1)


def test_six_processes(procs: Procs, env: dict[str, str]) -> None:
    zeroconf_game(procs, env, 6)


def test_peer_path_without_multicast(procs: Procs, env: dict[str, str]) -> None:
    table = f"t-{uuid.uuid4().hex[:8]}"
    host = procs.start("join", "--create", "--table", table, "--no-code", "--players", "3",
                       "--bot", "random", "--profile", "h", "--json")
    assert host.stderr is not None
    port = None
    deadline = time.monotonic() + 30
    while port is None and time.monotonic() < deadline:
        line = host.stderr.readline()
        m = re.search(r"open at 127\.0\.0\.1:(\d+)", line)
        port = m.group(1) if m else None
    assert port, "the opener prints where it listens"
    joiners = [procs.start("join", "--peer", f"127.0.0.1:{port}", "--table", table,
                           "--bot", "random", "--profile", f"j{i}", "--json")
               for i in range(2)]
    check_same_and_valid(env, results(procs, [host, *joiners]), 3)


def test_one_command_runs_a_whole_table(procs: Procs, env: dict[str, str]) -> None:
    p = procs.start("join", "--create", "--no-code", "--players", "4", "--bot", "detective",
                    "--bots", "3", "--json")
    (found,) = results(procs, [p])
    check_same_and_valid(env, [found], 4)


def test_nothing_found_says_how_to_join_without_multicast(procs: Procs) -> None:
    p = procs.start("join", "--table", "nobody-here", "--bot", "random", "--wait", "2")
    code, _out, err = procs.finish(p)
    assert code == 2
    assert "--peer HOST:PORT" in err and "Traceback" not in err
