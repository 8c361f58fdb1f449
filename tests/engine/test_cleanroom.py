"""The sample transcripts judged by a checker written from docs/protocol.md alone
(``cleanroom_checker``, which imports nothing of p2pclue) and by ``p2pclue audit --json``:
the two verdicts must agree (issue 19, point 6).

The audit runs through the command's entry point in this process; a few cases run it as a
real process (its exit status across the process boundary), and the checker itself runs in
a fresh interpreter with no p2pclue module loaded, which is what its independence means.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.commands import HANG_GUARD, audit_in_process, audit_process
from tests.engine.cleanroom_checker import names_game, verdict
from tests.torsion import torsion

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "protocol" / "samples"
CHECKER = Path(__file__).with_name("cleanroom_checker.py")
COMPARED = ("valid", "result", "blamed", "winner", "withheld", "forfeit", "complaints")
Audit = Callable[..., tuple[int, list[str]]]


def audit_verdict(path: Path, run: Audit = audit_in_process) -> tuple[int, dict[str, Any]]:
    """``p2pclue audit --json PATH``: its exit status and its last line, the JSON verdict."""
    code, lines = run("--json", str(path))
    return code, json.loads(lines[-1])


VERDICT_KEYS = {"valid", "result", "unfinished", "winner", "blamed", "violation", "withheld",
                "forfeit", "notes", "players", "turns", "entries", "transcript_sha256",
                "envelope", "hands", "complaints"}  # docs/protocol.md, "Audit"


def agree(mine: dict[str, Any], code: int, theirs: dict[str, Any]) -> None:
    assert set(theirs) == VERDICT_KEYS | ({"error"} if theirs["result"] == "unreadable" else set())
    if theirs["violation"] is not None:
        assert set(theirs["violation"]) == {"index", "sender", "check", "reason", "culprit"}
    expected_code = 0 if mine["valid"] else 2 if mine["result"] == "unreadable" else 1
    assert code == expected_code, (mine, theirs)
    for key in COMPARED if mine["result"] != "unreadable" else ("valid", "result"):
        assert mine[key] == theirs[key], (key, mine, theirs)
    if mine.get("violation") is not None:
        for key in ("check", "culprit", "index"):
            assert mine["violation"][key] == theirs["violation"][key], (key, mine, theirs)


def judged_alike(data: bytes, tmp_path: Path, want: dict[str, Any] | None = None,
                 run: Audit = audit_in_process) -> None:
    """The spec-only verdict is ``want`` (where given) and the audit's verdict."""
    mine = verdict(data)
    for key, value in (want or {}).items():
        got = mine["violation"]["check"] if key == "check" else mine[key]
        assert got == value, (key, mine)
    path = tmp_path / "t.p2pclue"
    path.write_bytes(data)
    code, theirs = audit_verdict(path, run)
    agree(mine, code, theirs)


def all_judged_alike(subtests: pytest.Subtests, tmp_path: Path,
                     cases: Mapping[str, tuple[bytes, dict[str, Any] | None]],
                     count: int) -> None:
    """Each case a subtest (named as in the case list); the list is built when the test
    runs, not when it is collected. ``count`` keeps a case from going missing unseen."""
    assert len(cases) == count, sorted(cases)
    for name, (data, want) in cases.items():
        with subtests.test(msg=name):
            judged_alike(data, tmp_path, want)


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.p2pclue")))
def test_sample_verdicts_agree(name: str) -> None:
    path = SAMPLES / name
    mine = verdict(path.read_bytes())
    code, theirs = audit_verdict(path)
    agree(mine, code, theirs)


# --- across the process boundary --------------------------------------------------------------

@pytest.mark.parametrize(("sample", "crafted", "status"), [
    ("classic-3p.p2pclue", None, 0), ("halted-bias-dice.p2pclue", None, 1),
    (None, "a file version other than 1 is unreadable", 2),
])
def test_the_audit_process_agrees_with_its_exit_status(
        sample: str | None, crafted: str | None, status: int, tmp_path: Path) -> None:
    """``python -m p2pclue audit --json`` as its own process: one case per exit status."""
    data = (SAMPLES / sample).read_bytes() if sample else crafted_cases()[str(crafted)][0]
    mine = verdict(data)
    path = tmp_path / "t.p2pclue"
    path.write_bytes(data)
    code, theirs = audit_verdict(path, audit_process)
    assert code == status
    agree(mine, code, theirs)


CHECKER_RUN = """
import sys
sys.path.insert(0, sys.argv[1])
import cleanroom_checker as checker
verdicts = {path: checker.verdict(open(path, "rb").read()) for path in sys.argv[2:]}
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("p2pclue", "tests"))
print(repr(loaded))
print(repr(verdicts))
"""


def test_the_checker_stands_alone() -> None:
    """The checker's source imports nothing of p2pclue or of the tests, and in a fresh
    interpreter (isolated: no PYTHONPATH, no working folder on its path) it loads no module of
    the project and gives every sample the verdict it gives here."""
    tree = ast.parse(CHECKER.read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {f"{'.' * node.level}{node.module or ''}" for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom)}
    assert imported, "the checker's imports were read"
    assert not {m for m in imported if m.startswith((".", "p2pclue", "tests"))}, imported
    samples = sorted(str(p) for p in SAMPLES.glob("*.p2pclue"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-I", "-c", CHECKER_RUN, str(CHECKER.parent), *samples],
        capture_output=True, text=True, env=env, cwd="/", timeout=HANG_GUARD, check=False)
    assert done.returncode == 0, done.stderr
    loaded, verdicts = done.stdout.splitlines()
    assert loaded == "[]"
    assert verdicts == repr({path: verdict(Path(path).read_bytes()) for path in samples})


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
        self.config: dict[str, Any] = {"chain_length": 512, "protocol": 1, "rules": CLASSIC,
                       "session": bytes(range(32)),
                       "players": [{"identity": bytes(k.verify_key), "name": n, "suspect": s}
                                   for k, n, s in zip(self.sk, ("Ann", "Bob", "Cy"), (0, 2, 4),
                                                      strict=True)]}
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


@cache
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
        "rule 2: a non-strict payload of this game in a rewritten envelope is message": (
            t.file(js, halted([t.frame(0, msgpack_float_payload(t, head), sender=1)], 0,
                              "message")), v(**confirmed, blamed=0, check="message")),
        "an extra evidence frame after the halting one is false-blame": (
            t.file(js, halted([hello, not_owed], 0, "turn")),
            v(valid=False, result="halted", blamed=0, check="false-blame")),
        "a damaged evidence frame before the halting one is false-blame": (
            t.file(js, halted([b"junk", hello], 0, "turn")),
            v(valid=False, result="halted", blamed=0, check="false-blame")),
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
            t.file([*js[:2], t.frame(2, strict_payload(js[2]), sender=64)], abandoned),
            v(**invalid, check="chain")),
        "point 10: an outer sender naming no seat, the payload the signer's own: dropped": (
            t.file([*js[:2], t.frame(2, strict_payload(js[2]), sender=5)], abandoned),
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
        "an entry not in its canonical spelling is not chained": (
            t.file([*js[:2], b"\x93\xcc\x02" + js[2][2:]], abandoned),
            v(**invalid, check="chain")),
        "an entry over 256 KiB makes the file unreadable": (
            t.file([*js, b"\x93" + bytes(300 * 1024)], {**abandoned, "entries": 4}),
            v(valid=False, result="unreadable")),
        "a file version other than 1 is unreadable": (
            t.file(js, abandoned)[:9] + b"\x02" + t.file(js, abandoned)[10:],
            v(valid=False, result="unreadable")),
        "point 17: a small-order identity key is unreadable": (
            weak_key_file(), v(valid=False, result="unreadable")),
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


def weak_key_file() -> bytes:
    t = Table()
    t.config["players"][2]["identity"] = bytes([1]) + bytes(31)  # the identity point
    return t.file([], {"status": "abandoned", "entries": 0, "blame": None})


def test_crafted_verdicts(subtests: pytest.Subtests, tmp_path: Path) -> None:
    all_judged_alike(subtests, tmp_path, crafted_cases(), 29)


# --- the samples cut and closed again: the audit's notes on stops inside a check ------------

def sample_parts(name: str) -> tuple[bytes, list[bytes], list[str]]:
    """The opening bytes (magic, version, header), the entries, and each entry's type."""
    import msgpack
    data = (SAMPLES / name).read_bytes()
    header_len = int.from_bytes(data[10:14], "big")
    opening, pos, entries = data[:14 + header_len], 14 + header_len, []
    while (n := int.from_bytes(data[pos:pos + 4], "big")) != 0:
        entries.append(data[pos + 4:pos + 4 + n])
        pos += 4 + n
    kinds = [msgpack.unpackb(msgpack.unpackb(e)[1], raw=False)["type"] for e in entries]
    return opening, entries, kinds


def closed(opening: bytes, entries: list[bytes], footer: dict[str, Any]) -> bytes:
    body = b"".join(len(e).to_bytes(4, "big") + e for e in entries)
    foot = pack(footer)
    return opening + body + bytes(4) + len(foot).to_bytes(4, "big") + foot


@cache
def cut_cases() -> dict[str, bytes]:
    opening, entries, kinds = sample_parts("classic-3p.p2pclue")
    accuse = max(i for i, k in enumerate(kinds) if k == "accuse")
    opened = kinds.index("open")
    cases = {}
    for name, stop in (("before the first PET step", accuse + 1),
                       ("before the second PET step", accuse + 2),
                       ("before the accuser's own PET step", accuse + 3),
                       ("inside the open round", opened + 1),
                       ("inside the secrets round", kinds.index("secrets") + 1),
                       ("after a roll, inside the dice round", kinds.index("roll") + 2)):
        cases[f"classic-3p abandoned {name}"] = closed(
            opening, entries[:stop], {"status": "abandoned", "entries": stop, "blame": None})
    cases["classic-3p halted by a frame that skips its seq (held: nobody halts)"] = closed(
        opening, entries[:accuse], {"status": "halted", "entries": accuse, "blame": {
            "culprit": 0, "check": "chain", "reason": "", "index": accuse,
            "evidence": [entries[accuse + 5]]}})
    cases["classic-3p halted by the next entry (chains: nobody halts)"] = closed(
        opening, entries[:accuse], {"status": "halted", "entries": accuse, "blame": {
            "culprit": 0, "check": "turn", "reason": "", "index": accuse,
            "evidence": [entries[accuse]]}})
    cases["classic-3p with an entry repeated (a duplicate is not chained)"] = closed(
        opening, entries[:5] + entries[4:], {"status": "complete", "entries": len(entries) + 1,
                                             "blame": None})
    cases["classic-3p with two entries swapped (a held entry is not chained)"] = closed(
        opening, [*entries[:5], entries[6], entries[5], *entries[7:]],
        {"status": "complete", "entries": len(entries), "blame": None})
    for name, stop in (("before the accuser's own PET step", accuse + 3),
                       ("after every entry", len(entries)), ("inside the open round", opened + 1),
                       ("after the header", 0)):
        unfinished = opening + b"".join(len(e).to_bytes(4, "big") + e for e in entries[:stop])
        cases[f"classic-3p unfinished {name}"] = unfinished  # no end marker, no footer
        torn = (len(entries[stop]).to_bytes(4, "big") + entries[stop][:40]
                if stop < len(entries) else b"\x00\x00")
        cases[f"classic-3p torn {name}"] = unfinished + torn
    cases["classic-3p complete but said abandoned"] = closed(
        opening, entries, {"status": "abandoned", "entries": len(entries), "blame": None})
    return cases


def test_cut_samples_agree(subtests: pytest.Subtests, tmp_path: Path) -> None:
    all_judged_alike(subtests, tmp_path, {k: (v, None) for k, v in cut_cases().items()}, 19)


# --- abandon by vote, votes signed from the spec with the samples' seeded keys ---------------

def seeded(seed: int, seat: int) -> SigningKey:
    """The sample games' identity keys (``p2pclue.bots.samples``: seeded simulations)."""
    return SigningKey(sha256(b"p2pclue/simulate/identity/%d/%d" % (seed, seat)))


def vote(seed: int, voter: int, game: bytes, entries: list[bytes], silent: int,
         choice: str = "abandon", waited: int = 120_500) -> bytes:
    payload = pack({"ballot": 1, "choice": choice, "entries": len(entries), "from": voter,
                    "game": game, "head": sha256(entries[-1]), "silent": silent,
                    "timeout": 120_000, "waited": waited})
    sig = seeded(seed, voter).sign(b"p2pclue/v1/vote\0" + payload).signature
    return pack([voter, payload, sig])


@cache
def vote_cases() -> dict[str, bytes]:
    import msgpack
    cases = {}
    for name, seed in (("classic-3p", 21), ("cz-4p", 23)):
        opening, entries, kinds = sample_parts(f"{name}.p2pclue")
        config = msgpack.unpackb(opening[14:], raw=False)["config"]
        n, game = len(config["players"]), sha256(b"p2pclue/v1/config\0", pack(config))
        accuses = [i for i, k in enumerate(kinds) if k == "accuse"]
        for a in accuses[:2]:
            accuser = msgpack.unpackb(msgpack.unpackb(entries[a])[1], raw=False)["from"]
            for label, stop, silent in (("the accuser's own step", a + n, accuser),
                                        ("the first step", a + 1, (accuser + 1) % n)):
                cut = entries[:stop]
                others = [s for s in range(n) if s != silent]

                def foot(voters: list[int], choice: str = "abandon", seed: int = seed,
                         game: bytes = game, cut: list[bytes] = cut,
                         silent: int = silent) -> dict[str, Any]:
                    return {"status": "abandoned", "entries": len(cut), "blame": None,
                            "votes": [vote(seed, v, game, cut, silent, choice) for v in voters]}
                where = f"{name} silent at {label} of the accusation at {a}"
                cases[f"{where}: every other seat votes"] = closed(opening, cut, foot(others))
                cases[f"{where}: a quorum votes"] = closed(
                    opening, cut, foot(others[:(n - 1) // 2 + 1]))
                cases[f"{where}: too few votes"] = closed(opening, cut, foot(others[:1]))
                cases[f"{where}: the silent seat votes too"] = closed(
                    opening, cut, foot(sorted([*others[:1], silent])))
                cases[f"{where}: out of voter order"] = closed(
                    opening, cut, foot(others[::-1]))
                cases[f"{where}: wait votes"] = closed(opening, cut, foot(others, "wait"))
                # a certificate about this point in a file that kept the entry after it
                kept = {**foot(others), "entries": len(cut) + 1}
                cases[f"{where}: entries kept past the certificate's point"] = closed(
                    opening, entries[:stop + 1], kept)
                early = [vote(seed, v, game, cut, silent, waited=119_999) for v in others]
                cases[f"{where}: signed before the voter's deadline"] = closed(
                    opening, cut, {"status": "abandoned", "entries": len(cut), "blame": None,
                                   "votes": early})
    return cases


def test_vote_footers_agree(subtests: pytest.Subtests, tmp_path: Path) -> None:
    all_judged_alike(subtests, tmp_path, {k: (v, None) for k, v in vote_cases().items()}, 64)


# --- rule 3b (R27), with accuse frames signed from the spec by the samples' seeded keys -----

@cache
def r27_cases() -> dict[str, tuple[bytes, dict[str, Any]]]:
    """An out seat's accuse: R27 with any body, during play, in the open and secrets rounds;
    dropped once the transcript is complete."""
    import msgpack
    opening, entries, kinds = sample_parts("classic-3p.p2pclue")
    config = msgpack.unpackb(opening[14:], raw=False)["config"]
    game = sha256(b"p2pclue/v1/config\0", pack(config))
    payloads = [msgpack.unpackb(msgpack.unpackb(e)[1], raw=False) for e in entries]
    first = kinds.index("accuse")
    out = payloads[first]["from"]  # its accusation was wrong (the game went on)

    def accuse(cut: int, body: dict[str, Any], seq_shift: int = 0) -> bytes:
        seq = sum(1 for p in payloads[:cut] if p["from"] == out) + seq_shift
        payload = pack({"v": 1, "game": game, "from": out, "seq": seq,
                        "prev": sha256(entries[cut - 1]), "type": "accuse", "body": body})
        sig = seeded(21, out).sign(b"p2pclue/v1/message\0" + payload).signature
        return pack([out, payload, sig])

    def halted_at(cut: int, frame: bytes) -> bytes:
        return closed(opening, entries[:cut], {"status": "halted", "entries": cut, "blame": {
            "culprit": out, "check": "R27", "reason": "", "index": cut, "evidence": [frame]}})

    def signed(fields: dict[str, Any]) -> bytes:
        payload = pack(fields)
        return pack([out, payload,
                     seeded(21, out).sign(b"p2pclue/v1/message\0" + payload).signature])

    own_last = max(i for i, p in enumerate(payloads) if p["from"] == out)
    second_version = signed({**payloads[own_last], "prev": sha256(entries[0])})
    after = first + 4  # the accuse, then the three PET steps
    opened, secrets, end = kinds.index("open") + 1, kinds.index("secrets") + 1, len(entries)
    r27 = {"valid": False, "result": "halted", "blamed": out, "check": "R27"}
    return {
        "a proper accuse, later in play": (halted_at(after, accuse(after, {
            "suspect": 0, "weapon": 6, "room": 12})), r27),
        "an empty body, later in play": (halted_at(after, accuse(after, {})), r27),
        "cards out of range, seq far ahead": (halted_at(after, accuse(after, {
            "suspect": 99, "weapon": 99, "room": 99}, 40)), r27),
        "in the open round of the decided game": (halted_at(opened, accuse(opened, {})),
                                                  {**r27, "winner": 0}),
        "in the secrets round": (halted_at(secrets, accuse(secrets, {})), {**r27, "winner": 0}),
        "after the end: dropped": (halted_at(end, accuse(end, {})), {
            "valid": False, "result": "invalid", "blamed": None, "check": "false-blame"}),
        "point 13: after the end, a second version of a chained message": (
            closed(opening, entries, {"status": "halted", "entries": end, "blame": {
                "culprit": out, "check": "equivocation", "reason": "", "index": end,
                "evidence": [entries[own_last], second_version]}}),
            {"valid": False, "result": "halted", "blamed": out, "winner": 0,
             "check": "equivocation"}),
        "point 13: after the end, a new message (next seq, the head) is dropped": (
            closed(opening, entries, {"status": "halted", "entries": end, "blame": {
                "culprit": out, "check": "turn", "reason": "", "index": end,
                "evidence": [signed({**payloads[own_last], "seq": sum(
                    1 for p in payloads if p["from"] == out), "prev": sha256(entries[-1])})]}}),
            {"valid": False, "result": "invalid", "blamed": None, "check": "false-blame"}),
    }


def test_r27_agrees(subtests: pytest.Subtests, tmp_path: Path) -> None:
    all_judged_alike(subtests, tmp_path, r27_cases(), 8)


# --- seat order after a leave: games with a leave, written by the engine, judged by both -----

def _asked_to_refute(seat: int, event: Any) -> bool:
    from p2pclue.engine import events as ev
    return isinstance(event, ev.Suggested) and event.seat != seat


@pytest.mark.parametrize(("n", "rules", "seed", "leaver", "after", "in_refutation"), [
    (4, "classic", 3, 1, 2, False), (4, "cz", 5, 2, 4, False), (5, "classic", 7, 0, 3, False),
    (3, "classic", 9, 2, 1, False), (4, "classic", 7, 2, 0, True),
])
def test_games_with_a_leave_agree(n: int, rules: str, seed: int, leaver: int, after: int,
                                  in_refutation: bool, tmp_path: Path) -> None:
    """The engine only writes the input here; the spec-only checker judges it (rounds skip
    the leaver, accusation checks run among the rest, refutations go past it)."""
    from tests.engine.leave_games import play_with_leave
    game = play_with_leave(n, rules, seed, leaver=leaver, after_turn=after,
                           when=_asked_to_refute if in_refutation else None)
    data = game.peers[(leaver + 1) % n].transcript().to_bytes()
    assert b"leave" in data
    judged_alike(data, tmp_path, {"valid": True})


# --- a complaint after a show, signed from the spec by the samples' seeded keys --------------

@cache
def complaint_cases() -> dict[str, tuple[bytes, dict[str, Any]]]:
    """The suggester complains about the first show; the refuter owes `sealed` (4d,
    "Message-level use" 1), made here by the spec-written prover from the opening the
    refuter publishes in its end-of-game `open`. And that first show re-signed with its
    proof's wire shape spoiled (proof 4b)."""
    import msgpack

    from p2pclue.engine.peer import Peer
    from p2pclue.engine.transcript import parse
    from tests.crypto import cleanroom_openings_spec as spec
    opening, entries, kinds = sample_parts("classic-3p.p2pclue")
    payloads = [msgpack.unpackb(msgpack.unpackb(e)[1], raw=False) for e in entries]
    game = payloads[0]["game"]
    show = kinds.index("show")
    refuter, suggester = payloads[show]["from"], payloads[kinds.index("suggest")]["from"]
    assert max(i for i in range(show) if kinds[i] == "suggest") == kinds.index("suggest")
    own_shows = [i for i in range(show) if kinds[i] == "show" and payloads[i]["from"] == refuter]
    public = next(p for p in payloads if p["type"] == "open" and p["from"] == refuter)
    good = public["body"]["openings"][len(own_shows)]
    # The statement's named cards and game id, from the project's replay of the sample.
    observer = Peer(parse((SAMPLES / "classic-3p.p2pclue").read_bytes()).config, None,
                    relay=False)
    for i, raw in enumerate(entries[:show + 1]):
        observer.receive(raw, float(i))
    named, game_id = observer.record.shows[0].triple, observer.game_id
    assert game_id is not None
    y, c = bytes(observer.record.Y[suggester]), payloads[show]["body"]["C"]
    rho = int.from_bytes(good["rho"], "little")

    def signed(seat: int, chain: list[bytes], kind: str, body: dict[str, Any]) -> bytes:
        seq = sum(1 for e in chain if msgpack.unpackb(e)[0] == seat)
        payload = pack({"v": 1, "game": game, "from": seat, "seq": seq,
                        "prev": sha256(chain[-1]), "type": kind, "body": body})
        return pack([seat, payload,
                     seeded(21, seat).sign(b"p2pclue/v1/message\0" + payload).signature])

    def sealed(chain: list[bytes], istar: int | None = None) -> dict[str, Any]:
        ctx = spec.Context(game_id, f"{len(chain)}:sealed", refuter)
        return spec.prove_sealed_opening(spec.Seeded(b"tests/cleanroom/sealed"), ctx, named,
                                         y, c, good["card"], rho, istar)

    chain = entries[:show + 1]
    chain.append(signed(suggester, chain, "complain", {}))
    other = next(i for i, t in enumerate(named) if t != good["card"])
    wrong = signed(refuter, chain, "sealed", {"sealed": sealed(chain, other)})
    right = sealed(chain)
    off = signed(refuter, chain, "sealed", {"sealed": {**right, "r": torsion(right["r"])}})
    opened = [*chain, signed(refuter, chain, "sealed", {"sealed": right})]
    twice = signed(refuter, opened, "sealed", {"sealed": right})

    def halted_by(cut: list[bytes], frame: bytes, check: str) -> bytes:
        return closed(opening, cut, {"status": "halted", "entries": len(cut), "blame": {
            "culprit": refuter, "check": check, "reason": "", "index": len(cut),
            "evidence": [frame]}})

    blamed = {"valid": False, "result": "halted", "blamed": refuter}
    before = entries[:show]
    shown = payloads[show]["body"]
    proof = shown["proof"]
    misshapen = {  # proof 4b's wire shape spoiled, each is proof:commit-show
        "the earlier form {c, u, v}": {"c": proof["ci"], "u": proof["ui"], "v": proof["vi"]},
        "cp one short": {**proof, "cp": proof["cp"][:-1]},
        "ci one too many": {**proof, "ci": [*proof["ci"], proof["ci"][0]]},
        "z off the subgroup": {**proof, "z": torsion(proof["z"])},
        "a the identity": {**proof, "a": b"\x01" + bytes(31)},
    }
    shape_cases = {
        f"a show with {what} is proof:commit-show": (
            halted_by(before, signed(refuter, before, "show", {**shown, "proof": bad}),
                      "proof:commit-show"), {**blamed, "check": "proof:commit-show"})
        for what, bad in misshapen.items()}
    unanswered = [{"suggester": suggester, "complained": 1, "sealed": 0}]  # "Audit"
    sealed_blame = {**blamed, "check": "proof:sealed-opening", "complaints": unanswered}
    return {
        **shape_cases,
        "a sealed opening answered for another card is proof:sealed-opening": (
            halted_by(chain, wrong, "proof:sealed-opening"), sealed_blame),
        "a sealed opening with R off the subgroup is proof:sealed-opening": (
            halted_by(chain, off, "proof:sealed-opening"), sealed_blame),
        "after the right sealed opening the refuter owes nothing: turn": (
            halted_by(opened, twice, "turn"), {**blamed, "check": "turn", "complaints": [
                {"suggester": suggester, "complained": 1, "sealed": 1}]}),
    }


def test_complaints_agree(subtests: pytest.Subtests, tmp_path: Path) -> None:
    all_judged_alike(subtests, tmp_path, complaint_cases(), 8)


def test_a_certificate_with_entries_past_its_point_is_a_votes_violation() -> None:
    """docs/protocol.md, "Transcript": a file ending with a certificate about point ``i``
    is valid only with exactly ``i`` entries; both verifiers say ``votes``."""
    kept = {k: v for k, v in vote_cases().items() if "entries kept past" in k}
    assert len(kept) == 8
    for raw in kept.values():
        mine = verdict(raw)
        assert mine["violation"] is not None and mine["violation"]["check"] == "votes", mine
