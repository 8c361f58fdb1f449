"""Whole networked games between separate OS processes on 127.0.0.1.

Each player is its own ``p2pclue join ... --bot`` process with its own profile (keys),
listener and links; discovery is real zeroconf confined to loopback (skipped, with the
reason, where multicast on lo does not work). Every process must end with the same
transcript bytes, which the audit finds valid.

Elsewhere: the ``--peer`` path between processes (no multicast) is played by the games of
tests/net/test_fault_campaign.py (four processes), test_join_languages.py (five),
test_resume_person.py, test_leave_processes.py and test_netns.py; the largest table, six
seats over real links, is tests/net/test_session.py::test_six_players_over_loopback (the
process boundary adds nothing there that those games do not show).
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import pytest

from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from tests.net.procs import Proc, Procs
from tests.table_names import unique_table

WAIT = "600"
"""``--wait`` for the table to appear: a hang guard only (it appears within seconds)."""


def results(started: list[Proc]) -> list[dict[str, object]]:
    """Each process's ``--json`` result, once it ended well."""
    out = []
    for p in started:
        code, stdout, _stderr = p.finish()
        assert code == 0, f"exit {code}\n{p.said()}"
        out.append(json.loads(stdout.strip().splitlines()[-1]))
    return out


def check_same_and_valid(found: list[dict[str, object]], players: int) -> bytes:
    """Every process saved its own file, all of them the same bytes, which audit valid."""
    files = [Path(str(r["transcript"])) for r in found]
    assert len(set(files)) == len(files), "each process saves its own file"
    data = {f.read_bytes() for f in files}
    assert len(data) == 1, "every honest peer ends with a byte-identical transcript"
    assert {r["transcript_sha256"] for r in found} == {found[0]["transcript_sha256"]}
    assert all(r["players"] == players and r["result"] in ("won", "nobody") for r in found)
    raw = data.pop()
    assert audit(parse(raw), raw).valid
    return raw


@pytest.mark.usefixtures("multicast")
def test_processes_find_each_other_with_zeroconf_and_a_spectator_follows(
        procs: Procs) -> None:
    """Three players and a spectator, each its own process, the joiners and the spectator
    finding the table by its name (four processes at a table: the fault campaign)."""
    table, code = f"t-{uuid.uuid4().hex[:8]}", "314159"
    # Joiners first: they wait for the table to appear (scripts start everyone at once).
    joiners = [procs.p2pclue(f"p{i}", "join", "--table", table, "--code", code, "--bot",
                             "detective", "--profile", f"p{i}", "--json", "--wait", WAIT)
               for i in range(1, 3)]
    for p in joiners:
        p.wait_for(r"^looking for the table ")
    host = procs.p2pclue("p0", "join", "--create", "--table", table, "--code", code,
                         "--players", "3", "--bot", "detective", "--profile", "p0", "--json")
    watcher = procs.p2pclue("w", "watch", "--table", table, "--code", code, "--profile", "w",
                            "--wait", WAIT)
    raw = check_same_and_valid(results([host, *joiners]), 3)
    status, out, _err = watcher.finish()
    assert status == 0, watcher.said()
    path = re.search(r"transcript (\S+); audit: valid", out)
    assert path, watcher.said()
    assert Path(path.group(1)).read_bytes() == raw


def test_one_command_runs_a_whole_table(procs: Procs) -> None:
    """One command, a whole table: the opener's seat and two bots, all in one process."""
    p = procs.p2pclue("table", "join", "--create", "--no-code", "--players", "3", "--bot",
                      "detective", "--bots", "2", "--json")
    (found,) = results([p])
    check_same_and_valid([found], 3)


def test_nothing_found_says_how_to_join_without_multicast(procs: Procs) -> None:
    p = procs.p2pclue("alone", "join", "--table", unique_table("nobody-here"), "--bot",
                      "random", "--wait", "0.5")
    code, _out, err = p.finish()
    assert code == 2
    assert "--peer HOST:PORT" in err and "Traceback" not in err
