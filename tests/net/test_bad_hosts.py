"""Review (fix-net): a host no resolver can take is refused where it is read, and every dial
turns one into a typed ``LinkError``, never a ``UnicodeError`` traceback.

``socket.getaddrinfo`` encodes hosts with the IDNA codec, which raises ``UnicodeError`` for
``a..b`` or a 64-character label. Such hosts came from ``--peer`` (a traceback, exit 1), and
from an opener who wrote one as a guest's address in the signed start (one guest crashed,
another hung). Here: the real dial, the real lobby over loopback with a lying opener, the
real session re-dial, and the real command for ``--peer``, ``--wait`` and
``P2PCLUE_INTERFACES``."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.net import links, play
from p2pclue.net.discovery import InterfaceError, interfaces
from p2pclue.net.lobby import Address, HostLobby, LobbyError, Out
from p2pclue.net.mesh import Mesh
from p2pclue.net.play import Seat, join_table, open_table, parse_peer
from p2pclue.net.profile import load
from p2pclue.net.table import TableClosed, _dial_until
from p2pclue.rules.variants import preset
from tests.net.inproc import run_main
from tests.net.procs import HANG_GUARD, Procs

BAD_HOSTS = ("a..b", "a" * 64, ".", "fe80::1%a..b", "a\x00b")
LO = "127.0.0.1"


def _seat(home: Path, name: str) -> Seat:
    return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, interfaces=[LO])


# ---- where hosts are read -----------------------------------------------------------------


def test_peer_refuses_hosts_and_ports_that_cannot_be_dialled() -> None:
    assert parse_peer("127.0.0.1:5000") == (LO, 5000)
    assert parse_peer("table.example:5000") == ("table.example", 5000)  # DNS names are fine
    for host in BAD_HOSTS:
        with pytest.raises(ValueError, match="not a host name or IP address"):
            parse_peer(f"{host}:5000")
    for port in ("²", "٣", "0", "65536", "9" * 5000):  # '²'.isdigit() is True
        with pytest.raises(ValueError, match="number from 1 to 65535"):
            parse_peer(f"127.0.0.1:{port}")


def test_a_start_address_is_an_ip_address_or_empty() -> None:
    ident = bytes(32)
    for host in ("", LO, "::1", "192.0.2.7"):
        assert Address.from_wire({"id": ident, "role": "player", "host": host,
                                  "port": 4000}).host == host
    for host in (*BAD_HOSTS, "table.example", "localhost", " 127.0.0.1"):
        with pytest.raises(LobbyError, match="bad address"):
            Address.from_wire({"id": ident, "role": "player", "host": host, "port": 4000})


# ---- where hosts are dialled --------------------------------------------------------------


def test_every_dial_path_turns_a_bad_host_into_a_link_error() -> None:
    async def main() -> None:
        key = Ed25519PrivateKey.generate()
        for host in BAD_HOSTS:
            with pytest.raises(links.BadAddress, match="that can be dialled"):
                await links.dial(host, 5000, identity=key, table_id=bytes(16), code=None)
        mesh = Mesh(key, bytes(16), None)
        try:  # the start's dials: given up at once (no retry can help), no exception
            began = time.monotonic()
            await asyncio.wait_for(_dial_until(mesh, bytes(32), "a..b", 5000), 5)
            assert time.monotonic() - began < 1.0
        finally:
            await mesh.close()

    asyncio.run(main())


def test_a_session_does_not_redial_a_host_that_cannot_be_dialled(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The address it re-dials the opener at (where it reached the lobby, kept in start.bin)
    cannot be dialled: the re-dial says so in the log and stops; it raised UnicodeError
    inside a task that nobody read."""
    async def main() -> None:
        opened: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
        host_task = asyncio.ensure_future(open_table(
            _seat(tmp_path, "Host"), "Hall", preset("classic"), 3, None, announce=False,
            on_opened=lambda o: opened.set_result((o.host, o.port)), on_view=lambda v: None))
        addr, port = await asyncio.wait_for(opened, HANG_GUARD)
        guests = [asyncio.ensure_future(join_table(
            _seat(tmp_path, f"G{i}"), "Hall", addr, port, None, on_view=lambda v: None))
            for i in (1, 2)]
        sessions = [await asyncio.wait_for(t, HANG_GUARD) for t in (host_task, *guests)]
        opener, guest = sessions[0], sessions[1]
        try:
            guest._host_addr = ("a..b", port)
            opener_key = opener._mesh.public
            await opener.close()
            async with asyncio.timeout(HANG_GUARD):  # the guest saw the opener go
                while opener_key in guest._mesh.linked():
                    await asyncio.sleep(0.05)
            with caplog.at_level(logging.WARNING, logger="p2pclue.net.session"):
                await asyncio.wait_for(guest._redial(opener_key), HANG_GUARD)
            assert "cannot be re-dialled" in caplog.text, caplog.text
        finally:
            for s in sessions:
                await s.close()

    asyncio.run(main())


# ---- a lying opener over loopback ---------------------------------------------------------


class _LyingLobby(HostLobby):
    """Writes ``a..b`` as the first guest's address once it is seated (the start's signatures
    do not cover the addresses: only the config), as a malicious opener can."""

    victim: bytes | None = None

    def receive(self, identity: bytes, host: str, msg: Any) -> list[Out]:
        if _LyingLobby.victim is None:
            _LyingLobby.victim = identity
        out = super().receive(identity, host, msg)
        if identity == _LyingLobby.victim and identity in self.guests:
            self.guests[identity].host = "a..b"
        return out


def test_guests_refuse_a_start_that_names_a_host_no_one_can_dial(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play, "HostLobby", _LyingLobby)  # only the opener builds one
    _LyingLobby.victim = None

    async def main() -> list[BaseException | Any]:
        loop = asyncio.get_running_loop()
        opened: asyncio.Future[tuple[str, int]] = loop.create_future()
        host_task = asyncio.ensure_future(open_table(
            _seat(tmp_path, "Liar"), "Den", preset("classic"), 3, None, announce=False,
            on_opened=lambda o: opened.set_result((o.host, o.port)), on_view=lambda v: None))
        addr, port = await asyncio.wait_for(opened, HANG_GUARD)
        guests = [asyncio.ensure_future(join_table(
            _seat(tmp_path, name), "Den", addr, port, None, on_view=lambda v: None))
            for name in ("Ada", "Bea")]
        try:  # no hang: both answer (the guard only ends a hang)
            done = await asyncio.wait_for(
                asyncio.gather(*guests, return_exceptions=True), HANG_GUARD)
        finally:
            for task in (host_task, *guests):
                task.cancel()
            results = await asyncio.gather(host_task, *guests, return_exceptions=True)
            for r in results:
                if hasattr(r, "close"):
                    await r.close()
        return list(done)

    outcomes = asyncio.run(main())
    for outcome in outcomes:  # the honest guests leave with a clear line: the liar is refused
        assert isinstance(outcome, TableClosed), repr(outcome)
        assert "bad address" in str(outcome) and "a..b" in str(outcome), outcome


# ---- the command ----------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ("join", "--peer", "a..b:5000", "--table", "x", "--bot", "random", "--wait", "2"),
    ("join", "--peer", "a" * 64 + ":5000", "--table", "x", "--bot", "random", "--wait", "2"),
    ("watch", "--peer", "a..b:5000", "--table", "x"),
    ("join", "--peer", "127.0.0.1:²", "--table", "x", "--bot", "random"),
    ("join", "--table", "x", "--bot", "random", "--wait", "nan"),
    ("join", "--table", "x", "--bot", "random", "--wait", "-1"),
    ("watch", "--table", "x", "--wait", "inf"),
    ("watch", "--table", "x", "--wait", "100000"),
])
def test_the_command_refuses_bad_peers_and_waits_in_one_line(
        args: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """In this process; "--wait nan" used to wait forever: the guard ends such a wait."""
    run = run_main(monkeypatch, capsys, tmp_path, "--lang", "en", *args, guard=20)
    assert run.code == 2, run.err
    assert "invalid literal" not in run.err, run.err
    last = run.err.rstrip().splitlines()[-1]
    option = "--peer" if "--peer" in args else "--wait"
    assert last.startswith(f"p2pclue {args[0]}: error: argument {option}: "), last
    assert "looking for" not in run.err  # it never looked for the table


def test_a_person_with_a_bad_peer_reads_one_line(procs: Procs) -> None:
    """The real command, its standard input empty (a person who typed nothing yet)."""
    p = procs.p2pclue("person", "--lang", "en", "join", "--peer", "a..b:5000", "--table",
                      "x", "--plain", "--name", "Me")
    code, _out, err = p.finish()
    assert code == 2 and "Traceback" not in err, err
    assert "'a..b' in 'a..b:5000' is not a host name or IP address" in err


# ---- P2PCLUE_INTERFACES ---------------------------------------------------------------------


def test_an_explicit_empty_interface_list_is_an_error_not_every_interface() -> None:
    assert interfaces([], {}) == [] and interfaces([], {"P2PCLUE_INTERFACES": " "}) == []
    assert interfaces([], {"P2PCLUE_INTERFACES": f"{LO},"}) == [LO]
    for value in (",", " , ", ",,"):
        with pytest.raises(InterfaceError, match="P2PCLUE_INTERFACES names no address"):
            interfaces([], {"P2PCLUE_INTERFACES": value})
    with pytest.raises(InterfaceError, match="--interface names no address"):
        interfaces(["", " "], {})


def test_the_command_stops_on_an_empty_interface_list_before_binding(procs: Procs) -> None:
    # the guard: on code that reads "," as every interface, this command would touch the
    # machine's real network, so it only runs where the function already refuses it
    with pytest.raises(InterfaceError):
        interfaces([], {"P2PCLUE_INTERFACES": ","})
    p = procs.p2pclue("empty", "--lang", "en", "join", "--table", "x", "--bot", "random",
                      "--wait", "30", env={**procs.env, "P2PCLUE_INTERFACES": ","})
    code, _out, err = p.finish()
    assert code == 2 and "Traceback" not in err, err
    assert "P2PCLUE_INTERFACES names no address" in err, err
    assert "looking for" not in err, err  # it never looked for the table
