"""Finding tables on the LAN with mDNS/DNS-SD (python-zeroconf, asyncio API).

A table is the service ``_p2pclue._tcp.local.``; its TXT record holds only public facts
(docs/protocol.md, "Discovery records"), each item well under 255 bytes, never a secret:
the code, keys and nonces travel only inside authenticated links. What a TXT record says
is a hint for the menu, nothing more: who a peer is gets proven by its identity key in the
link handshake, never by a name or an address, and a stale entry (a killed process keeps
its record until the TTL runs out) is weeded out by trying its TCP port (``probe``).

Every zeroconf instance is restricted to the IPv4 addresses given by ``--interface`` /
``P2PCLUE_INTERFACES`` (``interfaces()``): its sending sockets are bound to those
addresses with ``IP_MULTICAST_IF`` set to them. python-zeroconf's receiving socket is
always bound to ``0.0.0.0:5353`` (it joins the mDNS group only on the given interfaces).
On Linux, when the addresses belong to one device (127.0.0.1: ``lo``), every socket is
also pinned to that device with ``SO_BINDTODEVICE``, so nothing is received from or sent
to any other interface; ``IP_MULTICAST_ALL`` is turned off on the receiving socket in any
case, so groups other programs joined elsewhere are not delivered to it.

Additions to the agreed API: ``TableAd.needs_code`` (default True), ``probe``,
``multicast_available``, ``local_addresses``, ``Announcer.service_name``, ``.device`` on
both, ``DiscoveryError``/``TableNotFound`` (also a ``LookupError``)/``InterfaceError``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import socket
import sys
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import ifaddr
from zeroconf import (
    DNSQuestionType,
    InterfaceChoice,
    IPVersion,
    NonUniqueNameException,
    ServiceStateChange,
    Zeroconf,
)
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from p2pclue.i18n import _, os_error_text
from p2pclue.net.ads import MAX_TABLE_NAME_BYTES as MAX_TABLE_NAME_BYTES
from p2pclue.net.ads import MAX_TXT_ITEM as MAX_TXT_ITEM
from p2pclue.net.ads import DiscoveryError as DiscoveryError
from p2pclue.net.ads import SameName as SameName
from p2pclue.net.ads import TableAd as TableAd
from p2pclue.net.ads import TableNotFound as TableNotFound
from p2pclue.net.ads import clip_utf8
from p2pclue.net.ads import fingerprint as fingerprint
from p2pclue.net.ads import parse_txt as parse_txt

log = logging.getLogger("p2pclue.net.discovery")

SERVICE_TYPE = "_p2pclue._tcp.local."
ENV_INTERFACES = "P2PCLUE_INTERFACES"
TXT_VERSION = 1
RESOLVE_MS = 3000
CONFLICT_MS = 250
MAX_TABLES = 256
MAX_RESOLVING = 32
"""A hostile LAN can announce any number of records: remember and resolve only so many."""
DEAD_FOR = 5.0
"""Seconds a record whose port refused a probe is skipped before it is tried again."""
SAME_NAME_WAIT = 1.5
"""Seconds a browser waits, after finding a table by name, for another of that name."""
IP_MULTICAST_ALL = 49
"""Linux ``IP_MULTICAST_ALL`` (not exported by Python's socket module)."""
SO_BINDTODEVICE = getattr(socket, "SO_BINDTODEVICE", 25)



class InterfaceError(DiscoveryError, ValueError):
    """An ``--interface`` / ``P2PCLUE_INTERFACES`` value that is not a usable IPv4 address."""


def local_addresses() -> list[str]:
    """The IPv4 addresses of this machine's interfaces."""
    return [str(ip.ip) for adapter in ifaddr.get_adapters() for ip in adapter.ips
            if isinstance(ip.ip, str)]


def dial_addresses(host: str) -> list[str]:
    """Where others reach a socket bound to ``host``: that address, or for the wildcard
    (no ``--interface``) every IPv4 address of this machine but loopback, as a screen
    must show them (``--peer 0.0.0.0:PORT`` reaches nobody)."""
    if host not in ("0.0.0.0", ""):
        return [host]
    mine = local_addresses()
    return ([a for a in mine if not a.startswith("127.")]
            or [a for a in mine if a.startswith("127.")] or ["127.0.0.1"])


def interfaces(cli_values: list[str], environ: Mapping[str, str]) -> list[str]:
    """The IPv4 addresses to use: ``--interface`` values, else ``P2PCLUE_INTERFACES``.

    An empty list means every interface (a player's normal LAN machine): no flag, and the
    variable unset or blank. Raises ``InterfaceError`` for anything that is not an IPv4
    address of this machine, and for a list given but naming none (``--interface ""``,
    ``P2PCLUE_INTERFACES=","``): that is never "every interface".
    """
    env = environ.get(ENV_INTERFACES, "")
    raw = list(cli_values) or ([] if not env.strip() else env.split(","))
    if raw and not any(v.strip() for v in raw):
        source = "--interface" if cli_values else ENV_INTERFACES
        raise InterfaceError(_("{source} names no address (leave it out to use every "
                               "interface)").format(source=source))
    chosen: list[str] = []
    local = set(local_addresses())
    for value in (v.strip() for v in raw):
        if not value:
            continue
        try:
            address = ipaddress.ip_address(value)
        except ValueError:
            raise InterfaceError(_("{value} is not an IP address").format(
                value=repr(value))) from None
        if not isinstance(address, ipaddress.IPv4Address):
            raise InterfaceError(_("{value} is IPv6; p2pclue uses IPv4 only").format(
                value=value))
        if address.is_unspecified or address.is_multicast:
            raise InterfaceError(_("{value} is not the address of one interface").format(
                value=value))
        if str(address) not in local and not address.is_loopback:
            raise InterfaceError(_("no interface of this machine has the address {value}")
                                 .format(value=value))
        if str(address) not in chosen:
            chosen.append(str(address))
    return chosen


async def _zeroconf(addresses: list[str]) -> tuple[AsyncZeroconf, str | None]:
    """A started zeroconf instance on ``addresses`` and the device it is pinned to, if any."""
    choice: Any = list(addresses) if addresses else InterfaceChoice.All
    try:
        aiozc = AsyncZeroconf(interfaces=choice, ip_version=IPVersion.V4Only)
        await aiozc.zeroconf.async_wait_for_start()
    except (OSError, RuntimeError) as exc:
        raise DiscoveryError((_("cannot start mDNS on {addresses}: {error}") if addresses
                              else _("cannot start mDNS on all interfaces: {error}")).format(
            addresses=addresses,
            error=os_error_text(exc) if isinstance(exc, OSError) else exc)) from None
    device = _confine(aiozc.zeroconf, addresses) if addresses else None
    return aiozc, device


def _device_of(addresses: list[str]) -> str | None:
    """The one network device holding every address, if there is exactly one."""
    names = {adapter.name for adapter in ifaddr.get_adapters() for ip in adapter.ips
             if isinstance(ip.ip, str) and ip.ip in addresses}
    if any(ipaddress.ip_address(a).is_loopback for a in addresses):
        names |= {adapter.name for adapter in ifaddr.get_adapters()
                  if any(isinstance(ip.ip, str) and ip.ip.startswith("127.") for ip in adapter.ips)}
    return names.pop() if len(names) == 1 else None


def _confine(zc: Zeroconf, addresses: list[str]) -> str | None:
    """Linux: pin every socket of ``zc`` to the chosen interface's device.

    python-zeroconf binds its receiving socket to ``0.0.0.0:5353``. ``SO_BINDTODEVICE``
    makes the kernel deliver to it, and send from it, only on that device; where that is
    refused (several devices, no permission) the receiving socket at least stops getting
    multicast groups joined by other programs (``IP_MULTICAST_ALL`` off). Returns the
    device name when every socket was pinned.
    """
    if not sys.platform.startswith("linux"):
        return None
    device = _device_of(addresses)
    sockets = [t.sock for t in (*zc.engine.readers, *zc.engine.senders)]
    pinned = device is not None
    for sock in sockets:
        if sock.getsockname()[0] == "0.0.0.0":
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_IP, IP_MULTICAST_ALL, 0)
        if device is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, SO_BINDTODEVICE, device.encode())
            except OSError:
                pinned = False
    return device if pinned else None


def _instance_name(ad: TableAd) -> str:
    label = "".join(ch for ch in clip_utf8(ad.name, 40) if ch not in ".\\") or "table"
    return f"{label} {ad.table_id.hex()[:8]}.{SERVICE_TYPE}"


class Announcer:
    """Publishes one table while it is open; ``update`` when seats or status change."""

    def __init__(self) -> None:
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._addresses: list[str] = []
        self.device: str | None = None
        """The network device every mDNS socket is pinned to (Linux, one interface)."""

    @property
    def service_name(self) -> str | None:
        """The DNS-SD instance name in use (it may differ after a name conflict)."""
        return None if self._info is None else self._info.name

    def _service_info(self, ad: TableAd, name: str) -> AsyncServiceInfo:
        hosts = [ad.host] if ad.host not in ("", "0.0.0.0") else (
            self._addresses or [a for a in local_addresses() if not a.startswith("127.")]
            or ["127.0.0.1"])  # a machine without a network: its own processes can still play
        return AsyncServiceInfo(
            SERVICE_TYPE,
            name,
            addresses=[socket.inet_aton(h) for h in hosts],
            port=ad.port,
            properties=ad.txt(),
            server=f"p2pclue-{ad.table_id.hex()[:12]}-{os.getpid()}.local.",
        )

    async def start(self, ad: TableAd, interfaces: list[str]) -> None:
        """Announce ``ad`` on ``interfaces`` (all when empty); returns once announced."""
        ad.txt()  # a record that cannot be published fails before anything starts
        self._addresses = list(interfaces)
        self._zc, self.device = await _zeroconf(self._addresses)
        try:
            info = self._service_info(ad, await self._free_name(ad))
            await (await self._zc.async_register_service(info, allow_name_change=True))
        except NonUniqueNameException:
            await self.close()
            raise DiscoveryError(_("another table took this name on the network")) from None
        except BaseException:
            await self.close()
            raise
        self._info = info

    async def _free_name(self, ad: TableAd) -> str:
        """An instance name nobody answers for. python-zeroconf only notices a conflict
        with records already in its cache, so ask for the name first: the same table
        opened twice, or restarted while its old record lives on, gets a suffix."""
        assert self._zc is not None
        base = _instance_name(ad)
        name = base
        for number in range(2, 10):
            taken = AsyncServiceInfo(SERVICE_TYPE, name)
            # QM: answers are multicast, so they reach this instance even when several
            # share port 5353 on one host (unicast would reach only one of them).
            if not await taken.async_request(self._zc.zeroconf, CONFLICT_MS, DNSQuestionType.QM):
                return name
            name = base.replace(f".{SERVICE_TYPE}", f"-{number}.{SERVICE_TYPE}")
        return name  # zeroconf's own allow_name_change is the last resort

    async def update(self, ad: TableAd) -> None:
        if self._zc is None or self._info is None:
            raise DiscoveryError("the announcer is not started")
        info = self._service_info(ad, self._info.name)
        await (await self._zc.async_update_service(info))
        self._info = info

    async def close(self) -> None:
        """Withdraw the record (peers see it go) and stop; safe to call twice."""
        zc, info = self._zc, self._info
        self._zc = self._info = None
        if zc is None:
            return
        if info is not None:
            with contextlib.suppress(Exception):
                await (await zc.async_unregister_service(info))
        await zc.async_close()


def _wait_left(now: float, deadline: float, first: float | None) -> tuple[float, float]:
    """How long ``wait_for`` may still wait, and how long until it looks again.

    It looks at least every second (a record may change without an event). Once a record of
    the name is live (``first``: when it was first seen), the deadline never cuts the
    same-name wait short, and the next look falls when that wait ends: rounding it up to the
    next whole second kept every joiner by name half a second longer than the defence needs.
    """
    left = deadline - now
    if first is None:
        return left, min(left, 1.0)
    pending = max(SAME_NAME_WAIT - (now - first), 0.05)
    return max(left, pending), min(pending, 1.0)


class Browser:
    """Keeps the list of tables seen; resolving happens in tasks, never in the handler."""

    def __init__(self) -> None:
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._tables: dict[str, TableAd] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._changed = asyncio.Event()
        self._addresses: list[str] = []
        self.device: str | None = None
        """The network device every mDNS socket is pinned to (Linux, one interface)."""
        self._dead: dict[tuple[bytes, str, int], float] = {}
        self._failed: set[tuple[bytes, str, str, int]] = set()

    def mark_failed(self, ad: TableAd) -> None:
        """Its handshake failed: list it as such, and never offer it in its place again."""
        self.mark_failed_place(ad.place)

    def mark_failed_place(self, place: tuple[bytes, str, str, int]) -> None:
        self._failed.add(place)

    async def start(self, interfaces: list[str]) -> None:
        self._addresses = list(interfaces)
        self._zc, self.device = await _zeroconf(self._addresses)
        self._browser = AsyncServiceBrowser(self._zc.zeroconf, [SERVICE_TYPE],
                                            handlers=[self._on_change])

    def _on_change(self, zeroconf: Zeroconf, service_type: str, name: str,
                   state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            self._tables.pop(name, None)
            self._changed.set()
            return
        if len(self._tasks) >= MAX_RESOLVING or (
                name not in self._tables and len(self._tables) >= MAX_TABLES):
            log.debug("too many table records: ignored %r", name)
            return
        task = asyncio.get_running_loop().create_task(self._resolve(name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str) -> None:
        if self._zc is None:
            return
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if not await info.async_request(self._zc.zeroconf, RESOLVE_MS) or info.port is None:
            return
        ad = parse_txt(info.properties, self._pick(info.parsed_addresses(IPVersion.V4Only)),
                       info.port)
        if ad is None or not ad.host:
            log.debug("ignored a malformed table record %r", name)
            return
        if name not in self._tables and len(self._tables) >= MAX_TABLES:
            return
        self._tables[name] = ad
        self._changed.set()

    def _pick(self, addresses: list[str]) -> str:
        for address in addresses:
            if address in self._addresses:
                return address
        for address in addresses:
            if not self._addresses or any(_same_subnet(address, mine) for mine in self._addresses):
                return address
        return addresses[0] if addresses else ""

    def _source_for(self, host: str) -> str | None:
        """The chosen interface address to dial ``host`` from (None: any)."""
        if not self._addresses:
            return None
        for address in self._addresses:
            if _same_subnet(host, address):
                return address
        return self._addresses[0]

    def tables(self) -> list[TableAd]:
        """Tables seen, one per (table id, opener fingerprint): a host on two interfaces
        or a renamed record is still one table. Unverified until a link is made."""
        unique: dict[tuple[bytes, str], TableAd] = {}
        for ad in self._tables.values():
            if ad.place in self._failed:
                ad = replace(ad, failed=True)
            known = unique.get((ad.table_id, ad.fingerprint))
            if known is None or (known.failed and not ad.failed):  # a live one is preferred
                unique[(ad.table_id, ad.fingerprint)] = ad
        return sorted(unique.values(),
                      key=lambda a: (a.name.casefold(), a.table_id, a.failed, a.fingerprint))

    async def wait_for(self, name: str | None, timeout: float,
                       opener: str | None = None) -> TableAd:
        """The first live table called ``name`` (any table if None) to appear in time.

        With a name, a moment (``SAME_NAME_WAIT``) is left for a second record of that
        name: two tables with one name and different openers' keys raise ``SameName``
        (unless ``opener`` picks one by its key's fingerprint), so a stranger's record
        never wins by arriving first. A record whose handshake failed is never returned.
        """
        deadline = time.monotonic() + timeout
        first: float | None = None
        while True:
            self._changed.clear()
            live = await self._live(name, opener)
            if live and (name is None or len(live) > 1 or (first is not None and
                         time.monotonic() - first >= SAME_NAME_WAIT)):
                if len(live) > 1 and name is not None:
                    raise SameName(_("{count} tables are called {name}, each with another "
                                     "opener's key: {tables}. Ask the opener which key "
                                     "their screen shows, and join with --peer HOST:PORT "
                                     "--table NAME.").format(
                        count=len(live), name=repr(name), tables="; ".join(
                            f"{ad.host}:{ad.port} {ad.fingerprint}" for ad in live)), live)
                return live[0]
            if live and first is None:
                first = time.monotonic()
            left, step = _wait_left(time.monotonic(), deadline, first if live else None)
            if left <= 0:
                what = "any table" if name is None else f"a table named {name!r}"
                where = ", ".join(self._addresses) or "all interfaces"
                raise TableNotFound(
                    f"found no {what} in {timeout:g} s on {where}. If this network blocks "
                    "multicast (Wi-Fi client isolation, some office LANs), ask the table's "
                    "opener for its address and use --peer HOST:PORT")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), step)

    async def _live(self, name: str | None, opener: str | None) -> list[TableAd]:
        """The tables (by that name, and that opener's key) whose port answers."""
        live = []
        for ad in self.tables():
            if (name is not None and ad.name != name) or ad.failed \
                    or (opener is not None and ad.fingerprint != opener):
                continue
            key = (ad.table_id, ad.host, ad.port)
            if time.monotonic() - self._dead.get(key, -DEAD_FOR) < DEAD_FOR:
                continue
            if await probe(ad.host, ad.port, local_host=self._source_for(ad.host)):
                live.append(ad)
            else:
                self._dead[key] = time.monotonic()
        return live

    async def close(self) -> None:
        browser, zc = self._browser, self._zc
        self._browser = None
        self._zc = None
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if browser is not None:
            await browser.async_cancel()
        if zc is not None:
            await zc.async_close()


def _same_subnet(a: str, b: str, prefix: int = 24) -> bool:
    net = ipaddress.ip_network(f"{b}/{prefix}", strict=False)
    return ipaddress.ip_address(a) in net


async def probe(host: str, port: int, timeout: float = 1.0,
                local_host: str | None = None) -> bool:
    """Whether something accepts TCP at ``host:port`` (a stale record's process is gone).

    The listener sees a connection that says nothing and drops it without cost.
    ``local_host`` binds the source address (``--interface``).
    """
    try:
        async with asyncio.timeout(timeout):
            _reader, writer = await asyncio.open_connection(
                host, port, local_addr=None if local_host is None else (local_host, 0))
    except (OSError, TimeoutError):
        return False
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True


def multicast_available(interface: str = "127.0.0.1", timeout: float = 1.0) -> bool:
    """Whether a multicast datagram sent on ``interface`` comes back on it (tests skip
    the zeroconf cases where it does not). A random port, not 5353, and a TTL of 0: the
    datagram is only looped back, it never leaves the machine."""
    group = "239.255.43.21"
    recv = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
    send = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
    try:
        recv.bind((group, 0))
        port = recv.getsockname()[1]
        membership = socket.inet_aton(group) + socket.inet_aton(interface)
        recv.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, membership)
        recv.settimeout(timeout)
        send.bind((interface, 0))
        send.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(interface))
        send.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 0)
        send.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
        token = os.urandom(16)
        send.sendto(token, (group, port))
        data, _sender = recv.recvfrom(64)
        return data == token
    except OSError:
        return False
    finally:
        recv.close()
        send.close()


class Mdns:
    """``net.transport.Discovery`` over mDNS/DNS-SD (this module's announcer and browser)."""

    async def announce(self, ad: TableAd, interfaces: list[str]) -> Announcer:
        announcer = Announcer()
        try:
            await announcer.start(ad, interfaces)
        except BaseException:
            with contextlib.suppress(Exception):
                await announcer.close()
            raise
        return announcer

    async def browse(self, interfaces: list[str]) -> Browser:
        browser = Browser()
        try:
            await browser.start(interfaces)
        except BaseException:
            with contextlib.suppress(Exception):
                await browser.close()
            raise
        return browser
