"""Every message type and the shape of its body: the code's copy of the schema.

``MESSAGES`` maps a type name to its body fields and their kinds. Bodies are
decoded field by field from this table into validated values (points are on
the curve and in the subgroup, scalars canonical, proofs well formed), so the
state machine never sees raw peer data. ``protocol/schema.json`` is generated
from this table (``python3 -m p2pclue.engine.schema``) and a test keeps the two
identical.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from p2pclue.crypto import proofs as P
from p2pclue.crypto.errors import CryptoError
from p2pclue.crypto.group import current_owed, point_from_bytes, scalar_from_bytes
from p2pclue.engine.errors import WireError
from p2pclue.engine.wire import MAX_OPENINGS

MAX_DECK = 21
MAX_PATH = 13


@dataclass(frozen=True)
class MessageType:
    name: str
    phase: str
    fields: Mapping[str, str]
    doc: str


def _t(name: str, phase: str, doc: str, **fields: str) -> MessageType:
    return MessageType(name, phase, fields, doc)


MESSAGES: dict[str, MessageType] = {m.name: m for m in (
    _t("join", "agree", "A fresh nonce; the game id hashes the config and every nonce.",
       nonce="bytes32"),
    _t("keys", "keys", "Group key with its Schnorr proof, and the randomness chain head.",
       Y="point", proof="proof:key", chain="bytes32"),
    _t("envelope", "envelope",
       "The three category decks shuffled and encrypted with k, each with a shuffle proof.",
       decks="decks", proofs="proofs:shuffle"),
    _t("deal", "deal",
       "The 18 remaining cards shuffled with r; S = r*Y linked to R by a DLEQ proof.",
       R="point", S="point", link="proof:dleq", deck="points", proof="proof:shuffle"),
    _t("unlayer", "open",
       "The sender's layer removed from every position it does not own, batch-proven.",
       points="points", proof="proof:dleq_batch"),
    _t("reveal", "random", "The next preimage of the sender's hash chain for a random event.",
       event="uint", value="bytes32", renew="opt_bytes32"),
    _t("roll", "turn", "Start the turn by rolling (a random event follows)."),
    _t("passage", "turn", "Start the turn by taking the secret passage (R18)."),
    _t("move", "turn", "The squares moved through (R13-R17); the last may be a room.",
       path="path"),
    _t("suggest", "turn", "A suggestion in the room the token is in (R19).",
       suspect="card", weapon="card"),
    _t("show", "refute",
       "A named card from the sender's hand, committed under the suggester's key (a "
       "chameleon commitment only the suggester's private opening names), with its proof.",
       C="commitment", proof="proof:commit_show"),
    _t("ack", "refute", "The suggester received a valid private opening of the last show."),
    _t("complain", "refute",
       "The suggester did not receive a valid private opening: the refuter must seal it."),
    _t("sealed", "refute",
       "After a complaint: the refuter's opening of its show sealed to the suggester (R = "
       "rho*G), proven to decrypt to a named card the show's C opens to; only the suggester "
       "can read the card.",
       sealed="sealed"),
    _t("pass", "refute", "Cannot refute, proven for every hand position and named card.",
       proof="proof:none"),
    _t("accuse", "turn", "An accusation (R25); decided by the plaintext-equivalence test.",
       suspect="card", weapon="card", room="card"),
    _t("pet", "accuse", "One step of the blinded plaintext-equivalence chain.",
       Q="point", P="point", proof="proof:pet"),
    _t("open", "end",
       "When the game is decided (a right accusation, R29 or R30): the sender's layer k "
       "removed from the three envelope points, batch-proven against its Y; and the openings "
       "of the sender's shows (to seats still at the table), before any key is revealed: "
       "public openings, each proven to name a card of the sender's hand, the first at most "
       "48 of them.",
       points="points", proof="proof:dleq_batch", openings="openings"),
    _t("openings", "end",
       "Right after the sender's own open (or openings), while it has shows left to open: "
       "the next at most 48 public openings, in transcript order of the shows.",
       openings="openings"),
    _t("end_turn", "turn", "End the turn."),
    _t("leave", "turn",
       "The sender leaves: its hand opened (layer s removed, batch-proven against S) and its "
       "layer k removed from the three envelope points (batch-proven against Y).",
       hand="points", hand_proof="proof:dleq_batch", envelope="points",
       envelope_proof="proof:dleq_batch"),
    _t("secrets", "end", "The sender's secret scalars, so anyone can check the whole game.",
       k="scalar", r="scalar"),
)}


def _bytes32(value: Any, where: str) -> bytes:
    if not isinstance(value, bytes) or len(value) != 32:
        raise WireError("must be 32 bytes", where)
    return value


def _uint(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**32:
        raise WireError("must be an integer in [0, 2^32)", where)
    return value


def _card(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 21:
        raise WireError("must be a card index 0-20", where)
    return value


def _from_crypto(decode: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    """A crypto-layer decoder (which validates and names the field) as a body decoder."""

    def run(value: Any, where: str) -> Any:
        owed = current_owed()
        if owed is not None:
            owed.where = where  # a point read here and found bad later is named as read here
        try:
            return decode(value, where)
        except CryptoError as exc:
            raise WireError(str(exc), where) from None

    return run


_point = _from_crypto(point_from_bytes)
_scalar = _from_crypto(scalar_from_bytes)


def _points(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list) or len(value) > MAX_DECK:
        raise WireError(f"must be a list of at most {MAX_DECK} points", where)
    return [_point(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _decks(value: Any, where: str) -> list[list[Any]]:
    if not isinstance(value, list) or len(value) != 3:
        raise WireError("must be three decks", where)
    return [_points(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _path(value: Any, where: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_PATH:
        raise WireError(f"must be a list of 1 to {MAX_PATH} squares", where)
    out = []
    for i, sq in enumerate(value):
        if (
            not isinstance(sq, list) or len(sq) != 2
            or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 32 for c in sq)
        ):
            raise WireError("a square is [row, col]", f"{where}[{i}]")
        out.append((sq[0], sq[1]))
    return tuple(out)


def _opt_bytes32(value: Any, where: str) -> bytes | None:
    return None if value is None else _bytes32(value, where)


def _proof(cls: Any) -> Callable[[Any, str], Any]:
    return _from_crypto(lambda value, _where: cls.from_wire(value))


def _openings(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list) or len(value) > MAX_OPENINGS:
        raise WireError(f"must be a list of at most {MAX_OPENINGS} openings", where)
    one = _proof(P.PublicOpening)
    return [one(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _proofs(cls: Any) -> Callable[[Any, str], Any]:
    one = _proof(cls)

    def decode(value: Any, where: str) -> Any:
        if not isinstance(value, list) or len(value) != 3:
            raise WireError("must be three proofs", where)
        return [one(v, f"{where}[{i}]") for i, v in enumerate(value)]

    return decode


KINDS: dict[str, Callable[[Any, str], Any]] = {
    "bytes32": _bytes32,
    "opt_bytes32": _opt_bytes32,
    "uint": _uint,
    "card": _card,
    "point": _point,
    "points": _points,
    "decks": _decks,
    "scalar": _scalar,
    "path": _path,
    "commitment": _point,
    "sealed": _proof(P.SealedOpening),
    "openings": _openings,
    "proof:key": _proof(P.KeyProof),
    "proof:dleq": _proof(P.DleqProof),
    "proof:dleq_batch": _proof(P.DleqBatchProof),
    "proof:shuffle": _proof(P.ShuffleProof),
    "proofs:shuffle": _proofs(P.ShuffleProof),
    "proof:commit_show": _proof(P.CommitShowProof),
    "proof:none": _proof(P.NoneProof),
    "proof:pet": _proof(P.PetStepProof),
}


def decode_body(type_name: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """Validate a body against the table; ``WireError`` names the first bad field."""
    spec = MESSAGES.get(type_name)
    if spec is None:
        raise WireError(f"unknown message type {type_name!r}", "type")
    if set(body) != set(spec.fields):
        raise WireError(f"{type_name} has fields {sorted(spec.fields)}, got {sorted(body)}", "body")
    return {name: KINDS[kind](body[name], f"body.{name}") for name, kind in spec.fields.items()}


PROOF_TAGS = {
    "proof:key": "key",
    "proof:dleq": "dleq",
    "proof:dleq_batch": "dleq-batch",
    "proof:shuffle": "shuffle",
    "proofs:shuffle": "shuffle",
    "proof:commit_show": "commit-show",
    "commitment": "commit-show",
    "sealed": "sealed-opening",
    "openings": "opening",
    "proof:none": "none",
    "proof:pet": "pet-step",
}
"""Field kind -> the Fiat-Shamir tag of the proof it belongs to (the check is ``proof:<tag>``)."""


def field_check(type_name: str, field: str | None) -> str:
    """The check a malformed field fails: ``proof:<tag>`` for proof fields, else "message".

    A proof that cannot even be decoded (an identity point where the statement
    forbids one, say) fails as that proof, under the same name as one that decodes
    but does not verify.
    """
    spec = MESSAGES.get(type_name)
    if spec is None or field is None or not field.startswith("body."):
        return "message"
    tag = PROOF_TAGS.get(spec.fields.get(field[5:].split(".")[0].split("[")[0], ""))
    return "message" if tag is None else f"proof:{tag}"
