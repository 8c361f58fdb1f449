"""A player process killed with SIGKILL mid-game comes back with ``join --resume``.

Four ``p2pclue join ... --bot random`` processes on 127.0.0.1 (the ``--peer`` path, no
multicast needed); one joiner is killed once the game is under way and restarted from
its game directory. Every process, the resumed one included, must end with the same
transcript bytes, which ``p2pclue audit`` finds valid, and the others saw it away.
"""

from __future__ import annotations

import json
import re
import time
import uuid

from tests.net.test_lan_processes import Procs, check_same_and_valid, env, procs, results

__all__ = ["env", "procs"]  # pytest fixtures, shared with the LAN process tests


def _wait_for(stream: object, pattern: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        line = stream.readline()  # type: ignore[attr-defined]
        if not line:
            break
        seen.append(line)
        m = re.search(pattern, line)
        if m:
            return m.group(1) if m.groups() else line
    raise AssertionError(f"no {pattern!r} within {timeout} s:\n{''.join(seen)[-2000:]}")


def test_a_killed_player_process_resumes_and_the_game_finishes(
        procs: Procs, env: dict[str, str]) -> None:
    table = f"t-{uuid.uuid4().hex[:8]}"
    host = procs.start("join", "--create", "--table", table, "--no-code", "--players", "4",
                       "--bot", "random", "--profile", "h", "--json")
    port = _wait_for(host.stderr, r"open at 127\.0\.0\.1:(\d+)", 30)
    joiners = [procs.start("join", "--peer", f"127.0.0.1:{port}", "--table", table,
                           "--bot", "random", "--profile", f"j{i}", "--json")
               for i in range(3)]
    victim = joiners[1]
    _wait_for(victim.stderr, r"(Turn 2\b)", 120)
    victim.kill()  # SIGKILL: no clean-up of any kind
    victim.communicate()
    time.sleep(0.3)
    listed = procs.start("join", "--resume", "list", "--profile", "j1")
    code, out, err = procs.finish(listed)
    assert code == 0 and len(out.strip().splitlines()) == 1, err
    back = procs.start("join", "--resume", "--bot", "random", "--profile", "j1", "--json")
    found = results(procs, [joiners[0], joiners[2], back])
    code, out, err = procs.finish(host)
    assert code == 0, err[-3000:]
    found.append(json.loads(out.strip().splitlines()[-1]))
    check_same_and_valid(env, found, 4)
    # the table saw the player go and come back
    away = [m.group(1) for m in re.finditer(r"^(.+) is away$", err, re.MULTILINE)]
    assert away and re.search(rf"^{re.escape(away[0])} is back$", err, re.MULTILINE), err[-3000:]


def test_resume_without_a_game_is_a_clear_error(procs: Procs) -> None:
    p = procs.start("join", "--resume", "--bot", "random", "--profile", "nobody")
    code, _out, err = procs.finish(p)
    assert code == 2 and "no unfinished game" in err and "Traceback" not in err
