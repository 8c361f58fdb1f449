"""Links over real loopback sockets: pairing, the table code, and a hostile LAN.

Every attack here sends the bad bytes over a real TCP connection and checks what the
listener did (who was counted, who was told) and that an honest peer still gets in.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.engine.wire import MAX_FRAME_BYTES
from p2pclue.net import links
from p2pclue.net.framing import FrameDecoder
from p2pclue.net.links import (
    FrameTooLarge,
    HandshakeTimeout,
    Link,
    LinkClosed,
    LinkError,
    Refused,
    WrongCode,
    dial,
    listen,
)
from p2pclue.net.pairing import (
    Handshake,
    Kind,
    PairingError,
    Role,
    record,
    wire,
)

HOST = "127.0.0.1"
TABLE = bytes(range(16))
T = TypeVar("T")
GUARD = 60.0
"""Seconds a wait for a listener's state may take: a hang guard only."""


def run(coro: Coroutine[Any, Any, T], limit: float = 30.0) -> T:
    async def bounded() -> T:
        async with asyncio.timeout(limit):
            return await coro
    return asyncio.run(bounded())


def public(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes_raw()


@dataclass
class Table:
    """A listener whose accepted links and refusals the test can inspect."""

    identity: Ed25519PrivateKey = field(default_factory=Ed25519PrivateKey.generate)
    accepted: asyncio.Queue[Link] = field(default_factory=asyncio.Queue)
    refusals: list[str] = field(default_factory=list)
    listener: links.Listener | None = None

    async def open(self, code: str | None, **kw: Any) -> links.Listener:
        async def on_link(link: Link) -> None:
            await self.accepted.put(link)

        self.listener = await listen(HOST, 0, identity=self.identity, table_id=TABLE, code=code,
                                     on_link=on_link, on_refused=self.refusals.append, **kw)
        return self.listener

    @property
    def port(self) -> int:
        assert self.listener is not None
        port: int = self.listener.port
        return port

    async def close(self) -> None:
        while not self.accepted.empty():
            await self.accepted.get_nowait().close()
        if self.listener is not None:
            await self.listener.close()


def with_table(code: str | None, **kw: Any) -> Callable[
        [Callable[[Table], Awaitable[None]]], Callable[[], None]]:
    """Run the test body against a fresh listening table, always closed afterwards."""
    def wrap(body: Callable[[Table], Awaitable[None]]) -> Callable[[], None]:
        def test() -> None:
            async def main() -> None:
                table = Table()
                await table.open(code, **kw)
                try:
                    await body(table)
                finally:
                    await table.close()
            run(main())
        test.__name__ = body.__name__
        test.__doc__ = body.__doc__
        return test
    return wrap


async def dial_table(table: Table, code: str | None, **kw: Any) -> Link:
    return await dial(HOST, table.port, identity=kw.pop("identity", Ed25519PrivateKey.generate()),
                      table_id=kw.pop("table_id", TABLE), code=code, **kw)


async def read_until_closed(reader: asyncio.StreamReader, limit: float = 5.0) -> bytes:
    """Everything the other side sends until it closes (it must close within ``limit``)."""
    data = b""
    async with asyncio.timeout(limit):
        while chunk := await reader.read(65536):
            data += chunk
    return data


# ---- pairing succeeds ---------------------------------------------------------------


@with_table("493 017")
async def test_code_pairing_proves_both_identities_and_carries_frames(table: Table) -> None:
    me = Ed25519PrivateKey.generate()
    mine = await dial_table(table, "493017", identity=me)
    theirs = await asyncio.wait_for(table.accepted.get(), 5)
    try:
        assert mine.remote_identity == public(table.identity)
        assert theirs.remote_identity == public(me)
        assert mine.handshake_hash == theirs.handshake_hash
        big = os.urandom(MAX_FRAME_BYTES)  # spans several Noise records
        for frame in (b"hello", b"", big):
            await mine.send(frame)
            assert await theirs.recv() == frame
        await theirs.send(b"back")
        assert await mine.recv() == b"back"
        assert table.listener is not None and table.listener.failed_attempts == 0
    finally:
        await mine.close()
    with pytest.raises(LinkClosed):
        await theirs.recv()
    with pytest.raises(LinkClosed):
        await mine.send(b"after close")


def test_frames_sent_at_once_by_the_listener_arrive() -> None:
    """Data right behind the handshake's last record is not mistaken for a handshake record."""
    big = os.urandom(100_000)

    async def main() -> None:
        async def greet(link: Link) -> None:
            await link.send(big)
            await link.send(b"second")

        listener = await listen(HOST, 0, identity=Ed25519PrivateKey.generate(), table_id=TABLE,
                                code="1", on_link=greet)
        try:
            link = await dial(HOST, listener.port, identity=Ed25519PrivateKey.generate(),
                              table_id=TABLE, code="1")
            assert await link.recv() == big
            assert await link.recv() == b"second"
            await link.close()
        finally:
            await listener.close()
    run(main())


@with_table(None)
async def test_no_code_table_pairs_by_identity_alone(table: Table) -> None:
    me = Ed25519PrivateKey.generate()
    mine = await dial_table(table, None, identity=me, expect_identity=public(table.identity))
    theirs = await asyncio.wait_for(table.accepted.get(), 5)
    assert theirs.remote_identity == public(me)
    await mine.close()


@with_table(None)
async def test_dial_refuses_an_unexpected_identity(table: Table) -> None:
    with pytest.raises(LinkError, match="another identity"):
        await dial_table(table, None, expect_identity=public(Ed25519PrivateKey.generate()))


# ---- the table code -------------------------------------------------------------------


@with_table("111111", backoff_base=0.5)
async def test_wrong_code_is_refused_counted_and_backed_off(table: Table) -> None:
    """The back-off is a real clock (0.5 s, then 1 s): each wait below is past the end of
    one window, or well inside the next, so a slow machine only moves it further."""
    assert table.listener is not None
    with pytest.raises(WrongCode, match="wrong table code"):
        await dial_table(table, "111112")
    assert table.listener.failed_attempts == 1
    assert len(table.refusals) == 1 and "wrong table code" in table.refusals[0]
    assert "111111" not in table.refusals[0] and "111112" not in table.refusals[0]
    # An immediate second try from the same address gets no guess at all.
    with pytest.raises(links.Busy) as busy:
        await dial_table(table, "111113")
    assert busy.value.reason == "busy"
    assert table.listener.failed_attempts == 1
    # Another address is not slowed down by this one's failures.
    other = await dial_table(table, "111111", local_host="127.0.0.2")
    assert other.remote_addr[0] == HOST
    await other.close()
    assert (await asyncio.wait_for(table.accepted.get(), 5)).remote_addr[0] == "127.0.0.2"
    # The second failure doubles the wait.
    await asyncio.sleep(0.55)
    with pytest.raises(WrongCode):
        await dial_table(table, "111114")
    assert table.listener.failed_attempts == 2
    await asyncio.sleep(0.6)  # past the first window's length, inside the doubled one
    with pytest.raises(Refused):
        await dial_table(table, "111111")
    # After the back-off the right code gets in; nothing reached on_link before.
    assert table.accepted.empty()
    await asyncio.sleep(0.5)
    link = await dial_table(table, "111111")
    await link.close()
    assert table.listener.failed_attempts == 2
    assert table.accepted.qsize() == 1


@with_table("222222")
async def test_one_guess_per_connection(table: Table) -> None:
    """After a wrong code the listener closes: a second PAKE on that socket goes nowhere."""
    reader, writer = await asyncio.open_connection(HOST, table.port)
    try:
        guess = Handshake(Role.DIALER, Ed25519PrivateKey.generate(), TABLE, "999999",
                          MAX_FRAME_BYTES)
        with pytest.raises(PairingError) as refused:
            await links._run_handshake(reader, writer, guess, FrameDecoder(4096, 1))
        assert refused.value.reason == "wrong-code" and refused.value.by_remote
        again = Handshake(Role.DIALER, Ed25519PrivateKey.generate(), TABLE, "222222",
                          MAX_FRAME_BYTES)
        with pytest.raises((PairingError, ConnectionError)):
            await links._run_handshake(reader, writer, again, FrameDecoder(4096, 1))
    finally:
        writer.close()
    assert table.listener is not None and table.listener.failed_attempts == 1
    assert table.accepted.empty()


@with_table("333333")
async def test_a_codeless_dialer_is_told_the_table_needs_a_code(table: Table) -> None:
    with pytest.raises(Refused, match="needs its table code") as err:
        await dial_table(table, None)
    assert err.value.reason == "needs-code"
    assert table.listener is not None and table.listener.failed_attempts == 0


@with_table("999999")
async def test_a_dialer_cannot_inflate_the_failed_attempts_with_refusals(table: Table) -> None:
    """A REFUSE record sent *to* the table is not a wrong code: counted as dropped only."""
    assert table.listener is not None
    reader, writer = await asyncio.open_connection(HOST, table.port)
    hello = Handshake(Role.DIALER, Ed25519PrivateKey.generate(), TABLE, "999999",
                      MAX_FRAME_BYTES).start()[0]
    writer.write(wire(hello) + wire(record(Kind.REFUSE, b"wrong-code")))
    await writer.drain()
    await read_until_closed(reader)
    writer.close()
    assert table.listener.failed_attempts == 0 and table.refusals == []
    assert table.listener.dropped == 1


@with_table("333333")
async def test_another_table_id_is_refused(table: Table) -> None:
    with pytest.raises(Refused) as err:
        await dial_table(table, "333333", table_id=b"another table id")
    assert err.value.reason == "table"


def test_dialling_a_closed_port_is_a_clear_error() -> None:
    async def main() -> None:
        server = await asyncio.start_server(lambda r, w: None, HOST, 0)
        port = server.sockets[0].getsockname()[1]
        server.close()
        await server.wait_closed()
        with pytest.raises(links.Unreachable, match="cannot reach") as err:
            await dial(HOST, port, identity=Ed25519PrivateKey.generate(), table_id=TABLE,
                       code=None, timeout=2)
        assert isinstance(err.value, ConnectionError) and isinstance(err.value, LinkError)
    run(main())


# ---- strangers: garbage, silence, oversize -----------------------------------------------


@with_table("444444", handshake_timeout=5)
async def test_garbage_bytes_cost_nothing(table: Table) -> None:
    assert table.listener is not None
    for garbage in (os.urandom(3000), b"\x00\x00\x00\x05\x01hello",
                    b"\xff\xff\xff\xff" + os.urandom(100), b"GET / HTTP/1.1\r\n\r\n"):
        reader, writer = await asyncio.open_connection(HOST, table.port)
        writer.write(garbage)
        await writer.drain()
        await read_until_closed(reader, limit=2.0)  # closed at once, not at the deadline
        writer.close()
    assert table.listener.dropped == 4
    assert table.listener.failed_attempts == 0 and table.refusals == []
    link = await dial_table(table, "444444")  # the table still works, no back-off
    await link.close()


@with_table("555555", handshake_timeout=0.5, backoff_base=5.0)
async def test_a_silent_or_stalled_handshake_is_cut_at_the_deadline(table: Table) -> None:
    assert table.listener is not None
    silent_r, silent_w = await asyncio.open_connection(HOST, table.port,
                                                      local_addr=("127.0.0.3", 0))
    stall_r, stall_w = await asyncio.open_connection(HOST, table.port)
    hello = Handshake(Role.DIALER, Ed25519PrivateKey.generate(), TABLE, "555555",
                      MAX_FRAME_BYTES).start()
    for rec in hello:  # a hello and a PAKE message (the table runs SPAKE2), then nothing
        stall_w.write(wire(rec))
    await stall_w.drain()
    loop = asyncio.get_running_loop()
    began = loop.time()
    await read_until_closed(silent_r, limit=5.0)
    await read_until_closed(stall_r, limit=5.0)
    assert 0.4 < loop.time() - began < 5.0  # its deadline, not the default 10 s
    silent_w.close()
    stall_w.close()
    assert table.listener.dropped == 2 and table.listener.failed_attempts == 0
    assert table.refusals == []
    # Silence cost its address nothing; making the table run SPAKE2 for nothing costs a wait.
    link = await dial_table(table, "555555", local_host="127.0.0.3")
    await link.close()
    with pytest.raises(Refused) as err:
        await dial_table(table, "555555")
    assert err.value.reason == "busy"


def test_dial_gives_up_on_a_table_that_never_answers() -> None:
    async def main() -> None:
        held: list[asyncio.StreamWriter] = []

        async def mute(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            held.append(writer)

        server = await asyncio.start_server(mute, HOST, 0)
        port = server.sockets[0].getsockname()[1]
        try:
            with pytest.raises(HandshakeTimeout):
                await dial(HOST, port, identity=Ed25519PrivateKey.generate(), table_id=TABLE,
                           code="1", timeout=0.5)
        finally:
            for writer in held:
                writer.close()
            server.close()
    run(main())


async def pending(table: Table, count: int) -> None:
    """Until the listener holds ``count`` handshakes open (accepted, not yet done)."""
    assert table.listener is not None
    async with asyncio.timeout(GUARD):
        while table.listener._pending != count:
            await asyncio.sleep(0.01)


@with_table("666666", max_pending=2, handshake_timeout=60.0)
async def test_too_many_pending_handshakes_are_turned_away(table: Table) -> None:
    assert table.listener is not None
    idle = [await asyncio.open_connection(HOST, table.port) for _ in range(2)]
    await pending(table, 2)
    with pytest.raises(Refused) as err:
        await dial_table(table, "666666")
    assert err.value.reason == "full"
    for _, writer in idle:
        writer.close()
    await pending(table, 0)
    link = await dial_table(table, "666666")
    await link.close()


@with_table("676767", handshake_timeout=60.0, max_pending_per_address=3)
async def test_one_address_cannot_take_every_handshake_slot(table: Table) -> None:
    idle = [await asyncio.open_connection(HOST, table.port) for _ in range(3)]
    await pending(table, 3)
    with pytest.raises(Refused) as err:
        await dial_table(table, "676767")
    assert err.value.reason == "full"
    link = await dial_table(table, "676767", local_host="127.0.0.2")
    await link.close()
    for _, writer in idle:
        writer.close()


def test_loopback_peers_are_not_capped_per_address_by_default() -> None:
    """Every process of a table played on one machine dials from 127.0.0.1."""
    @with_table("787878", handshake_timeout=60.0)
    async def body(table: Table) -> None:
        idle = [await asyncio.open_connection(HOST, table.port)
                for _ in range(links.MAX_PENDING_PER_ADDRESS + 1)]
        await pending(table, links.MAX_PENDING_PER_ADDRESS + 1)
        link = await dial_table(table, "787878")
        await link.close()
        for _, writer in idle:
            writer.close()
    body()


async def linked_pair(table: Table, code: str) -> tuple[Link, Link]:
    mine = await dial_table(table, code)
    theirs = await asyncio.wait_for(table.accepted.get(), 5)
    return mine, theirs


@with_table("777777")
async def test_an_oversize_frame_inside_the_encryption_closes_the_link(table: Table) -> None:
    evil, victim = await linked_pair(table, "777777")
    # The attacker encrypts a length header over the cap with its real session keys.
    noise = evil._channel._noise
    header = (MAX_FRAME_BYTES + 1).to_bytes(4, "big")
    evil._writer.write(wire(record(Kind.DATA, bytes(noise.encrypt(header + b"x" * 100)))))
    await evil._writer.drain()
    with pytest.raises(LinkClosed, match="broke the protocol"):
        await victim.recv()
    assert victim._decoder.buffered == 0
    await evil.close()


@with_table("777777")
async def test_an_oversize_record_closes_the_link(table: Table) -> None:
    evil, victim = await linked_pair(table, "777777")
    evil._writer.write((10**7).to_bytes(4, "big") + b"\x04" + b"x" * 1000)
    await evil._writer.drain()
    with pytest.raises(LinkClosed, match="broke the protocol"):
        await victim.recv()
    await evil.close()


@with_table("777777")
async def test_a_forged_record_closes_the_link(table: Table) -> None:
    evil, victim = await linked_pair(table, "777777")
    good = evil._channel.seal(b"authentic")
    sealed = bytearray(evil._channel.seal(b"a real frame"))
    sealed[-1] ^= 1
    evil._writer.write(good + bytes(sealed) + evil._channel.seal(b"after the forgery"))
    await evil._writer.drain()
    assert await victim.recv() == b"authentic"
    with pytest.raises(LinkClosed, match="broke the protocol"):
        await victim.recv()
    await evil.close()


def test_sending_an_oversize_frame_is_refused_locally() -> None:
    @with_table(None)
    async def body(table: Table) -> None:
        mine, theirs = await linked_pair(table, None)  # type: ignore[arg-type]
        with pytest.raises(FrameTooLarge):
            await mine.send(b"x" * (MAX_FRAME_BYTES + 1))
        await mine.send(b"still fine")
        assert await theirs.recv() == b"still fine"
        await mine.close()
    body()


# ---- identity binding ------------------------------------------------------------------


class Impostor(Handshake):
    """A dialler that knows the code but presents a proof of its choosing."""

    def __init__(self, code: str, proof: Callable[[Handshake], bytes]) -> None:
        super().__init__(Role.DIALER, Ed25519PrivateKey.generate(), TABLE, code, MAX_FRAME_BYTES)
        self._make = proof

    def proof_plaintext(self) -> bytes:
        return self._make(self)


async def impostor_dials(table: Table, hs: Handshake) -> PairingError:
    reader, writer = await asyncio.open_connection(HOST, table.port)
    try:
        with pytest.raises(PairingError) as err:
            await links._run_handshake(reader, writer, hs, FrameDecoder(4096, 1))
        return err.value
    finally:
        writer.close()


@with_table("888888")
async def test_a_peer_cannot_claim_another_identity_key(table: Table) -> None:
    victim = public(Ed25519PrivateKey.generate())
    own = Ed25519PrivateKey.generate()
    hs = Impostor("888888", lambda h: victim + own.sign(b"anything"))
    err = await impostor_dials(table, hs)
    assert err.reason == "identity" and err.by_remote
    assert table.accepted.empty()
    assert len(table.refusals) == 1 and "identity" in table.refusals[0]
    assert table.listener is not None and table.listener.failed_attempts == 0


def test_a_proof_from_another_session_does_not_transfer() -> None:
    """M pairs honestly with V, keeps V's proof, and presents it to H as V: refused."""
    async def main() -> None:
        victim = Ed25519PrivateKey.generate()
        stolen: list[bytes] = []
        m_table, h_table = Table(), Table()

        await m_table.open("121212")
        await h_table.open("343434")
        try:
            # V dials M, an honest-looking table; M records V's proof through its own handshake.
            reader, writer = await asyncio.open_connection(HOST, m_table.port)
            v_hs = Handshake(Role.DIALER, victim, TABLE, "121212", MAX_FRAME_BYTES)
            await links._run_handshake(reader, writer, v_hs, FrameDecoder(4096, 1))
            writer.close()
            m_link = await asyncio.wait_for(m_table.accepted.get(), 5)
            assert m_link.remote_identity == public(victim)
            # The exact proof bytes V sent M (Ed25519 is deterministic); M replays them to H.
            stolen.append(v_hs.proof_plaintext())
            await m_link.close()
            err = await impostor_dials(h_table, Impostor("343434", lambda h: stolen[0]))
            assert err.reason == "identity"
            assert h_table.accepted.empty() and len(h_table.refusals) == 1
        finally:
            await m_table.close()
            await h_table.close()
    run(main())


@with_table("565656")
async def test_a_proof_for_the_other_role_is_refused(table: Table) -> None:
    """A listener's statement signed by the dialler does not pass as a dialler's."""
    me = Ed25519PrivateKey.generate()

    def wrong_role(h: Handshake) -> bytes:
        statement = (b"p2pclue/v1/link-identity\x00" + bytes([Role.LISTENER, len(TABLE)])
                     + TABLE + bytes(h._noise.get_handshake_hash()))
        return public(me) + me.sign(statement)

    hs = Impostor("565656", wrong_role)
    hs._identity = me
    err = await impostor_dials(table, hs)
    assert err.reason == "identity"


# ---- recorded handshakes ----------------------------------------------------------------


def test_a_recorded_handshake_does_not_confirm_even_the_right_code() -> None:
    """An eavesdropper with every record and the right code still cannot derive the PSK.

    With the code itself as PSK (the construction the issue forbids) it could, and could
    therefore test guesses offline; SPAKE2 leaves it one online guess per connection.
    """
    from spake2 import SPAKE2_A, SPAKE2_B

    from p2pclue.net import pairing

    code = "246810"
    dialer = Handshake(Role.DIALER, Ed25519PrivateKey.generate(), TABLE, code, MAX_FRAME_BYTES)
    listener = Handshake(Role.LISTENER, Ed25519PrivateKey.generate(), TABLE, code,
                         MAX_FRAME_BYTES)
    recorded: list[bytes] = []
    queue = [(listener, rec) for rec in dialer.start()]
    while queue:
        who, rec = queue.pop(0)
        recorded.append(rec)
        other = dialer if who is listener else listener
        queue += [(other, out) for out in who.receive(rec)]
    assert dialer.result is not None and listener.result is not None
    assert code.encode() not in b"".join(recorded)
    pakes = [rec[1:] for rec in recorded if rec[0] == Kind.PAKE]
    password = b"p2pclue/v1/code\x00" + bytes([len(TABLE)]) + TABLE + code.encode()
    ids = {"idA": b"p2pclue/v1/dialer", "idB": b"p2pclue/v1/listener"}
    # Replaying either recorded message against a fresh SPAKE2 run with the right code
    # yields an unrelated key: the secret scalars of the real run are not in the record.
    for side, theirs in ((SPAKE2_A, pakes[1]), (SPAKE2_B, pakes[0])):
        attempt = side(password, **ids)
        attempt.start()
        key = attempt.finish(theirs)
        guess = pairing._hkdf(key, listener._prologue(), b"p2pclue/v1/noise-psk")
        assert guess != listener._psk
    assert listener._psk not in (code.encode().ljust(32, b"\0"), password[:32])
