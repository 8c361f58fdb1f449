"""Discovery: TXT records, interface selection, and real zeroconf on loopback.

The zeroconf cases run only where multicast works on 127.0.0.1 (they skip with the reason
otherwise); every zeroconf instance here is restricted to 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any, TypeVar

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given
from hypothesis import strategies as st

from p2pclue.net import discovery
from p2pclue.net.discovery import (
    IP_MULTICAST_ALL,
    SO_BINDTODEVICE,
    Announcer,
    Browser,
    InterfaceError,
    TableAd,
    TableNotFound,
    fingerprint,
    interfaces,
    parse_txt,
    probe,
)
from p2pclue.net.links import Link, listen
from tests.net.procs import HANG_GUARD
from tests.table_names import unique_table

LO = "127.0.0.1"
T = TypeVar("T")

needs_multicast = pytest.mark.usefixtures("multicast")
"""Real zeroconf on 127.0.0.1: skipped, with the reason, where multicast on lo does not work
(the ``multicast`` fixture, tests/net/conftest.py)."""


def run(coro: Coroutine[Any, Any, T], limit: float = HANG_GUARD) -> T:
    async def bounded() -> T:
        async with asyncio.timeout(limit):
            return await coro
    return asyncio.run(bounded())


def sample_ad(name: str = "Kitchen table", port: int = 4242, table_id: bytes = b"\x01" * 16,
              fp: str | None = None) -> TableAd:
    return TableAd(table_id=table_id, name=name, preset="classic", seats_taken=1,
                   seats_wanted=4, playing=False, version=1,
                   fingerprint=fp or fingerprint(b"\x02" * 32), host=LO, port=port)


# ---- records --------------------------------------------------------------------------


def test_fingerprint_is_short_stable_and_key_specific() -> None:
    a, b = fingerprint(b"\x00" * 32), fingerprint(b"\x01" * 32)
    assert a == fingerprint(b"\x00" * 32) and a != b
    assert len(a) == 19 and a.count("-") == 3


def as_props(items: dict[str, str]) -> dict[bytes, bytes | None]:
    return {k.encode(): v.encode() for k, v in items.items()}


@given(name=st.text(min_size=1, max_size=300).filter(lambda s: s.isprintable()),
       taken=st.integers(0, 6), wanted=st.integers(3, 6), playing=st.booleans())
def test_txt_items_stay_small_and_round_trip(name: str, taken: int, wanted: int,
                                            playing: bool) -> None:
    ad = replace(sample_ad(name=name), seats_taken=min(taken, wanted), seats_wanted=wanted,
                 playing=playing)
    items = ad.txt()
    assert all(len(k.encode()) + 1 + len(v.encode()) < 255 for k, v in items.items())
    back = parse_txt(as_props(items), LO, ad.port)
    if not items["n"]:  # a name clipped to nothing is not a table anyone could pick
        assert back is None
        return
    assert back == replace(ad, name=items["n"])


def test_txt_holds_only_public_facts() -> None:
    assert set(sample_ad().txt()) == {"v", "id", "n", "p", "s", "st", "fp", "c"}
    assert replace(sample_ad(), seats_taken=2, taken=(0, 3)).txt()["tk"] == "0,3"


@pytest.mark.parametrize("taken", [(), (4,), (0, 5)])
def test_the_suspects_taken_round_trip(taken: tuple[int, ...]) -> None:
    ad = replace(sample_ad(), seats_taken=2, taken=taken)
    assert parse_txt(as_props(ad.txt()), LO, 4242) == ad


@pytest.mark.parametrize("tk", ["0,0", "3,1", "6", "-1", "a", "0,", ",", "0,1,2", "1;2"])
def test_a_record_with_malformed_suspects_taken_is_ignored(tk: str) -> None:
    items = replace(sample_ad(), seats_taken=2).txt() | {"tk": tk}
    assert parse_txt(as_props(items), LO, 4242) is None


@pytest.mark.parametrize("change", [
    {"n": "evil\x1b[2Jname"}, {"n": ""}, {"s": "5/4"}, {"s": "x"}, {"st": "maybe"},
    {"id": "zz"}, {"fp": "not-a-fingerprint"}, {"p": "Classic Preset!"}, {"v": "0"},
])
def test_malformed_records_are_ignored(change: dict[str, str]) -> None:
    items = sample_ad().txt() | change
    assert parse_txt(as_props(items), LO, 4242) is None


def test_missing_items_are_ignored() -> None:
    items = sample_ad().txt()
    del items["fp"]
    assert parse_txt(as_props(items), LO, 4242) is None
    assert parse_txt({b"\xff": b"x"}, LO, 4242) is None


def test_interfaces_from_flags_or_environment() -> None:
    env = {"P2PCLUE_INTERFACES": " 127.0.0.1,127.0.0.1 ,"}
    assert interfaces([], env) == [LO]
    assert interfaces([LO], {"P2PCLUE_INTERFACES": "garbage"}) == [LO]  # flags win
    assert interfaces([], {}) == []
    for bad, why in (("::1", "IPv6"), ("hello", "not an IP"), ("0.0.0.0", "not the address"),
                     ("224.0.0.251", "not the address"), ("203.0.113.77", "no interface")):
        with pytest.raises(InterfaceError, match=why):
            interfaces([bad], {})


# ---- liveness ---------------------------------------------------------------------------


def test_probe_tells_a_live_port_from_a_dead_one() -> None:
    async def main() -> None:
        async def on_link(link: Link) -> None:
            await link.close()

        listener = await listen(LO, 0, identity=Ed25519PrivateKey.generate(),
                                table_id=b"t" * 16, code=None, on_link=on_link)
        port = listener.port
        try:
            assert await probe(LO, port)
            assert await probe(LO, port, local_host="127.0.0.2")
        finally:
            await listener.close()
        assert not await probe(LO, port)
        await asyncio.sleep(0.1)
        assert listener.failed_attempts == 0  # a probe costs the table nothing
    run(main())


# ---- real zeroconf on loopback -----------------------------------------------------------
# Other programs (other test runs on this machine) may announce p2pclue tables on lo at the
# same time: each test uses its own random table id and name and looks only at those.


def fresh_id() -> bytes:
    return os.urandom(16)


def mine(browser: Browser, table_id: bytes) -> list[TableAd]:
    return [t for t in browser.tables() if t.table_id == table_id]


async def until(check: Callable[[], bool], limit: float = HANG_GUARD) -> None:
    """Until ``check()`` holds (at most ``limit`` s: a hang guard; the caller asserts)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while not check() and loop.time() < end:
        await asyncio.sleep(0.05)


@needs_multicast
def test_zeroconf_uses_only_the_given_interface() -> None:
    """Every mDNS socket sends from 127.0.0.1 and, on Linux, is pinned to the device lo,
    python-zeroconf's 0.0.0.0:5353 receiving socket included."""
    async def main() -> None:
        announcer = Announcer()
        await announcer.start(sample_ad(name=unique_table("Confined")), [LO])
        try:
            assert announcer._zc is not None
            engine = announcer._zc.zeroconf.engine
            assert engine.senders
            for sender in engine.senders:
                assert sender.sock_name[0] == LO
                out_if = sender.sock.getsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, 4)
                assert out_if == socket.inet_aton(LO)
            bound = {reader.sock_name[0] for reader in engine.readers}
            assert bound <= {LO, "0.0.0.0"}
            for reader in engine.readers:
                if reader.sock_name[0] == "0.0.0.0":  # python-zeroconf's receive socket
                    assert reader.sock.getsockopt(socket.IPPROTO_IP, IP_MULTICAST_ALL) == 0
            if not sys.platform.startswith("linux"):
                return
            if announcer.device is None:
                pytest.skip("the kernel refused SO_BINDTODEVICE (Linux < 5.7 unprivileged)")
            assert announcer.device == "lo"
            for transport in (*engine.readers, *engine.senders):
                pinned = transport.sock.getsockopt(socket.SOL_SOCKET, SO_BINDTODEVICE, 16)
                assert pinned.rstrip(b"\0") == b"lo"
        finally:
            await announcer.close()
    run(main())


@needs_multicast
def test_a_table_is_announced_found_updated_and_withdrawn() -> None:
    async def main() -> None:
        async def on_link(link: Link) -> None:
            await link.close()

        key, tid = Ed25519PrivateKey.generate(), fresh_id()
        name = f"Library {tid.hex()[:6]}"
        listener = await listen(LO, 0, identity=key, table_id=tid, code="1234",
                                on_link=on_link)
        ad = replace(sample_ad(name=name, table_id=tid, port=listener.port),
                     fingerprint=fingerprint(key.public_key().public_bytes_raw()))
        announcer, browser = Announcer(), Browser()
        await browser.start([LO])
        await announcer.start(ad, [LO])
        try:
            found = await browser.wait_for(name, timeout=HANG_GUARD)
            assert found == ad
            await announcer.update(replace(ad, seats_taken=3))
            await until(lambda: [t.seats_taken for t in mine(browser, tid)] == [3])
            assert [t.seats_taken for t in mine(browser, tid)] == [3]
            await announcer.close()
            await until(lambda: not mine(browser, tid))
            assert mine(browser, tid) == []
        finally:
            await announcer.close()
            await browser.close()
            await listener.close()
    run(main())


@needs_multicast
def test_a_stale_record_is_not_offered_and_the_error_names_the_peer_option() -> None:
    async def main() -> None:
        dead = socket.socket()
        dead.bind((LO, 0))
        port = dead.getsockname()[1]
        dead.close()  # nothing listens there: a killed table's leftover record
        announcer, browser = Announcer(), Browser()
        tid = fresh_id()
        name = f"Ghost {tid.hex()[:6]}"
        await browser.start([LO])
        await announcer.start(sample_ad(name=name, port=port, table_id=tid), [LO])
        try:
            await until(lambda: bool(mine(browser, tid)))
            assert [t.name for t in mine(browser, tid)] == [name]
            with pytest.raises(TableNotFound, match="--peer HOST:PORT"):
                await browser.wait_for(name, timeout=1.5)
        finally:
            await announcer.close()
            await browser.close()
    run(main())


@needs_multicast
def test_a_name_conflict_is_resolved_and_one_table_is_listed_once() -> None:
    async def main() -> None:
        tid = fresh_id()
        ad = sample_ad(name=f"Twin {tid.hex()[:6]}", table_id=tid)
        first, second, browser = Announcer(), Announcer(), Browser()
        await browser.start([LO])
        await first.start(ad, [LO])
        # A responder multicasts a record at most once a second (RFC 6762 section 6), and
        # the browser's query was just answered: a real restart comes later than this.
        await asyncio.sleep(1.2)
        await second.start(ad, [LO])  # same instance name: renamed
        try:
            assert first.service_name != second.service_name
            def records() -> int:
                return sum(t.table_id == tid for t in browser._tables.values())

            await until(lambda: records() == 2)
            assert records() == 2
            assert len(mine(browser, tid)) == 1  # same table id and key: one table
        finally:
            await first.close()
            await second.close()
            await browser.close()
    run(main())


@needs_multicast
def test_wait_for_without_any_table_times_out_clearly() -> None:
    async def main() -> None:
        browser = Browser()
        await browser.start([LO])
        try:
            nowhere = f"Nowhere {os.urandom(4).hex()}"
            with pytest.raises(TableNotFound, match=rf"table named '{nowhere}'.*--peer"):
                await browser.wait_for(nowhere, timeout=0.5)
        finally:
            await browser.close()
    run(main())


@needs_multicast
def test_a_flood_of_records_is_capped_and_malformed_ones_never_listed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A hostile host announces many records, some malformed: the browser keeps a bounded
    number, and none of the malformed ones."""
    from zeroconf import IPVersion
    from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

    monkeypatch.setattr(discovery, "MAX_TABLES", 5)
    tag = os.urandom(3).hex()

    async def main() -> None:
        flood = AsyncZeroconf(interfaces=[LO], ip_version=IPVersion.V4Only)
        browser = Browser()
        await browser.start([LO])
        infos = []
        for n in range(12):
            ad = sample_ad(name=f"Flood {tag} {n}", table_id=os.urandom(16))
            props: dict[str, str] = ad.txt()
            if n % 3 == 0:
                props["n"] = f"Evil {tag} \x1b[2J"  # a terminal escape in the name
            infos.append(AsyncServiceInfo(
                discovery.SERVICE_TYPE, f"Flood {tag} {n}.{discovery.SERVICE_TYPE}",
                addresses=[socket.inet_aton(LO)], port=4000 + n, properties=props,
                server=f"flood-{tag}-{n}.local."))
        try:
            pending = [await flood.async_register_service(i, cooperating_responders=True)
                       for i in infos]
            await asyncio.gather(*pending)
            def ours() -> list[TableAd]:
                return [t for t in browser.tables() if tag in t.name]

            await until(lambda: len(ours()) >= 5)
            await asyncio.sleep(0.5)
            assert 1 <= len(browser._tables) <= 5
            assert all("Evil" not in t.name and t.name.startswith("Flood") for t in ours())
        finally:
            await browser.close()
            await flood.async_close()
    run(main())
