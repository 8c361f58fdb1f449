"""``join --internet``, ``--ticket``, ``--relay`` and ``--no-relay`` on the command line:
the answers to mistakes (one line, exit 2), the missing extra, and a table of two
processes joined by the ticket the opener printed (relays off, loopback only)."""

from __future__ import annotations

import json
import shlex
import sys
import tomllib
from pathlib import Path

import pytest

from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.net.iroh_link import INSTALL_HINT, IROH_REQUIREMENT, available
from p2pclue.net.reach import Reach, Ticket, parse_ticket
from tests.net.inproc import run_main
from tests.net.procs import Procs, net_env

ROOT = Path(__file__).resolve().parents[2]
TICKET = r"ticket: (clue1[a-z2-7]+)"
WHOLE_TICKET = Ticket("Attic", Reach(bytes(range(32)), ("127.0.0.1:7100",))).text()
"""A readable ticket: without the extra, only the missing package stops it."""


@pytest.mark.parametrize("argv", [
    ("join", "--create", "--internet", "--bot", "detective"),
    ("join", "--ticket", WHOLE_TICKET, "--bot", "detective"),
    ("watch", "--ticket", WHOLE_TICKET),
])
def test_without_the_extra_one_line_says_how_to_install_it(
        argv: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "iroh", None)  # hidden: ``import iroh`` fails
    ran = run_main(monkeypatch, capsys, tmp_path, *argv)
    assert ran.code == 2
    assert ran.err.strip().count("\n") == 0, ran.err
    assert f"-m pip install '{IROH_REQUIREMENT}'" in ran.err
    assert "p2pclue[internet]" not in ran.err, "p2pclue is not on PyPI: that name finds nothing"


def test_the_install_hint_installs_what_the_extra_names() -> None:
    """The hint installs the ``internet`` extra's requirement, into this very Python."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["optional-dependencies"]["internet"] == [IROH_REQUIREMENT]
    assert INSTALL_HINT.startswith(shlex.quote(sys.executable) + " -m pip install ")


@pytest.mark.parametrize(("argv", "said"), [
    (("join", "--internet"), "add --create"),
    (("join", "--ticket", "clue1!!", "--bot", "detective"), "not a whole p2pclue ticket"),
    (("join", "--create", "--internet", "--relay", "ftp://r"), "not a relay URL"),
    (("join", "--create", "--internet", "--relay", "https://r.example", "--no-relay"),
     "exclude each other"),
    (("join", "--create", "--no-relay"), "for internet tables"),
    (("join", "--ticket", "clue1aaaa", "--table", "x"), "leave out"),
])
def test_option_mistakes_get_one_clear_line(
        argv: tuple[str, ...], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    ran = run_main(monkeypatch, capsys, tmp_path, *argv)
    assert ran.code == 2 and said in ran.err, ran.err
    assert "Traceback" not in ran.err


@pytest.mark.skipif(not available(), reason="the internet extra (iroh) is missing")
def test_a_ticket_joins_an_internet_table_across_processes(procs: Procs,
                                                            tmp_path: Path) -> None:
    """The opener's screen shows a ticket and the code; a second process joins with
    them alone. Bots play; both transcripts are the same and the audit finds it valid."""
    host = procs.p2pclue("host", "join", "--create", "--internet", "--no-relay", "--table",
                         "Attic", "--code", "2718", "--players", "3", "--bots", "1",
                         "--bot", "detective", "--bot-think", "0", "--json",
                         env=net_env(tmp_path / "host"))
    ticket = host.wait_for(TICKET).group(1)
    assert parse_ticket(ticket).table == "Attic"
    guest = procs.p2pclue("guest", "join", "--ticket", ticket, "--code", "2718",
                          "--no-relay", "--bot", "detective", "--json",
                          env=net_env(tmp_path / "guest"))
    found = []
    for p in (host, guest):
        code, out, _err = p.finish(guard=180)
        assert code == 0, p.said()
        found.append(json.loads(out.strip().splitlines()[-1]))
    data = {Path(r["transcript"]).read_bytes() for r in found}
    assert len(data) == 1, "one byte-identical transcript"
    raw = data.pop()
    assert audit(parse(raw), raw).valid
