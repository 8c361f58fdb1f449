"""Review attacks on the link handshake, over real loopback sockets.

A weak (small-order) Ed25519 identity key needs no private key at all: under the identity
point, the signature (R = identity, S = 0) verifies for every statement. A stranger who
knows the code (or any stranger, at a ``--no-code`` table) must not be able to "prove" such
a key, on either side of the handshake.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from p2pclue.engine.wire import MAX_FRAME_BYTES
from p2pclue.net import links
from p2pclue.net.framing import FrameDecoder
from p2pclue.net.links import LinkError, Refused, dial
from p2pclue.net.pairing import Handshake, PairingError, Role, identity_statement
from tests.net.test_links import HOST, TABLE, Impostor, Table, impostor_dials, run, with_table

IDENTITY_POINT = bytes([1]) + bytes(31)
"""The neutral element's encoding: a small-order 'public key'."""
UNIVERSAL_SIGNATURE = IDENTITY_POINT + bytes(32)
"""R = identity, S = 0: [0]B = R + [h]O for every h."""


def weak_proof(h: Handshake) -> bytes:
    return IDENTITY_POINT + UNIVERSAL_SIGNATURE


def test_the_weak_key_really_verifies_anything() -> None:
    """The premise of the attack: the library itself accepts this signature."""
    statement = identity_statement(Role.DIALER, TABLE, bytes(32))
    Ed25519PublicKey.from_public_bytes(IDENTITY_POINT).verify(UNIVERSAL_SIGNATURE, statement)


@with_table("246810")
async def test_a_dialler_cannot_pair_with_a_weak_identity_key(table: Table) -> None:
    err = await impostor_dials(table, Impostor("246810", weak_proof))
    assert err.reason == "identity" and err.by_remote
    assert table.accepted.empty()
    assert len(table.refusals) == 1 and "identity" in table.refusals[0]
    # An honest dialler still gets in afterwards (the back-off is the stranger's address:
    # wait it out, as loopback is shared).
    await asyncio.sleep(0.6)
    honest = Ed25519PrivateKey.generate()
    link = await dial(HOST, table.port, identity=honest, table_id=TABLE, code="246810")
    try:
        theirs = await asyncio.wait_for(table.accepted.get(), 5)
        assert theirs.remote_identity == honest.public_key().public_bytes_raw()
        await theirs.close()
    finally:
        await link.close()


class WeakListener(Handshake):
    def __init__(self, code: str | None, proof: Callable[[Handshake], bytes]) -> None:
        super().__init__(Role.LISTENER, Ed25519PrivateKey.generate(), TABLE, code,
                         MAX_FRAME_BYTES)
        self._make = proof

    def proof_plaintext(self) -> bytes:
        return self._make(self)


@pytest.mark.parametrize("code", ["135790", None])
def test_a_dialler_refuses_a_table_with_a_weak_identity_key(code: str | None) -> None:
    """A stranger posing as the table (same table id, its own port) with a weak key."""
    async def main() -> None:
        outcome: list[BaseException] = []

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                await links._run_handshake(reader, writer, WeakListener(code, weak_proof),
                                           FrameDecoder(4096, 1))
            except (PairingError, OSError) as exc:
                outcome.append(exc)  # the stranger's own handshake has no reason to fail
            finally:
                writer.close()

        server = await asyncio.start_server(serve, HOST, 0)
        try:
            port = server.sockets[0].getsockname()[1]
            with pytest.raises(Refused) as err:
                await dial(HOST, port, identity=Ed25519PrivateKey.generate(), table_id=TABLE,
                           code=code, timeout=5)
            assert err.value.reason == "identity"
        finally:
            server.close()
            await server.wait_closed()
        # The stranger's side completed (the dialler proved itself first); what matters is
        # that the dialler refused it: no link to a key nobody holds.
        assert not outcome

    run(main())


# ---- a code that normalises to nothing ---------------------------------------------------


@pytest.mark.parametrize("code", [" ", "- -", "\u3000._"])
def test_a_table_cannot_open_with_a_code_that_is_empty_once_normalised(code: str) -> None:
    """Before the fix ``listen`` accepted it, then every connection's handshake raised a
    bare ValueError inside the accept task (a traceback in the log) and leaked a pending
    slot, so after 32 connections the table refused everyone as full."""
    async def main() -> None:
        with pytest.raises(LinkError, match="unusable table code"):
            await links.listen(HOST, 0, identity=Ed25519PrivateKey.generate(), table_id=TABLE,
                               code=code, on_link=_never)
    run(main())


async def _never(link: links.Link) -> None:
    raise AssertionError("no link can come up")


@with_table("777000")
async def test_dialling_with_a_code_that_is_empty_once_normalised_is_a_link_error(
        table: Table) -> None:
    with pytest.raises(LinkError, match="unusable table code"):
        await dial(HOST, table.port, identity=Ed25519PrivateKey.generate(), table_id=TABLE,
                   code=" - ")
    assert table.listener is not None and table.listener.dropped == 0
