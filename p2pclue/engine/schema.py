"""Generate ``protocol/schema.json``, the machine-readable message schema.

``python3 -m p2pclue.engine.schema`` prints it; ``--write PATH`` writes it. A test
regenerates it and compares it with the committed file, so the code's message
table and the published schema cannot drift apart.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from p2pclue import PROTOCOL_VERSION
from p2pclue.engine.messages import MESSAGES
from p2pclue.engine.votes import CHOICES, MAX_VOTE_BYTES, VOTE_KEYS, VOTE_PREFIX
from p2pclue.engine.wire import MAX_ENTRY_BYTES, MAX_OPENINGS, SIGNING_PREFIX

KIND_DOCS = {
    "bytes32": "msgpack bin, exactly 32 bytes",
    "opt_bytes32": "nil, or msgpack bin of exactly 32 bytes",
    "uint": "non-negative integer below 2^32",
    "card": "card index 0-20 (see cards)",
    "point": "32-byte canonical edwards25519 encoding, in the prime-order subgroup, "
             "not the identity",
    "points": "array of at most 21 points",
    "decks": "array of exactly 3 arrays of points (suspects, weapons, rooms)",
    "scalar": "32-byte little-endian integer, canonical (< l) and non-zero",
    "path": "array of 1-13 squares, each [row, col]",
    "commitment": "a point: the chameleon commitment (t+1)*G + rho*P to the shown card t",
    "sealed": "map {r: point (R = rho*G), c: 3 scalars, s: 3 scalars}: the show's opening "
              "sealed to the suggester, an OR-proof over the named cards",
    "openings": "array of at most 48 public openings, each map {card: card index, rho: "
                "scalar, held: {c: scalars, u: scalars, one per hand position of the "
                "sender}}: an opening of a show's commitment with its proof that the card is "
                "in the sender's hand (4c)",
    "proof:key": "map {c: scalar, s: scalar}: Schnorr proof of knowledge",
    "proof:dleq": "map {c: scalar, s: scalar}: Chaum-Pedersen equality of discrete logs",
    "proof:dleq_batch": "map {c: scalar, s: scalar}: batched DLEQ over many pairs",
    "proof:shuffle": "map {c: points (permutation commitments), chat: points (product "
                     "chain), ch, s1, s2, s3, sk, sh: scalars, sprime: array of scalars}: "
                     "shuffle of known exponent",
    "proofs:shuffle": "array of exactly 3 proof:shuffle (suspects, weapons, rooms)",
    "proof:commit_show": ("map {a, z: points (the shown card under a one-use key), cp, up: "
                          "scalars, one per hand position, ci, ui, vi: 3 scalars each}: two "
                          "OR-proofs under one challenge"),
    "proof:none": ("map {y: 3 points, q: points (one per hand position), c, sa, sb: "
                   "scalars}: the named cards and the hand under one fresh key"),
    "proof:pet": "map {c: scalar, sb: scalar, sc: scalar}: one blinded PET step",
}
"""Each kind's wire form; ``PROOF_KEYS`` repeats the map keys so a test can check them."""

PROOF_KEYS = {
    "sealed": ["c", "r", "s"],
    "proof:key": ["c", "s"],
    "proof:dleq": ["c", "s"],
    "proof:dleq_batch": ["c", "s"],
    "proof:shuffle": ["c", "ch", "chat", "s1", "s2", "s3", "sh", "sk", "sprime"],
    "proof:commit_show": ["a", "ci", "cp", "ui", "up", "vi", "z"],
    "proof:none": ["c", "q", "sa", "sb", "y"],
    "proof:pet": ["c", "sb", "sc"],
}


def schema() -> dict[str, Any]:
    from p2pclue.rules.cards import CARDS

    return {
        "protocol": PROTOCOL_VERSION,
        "frame": {
            "encoding": "msgpack array [sender: uint seat, payload: bin, signature: bin(64)]",
            "canonical": "frame, payload and every map in them use the one canonical msgpack "
                         "encoding (shortest forms, map keys in UTF-8 byte order, no repeated "
                         "key); any other spelling is refused (docs/protocol.md, Canonical "
                         "encodings)",
            "signature": "Ed25519 over signing_prefix || payload, by the sender's identity key",
            "signing_prefix": SIGNING_PREFIX.decode("ascii").replace("\x00", "\\u0000"),
            "max_bytes": MAX_ENTRY_BYTES,
        },
        "payload": {
            "v": "protocol version (int)",
            "game": "bin(32): the config digest (SHA-256 of the config's prefixed msgpack "
                    "form), in every message; the game id is never sent",
            "from": "the author's seat, 0-63: must be the seat whose key signed the payload "
                    "(the frame's outer sender is an unsigned hint; docs/protocol.md, One "
                    "speaker at a time, rules 2 and 3a)",
            "seq": "the sender's own message counter, from 0",
            "prev": "bin(32): SHA-256 of the previous transcript entry (chain start for entry 0)",
            "type": "message type name",
            "body": "map: the type's fields, exactly",
        },
        "vote": vote_schema(),
        "open_parts": {
            "max_openings_per_entry": MAX_OPENINGS,
            "rule": "a seat with m shows to open (to seats still at the table, in transcript "
                    "order) sends open with the first min(m, 48) public openings, then, while "
                    "shows are left, one openings entry after another with the next min(left, "
                    "48); every part but the last carries exactly 48. The next seat of the "
                    "round is due only after the last part. A part with another count is "
                    "proof:opening on its sender; another message from it, or one from "
                    "another seat, in place of a part it owes is turn. Each public opening's "
                    "proof context is '<index>:<type>' of the entry that carries it "
                    "(docs/protocol.md, The end-of-game reveal)",
        },
        "kinds": KIND_DOCS,
        "proof_keys": PROOF_KEYS,
        "cards": [{"index": c.index, "slug": c.slug, "category": c.category.value}
                  for c in CARDS],
        "messages": {
            name: {"phase": m.phase, "doc": m.doc, "fields": dict(m.fields)}
            for name, m in MESSAGES.items()
        },
    }


VOTE_FIELDS = {
    "ballot": "uint: the voter's vote counter; its highest ballot at one point counts",
    "choice": f"one of {list(CHOICES)}",
    "entries": "uint: the voter's transcript length; the silent seat owes entry `entries`",
    "from": "uint: the voter's seat (must equal the outer voter)",
    "game": "bin(32): the config digest",
    "head": "bin(32): the hash the next entry must name as prev",
    "silent": "uint: the seat that owes the next entry (not the voter)",
    "timeout": "uint: the voter's own deadline for the silent seat, in milliseconds after "
               "its copy of the chain reached this point",
    "waited": "uint: milliseconds the voter had waited at this point when it signed; "
              "at least timeout, else the vote is refused",
}
"""The signed payload of a vote on a silent seat (engine/votes.py)."""


def vote_schema() -> dict[str, Any]:
    assert set(VOTE_FIELDS) == VOTE_KEYS
    return {
        "encoding": "msgpack array [voter: uint seat, payload: bin, signature: bin(64)]; "
                    "not a transcript entry (docs/protocol.md, Silence and abandon)",
        "signature": "Ed25519 over signing_prefix || payload, by the voter's identity key",
        "signing_prefix": VOTE_PREFIX.decode("ascii").replace("\x00", "\\u0000"),
        "max_bytes": MAX_VOTE_BYTES,
        "payload": VOTE_FIELDS,
        "counted": "only once the receiver's own deadline for the silent seat has passed; "
                   "a vote received earlier is held, and lapses if the awaited entry is "
                   "chained first",
    }


def render() -> str:
    return json.dumps(schema(), indent=2, sort_keys=True) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", metavar="PATH", help="write the schema to PATH")
    args = parser.parse_args()
    if args.write:
        with open(args.write, "w", encoding="utf-8") as f:
            f.write(render())
    else:
        print(render(), end="")


if __name__ == "__main__":
    main()
