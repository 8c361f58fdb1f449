"""The sample transcripts judged by a checker written from docs/protocol.md alone
(``cleanroom_checker``, which imports nothing of p2pclue) and by ``p2pclue audit --json`` run
as a real process: the two verdicts must agree (issue 19, point 6)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.engine.cleanroom_checker import names_game, verdict

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "protocol" / "samples"
COMPARED = ("valid", "result", "blamed", "winner", "withheld", "forfeit")


def audit_process(path: Path) -> tuple[int, dict[str, Any]]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "p2pclue", "audit", "--json", str(path)],
                          capture_output=True, text=True, env=env, timeout=600, check=False)
    return done.returncode, json.loads(done.stdout.strip().splitlines()[-1])


def agree(mine: dict[str, Any], code: int, theirs: dict[str, Any]) -> None:
    expected_code = 0 if mine["valid"] else 2 if mine["result"] == "unreadable" else 1
    assert code == expected_code, (mine, theirs)
    for key in COMPARED if mine["result"] != "unreadable" else ("valid", "result"):
        assert mine[key] == theirs[key], (key, mine, theirs)
    if mine.get("violation") is not None:
        for key in ("check", "culprit", "index"):
            assert mine["violation"][key] == theirs["violation"][key], (key, mine, theirs)


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.p2pclue")))
def test_sample_verdicts_agree(name: str) -> None:
    path = SAMPLES / name
    mine = verdict(path.read_bytes())
    code, theirs = audit_process(path)
    agree(mine, code, theirs)


def test_lenient_vectors() -> None:
    vectors = json.loads((ROOT / "protocol" / "vectors" / "lenient-game-v1.json").read_text())
    game = bytes.fromhex(vectors["game"])
    for case in vectors["cases"]:
        assert names_game(bytes.fromhex(case["payload"]), game) == case["names_game"], case["name"]


# --- transcripts made from the spec alone, with fresh keys -----------------------------------

from nacl.signing import SigningKey  # noqa: E402

from tests.engine.cleanroom_checker import pack, sha256  # noqa: E402

CLASSIC = {"deal_equal": False, "tokens_played_only": False, "weapons_random": True,
           "first_white": False, "two_dice": False, "revisit_ok": False, "enter_exact": False,
           "weapon_swap": False, "summon_restricted": False, "reenter_other_door": False,
           "must_leave": False, "last_standing_wins": True}


class Table:
    """Three fresh identities, a config, and frames signed as the spec says."""

    def __init__(self) -> None:
        self.sk = [SigningKey(bytes([i + 1]) * 32) for i in range(3)]
        self.config = {"chain_length": 512, "protocol": 1, "rules": CLASSIC,
                       "session": bytes(range(32)),
                       "players": [{"identity": bytes(k.verify_key), "name": n, "suspect": s}
                                   for k, n, s in zip(self.sk, ("Ann", "Bob", "Cy"), (0, 2, 4))]}
        self.digest = sha256(b"p2pclue/v1/config\0", pack(self.config))
        self.start = sha256(b"p2pclue/v1/chain-start\0", self.digest)

    def payload(self, seat: int, seq: int, prev: bytes, kind: str, body: dict[str, Any],
                **extra: Any) -> bytes:
        fields = {"v": 1, "game": self.digest, "from": seat, "seq": seq, "prev": prev,
                  "type": kind, "body": body}
        fields.update(extra)
        return pack(fields)

    def frame(self, signer: int, payload: bytes, sender: int | None = None) -> bytes:
        sig = self.sk[signer].sign(b"p2pclue/v1/message\0" + payload).signature
        return pack([signer if sender is None else sender, payload, sig])

    def joins(self) -> list[bytes]:
        out, prev = [], self.start
        for seat in range(3):
            f = self.frame(seat, self.payload(seat, 0, prev, "join", {"nonce": bytes([seat]) * 32}))
            out.append(f)
            prev = sha256(f)
        return out

    def file(self, entries: list[bytes], footer: dict[str, Any] | bytes) -> bytes:
        def chunk(b: bytes) -> bytes:
            return len(b).to_bytes(4, "big") + b
        foot = footer if isinstance(footer, bytes) else pack(footer)
        return (b"P2PCLUE\0" + (1).to_bytes(2, "big") + chunk(pack({"config": self.config}))
                + b"".join(chunk(e) for e in entries) + bytes(4) + chunk(foot))


def halted(evidence: list[bytes], culprit: int | None, check: str, index: int = 3,
           entries: int = 3) -> dict[str, Any]:
    return {"status": "halted", "entries": entries,
            "blame": {"culprit": culprit, "check": check, "reason": "prose", "index": index,
                      "evidence": evidence}}


def crafted_cases() -> dict[str, tuple[bytes, dict[str, Any]]]:
    """name -> (file, the verdict the spec gives), each a point of issue 19's list."""
    t = Table()
    js = t.joins()
    head = sha256(js[-1])
    keys_body = {"Y": bytes(32), "chain": bytes(32), "proof": {"c": bytes(32), "s": bytes(32)}}
    hello = t.frame(0, t.payload(0, 1, head, "hello", {}))
    not_owed = t.frame(1, t.payload(1, 1, head, "keys", keys_body))
    other_name = t.frame(1, t.payload(0, 1, head, "keys", keys_body))
    float_v = t.frame(0, msgpack_float_payload(t, head))
    skipped = t.frame(0, t.payload(0, 2, head, "keys", keys_body))
    older = t.frame(0, t.payload(0, 1, sha256(js[0]), "keys", keys_body))
    second_join = t.frame(1, t.payload(1, 0, sha256(js[0]), "join", {"nonce": b"x" * 32}))
    abandoned = {"status": "abandoned", "entries": 3, "blame": None}
    confirmed = {"valid": False, "result": "halted", "winner": None}
    invalid = {"valid": False, "result": "invalid", "blamed": None, "winner": None}

    def v(**kw: Any) -> dict[str, Any]:
        return kw

    return {
        "abandoned after the joins": (t.file(js, abandoned),
                                      v(valid=True, result="abandoned", blamed=None)),
        "point 11: an unknown type from the seat that owes is turn": (
            t.file(js, halted([hello], 0, "turn")), v(**confirmed, blamed=0, check="turn")),
        "rule 7: a known type from a seat that does not owe is turn": (
            t.file(js, halted([not_owed], 1, "turn")), v(**confirmed, blamed=1, check="turn")),
        "rule 3a: from names another seat than the signer": (
            t.file(js, halted([other_name], 1, "signature")),
            v(**confirmed, blamed=1, check="signature")),
        "point 18: a float payload that names the game is message": (
            t.file(js, halted([float_v], 0, "message")),
            v(**confirmed, blamed=0, check="message")),
        "point 12: a skipped seq is held, nobody halts": (
            t.file(js, halted([skipped], 0, "chain")), v(**invalid, check="false-blame")),
        "point 12: the next seq on an older entry is chain": (
            t.file(js, halted([older], 0, "chain")), v(**confirmed, blamed=0, check="chain")),
        "point 12: seq below the next number with other bytes is equivocation": (
            t.file(js, halted([js[1], second_join], 1, "equivocation")),
            v(**confirmed, blamed=1, check="equivocation")),
        "point 3: an empty evidence list is footer": (
            t.file(js, halted([], 0, "turn")), v(**invalid, check="footer")),
        "point 4: an index other than the entry count is footer": (
            t.file(js, halted([hello], 0, "turn", index=2)), v(**invalid, check="footer")),
        "a footer entry count other than the entries is footer": (
            t.file(js, halted([hello], 0, "turn", entries=2)), v(**invalid, check="footer")),
        "point 5: the wrong culprit is false-blame with the replay's culprit": (
            t.file(js, halted([hello], 1, "turn")),
            v(valid=False, result="halted", blamed=0, check="false-blame")),
        "point 10: an outer sender of 64 is unreadable, so the entry is not chained": (
            t.file(js[:2] + [t.frame(2, strict_payload(js[2]), sender=64)], abandoned),
            v(**invalid, check="chain")),
        "point 10: an outer sender naming no seat, the payload the signer's own: dropped": (
            t.file(js[:2] + [t.frame(2, strict_payload(js[2]), sender=5)], abandoned),
            v(**invalid, check="chain")),
        "a rewritten envelope as evidence is dropped: false-blame": (
            t.file(js, halted([t.frame(0, strict_payload(hello), sender=1)], 0, "turn")),
            v(**invalid, check="false-blame")),
        "a complete footer on an unfinished game is footer": (
            t.file(js, {"status": "complete", "entries": 3, "blame": None}),
            v(**invalid, check="footer")),
        "point 9: a culprit that is not a seat is unreadable": (
            t.file(js, halted([hello], 3, "turn")), v(valid=False, result="unreadable")),
        "point 9: five evidence frames are unreadable": (
            t.file(js, halted([hello] * 5, 0, "turn")), v(valid=False, result="unreadable")),
        "point 9: votes on a complete footer are unreadable": (
            t.file(js, {"status": "complete", "entries": 3, "blame": None, "votes": [b"x"]}),
            v(valid=False, result="unreadable")),
        "point 9: a negative entry count is unreadable": (
            t.file(js, {"status": "abandoned", "entries": -1, "blame": None}),
            v(valid=False, result="unreadable")),
        "point 9: a negative blame index is readable, and footer": (
            t.file(js, halted([hello], 0, "turn", index=-1)), v(**invalid, check="footer")),
        "point 17: a repeated identity key is unreadable": (
            repeated_key_file(t, js), v(valid=False, result="unreadable")),
    }


def strict_payload(frame: bytes) -> bytes:
    import msgpack
    payload: bytes = msgpack.unpackb(frame)[1]
    return payload


def msgpack_float_payload(t: Table, head: bytes) -> bytes:
    """Seat 0's next message with ``v`` spelled as the float 1.0: not strict, names the game."""
    import msgpack
    good = t.payload(0, 1, head, "hello", {})
    fields = msgpack.unpackb(good, raw=False)
    fields["v"] = 1.0
    return bytes(msgpack.packb(fields, use_bin_type=True))


def repeated_key_file(t: Table, js: list[bytes]) -> bytes:
    t2 = Table()
    t2.config["players"][1]["identity"] = t2.config["players"][0]["identity"]
    return t2.file([], {"status": "abandoned", "entries": 0, "blame": None})


CASES = crafted_cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_crafted_verdicts(name: str, tmp_path: Path) -> None:
    data, want = CASES[name]
    mine = verdict(data)
    for key, value in want.items():
        got = mine["violation"]["check"] if key == "check" else mine[key]
        assert got == value, (key, mine)
    path = tmp_path / "t.p2pclue"
    path.write_bytes(data)
    code, theirs = audit_process(path)
    agree(mine, code, theirs)
