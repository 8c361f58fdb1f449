"""What a signed frame proves, and against whom: a frame costs its signer something only on
signed evidence (docs/protocol.md, "Frames").

The frame's identity is what its author signed: the outer ``sender`` is only a hint of
whose key to try, and the signed payload's own ``from`` and ``game`` decide whose message
it is and whether it belongs to this game. Each reading below either names the frame's
place (``read_signed``), blames its signer (``RemoteProtocolError``), or gives the reason
it is dropped, blaming nobody: anyone can send junk or replay what was signed elsewhere.
"""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2pclue.engine.errors import RemoteProtocolError, Violation, WireError
from p2pclue.engine.wire import Header, names_game, read_payload, verify_signature


def read_signed(raw: bytes, signer: int, payload: bytes, game: bytes
                ) -> tuple[Header, dict[str, Any]] | str:
    """The payload ``signer``'s key signed, if it is a message of the game whose config
    digest is ``game`` (else why it is dropped).

    Blames ``signer`` only for a payload provably signed for this game: naming this
    game's config digest (which covers the fresh session id) shows it was signed here,
    so a replay of something ``signer`` signed in another game costs it nothing.
    """
    try:
        header, body = read_payload(payload)
    except WireError as exc:
        if names_game(payload, game):
            raise RemoteProtocolError(signer, Violation("message", str(exc)), (raw,)) from None
        return f"a signed payload of no known game: {exc}"
    if header.game != game:
        # Anyone can replay a frame signed for another game: it proves nothing
        # against its signer here, so it is dropped, never blamed.
        return "the frame belongs to another game"
    if header.sender != signer:
        raise RemoteProtocolError(signer, Violation(
            "signature", f"seat {signer} signed a message in seat {header.sender}'s name"),
            (raw,))
    return header, body


def misaddressed(raw: bytes, sender: int, payload: bytes, signature: bytes,
                 keys: list[Ed25519PublicKey], game: bytes, complete: bool) -> str:
    """Why a frame the seat it names did not sign is dropped. The outer ``sender`` is not
    signed: anyone can rewrite it, so it is no evidence. If another seat's key signed the
    payload, what counts is that payload: a message of this game naming another seat as its
    author is signed evidence against the signer (the same verdict it gets under its own
    name); its own message in a rewritten envelope is dropped (the original travels on its
    own). After the game is ``complete`` only ``late`` matters."""
    for seat, key in enumerate(keys):
        if seat != sender and verify_signature(key, payload, signature):
            if complete:
                break
            read = read_signed(raw, seat, payload, game)
            return read if isinstance(read, str) \
                else f"seat {seat}'s message with seat {sender} written outside"
    return f"no seat {sender}" if sender >= len(keys) else f"not signed by seat {sender}"


def late(raw: bytes, sender: int, payload: bytes, sent: list[bytes], game: bytes) -> str:
    """Why a frame ``sender`` signed after the game completed is dropped: only a second
    version of one of its accepted messages (``sent``) still matters."""
    try:
        header, _ = read_payload(payload)
    except WireError:
        return "unreadable, after the end"
    if header.game == game and header.sender == sender \
            and header.seq < len(sent) and sent[header.seq] != raw:
        raise RemoteProtocolError(sender, Violation(
            "equivocation", f"two different messages with sequence number {header.seq}"),
            (sent[header.seq], raw))
    return "after the end"
