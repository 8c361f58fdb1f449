"""Links over iroh for internet tables: QUIC, dialled by key, direct or through a relay.

The only module that imports ``iroh`` (the optional extra ``internet``: ``pip install -c
constraints.txt '.[internet]'`` in the source folder; ``available()`` says whether it is
there). Each member runs one iroh endpoint whose secret key is its Ed25519 identity seed,
so its endpoint id *is* its identity key. A link is one QUIC connection with ALPN
``p2pclue/1`` and one bidirectional stream that carries exactly what a LAN TCP link
carries: the pairing handshake of ``net.pairing`` (PAKE on the table code, Noise, the
signed identity proof) and then the sealed records. So the code gates entry with the same
one-guess-per-connection rule and the same table-wide budget, and a link is accepted only
when the QUIC peer's endpoint id equals the identity key the handshake proved
(docs/protocol.md, "Internet tables").

Addresses are reach texts (``net.reach``): the "host" this transport dials and the
``host`` its listener reports are ``iroh:KEY@ADDR|...|RELAY``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import shlex
import sys
from collections.abc import Callable
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.engine.wire import MAX_FRAME_BYTES
from p2pclue.i18n import _
from p2pclue.net import links
from p2pclue.net.framing import FrameDecoder
from p2pclue.net.pairing import MAX_HANDSHAKE_RECORD, Established, Handshake, Role
from p2pclue.net.reach import MAX_ITEMS, Reach, ReachError, parse_reach, split_addr
from p2pclue.net.transport import (
    BadAddress,
    Gate,
    LinkError,
    LinkInfo,
    OnLink,
    Unreachable,
)

log = logging.getLogger("p2pclue.net.iroh_link")

ALPN = b"p2pclue/1"
CLOSE_LINGER = 1.0
"""Seconds a closing side waits for its last bytes to be acknowledged."""
ONLINE_WAIT = 5.0
"""Seconds to wait for the home relay at start (its URL goes into this member's reach)."""
IROH_REQUIREMENT = "iroh>=1.2,<1.3"
"""The ``internet`` extra of pyproject.toml (tests/net/test_iroh_cli.py keeps them equal)."""
INSTALL_HINT = f"{shlex.quote(sys.executable or 'python3')} -m pip install '{IROH_REQUIREMENT}'"
"""What a missing extra's message says to run: the extra's package, into the very Python
that runs p2pclue (its venv). Not ``pip install 'p2pclue[internet]'``: p2pclue is installed
from its source folder, and that name on PyPI finds nothing, or someone else's package."""


def available() -> bool:
    """Whether the ``iroh`` package (the ``internet`` extra) imports (its library loads)."""
    try:
        _iroh()
    except MissingExtra:
        return False
    return True


class MissingExtra(LinkError):
    """Internet tables need the ``internet`` extra, which is not installed."""

    def __init__(self) -> None:
        super().__init__(_("internet tables need the iroh package: {command}").format(
            command=INSTALL_HINT))


def _iroh() -> Any:
    try:
        import iroh
    except ImportError:
        raise MissingExtra() from None
    return iroh


# ---- a QUIC stream in the shape links read and write ---------------------------------


class _Stream:
    """One QUIC bidirectional stream as ``links.ByteReader`` and ``links.ByteWriter``."""

    def __init__(self, conn: Any, bi: Any) -> None:
        self.conn = conn
        self._send = bi.send()
        self._recv = bi.recv()
        self._out = bytearray()
        self._closing = False

    async def read(self, n: int, /) -> bytes:
        try:
            return bytes(await self._recv.read(n))
        except Exception as exc:  # iroh's own errors: the connection is gone
            raise ConnectionResetError(type(exc).__name__) from None

    def write(self, data: bytes, /) -> None:
        self._out += data

    async def drain(self) -> None:
        if self._out:
            data, self._out = bytes(self._out), bytearray()
            try:
                await self._send.write_all(data)
            except Exception as exc:
                raise ConnectionResetError(type(exc).__name__) from None

    def close(self) -> None:
        self._closing = True

    async def wait_closed(self) -> None:
        """Send what is left, end the stream, wait until the peer has it, then close."""
        with contextlib.suppress(Exception):
            await self.drain()
            await self._send.finish()
            await self._send.stopped()
        self.abort()

    @property
    def transport(self) -> _Stream:
        return self

    def abort(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close(0, b"")


def path_of(conn: Any) -> tuple[str, int | None]:
    """("direct" or "relayed", round trip in ms) of the connection's selected path."""
    try:
        paths = [p for p in conn.paths() if p.is_selected] or list(conn.paths())
    except Exception:
        return "direct", None
    if not paths:
        return "direct", None
    return ("relayed" if paths[0].is_relay else "direct"), int(paths[0].rtt_ms)


class IrohLink(links.Link):
    """A link over one QUIC connection; ``info`` says direct or relayed, and the RTT."""

    def __init__(self, stream: _Stream, established: Established, address: tuple[str, int],
                 decoder: FrameDecoder, pending: list[bytes]) -> None:
        super().__init__(stream, stream, established, address, decoder, pending)
        self._conn = stream.conn

    @property
    def info(self) -> LinkInfo:
        path, rtt = path_of(self._conn)
        return LinkInfo(self.remote_addr[0], self.remote_addr[1], path, rtt)


def _peer_key(conn: Any) -> bytes:
    return bytes(conn.remote_id().to_bytes())


def _remote(conn: Any) -> tuple[str, int]:
    """Where the connection comes from, for back-off: the IP of a direct path, else the
    endpoint key (a relay carries many members: its address is nobody's)."""
    with contextlib.suppress(Exception):
        for p in conn.paths():
            if p.is_selected and not p.is_relay:
                return split_addr(str(p.remote_addr))
    return _peer_key(conn).hex(), 0


# ---- the transport -------------------------------------------------------------------


class IrohTransport:
    """``net.transport.Transport`` over iroh for one member of one table.

    ``relays``: None for n0's public relays (and their address lookup), an empty tuple
    for direct links only, or the URLs of self-hosted relays."""

    def __init__(self, identity: Ed25519PrivateKey, table_id: bytes, code: str | None,
                 relays: tuple[str, ...] | None = None,
                 on_refused: Callable[[str], None] | None = None, *, port: int = 0,
                 external: tuple[str, ...] = ()) -> None:
        """``port``: the UDP port to bind when the caller asks for any (one a router
        forwards); ``external``: ``IP:PORT`` addresses that reach this member from outside
        (such a forward), told to the others beside the bound ones."""
        _iroh()
        self.port = port
        self.external = external
        self.identity = identity
        self.public = identity.public_key().public_bytes_raw()
        self.table_id = table_id
        self.code = code
        self.relays = relays
        self.gate = Gate()
        self.on_refused = on_refused
        self.endpoint: Any = None
        self._loopback = False
        """Listening on loopback only: its loopback addresses are the ones to tell."""
        self._listeners: list[_IrohListener] = []

    async def _bind(self, host: str, port: int) -> Any:
        iroh = _iroh()
        builder = iroh.EndpointBuilder()
        if self.relays is None:
            builder.apply_n0()
        else:
            builder.apply_minimal()
            builder.relay_mode(iroh.RelayMode.custom_from_urls(list(self.relays))
                               if self.relays else iroh.RelayMode.disabled())
        port = port or self.port
        v4 = host if ":" not in host else "127.0.0.1"
        self._loopback = _on_loopback(f"{v4}:1")
        v6 = "[::]" if v4 == "0.0.0.0" else "[::1]"  # never every interface unasked
        builder.bind_addr(f"{v4}:{port}")
        builder.bind_addr(f"{v6}:0" if ":" not in host else f"[{host}]:0")
        builder.secret_key(self.identity.private_bytes_raw())
        builder.alpns([ALPN])
        try:
            endpoint = await builder.bind()
        except Exception as exc:
            raise LinkError(_("cannot listen on {address}: {error}").format(
                address=f"{host}:{port}", error=exc)) from None
        if bytes(endpoint.id().to_bytes()) != self.public:
            await endpoint.close()
            raise LinkError("the iroh endpoint id is not this identity key")
        for addr in self.external:
            await endpoint.add_external_addr(addr)
        if self.relays != ():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(endpoint.online(), ONLINE_WAIT)
        return endpoint

    def reach(self) -> Reach:
        """Where others reach this member now: the external addresses it was given, then
        its endpoint's own addresses, and its relay.

        The external ones are named here, not only left to the endpoint: the endpoint
        lists an added external address a moment after ``bind`` returns, and a reach
        taken in that moment (the one the listener reports, which the start then names)
        would tell the other houses no address they can reach, so every dial to this
        member from outside would go unanswered."""
        addr = self.endpoint.addr()
        relay = addr.relay_url()
        keep: list[str] = []
        for a in [*self.external, *(str(a) for a in addr.direct_addresses())]:
            if _canonical(a) and (self._loopback or not _on_loopback(a)) \
                    and a not in keep:
                keep.append(a)
        return Reach(self.public, tuple(keep[:MAX_ITEMS - 1]), (str(relay),) if relay else ())

    async def listen(self, host: str, port: int, on_link: OnLink) -> _IrohListener:
        if self.endpoint is None:
            self.endpoint = await self._bind(host, port)
        listener = links.Listener(self.identity, self.table_id, self.code, on_link,
                                  self._refused, 10.0, links.BACKOFF_BASE,
                                  links.MAX_PENDING_HANDSHAKES, None, self.gate)
        listener.make_link = _checked_link
        sockets = [str(s) for s in self.endpoint.bound_sockets()]
        bound = next((split_addr(s)[1] for s in sockets if not s.startswith("[")), port)
        served = _IrohListener(self, listener, self.reach().text(), bound)
        self._listeners.append(served)
        served.task = asyncio.ensure_future(served.run())
        return served

    def _refused(self, reason: str) -> None:
        if self.on_refused is not None:
            self.on_refused(reason)

    async def dial(self, host: str, port: int, *, timeout: float,
                   expect: bytes | None = None) -> IrohLink:
        """A link to the member whose reach text is ``host`` (``port`` is not used)."""
        try:
            reach = parse_reach(host)
        except ReachError as exc:
            raise BadAddress(str(exc)) from None
        if expect is not None and reach.key != expect:
            raise LinkError(_("{address} answered with another identity key than expected")
                            .format(address=_short(reach)))
        if self.endpoint is None:
            self.endpoint = await self._bind("0.0.0.0", 0)
        where = _short(reach)
        try:
            async with asyncio.timeout(timeout):
                conn = await self._connect(reach)
                bi = await conn.open_bi()
        except TimeoutError:
            raise Unreachable(_("cannot reach {address}: {error}").format(
                address=where, error="no answer")) from None
        except Exception as exc:
            raise Unreachable(_("cannot reach {address}: {error}").format(
                address=where, error=type(exc).__name__)) from None
        stream = _Stream(conn, bi)
        if _peer_key(conn) != reach.key:  # iroh checks this; the link states it again
            stream.abort()
            raise LinkError("the QUIC peer is not the key dialled")
        game = self.gate.game if self.public in self.gate.members else None
        links.check_code(self.code)
        hs = Handshake(Role.DIALER, self.identity, self.table_id, self.code, MAX_FRAME_BYTES,
                       game=game)
        decoder = FrameDecoder(MAX_HANDSHAKE_RECORD, min_frame=1)
        established, pending = await links.pair_dialled(stream, stream, hs, decoder, where,
                                                        timeout, expect)
        if established.remote_identity != reach.key:
            stream.abort()
            raise LinkError(_("{address} answered with another identity key than expected")
                            .format(address=where))
        return IrohLink(stream, established, _remote(conn), decoder, pending)

    async def _connect(self, reach: Reach) -> Any:
        """A QUIC connection to ``reach`` (iroh picks among its addresses and relay)."""
        iroh = _iroh()
        target = iroh.EndpointAddr(iroh.EndpointId.from_bytes(reach.key),
                                   reach.relays[0] if reach.relays else None, list(reach.addrs))
        return await self.endpoint.connect(target, ALPN)

    async def close(self) -> None:
        for served in self._listeners:
            await served.close()
        self._listeners.clear()
        if self.endpoint is not None:
            endpoint, self.endpoint = self.endpoint, None
            with contextlib.suppress(Exception):
                await asyncio.wait_for(endpoint.close(), 2.0)


def _canonical(addr: str) -> bool:
    try:
        split_addr(addr)
    except ReachError:
        return False
    return True


def _closed(endpoint: Any) -> bool:
    try:
        return bool(endpoint.is_closed())
    except Exception:
        return True


def _on_loopback(addr: str) -> bool:
    """A loopback address reaches only this machine (or namespace): never told to others
    unless the table itself lives on loopback."""
    try:
        return ipaddress.ip_address(split_addr(addr)[0]).is_loopback
    except (ReachError, ValueError):
        return False


def _short(reach: Reach) -> str:
    return f"iroh:{reach.key[:4].hex()}"


def _checked_link(reader: links.ByteReader, writer: links.ByteWriter, established: Established,
                  address: tuple[str, int], decoder: FrameDecoder, pending: list[bytes],
                  ) -> links.Link | None:
    """The listener's link, only if the QUIC peer's endpoint id is the proven identity."""
    assert isinstance(reader, _Stream)
    if _peer_key(reader.conn) != established.remote_identity:
        log.debug("dropped %s: QUIC key is not the proven identity", address[0])
        return None
    return IrohLink(reader, established, address, decoder, pending)


class _IrohListener:
    """Accepts this endpoint's connections and hands each stream to ``links.Listener``."""

    def __init__(self, transport: IrohTransport, listener: links.Listener, host: str,
                 port: int) -> None:
        self.transport = transport
        self.listener = listener
        self.host = host
        self.port = port
        self.task: asyncio.Future[None] | None = None
        self._accepting: set[asyncio.Task[None]] = set()

    @property
    def failed_attempts(self) -> int:
        return self.listener.failed_attempts

    async def run(self) -> None:
        endpoint = self.transport.endpoint
        while True:
            try:
                incoming = await endpoint.accept_next()
            except Exception as exc:  # one failed arrival; the endpoint may still be open
                if _closed(endpoint):
                    return
                log.debug("an incoming connection failed: %s", type(exc).__name__)
                await asyncio.sleep(0.01)
                continue
            if incoming is None:
                return
            task = asyncio.ensure_future(self._take(incoming))
            self._accepting.add(task)
            task.add_done_callback(self._accepting.discard)

    async def _take(self, incoming: Any) -> None:
        conn = None
        try:
            async with asyncio.timeout(10.0):
                accepting = await incoming.accept()
                conn = await accepting.connect()
                bi = await conn.accept_bi()
        except Exception:
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close(1, b"")
            return
        stream = _Stream(conn, bi)
        await self.listener.accept(stream, stream, _remote(conn))

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        tasks = list(self._accepting)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, *([self.task] if self.task else []),
                             return_exceptions=True)
        await self.listener.close()
