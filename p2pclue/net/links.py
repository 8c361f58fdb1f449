"""Authenticated, encrypted TCP links between the peers of one table (asyncio).

``dial`` and ``listen`` run the pairing handshake of ``net.pairing`` over a TCP stream
under a deadline and hand back a ``Link`` whose ``remote_identity`` is the Ed25519 key the
other side proved. A link carries whole frames (at most 256 KiB each); it never decodes
them. Everything that goes wrong on a link ends that link with a typed error and nothing
else: garbage, oversize frames, a silent or slow handshake, a forged record.

The listener defends the table: it counts wrong codes (``failed_attempts``, and calls
``on_refused`` so the table can show it), gives every connection exactly one code guess,
refuses an address that failed recently for a growing back-off, and caps the number of
handshakes in progress. Established links belong to ``on_link``'s owner: closing the
listener stops new connections and pending handshakes, not the links it handed out.

Additions to the agreed API (all optional): ``dial(..., local_host=, expect_identity=)``
binds the source address and checks who answered; ``listen(..., backoff_base=,
max_pending=, max_pending_per_address=)``; ``Listener.dropped`` counts connections ended
for garbage or silence; ``Link.handshake_hash`` identifies the session; ``Link.closed``;
``Refused`` (and its ``Busy``), ``Unreachable`` (also a ``ConnectionError``), ``BadAddress``
(also a ``ValueError``: a host no resolver takes) and
``FrameTooLarge`` are further ``LinkError`` subclasses.

Back-off is per address, loopback included: on a machine where several players run, a
wrong code from one local process also makes the others wait (0.5 s, doubling).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import Protocol

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.engine.wire import MAX_FRAME_BYTES
from p2pclue.i18n import _, os_error_text
from p2pclue.net import hosts
from p2pclue.net.framing import FrameDecoder, FramingError
from p2pclue.net.pairing import (
    MAX_HANDSHAKE_RECORD,
    MAX_RECORD,
    REFUSALS,
    Established,
    Handshake,
    PairingError,
    Role,
    normalize_code,
    refusal,
    wire,
)
from p2pclue.net.transport import BadAddress as BadAddress
from p2pclue.net.transport import Busy as Busy
from p2pclue.net.transport import FrameTooLarge as FrameTooLarge
from p2pclue.net.transport import Gate as Gate
from p2pclue.net.transport import HandshakeTimeout as HandshakeTimeout
from p2pclue.net.transport import LinkClosed as LinkClosed
from p2pclue.net.transport import LinkError as LinkError
from p2pclue.net.transport import LinkInfo, Listening, OnLink
from p2pclue.net.transport import Refused as Refused
from p2pclue.net.transport import Unreachable as Unreachable
from p2pclue.net.transport import WrongCode as WrongCode

log = logging.getLogger("p2pclue.net.links")

READ_BYTES = 65536
CLOSE_GRACE = 1.0
MAX_PENDING_PER_ADDRESS = 4
MAX_PENDING_HANDSHAKES = 32
BACKOFF_BASE = 0.5
BACKOFF_MAX = 30.0
BACKOFF_MEMORY = 1024
"""Addresses remembered for back-off; the oldest is forgotten first."""


class ByteReader(Protocol):
    """What a link reads records from: a TCP stream, or a QUIC stream (``net.iroh_link``)."""

    async def read(self, n: int, /) -> bytes: ...


class Abortable(Protocol):
    def abort(self) -> None: ...


class ByteWriter(Protocol):
    """What a link writes records to (``asyncio.StreamWriter``'s shape)."""

    def write(self, data: bytes, /) -> None: ...

    async def drain(self) -> None: ...

    def close(self) -> None: ...

    async def wait_closed(self) -> None: ...

    @property
    def transport(self) -> Abortable: ...


MakeLink = Callable[
    [ByteReader, ByteWriter, "Established", tuple[str, int], FrameDecoder, list[bytes]],
    "Link | None"]


def _bad_address(host: str) -> BadAddress:
    return BadAddress(_("{host} is not a host name or IP address that can be dialled")
                      .format(host=repr(host)))


class Link:
    """One authenticated, encrypted connection to one peer; one reader, any writers."""

    def __init__(
        self,
        reader: ByteReader,
        writer: ByteWriter,
        established: Established,
        remote_addr: tuple[str, int],
        decoder: FrameDecoder,
        pending: list[bytes],
    ) -> None:
        self.remote_identity = established.remote_identity
        self.handshake_hash = established.handshake_hash
        self.remote_addr = remote_addr
        self._reader = reader
        self._writer = writer
        self._channel = established.channel
        self._decoder = decoder
        self._frames: deque[bytes] = deque()
        self._send_lock = asyncio.Lock()
        self._closed: str | None = None
        self._backlog = pending
        """Records that arrived with the end of the handshake, opened by the first recv."""

    def __repr__(self) -> str:
        host, port = self.remote_addr
        return f"<Link {host}:{port} {self.remote_identity[:4].hex()}>"

    @property
    def peer_key(self) -> bytes:
        return self.remote_identity

    @property
    def info(self) -> LinkInfo:
        return LinkInfo(*self.remote_addr)

    @property
    def closed(self) -> bool:
        return self._closed is not None

    async def send(self, frame: bytes) -> None:
        """Encrypt and send one frame; raises ``LinkClosed`` if the link is gone."""
        if len(frame) > self._channel.max_frame:
            raise FrameTooLarge(f"a frame of {len(frame)} bytes is over {MAX_FRAME_BYTES}")
        async with self._send_lock:
            if self._closed is not None:
                raise LinkClosed(self._closed)
            try:
                self._writer.write(self._channel.seal(frame))
                await self._writer.drain()
            except (OSError, RuntimeError) as exc:
                await self._fail(f"send failed: {exc.__class__.__name__}")
                raise LinkClosed(self._closed or "closed") from None

    async def recv(self) -> bytes:
        """The next frame; raises ``LinkClosed`` at the end of the stream or on bad input."""
        while not self._frames:
            if self._closed is not None:
                raise LinkClosed(self._closed)
            if self._backlog:
                backlog, self._backlog = self._backlog, []
                await self._take(backlog)
                continue
            try:
                data = await self._reader.read(READ_BYTES)
            except (OSError, RuntimeError) as exc:
                await self._fail(f"receive failed: {exc.__class__.__name__}")
                continue
            if not data:
                await self._fail("closed by the other side")
                continue
            try:
                records = self._decoder.feed(data)
            except FramingError as exc:
                await self._fail(f"the other side broke the protocol: {exc}")
                continue
            await self._take(records)
        return self._frames.popleft()

    async def _take(self, records: list[bytes]) -> None:
        """Open records in order; frames authenticated before a bad record are still
        delivered, then the link reports why it closed."""
        try:
            for rec in records:
                self._frames.extend(self._channel.open(rec))
        except (FramingError, PairingError) as exc:
            await self._fail(f"the other side broke the protocol: {exc}")

    async def _fail(self, why: str) -> None:
        if self._closed is None:
            self._closed = why
            log.debug("link %r closed: %s", self, why)
        await _close_writer(self._writer)

    async def close(self) -> None:
        """Close the connection; safe to call twice; a pending ``recv`` raises ``LinkClosed``."""
        await self._fail("closed by this side")


async def _close_writer(writer: ByteWriter) -> None:
    """Close, giving unsent bytes a moment; a peer that stopped reading is cut off."""
    writer.close()
    try:
        async with asyncio.timeout(CLOSE_GRACE):
            await writer.wait_closed()
    except (OSError, RuntimeError, TimeoutError):
        writer.transport.abort()


async def _run_handshake(
    reader: ByteReader, writer: ByteWriter, hs: Handshake, decoder: FrameDecoder,
) -> tuple[Established, list[bytes]]:
    """Drive ``hs`` to the end; returns the result and records that arrived after it."""
    for first in hs.start():
        writer.write(wire(first))
    await writer.drain()
    while True:
        data = await reader.read(READ_BYTES)
        if not data:
            raise PairingError("garbage", "connection closed during the handshake")
        decoder.push(data)
        while (rec := decoder.pop()) is not None:
            try:
                out = hs.receive(rec)
            except PairingError:
                if hs.outgoing_refusal is not None:
                    with contextlib.suppress(OSError, RuntimeError):
                        writer.write(wire(hs.outgoing_refusal))
                        await writer.drain()
                raise
            for reply in out:
                writer.write(wire(reply))
            if hs.result is not None:
                await writer.drain()
                decoder.max_frame = MAX_RECORD  # what follows are data records
                return hs.result, decoder.feed(b"")
        await writer.drain()


def _link_error(exc: PairingError) -> LinkError:
    if exc.reason == "wrong-code":
        return WrongCode(str(exc))
    if exc.reason in ("busy", "full"):
        return Busy(exc.reason, str(exc))
    if exc.reason in REFUSALS:
        return Refused(exc.reason, str(exc))
    return LinkClosed(str(exc))


async def dial(
    host: str,
    port: int,
    *,
    identity: Ed25519PrivateKey,
    table_id: bytes,
    code: str | None,
    timeout: float = 10.0,
    local_host: str | None = None,
    expect_identity: bytes | None = None,
    game: bytes | None = None,
) -> Link:
    """Connect to a table member and pair; raises a ``LinkError`` subclass on failure.

    ``game``: the session id of the signed start; the link then uses no code at all (game
    mode: both sides prove identity keys of that start). A code-mode dial that fails after
    this side let the other test the code raises ``WrongCode``, whatever the other side
    said (it may just hang up): that was a guess spent, and the caller counts it."""
    check_code(code)
    if not hosts.dialable(host):
        raise _bad_address(host)
    hs = Handshake(Role.DIALER, identity, table_id, code, MAX_FRAME_BYTES, game=game)
    decoder = FrameDecoder(MAX_HANDSHAKE_RECORD, min_frame=1)
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(
                host, port, local_addr=None if local_host is None else (local_host, 0))
    except (OSError, TimeoutError) as exc:
        raise Unreachable(_("cannot reach {address}: {error}").format(
            address=f"{host}:{port}", error=os_error_text(exc))) from None
    except ValueError:  # the resolver refused the text (what dialable() does not foresee)
        raise _bad_address(host) from None
    where = f"{host}:{port}"
    established, pending = await pair_dialled(reader, writer, hs, decoder, where, timeout,
                                              expect_identity)
    peer = writer.get_extra_info("peername")
    return Link(reader, writer, established, (str(peer[0]), int(peer[1])), decoder, pending)


async def pair_dialled(
    reader: ByteReader, writer: ByteWriter, hs: Handshake, decoder: FrameDecoder, where: str,
    timeout: float, expect_identity: bytes | None,
) -> tuple[Established, list[bytes]]:
    """The dialler's handshake on an open connection (TCP here, QUIC in ``net.iroh_link``):
    every failure closes the connection and becomes the ``LinkError`` the caller raises."""
    try:
        async with asyncio.timeout(timeout):
            established, pending = await _run_handshake(reader, writer, hs, decoder)
    except TimeoutError:
        await _close_writer(writer)
        if hs.guess_spent:
            raise WrongCode(f"{where} tested the code and did not answer") from None
        raise HandshakeTimeout(_("{address} did not finish the handshake in {seconds} s").format(
            address=where, seconds=f"{timeout:g}")) from None
    except (PairingError, FramingError, OSError, RuntimeError) as exc:
        await _close_writer(writer)
        if hs.guess_spent and not (isinstance(exc, PairingError) and exc.reason in (
                "wrong-code", "identity")):
            raise WrongCode(f"{where} tested the code, then hung up") from None
        if isinstance(exc, PairingError):
            raise _link_error(exc) from None
        raise LinkClosed(f"{where}: handshake failed ({exc.__class__.__name__})") from None
    except BaseException:
        writer.transport.abort()  # cancelled: leave no socket behind
        raise
    if expect_identity is not None and established.remote_identity != expect_identity:
        await _close_writer(writer)
        raise LinkError(_("{address} answered with another identity key than expected").format(
            address=where))
    return established, pending


def check_code(code: str | None) -> None:
    """A code that normalises to nothing (spaces, dashes) is refused up front: otherwise
    every connection's handshake would fail on it, and a listener would leak its slot."""
    if code is not None:
        try:
            normalize_code(code)
        except ValueError as exc:
            raise LinkError(_("unusable table code: {error}").format(error=exc)) from None


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


class _Backoff:
    """Per-address waiting time after failed guesses: doubles each time, up to a cap."""

    def __init__(self, base: float) -> None:
        self.base = base
        self._failures: OrderedDict[str, tuple[int, float]] = OrderedDict()

    def blocked(self, address: str, now: float) -> bool:
        entry = self._failures.get(address)
        return entry is not None and now < entry[1]

    def failed(self, address: str, now: float) -> None:
        count = self._failures.pop(address, (0, 0.0))[0] + 1
        delay = min(self.base * 2 ** (count - 1), BACKOFF_MAX)
        self._failures[address] = (count, now + delay)
        while len(self._failures) > BACKOFF_MEMORY:
            self._failures.popitem(last=False)

    def succeeded(self, address: str) -> None:
        self._failures.pop(address, None)


class Listener:
    """Accepts connections for one table; see the module docstring for its defences."""

    def __init__(
        self,
        identity: Ed25519PrivateKey,
        table_id: bytes,
        code: str | None,
        on_link: Callable[[Link], Awaitable[None]],
        on_refused: Callable[[str], None] | None,
        handshake_timeout: float,
        backoff_base: float,
        max_pending: int,
        max_pending_per_address: int | None,
        gate: Gate,
    ) -> None:
        self.host = ""
        self.port = 0
        self.failed_attempts = 0
        """Wrong table codes received (each connection gets one guess)."""
        self.dropped = 0
        """Connections closed for garbage, silence, a busy table or a failed identity proof."""
        self._identity = identity
        self._table_id = table_id
        self._code = code
        self._on_link = on_link
        self._on_refused = on_refused
        self._handshake_timeout = handshake_timeout
        self._backoff = _Backoff(backoff_base)
        self._max_pending = max_pending
        self._max_per_address = max_pending_per_address
        self._pending = 0
        self._per_address: dict[str, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: asyncio.Server | None = None
        self.gate = gate
        self.make_link: MakeLink = Link
        """Builds the link of a finished handshake; None refuses it (another transport's
        check, such as a QUIC peer key that is not the identity the handshake proved)."""

    async def accept(self, reader: ByteReader, writer: ByteWriter, peer: tuple[str, int],
                     ) -> None:
        """Serve one new connection from ``peer`` (its address: what back-off counts)."""
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await self._serve(reader, writer, peer)
        finally:
            if task is not None:
                self._tasks.discard(task)

    async def _tcp(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        await self.accept(reader, writer, (str(peer[0]), int(peer[1])))

    async def _serve(self, reader: ByteReader, writer: ByteWriter, address: tuple[str, int],
                     ) -> None:
        busy = self._backoff.blocked(address[0], time.monotonic())
        per_address = self._max_per_address
        if per_address is None:  # every local process shares 127.0.0.1: no cap there
            per_address = 0 if _is_loopback(address[0]) else MAX_PENDING_PER_ADDRESS
        crowded = self._pending >= self._max_pending or (
            per_address > 0 and self._per_address.get(address[0], 0) >= per_address)
        if busy or crowded:
            self.dropped += 1
            with contextlib.suppress(OSError, RuntimeError):
                writer.write(wire(refusal("busy" if busy else "full")))
            await _close_writer(writer)
            return
        self._pending += 1
        self._per_address[address[0]] = self._per_address.get(address[0], 0) + 1
        gate = self.gate
        code = gate.code if gate.code is not None else self._code
        hs = Handshake(Role.LISTENER, self._identity, self._table_id, code, MAX_FRAME_BYTES,
                       game=gate.game, members=gate.members, code_dead=gate.code_dead,
                       budget=gate.guesses, source=address[0], code_entry=gate.code_entry)
        decoder = FrameDecoder(MAX_HANDSHAKE_RECORD, min_frame=1)
        try:
            async with asyncio.timeout(self._handshake_timeout):
                established, pending = await _run_handshake(reader, writer, hs, decoder)
        except PairingError as exc:
            await _close_writer(writer)
            self._refused(address[0], exc, hs)
            return
        except (TimeoutError, FramingError, OSError, RuntimeError) as exc:
            self.dropped += 1
            log.debug("dropped %s: %s", address[0], exc.__class__.__name__)
            if hs.expensive:  # made this side run public-key work, then gave up
                self._backoff.failed(address[0], time.monotonic())
            await _close_writer(writer)
            if self._settle(hs):  # it tested a code, then went silent or broke
                self._report(f"refused {address[0]}: the code was tested, then the "
                             f"connection broke ({exc.__class__.__name__})")
            return
        except BaseException:
            writer.transport.abort()  # the listener is closing
            raise
        finally:
            self._pending -= 1
            left = self._per_address.pop(address[0]) - 1
            if left:
                self._per_address[address[0]] = left
            self._settle(hs)  # a link, or a handshake that never tested the code: given back
        link = self.make_link(reader, writer, established, address, decoder, pending)
        if link is None:
            self.dropped += 1
            await _close_writer(writer)
            return
        self._backoff.succeeded(address[0])
        task = asyncio.current_task()
        if task is not None:
            self._tasks.discard(task)  # the link is on_link's now: close() leaves it alone
        try:
            await self._on_link(link)
        except Exception:
            log.exception("on_link failed for %r", link)
            await link.close()

    def _refused(self, address: str, exc: PairingError, hs: Handshake) -> None:
        guessed = exc.reason in ("wrong-code", "identity") and not exc.by_remote
        if guessed or hs.expensive:  # a guess, or public-key work for nothing: slow it down
            self._backoff.failed(address, time.monotonic())
        counted = self._settle(hs)
        if not guessed:
            self.dropped += 1
            log.debug("dropped %s: %s", address, exc)
        elif exc.reason == "wrong-code":
            self.failed_attempts += 1
        if counted:
            self._report(f"refused {address}: {exc}")

    def _settle(self, hs: Handshake) -> bool:
        """End the guess ``hs`` held: spent if it tested the code and made no link (the
        wrong code, or a failure right after the test). True: one guess to report now;
        the caller's report grows the count in the same step as the reservation ends, so
        at no moment is the guess missing from the budget."""
        held, hs.reservation = hs.reservation, None
        if held is None:
            return False
        spent = hs.code_tested and hs.result is None
        return self.gate.guesses.release(held, spent) and spent

    def _report(self, reason: str) -> None:
        if self._on_refused is not None:
            self._on_refused(reason)

    async def close(self) -> None:
        """Stop accepting and abort handshakes in progress; safe to call twice."""
        if self._server is not None:
            self._server.close()
            self._server = None
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def listen(
    host: str,
    port: int,
    *,
    identity: Ed25519PrivateKey,
    table_id: bytes,
    code: str | None,
    on_link: Callable[[Link], Awaitable[None]],
    on_refused: Callable[[str], None] | None = None,
    handshake_timeout: float = 10.0,
    backoff_base: float = BACKOFF_BASE,
    max_pending: int = MAX_PENDING_HANDSHAKES,
    max_pending_per_address: int | None = None,
    gate: Gate | None = None,
) -> Listener:
    """Listen on ``host:port`` (port 0 picks one: read ``Listener.port``).

    ``max_pending_per_address``: handshakes one address may have in progress; None means
    ``MAX_PENDING_PER_ADDRESS`` except from loopback, 0 means no per-address cap.
    ``gate``: read at every connection (game-mode members, a dead code); shared with the mesh.
    """
    check_code(code)
    listener = Listener(identity, table_id, code, on_link, on_refused, handshake_timeout,
                        backoff_base, max_pending, max_pending_per_address, gate or Gate())
    try:
        server = await asyncio.start_server(listener._tcp, host, port, reuse_address=True)
    except OSError as exc:
        raise LinkError(_("cannot listen on {address}: {error}").format(
            address=f"{host}:{port}", error=os_error_text(exc))) from None
    listener._server = server
    sockname = server.sockets[0].getsockname()
    listener.host, listener.port = str(sockname[0]), int(sockname[1])
    return listener


class TcpTransport:
    """``net.transport.Transport`` over TCP: the pairing handshake (PAKE on the table code,
    then Noise) for one member of one table. The code is the gate's (``Gate.code``): a
    fresh code the opener turns to applies to the next connection."""

    def __init__(self, identity: Ed25519PrivateKey, table_id: bytes, code: str | None,
                 on_refused: Callable[[str], None] | None = None) -> None:
        self.identity = identity
        self.public = identity.public_key().public_bytes_raw()
        self.table_id = table_id
        self.gate = Gate(code=code)
        self.on_refused = on_refused
        self._listeners: list[Listener] = []

    async def listen(self, host: str, port: int, on_link: OnLink) -> Listening:
        listener = await listen(host, port, identity=self.identity, table_id=self.table_id,
                                code=self.gate.code, on_link=on_link, on_refused=self._refused,
                                gate=self.gate)
        self._listeners.append(listener)
        return listener

    async def close(self) -> None:
        for listener in self._listeners:
            await listener.close()

    def _refused(self, reason: str) -> None:
        if self.on_refused is not None:
            self.on_refused(reason)

    async def dial(self, host: str, port: int, *, timeout: float,
                   expect: bytes | None = None) -> Link:
        """A member of a started game dials in game mode (no code)."""
        game = self.gate.game if self.public in self.gate.members else None
        return await dial(host, port, identity=self.identity, table_id=self.table_id,
                          code=self.gate.code, timeout=timeout, game=game,
                          expect_identity=expect)
