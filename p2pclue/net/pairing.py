"""Pairing two peers of one table into an encrypted, mutually authenticated channel (sans-IO).

The construction, in the order the records flow (dialler D, listener L; docs/protocol.md,
"Transport", has the full specification and the threat model):

1. ``HELLO`` both ways, in clear: protocol version, whether the table has a code, table id.
   A mismatch is refused with a clear reason before any cryptography runs.
2. With a code: one SPAKE2 exchange (``spake2``, D is side A, L side B; the password is the
   table id and the normalised code). Its 32-byte key, expanded with HKDF-SHA256, is the
   pre-shared key of the Noise handshake. The code itself is never the PSK: a recorded
   handshake then gives an eavesdropper nothing to test guesses against, and an active
   attacker gets exactly one guess per connection (the SPAKE2 run it took part in).
   Without a code (``--no-code``) the PSK is a public constant derived from the table id:
   such a table is *not* authenticated by any code, only by identity keys.
3. ``Noise_XXpsk3_25519_ChaChaPoly_SHA256`` (``noiseprotocol``) with a fresh X25519 static key
   per connection; the prologue holds both hellos, so the table id, version and mode are
   bound. A wrong code shows up when L decrypts D's third message: L answers ``REFUSE
   wrong-code`` and closes.
4. Identity: each side's first encrypted message is its 32-byte Ed25519 identity key and a
   signature over ``"p2pclue/v1/link-identity\\0" || role || len(table id) || table id ||
   handshake hash``. The Noise handshake hash covers the prologue, both ephemeral and both
   static keys and the PSK, so the signature ties the identity key to this very session
   (channel binding, as the Noise specification describes it). This deliberately departs
   from signing inside the handshake payloads: the hash only exists once the handshake
   ends, and neither identity is revealed to someone who does not know the code (in
   XXpsk3 the second message is readable by any initiator).

Everything here is bytes in, bytes out: ``links`` moves the records and keeps the time.
"""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)
from noise.connection import Keypair, NoiseConnection
from spake2 import SPAKE2_A, SPAKE2_B

from p2pclue.crypto.group import is_valid_point_bytes
from p2pclue.net.framing import FrameDecoder, encode_frame
from p2pclue.net.guesses import CODE_DIGITS, Guesses, Reservation

LINK_VERSION = 1
NOISE_PROTOCOL = b"Noise_XXpsk3_25519_ChaChaPoly_SHA256"
MAGIC = b"p2pclue\x00"
MAX_TABLE_ID = 64
NOISE_MAX_MESSAGE = 65535
AEAD_TAG = 16
CHUNK_BYTES = NOISE_MAX_MESSAGE - AEAD_TAG
"""Plaintext bytes per encrypted record: a frame over this is split across records."""
MAX_RECORD = 1 + NOISE_MAX_MESSAGE
MAX_HANDSHAKE_RECORD = 512
"""Every handshake record is far smaller; a longer one is garbage."""
IDENTITY_CONTEXT = b"p2pclue/v1/link-identity\x00"
PROOF_BYTES = 32 + 64


class Kind(IntEnum):
    """First byte of every record on the wire."""

    HELLO = 1
    PAKE = 2
    NOISE = 3
    DATA = 4
    REFUSE = 5


class Role(IntEnum):
    DIALER = 1
    LISTENER = 2


class Mode(IntEnum):
    NO_CODE = 0
    CODE = 1
    GAME = 2
    """After the signed start: no code at all; both sides prove identity keys of the start."""


REFUSALS = {
    "version": "the other side speaks another p2pclue link version",
    "table": "no such table at this address (it may have closed or restarted)",
    "needs-code": "this table needs its table code",
    "no-code": "this table has no code, but one was given",
    "wrong-code": "wrong table code",
    "identity": "the identity proof did not verify",
    "busy": "too many failed attempts from this address: wait and retry",
    "full": "the table accepts no more connections now",
    "code-dead": "too many wrong codes at this table: its code no longer opens it",
    "no-entry": "this member admits nobody new: join through the table's opener",
    "not-member": "this key is not a member of the game",
}
"""The reasons a side may give in ``REFUSE``; anything else is reported as garbage."""


class PairingError(Exception):
    """The handshake failed; ``reason`` is a key of ``REFUSALS`` or ``"garbage"``.

    ``by_remote`` says whether the other side refused (a ``REFUSE`` record) rather than
    this side. The message never contains a code, a key or any secret.
    """

    def __init__(self, reason: str, detail: str = "", by_remote: bool = False) -> None:
        self.reason = reason
        self.by_remote = by_remote
        text = REFUSALS.get(reason, "malformed handshake")
        if detail:
            text = f"{text} ({detail})"
        if by_remote:
            text = f"refused by the other side: {text}"
        super().__init__(text)


def new_table_code(digits: int = CODE_DIGITS) -> str:
    """A fresh numeric table code for the opener's screen."""
    return "".join(secrets.choice("0123456789") for _ in range(digits))


def normalize_code(code: str) -> bytes:
    """What people may type differently (spaces, dashes, full-width digits) does not matter."""
    text = unicodedata.normalize("NFKC", code)
    text = "".join(ch for ch in text if not ch.isspace() and ch not in "-_.")
    if not text:
        raise ValueError("the table code is empty")
    return text.casefold().encode("utf-8")


def record(kind: Kind, body: bytes = b"") -> bytes:
    return bytes([kind]) + body


def wire(rec: bytes) -> bytes:
    """A record as it goes on the TCP stream (length-prefixed)."""
    return encode_frame(rec, MAX_RECORD)


def refusal(reason: str) -> bytes:
    return record(Kind.REFUSE, reason.encode("ascii"))


def _hkdf(ikm: bytes, salt: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(ikm)


def _hello(mode: Mode, table_id: bytes) -> bytes:
    return MAGIC + bytes([LINK_VERSION, mode]) + table_id


def _parse_hello(body: bytes) -> tuple[int, int, bytes]:
    head = len(MAGIC) + 2
    if len(body) < head + 1 or len(body) > head + MAX_TABLE_ID or not body.startswith(MAGIC):
        raise PairingError("garbage", "not a p2pclue hello")
    return body[len(MAGIC)], body[len(MAGIC) + 1], body[head:]


def identity_statement(role: Role, table_id: bytes, handshake_hash: bytes) -> bytes:
    """The bytes a side signs with its identity key to claim this session."""
    return IDENTITY_CONTEXT + bytes([role, len(table_id)]) + table_id + handshake_hash


def _public_bytes(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


class SecureChannel:
    """Encrypts outgoing frames and decrypts incoming records of one established link.

    A frame is length-prefixed inside the encrypted stream and may span several records
    (a Noise message holds at most 64 KiB); the inner decoder caps frames at 256 KiB.
    """

    def __init__(self, noise: Any, max_frame: int) -> None:
        self._noise = noise
        self.max_frame = max_frame
        self._inner = FrameDecoder(max_frame)

    def seal(self, frame: bytes) -> bytes:
        """The wire bytes carrying ``frame``; raises ``FramingError`` if it is too long."""
        plain = encode_frame(frame, self.max_frame)
        out = bytearray()
        for start in range(0, len(plain), CHUNK_BYTES):
            chunk = plain[start : start + CHUNK_BYTES]
            out += wire(record(Kind.DATA, bytes(self._noise.encrypt(chunk))))
        return bytes(out)

    def open(self, rec: bytes) -> list[bytes]:
        """The frames completed by one received record; raises ``PairingError`` on forgery."""
        if not rec or rec[0] != Kind.DATA:
            raise PairingError("garbage", "expected an encrypted record")
        try:
            plain = bytes(self._noise.decrypt(bytes(rec[1:])))
        except Exception:
            raise PairingError("garbage", "a record failed authentication") from None
        return self._inner.feed(plain)


@dataclass
class Established:
    remote_identity: bytes
    handshake_hash: bytes
    channel: SecureChannel


class Handshake:
    """One side of the pairing: feed it received records, send what it returns.

    ``start()`` gives the first records (the dialler speaks first); ``receive()`` returns
    the records to send next and raises ``PairingError`` when the connection must end;
    ``outgoing_refusal`` then holds the ``REFUSE`` record to send before closing, if this
    side owes the other a reason. ``result`` is set once the remote identity is proven.
    """

    def __init__(
        self,
        role: Role,
        identity: Ed25519PrivateKey,
        table_id: bytes,
        code: str | None,
        max_frame: int,
        *,
        game: bytes | None = None,
        members: frozenset[bytes] = frozenset(),
        code_dead: bool = False,
        budget: Guesses | None = None,
        source: str = "",
        code_entry: bool = True,
    ) -> None:
        """``game``: the session id of a signed start. A dialler with it links in game mode
        (no code); a listener with it also admits game-mode links, from ``members`` only.
        ``code_dead``: a listener refuses code-mode links (the table's budget is spent).
        ``budget``: a listener reserves one guess there for a code-mode dialler at
        ``source`` (its address) before the PAKE runs (``reservation``; the caller ends it).
        ``code_entry``: False, a listener refuses code-mode links (``no-entry``)."""
        if not 1 <= len(table_id) <= MAX_TABLE_ID:
            raise ValueError(f"a table id is 1..{MAX_TABLE_ID} bytes")
        self.role = role
        self.table_id = table_id
        self.mode = Mode.NO_CODE if code is None else Mode.CODE
        self._password = (
            None if code is None
            else b"p2pclue/v1/code\x00" + bytes([len(table_id)]) + table_id + normalize_code(code)
        )
        if game is not None and role is Role.DIALER:
            self.mode = Mode.GAME
            self._password = None
        self._game = game
        self._members = members
        self._code_dead = code_dead
        self._budget = budget
        self._source = source
        self._code_entry = code_entry
        self.reservation: Reservation | None = None
        """The guess this listener holds for the dialler (its caller releases it)."""
        self.code_tested = False
        """A listener tried the dialler's code (it read the third Noise message)."""
        self._identity = identity
        self._max_frame = max_frame
        self._hello_mine = _hello(self.mode, table_id)
        self._hello_theirs: bytes | None = None
        self._spake: Any = None
        self._pake_theirs: bytes | None = None
        self._psk = b""
        self._noise: Any = None
        self._noise_reads = 0
        self._secure: SecureChannel | None = None
        self._proof_sent = False
        self.remote_proof: bytes | None = None
        """The other side's identity proof as received (public: a key and a signature)."""
        self.outgoing_refusal: bytes | None = None
        """A ``REFUSE`` record to send before closing, when this side refuses."""
        self.result: Established | None = None

    @property
    def guess_spent(self) -> bool:
        """Whether a dialler gave the other side one code to test (it sent the third Noise
        message, sealed under the PAKE key) without a link to show for it."""
        return (self.role is Role.DIALER and self.mode is Mode.CODE and self._proof_sent
                and self.result is None)

    @property
    def expensive(self) -> bool:
        """Whether this side has done public-key work for the other (SPAKE2 or Noise)."""
        return self._spake is not None or self._noise is not None

    # ---- driving -------------------------------------------------------------------

    def start(self) -> list[bytes]:
        if self.role is not Role.DIALER:
            return []
        return [record(Kind.HELLO, self._hello_mine), *self._pake_start()]

    def receive(self, rec: bytes) -> list[bytes]:
        if self.result is not None:
            raise PairingError("garbage", "handshake already finished")
        if len(rec) == 0 or len(rec) > MAX_HANDSHAKE_RECORD:
            raise PairingError("garbage", "record size")
        kind, body = rec[0], bytes(rec[1:])
        if kind == Kind.REFUSE:
            reason = body.decode("ascii", "replace")
            raise PairingError(reason if reason in REFUSALS else "garbage", by_remote=True)
        try:
            return self._step(kind, body)
        except PairingError as exc:
            if exc.reason in REFUSALS and not exc.by_remote:
                self.outgoing_refusal = refusal(exc.reason)
            raise

    def _step(self, kind: int, body: bytes) -> list[bytes]:
        if self._hello_theirs is None:
            if kind != Kind.HELLO:
                raise PairingError("garbage", "expected a hello")
            return self._on_hello(body)
        if self.mode is Mode.CODE and self._pake_theirs is None:
            if kind != Kind.PAKE:
                raise PairingError("garbage", "expected a PAKE message")
            self._on_pake(body)
            return self._noise_start()
        if self._noise is not None and not self._noise.handshake_finished:
            if kind != Kind.NOISE:
                raise PairingError("garbage", "expected a Noise message")
            return self._on_noise(body)
        if kind != Kind.DATA:
            raise PairingError("garbage", "expected the identity proof")
        return self._on_proof(body)

    # ---- steps ---------------------------------------------------------------------

    def _on_hello(self, body: bytes) -> list[bytes]:
        version, mode, table_id = _parse_hello(body)
        if version != LINK_VERSION:
            raise PairingError("version", f"theirs {version}, ours {LINK_VERSION}")
        if table_id != self.table_id:
            raise PairingError("table")
        if mode == Mode.GAME and self.role is Role.LISTENER and self._game is not None:
            self.mode = Mode.GAME  # a member of the started game: no code is involved
            self._hello_mine = _hello(self.mode, self.table_id)
            self._password = None
        elif mode != self.mode:
            if self.mode is Mode.GAME or mode == Mode.GAME:
                raise PairingError("not-member" if self.role is Role.LISTENER else "garbage",
                                   "a game-mode link")
            raise PairingError("needs-code" if self.mode is Mode.CODE else "no-code")
        elif self.mode is Mode.CODE and self.role is Role.LISTENER:
            self._reserve()
        self._hello_theirs = body
        out: list[bytes] = []
        if self.role is Role.LISTENER:
            out += [record(Kind.HELLO, self._hello_mine), *self._pake_start()]
        if self.mode is not Mode.CODE:
            out += self._noise_start()
        return out

    def _reserve(self) -> None:
        """Refuse a code-mode dialler before any PAKE, or hold a guess for it."""
        if self._code_dead:
            raise PairingError("code-dead")
        if not self._code_entry:
            raise PairingError("no-entry")
        if self._budget is not None:
            held = self._budget.reserve(self._source)
            if isinstance(held, str):
                raise PairingError(held)
            self.reservation = held

    def _pake_start(self) -> list[bytes]:
        if self._password is None:
            return []
        side = SPAKE2_A if self.role is Role.DIALER else SPAKE2_B
        self._spake = side(self._password, idA=b"p2pclue/v1/dialer", idB=b"p2pclue/v1/listener")
        return [record(Kind.PAKE, bytes(self._spake.start()))]

    def _on_pake(self, body: bytes) -> None:
        try:
            key = bytes(self._spake.finish(body))
        except Exception:
            raise PairingError("garbage", "bad PAKE message") from None
        self._pake_theirs = body
        self._psk = _hkdf(key, self._prologue(), b"p2pclue/v1/noise-psk")

    def _prologue(self) -> bytes:
        assert self._hello_theirs is not None
        hellos = ((self._hello_mine, self._hello_theirs) if self.role is Role.DIALER
                  else (self._hello_theirs, self._hello_mine))
        return b"p2pclue/v1/link\x00" + encode_frame(hellos[0]) + encode_frame(hellos[1])

    def _noise_start(self) -> list[bytes]:
        if self.mode is Mode.NO_CODE:
            self._psk = _hkdf(b"p2pclue/v1/no-code", self._prologue(), b"p2pclue/v1/noise-psk")
        elif self.mode is Mode.GAME:
            assert self._game is not None
            self._psk = _hkdf(b"p2pclue/v1/game\x00" + self._game, self._prologue(),
                              b"p2pclue/v1/noise-psk")
        noise = NoiseConnection.from_name(NOISE_PROTOCOL)
        static = X25519PrivateKey.generate().private_bytes(
            Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        noise.set_keypair_from_private_bytes(Keypair.STATIC, static)
        noise.set_psks(psk=self._psk)
        noise.set_prologue(self._prologue())
        if self.role is Role.DIALER:
            noise.set_as_initiator()
        else:
            noise.set_as_responder()
        noise.start_handshake()
        self._noise = noise
        if self.role is Role.DIALER:
            return [record(Kind.NOISE, bytes(noise.write_message(b"")))]
        return []

    def _on_noise(self, body: bytes) -> list[bytes]:
        if self.role is Role.LISTENER and self._noise_reads == 1 and self.mode is Mode.CODE:
            self.code_tested = True
        try:
            payload = self._noise.read_message(body)
        except Exception:
            third = self.role is Role.LISTENER and self._noise_reads == 1
            if third and self.mode is Mode.CODE:
                raise PairingError("wrong-code") from None
            raise PairingError("garbage", "bad Noise message") from None
        if payload:
            raise PairingError("garbage", "unexpected handshake payload")
        self._noise_reads += 1
        if self._noise.handshake_finished:
            return []  # the listener answers once the dialler's proof arrives
        out = [record(Kind.NOISE, bytes(self._noise.write_message(b"")))]
        if self._noise.handshake_finished:
            out.append(self._proof())
        return out

    def _channel(self) -> SecureChannel:
        if self._secure is None:
            self._secure = SecureChannel(self._noise, self._max_frame)
        return self._secure

    def proof_plaintext(self) -> bytes:
        """This side's identity proof for the finished Noise handshake (tests attack this)."""
        statement = identity_statement(self.role, self.table_id, self._handshake_hash())
        return _public_bytes(self._identity) + self._identity.sign(statement)

    def _handshake_hash(self) -> bytes:
        return bytes(self._noise.get_handshake_hash())

    def _proof(self) -> bytes:
        self._proof_sent = True
        return record(Kind.DATA, bytes(self._noise.encrypt(self.proof_plaintext())))

    def _on_proof(self, body: bytes) -> list[bytes]:
        try:
            plain = bytes(self._noise.decrypt(body))
        except Exception:
            if self.role is Role.DIALER and self.mode is Mode.CODE:
                raise PairingError("wrong-code", "the table could not prove the code") from None
            raise PairingError("garbage", "the identity proof failed authentication") from None
        if len(plain) != PROOF_BYTES:
            raise PairingError("identity", "wrong proof size")
        self.remote_proof = plain
        remote, signature = plain[:32], plain[32:]
        if not is_valid_point_bytes(remote):
            # Under a small-order key one fixed signature verifies every statement: "proving"
            # it needs no private key, so it is no identity (the engine refuses it as well).
            raise PairingError("identity", "a weak identity key")
        theirs = Role.LISTENER if self.role is Role.DIALER else Role.DIALER
        statement = identity_statement(theirs, self.table_id, self._handshake_hash())
        try:
            Ed25519PublicKey.from_public_bytes(remote).verify(signature, statement)
        except (InvalidSignature, ValueError):
            raise PairingError("identity") from None
        if remote == _public_bytes(self._identity):
            raise PairingError("identity", "the other side claims this side's own key")
        if self.mode is Mode.GAME and self.role is Role.LISTENER and remote not in self._members:
            raise PairingError("not-member")
        out = [] if self._proof_sent else [self._proof()]
        self.result = Established(remote, self._handshake_hash(), self._channel())
        return out


def new_frame_decoder() -> FrameDecoder:
    """The outer (record) decoder of a fresh connection."""
    return FrameDecoder(MAX_RECORD, min_frame=1)
