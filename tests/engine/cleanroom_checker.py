"""A transcript checker written from docs/protocol.md alone (issue 19, point 6).

It imports nothing of p2pclue: msgpack for the encoding, PyNaCl for signatures and group
arithmetic, hashlib for hashes. It checks what the spec lets a stranger check without the
rules engine: the file layout, the canonical encodings, every signature, the hash chain, the
sequence rules, who owes each message (rounds, turns, refutations, dice, accusation checks),
the key proofs and the dice hash chains, the accusation verdicts, the sealed openings (4d)
and the end-of-game public openings with their held-card proofs (4c, over a seat's `open`
and `openings` parts), each `secrets` against its `Y` and against the shows its seat made
to a seat that left and its passes ("The end-of-game reveal", checks 1 and 2; with no board
it knows a suggestion's suspect and weapon, not its room), the revealed game as a whole
(checks 3-5), and the footer with its blame. Its verdict is compared with
``p2pclue audit --json`` by ``test_cleanroom.py``; where the two differ, one of the spec and
the code is wrong.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack
import nacl.bindings as sodium
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

L = 2**252 + 27742317777372353535851937790883648493
MAX_FRAME = 256 * 1024  # an entry's length prefix in the file ("Transcript file")
MAX_ENTRY = 32 * 1024  # a frame ("Frames"): a longer one is dropped unread (rule 2)
MAX_FILE = 64 * 1024 * 1024
MAX_FOOTER = 4 * 1024 * 1024
RULE_KEYS = {"deal_equal", "tokens_played_only", "weapons_random", "first_white", "two_dice",
             "revisit_ok", "enter_exact", "weapon_swap", "summon_restricted",
             "reenter_other_door", "must_leave", "last_standing_wins"}
PAYLOAD_KEYS = {"v", "game", "from", "seq", "prev", "type", "body"}
BODIES = {  # the schema's fields per message type
    "join": {"nonce"}, "keys": {"Y", "proof", "chain"}, "envelope": {"decks", "proofs"},
    "deal": {"R", "S", "link", "deck", "proof"}, "unlayer": {"points", "proof"},
    "reveal": {"event", "value", "renew"}, "roll": set(), "passage": set(), "move": {"path"},
    "suggest": {"suspect", "weapon"}, "accuse": {"suspect", "weapon", "room"},
    "end_turn": set(), "show": {"C", "proof"}, "pass": {"proof"}, "ack": set(),
    "complain": set(), "sealed": {"sealed"}, "pet": {"Q", "P", "proof"},
    "leave": {"hand", "hand_proof", "envelope", "envelope_proof"},
    "open": {"points", "proof", "openings"}, "openings": {"openings"}, "secrets": {"k", "r"},
}
MAX_OPENINGS = 48  # public openings an `open` or `openings` entry carries; the payload's
# array limit ("Canonical encodings")
ROOMS = range(12, 21)  # the schema's room card indices
TURN_ACTIONS = {"roll", "passage", "move", "suggest", "accuse", "end_turn", "leave"}


class Unreadable(Exception):
    """The file is not a transcript (audit exit 2)."""


class NotCanonical(Exception):
    """A value that is not the one canonical msgpack encoding."""


# --- canonical msgpack ("Canonical encodings") ---------------------------------------------

def _canon(value: Any, depth: int) -> Any:
    if depth > 8:
        raise NotCanonical("deeper than 8")
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return value
    if isinstance(value, list):
        return [_canon(v, depth + 1) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise NotCanonical("a key that is not a string")
        return {k: _canon(value[k], depth + 1) for k in sorted(value, key=lambda k: k.encode())}
    raise NotCanonical(f"no {type(value).__name__} in the protocol")


def pack(value: Any) -> bytes:
    return bytes(msgpack.packb(_canon(value, 0), use_bin_type=True))


def _refuse_ext(code: int, data: bytes) -> Any:
    raise NotCanonical("extension type")


def strict(data: bytes) -> Any:
    """Decode, re-encode canonically, require the same bytes."""
    try:
        value = msgpack.unpackb(data, raw=False, strict_map_key=False, use_list=True,
                                ext_hook=_refuse_ext, timestamp=0)
    except NotCanonical:
        raise
    except Exception as exc:
        raise NotCanonical(str(exc)) from exc
    if pack(value) != data:
        raise NotCanonical("another spelling")
    return value


def _lenient_depth_ok(value: Any, depth: int) -> bool:
    if depth > 8:
        return False
    if isinstance(value, _Pairs):  # before list: a map read leniently is a list of pairs
        return all(_lenient_depth_ok(k, depth + 1) and _lenient_depth_ok(v, depth + 1)
                   for k, v in value)
    if isinstance(value, list):
        return all(_lenient_depth_ok(v, depth + 1) for v in value)
    return not isinstance(value, msgpack.Timestamp)


class _Pairs(list):  # type: ignore[type-arg]
    """A map read leniently: every entry kept, repeated keys included."""


def names_game(payload: bytes, digest: bytes) -> bool:
    """Rule 3, "decoding leniently": does the first msgpack object name this game?"""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, use_list=True,
                                ext_hook=_refuse_ext, timestamp=0,
                                object_pairs_hook=_Pairs, max_buffer_size=len(payload) + 1)
    unpacker.feed(payload)
    try:
        value = unpacker.unpack()
    except Exception:
        return False
    if not isinstance(value, _Pairs) or not _lenient_depth_ok(value, 0):
        return False
    return any(k == "game" and isinstance(v, bytes) and v == digest for k, v in value)


# --- small helpers ---------------------------------------------------------------------------

def sha256(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def lp(x: bytes) -> bytes:
    return len(x).to_bytes(4, "big") + x


def chain_hash(x: bytes) -> bytes:
    return hashlib.sha512(lp(b"p2pclue/hash-chain") + lp(u64(1)) + lp(x)).digest()[:32]


def valid_point(p: Any) -> bool:
    return (isinstance(p, bytes) and len(p) == 32
            and bool(sodium.crypto_core_ed25519_is_valid_point(p)))


def scalar(x: Any) -> int | None:
    if not isinstance(x, bytes) or len(x) != 32:
        return None
    v = int.from_bytes(x, "little")
    return v if 0 < v < L else None


def opens(c: bytes, opening: dict[str, Any], p: bytes, named: set[int]) -> bool:
    """`check_opening` of proof 4b: t named and C = (t+1)*G + rho*P."""
    t, rho = opening["card"], opening["rho"]
    if t not in named:
        return False
    try:
        tg = sodium.crypto_scalarmult_ed25519_base_noclamp((t + 1).to_bytes(32, "little"))
        rp = sodium.crypto_scalarmult_ed25519_noclamp(rho, p)
        return bool(sodium.crypto_core_ed25519_add(tg, rp) == c)
    except Exception:
        return False


def _fs_item(label: str, data: bytes) -> bytes:
    return b"\x01" + lp(label.encode()) + lp(data)


def _fs_start(tag: str, game_id: bytes, step: str, seat: int) -> bytes:
    return (_fs_item("domain", b"p2pclue/fiat-shamir") + _fs_item("tag", tag.encode())
            + _fs_item("version", u64(1)) + _fs_item("game_id", game_id)
            + _fs_item("step", step.encode()) + _fs_item("prover", u64(seat)))


def _challenge(items: bytes, label: str, i: int = 0) -> int:
    h = hashlib.sha512(items + b"\x03" + lp(label.encode()) + i.to_bytes(4, "big")).digest()
    return int.from_bytes(h, "little") % L


def show_rho(k: bytes, game_id: bytes, index: int, refuter: int) -> bytes:
    """"Deniable refutation": rho = challenge `rho` of tag `commit-rho`, the show's context,
    data item `k`."""
    items = _fs_start("commit-rho", game_id, f"{index}:show", refuter) + _fs_item("k", k)
    return _challenge(items, "rho").to_bytes(32, "little")


SLUGS = ("scarlett", "mustard", "white", "green", "peacock", "plum", "candlestick", "dagger",
         "lead_pipe", "revolver", "rope", "wrench", "kitchen", "ballroom", "conservatory",
         "dining_room", "billiard_room", "library", "lounge", "hall", "study")  # "Set-up"
IDENTITY = b"\x01" + bytes(31)


def hash_to_group(kind: bytes, label: bytes) -> bytes:
    """"Hash-to-group (cards and generators)"."""
    counter = 0
    while True:
        r = hashlib.sha512(lp(b"p2pclue/hash-to-group") + lp(u64(1)) + lp(kind) + lp(label)
                           + counter.to_bytes(4, "big")).digest()[:32]
        p = sodium.crypto_core_ed25519_from_uniform(r)
        if p != IDENTITY and sodium.crypto_core_ed25519_is_valid_point(p):
            return bytes(p)
        counter += 1


CARD_OF = {hash_to_group(b"card", slug.encode()): i for i, slug in enumerate(SLUGS)}


def card_of(point: bytes) -> int | None:
    return CARD_OF.get(point)


def key_proof_ok(game_id: bytes, step: str, seat: int, y: bytes, proof: Any) -> bool:
    """Proof 1 (Schnorr, tag "key"), compact form, from the Fiat-Shamir section."""
    if not isinstance(proof, dict) or set(proof) != {"c", "s"} or not valid_point(y):
        return False
    c, s = scalar(proof["c"]), scalar(proof["s"])
    if c is None or s is None:
        return False
    sg = sodium.crypto_scalarmult_ed25519_base_noclamp(proof["s"])
    cy = sodium.crypto_scalarmult_ed25519_noclamp(proof["c"], y)
    r = sodium.crypto_core_ed25519_sub(sg, cy)

    def item(label: str, data: bytes) -> bytes:
        return b"\x01" + lp(label.encode()) + lp(data)

    items = (item("domain", b"p2pclue/fiat-shamir") + item("tag", b"key") + item("version", u64(1))
             + item("game_id", game_id) + item("step", step.encode()) + item("prover", u64(seat))
             + item("Y", y) + item("R", r))
    h = hashlib.sha512(items + b"\x03" + lp(b"c") + (0).to_bytes(4, "big")).digest()
    return int.from_bytes(h, "little") % L == c


def _items(label: str, elems: list[bytes]) -> bytes:
    return (b"\x02" + lp(label.encode()) + len(elems).to_bytes(4, "big")
            + b"".join(lp(e) for e in elems))


def sealed_ok(game_id: bytes, step: str, seat: int, named: tuple[int, int, int], p: bytes,
              c: bytes, wire: dict[str, Any]) -> bool:
    """Proof 4d ("Sealed opening"), wire shape already checked: per named card t_i, with
    residue D_i = C - (t_i+1)*G (the identity refused), T_i = [s_i*G - c_i*R, s_i*P - c_i*D_i];
    items named (u64 list), P, C, R, T (6 points); challenge c = sum of the c_i mod L."""
    if len(set(named)) != 3:
        return False
    r = wire["r"]
    t_points: list[bytes] = []
    for t, ci, si in zip(named, wire["c"], wire["s"], strict=True):
        tg = sodium.crypto_scalarmult_ed25519_base_noclamp((t + 1).to_bytes(32, "little"))
        if tg == c:
            return False  # rho = 0: the card in the clear
        d = sodium.crypto_core_ed25519_sub(c, tg)
        t_points.append(sodium.crypto_core_ed25519_sub(
            sodium.crypto_scalarmult_ed25519_base_noclamp(si),
            sodium.crypto_scalarmult_ed25519_noclamp(ci, r)))
        t_points.append(sodium.crypto_core_ed25519_sub(
            sodium.crypto_scalarmult_ed25519_noclamp(si, p),
            sodium.crypto_scalarmult_ed25519_noclamp(ci, d)))

    data = (_fs_start("sealed-opening", game_id, step, seat)
            + _items("named", [u64(t) for t in named]) + _fs_item("P", p) + _fs_item("C", c)
            + _fs_item("R", r) + _items("T", t_points))
    return sum(int.from_bytes(x, "little") for x in wire["c"]) % L == _challenge(data, "c")


def held_ok(game_id: bytes, step: str, seat: int, named: tuple[int, int, int],
            hand: list[bytes], s_key: bytes, p: bytes, c: bytes, o: dict[str, Any]) -> bool:
    """Proof 4c ("Public opening"), wire shape already checked: per hand position p with
    point X_p, T_p = [u_p*G - c_p*S, u_p*M_t - c_p*X_p]; items named (u64 list), hand, S, P,
    C, card (u64), rho, T (2h points, position-major); challenge c = sum of the c_p mod L."""
    cs, us = o["held"]["c"], o["held"]["u"]
    if len(set(named)) != 3 or not hand or len(cs) != len(hand) or len(us) != len(hand):
        return False
    m = hash_to_group(b"card", SLUGS[o["card"]].encode())
    t_points: list[bytes] = []
    try:
        for x, ci, ui in zip(hand, cs, us, strict=True):
            t_points.append(sodium.crypto_core_ed25519_sub(
                sodium.crypto_scalarmult_ed25519_base_noclamp(ui),
                sodium.crypto_scalarmult_ed25519_noclamp(ci, s_key)))
            t_points.append(sodium.crypto_core_ed25519_sub(
                sodium.crypto_scalarmult_ed25519_noclamp(ui, m),
                sodium.crypto_scalarmult_ed25519_noclamp(ci, x)))
    except Exception:
        return False  # a product that is the identity: no honest proof has one
    data = (_fs_start("held-opening", game_id, step, seat)
            + _items("named", [u64(t) for t in named]) + _items("hand", hand)
            + _fs_item("S", s_key) + _fs_item("P", p) + _fs_item("C", c)
            + _fs_item("card", u64(o["card"])) + _fs_item("rho", o["rho"])
            + _items("T", t_points))
    return sum(int.from_bytes(x, "little") for x in cs) % L == _challenge(data, "c")


def _arrays_within(value: Any, limit: int) -> bool:
    """No array of the value longer than ``limit`` (a payload's decoding limit)."""
    if isinstance(value, list):
        return len(value) <= limit and all(_arrays_within(v, limit) for v in value)
    if isinstance(value, dict):
        return all(_arrays_within(v, limit) for v in value.values())
    return True


# --- the file ("Transcript file") ------------------------------------------------------------

@dataclass
class File:
    config: dict[str, Any]
    config_bytes: bytes
    entries: list[bytes]
    footer: dict[str, Any] | None
    """None: an unfinished file (the writer stopped between two appends)."""


def _u32(data: bytes, pos: int) -> tuple[int, int]:
    if pos + 4 > len(data):
        raise Unreadable("cut short")
    return struct.unpack(">I", data[pos:pos + 4])[0], pos + 4


def _chunk(data: bytes, pos: int) -> tuple[bytes, int]:
    n, pos = _u32(data, pos)
    if pos + n > len(data):
        raise Unreadable("cut short")
    return data[pos:pos + n], pos + n


def check_config(cfg: Any) -> None:
    if not isinstance(cfg, dict) or set(cfg) != {"chain_length", "players", "protocol", "rules",
                                                 "session"}:
        raise Unreadable("config keys")
    if not _is_int(cfg["protocol"]) or cfg["protocol"] != 1:
        raise Unreadable("protocol")
    rules = cfg["rules"]
    if not isinstance(rules, dict) or set(rules) != RULE_KEYS or not all(
            isinstance(v, bool) for v in rules.values()):
        raise Unreadable("rules")
    if not isinstance(cfg["session"], bytes) or len(cfg["session"]) != 32:
        raise Unreadable("session")
    cl = cfg["chain_length"]
    if isinstance(cl, bool) or not isinstance(cl, int) or not 1 <= cl <= 65536:
        raise Unreadable("chain_length")
    players = cfg["players"]
    if not isinstance(players, list) or not 3 <= len(players) <= 6:
        raise Unreadable("players")
    for p in players:
        if not isinstance(p, dict) or set(p) != {"identity", "name", "suspect"}:
            raise Unreadable("player keys")
        name, suspect = p["name"], p["suspect"]
        if not isinstance(name, str) or not 1 <= len(name) <= 40 or not name.isprintable():
            raise Unreadable("name")
        if isinstance(suspect, bool) or not isinstance(suspect, int) or not 0 <= suspect <= 5:
            raise Unreadable("suspect")
        if not valid_point(p["identity"]):
            raise Unreadable("weak identity key")
    if len({p["suspect"] for p in players}) != len(players):
        raise Unreadable("suspect twice")
    if len({p["identity"] for p in players}) != len(players):
        raise Unreadable("identity twice")


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_footer(f: Any, n: int) -> None:
    if not isinstance(f, dict):
        raise Unreadable("footer")
    keys = set(f)
    if keys not in ({"status", "entries", "blame"}, {"status", "entries", "blame", "votes"}):
        raise Unreadable("footer keys")
    status = f["status"]
    if status not in ("complete", "halted", "abandoned"):
        raise Unreadable("status")
    if not _is_int(f["entries"]) or f["entries"] < 0:
        raise Unreadable("entries")
    if (status == "halted") != (f["blame"] is not None):
        raise Unreadable("blame vs status")
    if "votes" in f:
        v = f["votes"]
        if status != "abandoned" or not isinstance(v, list) or not 1 <= len(v) <= 6 or not all(
                isinstance(x, bytes) for x in v):
            raise Unreadable("votes")
    b = f["blame"]
    if b is not None:
        if not isinstance(b, dict) or set(b) != {"culprit", "check", "reason", "index", "evidence"}:
            raise Unreadable("blame keys")
        if b["culprit"] is not None and not _is_int(b["culprit"]):
            raise Unreadable("culprit")
        if not _is_int(b["index"]) or not isinstance(b["check"], str) or not isinstance(
                b["reason"], str):
            raise Unreadable("blame fields")
        ev = b["evidence"]
        if not isinstance(ev, list) or len(ev) > 4 or not all(isinstance(x, bytes) for x in ev):
            raise Unreadable("evidence")
        if b["culprit"] is not None and not 0 <= b["culprit"] < n:
            raise Unreadable("culprit not a seat")


def read_file(data: bytes) -> File:
    if len(data) > MAX_FILE:
        raise Unreadable("over 64 MiB")
    if data[:8] != b"P2PCLUE\0" or len(data) < 10:
        raise Unreadable("magic")
    if struct.unpack(">H", data[8:10])[0] != 1:
        raise Unreadable("version")
    header_bytes, pos = _chunk(data, 10)
    try:
        header = strict(header_bytes)
    except NotCanonical as exc:
        raise Unreadable(f"header: {exc}") from exc
    if not isinstance(header, dict) or set(header) != {"config"}:
        raise Unreadable("header keys")
    check_config(header["config"])
    entries: list[bytes] = []
    while True:
        if pos == len(data):  # right after a whole entry: an unfinished file, no footer
            return File(header["config"], pack(header["config"]), entries, None)
        n, after = _u32(data, pos)
        if n == 0:
            pos = after
            break
        if n > MAX_FRAME:
            raise Unreadable("an entry longer than a frame may be")
        entry, pos = _chunk(data, pos)
        entries.append(entry)
    footer_bytes, pos = _chunk(data, pos)
    if pos != len(data):
        raise Unreadable("bytes after the footer")
    if len(footer_bytes) > MAX_FOOTER:
        raise Unreadable("footer over 4 MiB")
    try:
        footer = strict(footer_bytes)
    except NotCanonical as exc:
        raise Unreadable(f"footer: {exc}") from exc
    check_footer(footer, len(header["config"]["players"]))
    return File(header["config"], pack(header["config"]), entries, footer)


# --- the receiver ("One speaker at a time") --------------------------------------------------

@dataclass
class Halt:
    culprit: int | None
    check: str
    index: int
    evidence: list[bytes]


@dataclass
class Show:
    """One `show`: who showed whom, its commitment, what it may open to ("Deniable refutation")."""

    refuter: int
    suggester: int
    c: bytes
    named: set[int]
    index: int
    suggested: tuple[int, int] = (0, 0)  # the suggestion's suspect and weapon


@dataclass
class Game:
    """Who owes what, from the stage table, "Turn flow" and "Leaving the table"."""

    config: dict[str, Any]
    n: int = 0
    stage: str = "join"
    queue: list[int] = field(default_factory=list)  # seats still owing this round
    nonces: list[bytes] = field(default_factory=list)
    game_id: bytes = b""
    ys: list[bytes] = field(default_factory=list)
    chain_last: dict[int, bytes] = field(default_factory=dict)
    chain_used: dict[int, int] = field(default_factory=dict)
    event: int = 0
    current: int = -1
    out: set[int] = field(default_factory=set)  # eliminated or left
    left: set[int] = field(default_factory=set)
    suggester: int = -1
    accuser: int = -1
    last_pet: tuple[bytes, bytes] = (b"", b"")
    named: set[int] = field(default_factory=set)
    """The pending suggestion's cards; the room is any room card (this checker has no board)."""
    shows: list[Show] = field(default_factory=list)
    suggested: tuple[int, int] = (0, 0)  # the last suggestion's suspect and weapon
    sealed: dict[int, bytes] = field(default_factory=dict)  # show index -> R (4d)
    s_keys: dict[int, bytes] = field(default_factory=dict)  # seat -> S (its `deal`)
    open_rest: list[Show] = field(default_factory=list)  # the due seat's shows still to open
    result: str | None = None
    winner: int | None = None
    turns: int = 0
    # the end-of-game reveal ("The end-of-game reveal")
    positions: list[bytes] = field(default_factory=list)  # the 18 dealt points, as now
    envelope: list[bytes] = field(default_factory=list)  # the 3 envelope points, as now
    revealed: dict[int, int] = field(default_factory=dict)  # seat -> s = k*r mod L
    passes: list[tuple[int, set[int]]] = field(default_factory=list)  # (seat, suspect+weapon)
    accusations: list[tuple[tuple[int, int, int], bool]] = field(default_factory=list)
    accused: tuple[int, int, int] = (-1, -1, -1)
    left_cards: list[int | None] = field(default_factory=list)  # hands opened by `leave`

    def __post_init__(self) -> None:
        self.n = len(self.config["players"])
        self.queue = list(range(self.n))

    @property
    def decided(self) -> bool:
        return self.result is not None

    def owed(self) -> tuple[int | None, set[str]]:
        if self.stage == "complete":
            return None, set()
        seat = self.queue[0] if self.queue else self.current
        types = {"join": {"join"}, "keys": {"keys"}, "envelope": {"envelope"},
                 "deal": {"deal"}, "unlayer": {"unlayer"}, "reveal": {"reveal"},
                 "turn": TURN_ACTIONS, "refute": {"show", "pass", "leave"}, "pet": {"pet"},
                 "answer": {"ack", "complain"}, "sealed": {"sealed"},
                 "open": {"openings" if self.open_rest else "open"},
                 "secrets": {"secrets"}}[self.stage]
        return seat, types

    def _sealed_ok(self, show: Show, index: int, seat: int, wire: Any) -> bool:
        """Proof 4d against the show's named cards, the suggester's Y and C, context
        "<index>:sealed" of the refuter. This checker does not follow the board, so it
        does not know the room named; it accepts when some room makes the proof verify
        (the statement names (suspect, weapon, room) in that order)."""
        suspect, weapon = self.suggested
        return any(sealed_ok(self.game_id, f"{index}:sealed", seat, (suspect, weapon, room),
                             self.ys[show.suggester], show.c, wire) for room in ROOMS)

    def _public_openings(self, seat: int, kind: str, index: int, part: list[Show],
                         openings: list[Any]) -> str | None:
        """One part of a seat's end-of-game openings ("The end-of-game reveal"): its count,
        then per opening in order `check_opening`, the sealed R, proof 4c (context
        "<index>:<type>" of the entry). Without the board the room is not known: proof 4c is
        accepted when some room makes it verify (the opened card itself, if it is a room)."""
        if len(openings) != len(part):
            return "proof:opening"
        hand = [self.positions[p] for p in range(18) if self.owner(p) == seat]
        for show, o in zip(part, openings, strict=True):
            if not opens(show.c, o, self.ys[show.suggester], show.named):
                return "proof:opening"
            if self.sealed.get(show.index, base_of(o["rho"])) != base_of(o["rho"]):
                return "proof:opening"  # 4c check 2: R fixes the opening sealed
            suspect, weapon = show.suggested
            rooms = [o["card"]] if o["card"] in ROOMS else list(ROOMS)
            if not any(held_ok(self.game_id, f"{index}:{kind}", seat, (suspect, weapon, room),
                               hand, self.s_keys[seat], self.ys[show.suggester], show.c, o)
                       for room in rooms):
                return "proof:held-opening"
        return None

    def owner(self, p: int) -> int | None:
        """Dealt position p goes to seat p mod n, but the DEAL-EQUAL leftovers ("Dealing")."""
        dealt = self.n * (18 // self.n) if self.config["rules"]["deal_equal"] else 18
        return p % self.n if p < dealt else None

    def hand(self, seat: int, s: int) -> list[int | None]:
        """The seat's dealt positions with s removed, read as cards (None: no card)."""
        inv = pow(s, -1, L).to_bytes(32, "little")
        return [card_of(sodium.crypto_scalarmult_ed25519_noclamp(inv, self.positions[p]))
                for p in range(18) if self.owner(p) == seat]

    def reveal_contradiction(self) -> bool:
        """Checks 3-5 of "The end-of-game reveal", after the last `secrets`."""
        cards: list[int | None] = [card_of(self.positions[p]) for p in range(18)
                                   if self.owner(p) is None]
        for seat in range(self.n):
            if seat not in self.left:
                cards += self.hand(seat, self.revealed[seat])
        if None in cards:
            return True  # check 3 (a leftover that is no card was refused at its unlayer)
        envelope = tuple(card_of(p) for p in self.envelope)
        cards += [*self.left_cards, *envelope]
        if len(cards) != 21 or set(cards) != set(range(21)):
            return True  # check 4
        return any(right != (accused == envelope) for accused, right in self.accusations)

    def hand_size(self, seat: int) -> int:
        """Dealt positions: p goes to p mod n; under DEAL-EQUAL n*floor(18/n) on are left over."""
        dealt = self.n * (18 // self.n) if self.config["rules"]["deal_equal"] else 18
        return len([p for p in range(dealt) if p % self.n == seat])

    def _present(self) -> list[int]:
        return [s for s in range(self.n) if s not in self.left]

    def _first_player(self) -> int:
        wanted = 2 if self.config["rules"]["first_white"] else 0
        by_suspect = {p["suspect"]: i for i, p in enumerate(self.config["players"])}
        for k in range(6):
            if (wanted + k) % 6 in by_suspect:
                return by_suspect[(wanted + k) % 6]
        raise AssertionError("no player")

    def _start_turn(self, seat: int) -> None:
        self.stage, self.current, self.queue = "turn", seat, []
        self.turns += 1

    def _next_turn(self) -> None:
        if self._decide_standing():
            return
        for k in range(1, self.n + 1):
            seat = (self.current + k) % self.n
            if seat not in self.out:
                self._start_turn(seat)
                return

    def _decide_standing(self) -> bool:
        standing = [s for s in range(self.n) if s not in self.out]
        if not standing:
            self.result, self.winner = "nobody", None
        elif len(standing) == 1 and self.config["rules"]["last_standing_wins"]:
            self.result, self.winner = "won", standing[0]
        else:
            return False
        self._round("open")
        return True

    def _round(self, stage: str) -> None:
        self.stage, self.queue = stage, self._present()

    def apply(self, seat: int, kind: str, body: dict[str, Any], index: int) -> str | None:
        """Apply one message the receiver accepted; return a failed check or None."""
        if self.queue and self.stage not in ("turn",):
            self.queue.pop(0)
        if kind == "join":
            self.nonces.append(body["nonce"])
            if not self.queue:
                self.game_id = sha256(b"p2pclue/v1/game-id\0",
                                      sha256(b"p2pclue/v1/config\0", pack(self.config)),
                                      *self.nonces)
                self._round("keys")
        elif kind == "keys":
            if not key_proof_ok(self.game_id, f"{index}:keys", seat, body["Y"], body["proof"]):
                return "proof:key"
            if body["Y"] in self.ys:
                return "keys"
            self.ys.append(body["Y"])
            self.chain_last[seat], self.chain_used[seat] = body["chain"], 0
            if not self.queue:
                self._round("envelope")
        elif kind in ("envelope", "deal"):
            if kind == "envelope":
                self.envelope = [deck[0] for deck in body["decks"]]
            else:
                self.positions = list(body["deck"])
                self.s_keys[seat] = body["S"]
            if not self.queue:
                self._round("deal" if kind == "envelope" else "unlayer")
        elif kind == "unlayer":
            others = [p for p in range(18) if self.owner(p) != seat]
            for p, point in zip(others, body["points"], strict=False):
                self.positions[p] = point
            if not self.queue:
                if self.config["rules"]["weapons_random"]:
                    self._round("reveal")
                else:
                    self._start_turn(self._first_player())
        elif kind == "reveal":
            if body["event"] != self.event:
                return "randomness"
            if chain_hash(body["value"]) != self.chain_last[seat]:
                return "randomness"
            self.chain_used[seat] += 1
            last = self.chain_used[seat] == self.config["chain_length"]
            if last != (body["renew"] is not None):
                return "randomness"
            self.chain_last[seat] = body["renew"] if last else body["value"]
            if last:
                self.chain_used[seat] = 0
            if not self.queue:
                self.event += 1
                if self.current < 0:
                    self._start_turn(self._first_player())
                else:
                    self.stage = "turn"
        elif kind == "roll":
            self._round("reveal")
        elif kind == "suggest":
            self.suggester = seat
            self.named = {body["suspect"], body["weapon"], *ROOMS}
            self.suggested = (body["suspect"], body["weapon"])
            refuters = [(seat + k) % self.n for k in range(1, self.n)]
            self.stage, self.queue = "refute", [s for s in refuters if s not in self.left]
            if not self.queue:
                self.stage = "turn"
        elif kind == "show":
            if not _show_proof_ok(body["proof"], self.hand_size(seat)):
                return "proof:commit-show"  # the proof's shape (4b): see _show_proof_ok
            self.shows.append(Show(seat, self.suggester, body["C"], self.named, index,
                                   self.suggested))
            self.stage, self.queue = "answer", [self.suggester]
        elif kind == "ack":
            self.stage = "turn"
        elif kind == "complain":
            self.stage, self.queue = "sealed", [self.shows[-1].refuter]
        elif kind == "sealed":
            show = self.shows[-1]
            if not self._sealed_ok(show, index, seat, body["sealed"]):
                return "proof:sealed-opening"
            self.sealed[show.index] = body["sealed"]["r"]
            self.stage = "turn"
        elif kind == "pass" or (kind == "leave" and self.stage == "refute"):
            if kind == "pass":
                self.passes.append((seat, self.named - set(ROOMS)))
            else:
                self.envelope = list(body["envelope"])
                self.left_cards += [card_of(p) for p in body["hand"]]
            if kind == "leave":
                self.left.add(seat)
                self.out.add(seat)
            if not self.queue:
                self.stage, self.queue = "turn", []
            if kind == "leave" and self._decide_standing():
                return None
        elif kind == "accuse":
            self.accuser = seat
            self.accused = (body["suspect"], body["weapon"], body["room"])
            chain = [(seat + k) % self.n for k in range(1, self.n + 1)]
            self.stage, self.queue = "pet", [s for s in chain if s not in self.left]
        elif kind == "pet":
            self.last_pet = (body["Q"], body["P"])
            if not self.queue:
                self.accusations.append((self.accused, body["Q"] == body["P"]))
                if body["Q"] == body["P"]:
                    self.result, self.winner = "won", self.accuser
                    self._round("open")
                else:
                    self.out.add(self.accuser)
                    self._next_turn()
                self.accuser = -1
        elif kind == "end_turn":
            self._next_turn()
        elif kind == "leave":
            self.envelope = list(body["envelope"])
            self.left_cards += [card_of(p) for p in body["hand"]]
            self.left.add(seat)
            self.out.add(seat)
            self._next_turn()
        elif kind in ("open", "openings"):
            if kind == "open":
                if len(body["points"]) != 3:
                    return "proof:dleq-batch"  # the point count is the batch proof's
                owed = [s for s in self.shows
                        if s.refuter == seat and s.suggester not in self.left]
            else:
                owed = self.open_rest
            failed = self._public_openings(seat, kind, index, owed[:MAX_OPENINGS],
                                           body["openings"])
            if failed is not None:
                return failed
            if kind == "open":
                self.envelope = list(body["points"])
            self.open_rest = owed[MAX_OPENINGS:]
            if self.open_rest:
                self.queue.insert(0, seat)  # its next part before the next seat
            elif not self.queue:
                self._round("secrets")
        elif kind == "secrets":
            k = body["k"]
            if sodium.crypto_scalarmult_ed25519_base_noclamp(k) != self.ys[seat]:
                return "secrets"
            s = int.from_bytes(k, "little") * int.from_bytes(body["r"], "little") % L
            hand = set(self.hand(seat, s))
            if any(hand & named for passer, named in self.passes if passer == seat):
                return "secrets"  # check 1 (no board here: the suspect and the weapon)
            self.revealed[seat] = s
            for show in self.shows:  # check 2: shows to a seat that left, opened by nobody
                if show.refuter == seat and show.suggester in self.left:
                    rho = show_rho(k, self.game_id, show.index, seat)
                    if not any(opens(show.c, {"card": t, "rho": rho}, self.ys[show.suggester],
                                     show.named) for t in show.named):
                        return "secrets"
            if not self.queue:
                self.stage = "complete"
        return None


def base_of(rho: bytes) -> bytes:
    return bytes(sodium.crypto_scalarmult_ed25519_base_noclamp(rho))


def _show_proof_ok(pr: Any, h: int) -> bool:
    """Proof 4b's wire shape: points a, z (A, Z of the one-use key), then per hand position
    one challenge and one response (cp, up) and per named card one challenge and two
    responses (ci, ui, vi), all canonical non-zero scalars."""
    counts = {"cp": h, "up": h, "ci": 3, "ui": 3, "vi": 3}
    return (isinstance(pr, dict) and set(pr) == {"a", "z", *counts}
            and valid_point(pr["a"]) and valid_point(pr["z"])
            and all(isinstance(pr[k], list) and len(pr[k]) == n
                    and all(scalar(x) is not None for x in pr[k]) for k, n in counts.items()))


def _opening_ok(o: Any) -> bool:
    """A public opening's wire ("Public opening"): {card, rho, held: {c, u}}, c not empty,
    u as long, every scalar canonical and non-zero."""
    if not (isinstance(o, dict) and set(o) == {"card", "rho", "held"} and _is_int(o["card"])
            and 0 <= o["card"] <= 20 and scalar(o["rho"]) is not None):
        return False
    held = o["held"]
    return (isinstance(held, dict) and set(held) == {"c", "u"}
            and isinstance(held["c"], list) and isinstance(held["u"], list)
            and 0 < len(held["c"]) == len(held["u"])
            and all(scalar(x) is not None for x in held["c"] + held["u"]))


def _points_ok(x: Any) -> bool:
    return isinstance(x, list) and len(x) <= 21 and all(valid_point(p) for p in x)


def _pair_proof_ok(x: Any) -> bool:
    return (isinstance(x, dict) and set(x) == {"c", "s"} and scalar(x["c"]) is not None
            and scalar(x["s"]) is not None)


def _body_check(kind: str, body: Any) -> str | None:
    """The check a malformed body fails (body decoding, in the table's field order), or None."""
    if not isinstance(body, dict) or set(body) != BODIES[kind]:
        return "message"
    if kind in ("join",) and not (isinstance(body["nonce"], bytes) and len(body["nonce"]) == 32):
        return "message"
    if kind == "keys" and not (isinstance(body["chain"], bytes) and len(body["chain"]) == 32):
        return "message"
    if kind == "reveal":
        ev, val, renew = body["event"], body["value"], body["renew"]
        ok = (_is_int(ev) and 0 <= ev < 2**32 and isinstance(val, bytes) and len(val) == 32
              and (renew is None or (isinstance(renew, bytes) and len(renew) == 32)))
        return None if ok else "message"
    if kind == "pet":
        return None if valid_point(body["Q"]) and valid_point(body["P"]) else "message"
    if kind == "secrets":
        ok = scalar(body["k"]) is not None and scalar(body["r"]) is not None
        return None if ok else "message"
    if kind == "show" and not valid_point(body["C"]):
        return "proof:commit-show"
    if kind == "sealed":
        w = body["sealed"]
        ok = (isinstance(w, dict) and set(w) == {"r", "c", "s"} and valid_point(w["r"])
              and all(isinstance(w[k], list) and len(w[k]) == 3
                      and all(scalar(x) is not None for x in w[k]) for k in ("c", "s")))
        return None if ok else "proof:sealed-opening"
    if kind == "open":
        if not _points_ok(body["points"]):
            return "message"
        if not _pair_proof_ok(body["proof"]):
            return "proof:dleq-batch"
    if kind in ("open", "openings"):
        os_ = body["openings"]
        if not isinstance(os_, list) or not all(_opening_ok(o) for o in os_):
            return "proof:opening"
    return None


class Receiver:
    """Rules 1-7 and "Frames after the end" for one observer."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.n = len(config["players"])
        self.digest = sha256(b"p2pclue/v1/config\0", pack(config))
        self.keys = [VerifyKey(p["identity"]) for p in config["players"]]
        self.game = Game(config)
        self.entries: list[bytes] = []
        self.hashes: dict[bytes, int] = {}
        self.head = sha256(b"p2pclue/v1/chain-start\0", self.digest)
        self.next = [0] * self.n
        self.by_seq: dict[tuple[int, int], bytes] = {}
        self.held: dict[tuple[int, int], tuple[bytes, dict[str, Any]]] = {}
        self.halt: Halt | None = None

    def _verifies(self, seat: int, payload: bytes, sig: bytes) -> bool:
        try:
            self.keys[seat].verify(b"p2pclue/v1/message\0" + payload, sig)
            return True
        except BadSignatureError:
            return False

    def _stop(self, culprit: int | None, check: str, evidence: list[bytes]) -> str:
        self.halt = Halt(culprit, check, len(self.entries), evidence)
        return "halted"

    def receive(self, frame: bytes) -> str:
        if self.halt is not None:
            return "ignored"
        if frame in self.hashes_frames() or any(frame == h for h, _ in self.held.values()):
            return "ignored"
        if len(frame) > MAX_ENTRY:
            return "dropped"
        try:
            outer = strict(frame)
        except NotCanonical:
            return "dropped"
        if not (isinstance(outer, list) and len(outer) == 3 and _is_int(outer[0])
                and 0 <= outer[0] <= 63 and isinstance(outer[1], bytes)
                and isinstance(outer[2], bytes) and len(outer[2]) == 64):
            return "dropped"
        sender, payload, sig = outer
        if sender < self.n and self._verifies(sender, payload, sig):
            signer, rewritten = sender, False
        else:
            found = [s for s in range(self.n) if self._verifies(s, payload, sig)]
            if not found:
                return "dropped"
            signer, rewritten = found[0], True
        try:
            p = strict(payload)
            ok = (_arrays_within(p, MAX_OPENINGS) and isinstance(p, dict)
                  and set(p) == PAYLOAD_KEYS and _is_int(p["v"])
                  and p["v"] == 1 and isinstance(p["game"], bytes) and len(p["game"]) == 32
                  and _is_int(p["from"]) and 0 <= p["from"] <= 63 and _is_int(p["seq"])
                  and 0 <= p["seq"] < 2**32 and isinstance(p["prev"], bytes)
                  and len(p["prev"]) == 32 and isinstance(p["type"], str)
                  and isinstance(p["body"], dict))
        except NotCanonical:
            ok = False
        if not ok:
            if self.game.stage == "complete":
                return "dropped"
            if names_game(payload, self.digest):
                return self._stop(signer, "message", [frame])
            return "dropped"
        if p["game"] != self.digest:
            return "dropped"
        if p["from"] != signer:
            if self.game.stage == "complete":
                return "dropped"
            return self._stop(signer, "signature", [frame])
        if rewritten:
            return "dropped"
        seq = p["seq"]
        if self.game.stage == "complete":
            if seq < self.next[signer] and self.by_seq[(signer, seq)] != frame:
                return self._stop(signer, "equivocation", [self.by_seq[(signer, seq)], frame])
            return "dropped"
        if p["type"] == "accuse" and signer in self.game.out:  # rule 3b
            return self._stop(signer, "R27", [frame])
        if seq < self.next[signer]:
            return self._stop(signer, "equivocation", [self.by_seq[(signer, seq)], frame])
        held = self.held.get((signer, seq))
        if held is not None and held[0] != frame:
            return self._stop(signer, "equivocation", [held[0], frame])
        if seq == self.next[signer] and p["prev"] == self.head:
            return self._chain(signer, p, frame)
        if seq == self.next[signer] and p["prev"] in self.hashes:
            return self._stop(signer, "chain", [frame])
        if seq < self.next[signer] + 32:
            self.held[(signer, seq)] = (frame, p)
            return "held"
        return "ignored"

    def hashes_frames(self) -> set[bytes]:
        return set(self.entries)

    def _chain(self, signer: int, p: dict[str, Any], frame: bytes) -> str:
        seat, types = self.game.owed()
        if seat != signer or p["type"] not in types:
            return self._stop(signer, "turn", [frame])
        bad = _body_check(p["type"], p["body"])
        if bad is not None:
            return self._stop(signer, bad, [frame])
        failed = self.game.apply(signer, p["type"], p["body"], len(self.entries))
        if failed is not None:
            return self._stop(signer, failed, [frame])
        self.entries.append(frame)
        self.by_seq[(signer, p["seq"])] = frame
        self.next[signer] += 1
        self.head = sha256(frame)
        self.hashes[self.head] = len(self.entries) - 1
        for key, (held_frame, hp) in list(self.held.items()):  # take up a held frame
            if key == (hp["from"], self.next[hp["from"]]) and hp["prev"] == self.head:
                del self.held[key]
                return self._chain(hp["from"], hp, held_frame)
        return "chained"


# --- the verdict ("Blame", "Confirming a blame", "Audit") ------------------------------------

def _withheld(g: Game) -> dict[str, Any] | None:
    """A stop inside an accusation check names the seat that owed its step ("Informed abort")."""
    if g.stage != "pet":
        return None
    return {"seat": g.queue[0], "accuser": g.accuser, "counts_as_wrong": g.queue[0] == g.accuser}


def _complaints(entries: list[bytes]) -> list[dict[str, int]]:
    """Per suggester, its counted `complain` entries and how many a `sealed` answered
    ("Audit", `complaints`): a `sealed` answers the `complain` just before it."""
    counts: dict[int, list[int]] = {}
    waiting: int | None = None
    for frame in entries:
        sender, payload, _ = strict(frame)
        kind = strict(payload)["type"]
        if kind == "complain":
            counts.setdefault(sender, [0, 0])[0] += 1
            waiting = sender
        elif kind == "sealed" and waiting is not None:
            counts[waiting][1] += 1
            waiting = None
    return [{"suggester": s, "complained": c, "sealed": k} for s, (c, k) in sorted(counts.items())]


def verdict(data: bytes) -> dict[str, Any]:
    try:
        f = read_file(data)
    except Unreadable as exc:
        return {"valid": False, "result": "unreadable", "error": str(exc)}
    rx = Receiver(f.config)
    out: dict[str, Any] = {"valid": False, "result": None, "blamed": None, "winner": None,
                           "violation": None, "withheld": None, "forfeit": None}
    for i, entry in enumerate(f.entries):
        outcome = rx.receive(entry)
        if outcome != "chained" or len(rx.entries) != i + 1:
            out["complaints"] = _complaints(rx.entries)  # the entries accepted before it
        if outcome == "halted":
            assert rx.halt is not None
            out.update(result="halted", blamed=rx.halt.culprit, winner=rx.game.winner,
                       violation={"check": rx.halt.check, "culprit": rx.halt.culprit,
                                  "index": rx.halt.index})
            return out
        if outcome != "chained" or len(rx.entries) != i + 1:
            out.update(result="invalid",
                       violation={"check": "chain", "culprit": None, "index": i})
            return out
    count, footer, g = len(rx.entries), f.footer, rx.game
    out["complaints"] = _complaints(rx.entries)  # before any evidence is fed
    if g.stage == "complete" and g.reveal_contradiction():  # after the entries, before the footer
        out.update(result="invalid", violation={"check": "reveal", "culprit": None,
                                                "index": count})
        return out
    if footer is None:
        out.update(valid=True, result=g.result or "unfinished", winner=g.winner)
        out["withheld"] = _withheld(g)
        return out

    def violation(check: str, culprit: int | None = None,
                  result: str = "invalid") -> dict[str, Any]:
        out.update(result=result, blamed=culprit,
                   winner=g.winner if result == "halted" else None,
                   violation={"check": check, "culprit": culprit, "index": count})
        return out

    if footer["entries"] != count:
        return violation("footer")
    status = footer["status"]
    if status == "complete":
        if g.stage != "complete":
            return violation("footer")
        out.update(valid=True, result=g.result, winner=g.winner)
        return out
    if status == "abandoned":
        if g.stage == "complete":
            return violation("footer")
        if "votes" in footer:
            return _votes_verdict(rx, footer["votes"], out, violation)
        out.update(valid=True, result=g.result or "abandoned", winner=g.winner)
        out["withheld"] = _withheld(g)
        return out
    blame = footer["blame"]
    if not blame["evidence"] or blame["index"] != count:
        return violation("footer")
    for frame in blame["evidence"]:
        if rx.receive(frame) == "halted":
            break
    h = rx.halt
    if h is None:
        return violation("false-blame")
    if (h.culprit, h.check, h.index, h.evidence) != (blame["culprit"], blame["check"],
                                                     blame["index"], blame["evidence"]):
        return violation("false-blame", h.culprit, "halted")
    out.update(result="halted", blamed=h.culprit, winner=g.winner,
               violation={"check": h.check, "culprit": h.culprit, "index": h.index})
    return out


def _votes_verdict(rx: Receiver, votes: list[bytes], out: dict[str, Any],
                   violation: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """An abandon by vote ("Silence and abandon", "Informed abort")."""
    g = rx.game
    silent, _ = g.owed()
    if silent is None:
        return violation("votes")
    voters: list[int] = []
    for raw in votes:
        try:
            voter, payload, sig = strict(raw)
            v = strict(payload)
        except (NotCanonical, TypeError, ValueError):
            return violation("votes")
        if len(raw) > 512 or not _is_int(voter) or not 0 <= voter < rx.n:
            return violation("votes")
        if not isinstance(v, dict) or set(v) != {"ballot", "choice", "entries", "from", "game",
                                                 "head", "silent", "timeout", "waited"}:
            return violation("votes")
        window = [v[k] for k in ("ballot", "entries", "silent", "timeout", "waited")]
        if not all(_is_int(x) and 0 <= x < 2**32 for x in window) or v["waited"] < v["timeout"]:
            return violation("votes")
        try:
            rx.keys[voter].verify(b"p2pclue/v1/vote\0" + payload, sig)
        except (BadSignatureError, ValueError, TypeError):
            return violation("votes")
        if (v["from"], v["game"], v["entries"], v["head"], v["silent"], v["choice"]) != (
                voter, rx.digest, len(rx.entries), rx.head, silent, "abandon"):
            return violation("votes")
        if voter in g.left or voter == silent or (voters and voter <= voters[-1]):
            return violation("votes")
        voters.append(voter)
    m = len([s for s in range(rx.n) if s not in g.left and s != silent])
    # every seat but the silent one at a forfeit point (the accuser owing its own step)
    forfeit_point = g.stage == "pet" and silent == g.accuser
    quorum = max(m, 1) if forfeit_point else m // 2 + 1
    if len(voters) < quorum:
        return violation("votes")
    out.update(valid=True, result=g.result or "abandoned", winner=g.winner)
    if g.stage == "pet":
        out["withheld"] = {"seat": silent, "accuser": g.accuser,
                           "counts_as_wrong": silent == g.accuser}
        if silent == g.accuser:
            g.out.add(g.accuser)
            g.current = g.accuser
            standing = [s for s in range(rx.n) if s not in g.out]
            if not standing:
                out.update(result="nobody", winner=None)
            elif len(standing) == 1 and g.config["rules"]["last_standing_wins"]:
                out.update(result="won", winner=standing[0])
            out["forfeit"] = {"seat": silent, "voters": voters[:quorum]}
    return out
