"""A seat's end-of-game openings over consecutive entries (docs/protocol.md, "The
end-of-game reveal", parts): a real long game in which two seats owe more public openings
than one entry holds, accepted by every seat, the audit and the spec-only checker; and a
part with the wrong count, a message in place of a part, a part over the size limit and a
seat that stops between parts, each signed by the seat and judged by an observer, the audit
and the checker alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from p2pclue.engine.audit import audit
from p2pclue.engine.peer import Peer, Status
from p2pclue.engine.transcript import Footer, Transcript, entry_bytes, opening_bytes, parse
from p2pclue.engine.wire import MAX_ENTRY_BYTES, MAX_OPENINGS, pack
from tests.crypto.cleanroom_commitshow import check_sample
from tests.engine.long_open import SHOWER, SHOWS, long_open_game
from tests.engine.test_cleanroom import judged_alike
from tests.engine.test_reveal_leave_size import _oversize, _replay, _signed, _typed


def _parts() -> tuple[list[Peer], list[bytes], int, int]:
    """The long game's peers and entries, and the shower's ``open`` and ``openings`` indices."""
    game = long_open_game()
    entries = game.peers[2].entries
    typed = _typed(entries)
    at = next(i for i, (h, _) in enumerate(typed) if h.type == "open" and h.sender == SHOWER)
    assert typed[at + 1][0].type == "openings" and typed[at + 1][0].sender == SHOWER
    return game.peers, entries, at, at + 1


def test_a_seat_with_more_shows_than_one_entry_holds_sends_them_in_parts(
        tmp_path: Path) -> None:
    """Seat 1 made at least 75 shows to seats still at the table: its ``open`` carries 48,
    ``openings`` entries the rest, at most 48 each, the last part the remainder; every seat
    completes, nobody is blamed or falls silent over the size, each entry stays under 24 KiB,
    and the audit and the checker accept the transcript. All of them in one entry would have
    passed the 32 KiB limit."""
    peers, entries, first, second = _parts()
    assert all(p.status is Status.COMPLETE and p.blame is None for p in peers)
    assert all(p.unsendable is None for p in peers)
    typed = _typed(entries)
    shown = [rec for rec in peers[2].record.shows if rec.refuter == SHOWER]
    assert len(shown) >= SHOWS
    assert len(typed[first][1]["openings"]) == MAX_OPENINGS
    assert len(typed[second][1]["openings"]) == len(shown) - MAX_OPENINGS <= MAX_OPENINGS
    assert max(len(raw) for raw in entries) < 24 * 1024
    whole = dict(typed[first][1])
    whole["openings"] = typed[first][1]["openings"] + typed[second][1]["openings"]
    assert len(pack(whole)) > MAX_ENTRY_BYTES
    assert all(rec.index in peers[2].record.opened for rec in shown)
    raw = peers[2].transcript().to_bytes()
    verdict = audit(parse(raw), raw)
    assert verdict.valid and verdict.blamed is None
    judged_alike(raw, tmp_path, {"valid": True, "result": "won", "blamed": None})
    checked = check_sample(raw)  # 4b and 4c from the spec alone, every part's openings
    assert checked.openings_checked == len(peers[2].record.opened)


def _resigned(entries: list[bytes], peers: list[Peer], at: int, kind: str,
              body: dict[str, Any]) -> tuple[Peer, bytes]:
    bad = _signed(peers, entries[:at], SHOWER, kind, body)
    return _replay(peers, entries[:at], bad), bad


def test_a_part_with_the_wrong_count_is_opening_on_its_sender(tmp_path: Path) -> None:
    peers, entries, first, second = _parts()
    typed = _typed(entries)
    cases = {
        "open short of 48": (first, "open", dict(typed[first][1],
                                                 openings=typed[first][1]["openings"][:47])),
        "openings short": (second, "openings", {"openings": typed[second][1]["openings"][:-1]}),
        "openings empty": (second, "openings", {"openings": []}),
    }
    for name, (at, kind, body) in cases.items():
        watcher, _ = _resigned(entries, peers, at, kind, body)
        assert watcher.blame is not None, name
        assert (watcher.blame.check, watcher.blame.culprit, watcher.blame.index) == \
            ("proof:opening", SHOWER, at), name
        judged_alike(watcher.transcript().to_bytes(), tmp_path,
                     {"valid": False, "result": "halted", "blamed": SHOWER,
                      "check": "proof:opening"})


def test_a_message_in_place_of_an_owed_part_is_turn(tmp_path: Path) -> None:
    """After its ``open`` the seat owes ``openings``: its ``secrets`` (or another ``open``)
    there is ``turn``, and so is the next seat's ``open`` before the last part."""
    peers, entries, first, second = _parts()
    typed = _typed(entries)
    secrets = next(b for h, b in typed if h.type == "secrets" and h.sender == SHOWER)
    for kind, body in (("secrets", secrets), ("open", typed[first][1])):
        watcher, _ = _resigned(entries, peers, second, kind, body)
        assert watcher.blame is not None
        assert (watcher.blame.check, watcher.blame.culprit) == ("turn", SHOWER)
    nxt = typed[second + 1]
    bad = _signed(peers, entries[:second], nxt[0].sender, "open", nxt[1])
    watcher = _replay(peers, entries[:second], bad)
    assert watcher.blame is not None
    assert (watcher.blame.check, watcher.blame.culprit) == ("turn", nxt[0].sender)
    judged_alike(watcher.transcript().to_bytes(), tmp_path,
                 {"valid": False, "result": "halted", "blamed": nxt[0].sender,
                  "check": "turn"})


def test_a_part_over_the_entry_limit_is_dropped_unblamed_and_still_owed() -> None:
    peers, entries, _, second = _parts()
    typed = _typed(entries)
    big = _oversize(peers, entries[:second], SHOWER, "openings", typed[second][1])
    watcher = _replay(peers, entries[:second], big)
    assert watcher.blame is None and watcher.dropped_count == 1
    assert watcher.expected_seat() == SHOWER
    for raw in entries[second:]:
        watcher.receive(raw, 0.0)
    assert watcher.status is Status.COMPLETE and watcher.entries == entries


def test_a_seat_that_stops_between_parts_is_silent_not_blamed(tmp_path: Path) -> None:
    """A file that ends after the seat's ``open`` with its ``openings`` owed is an unfinished
    game (the seat owes the next entry: silence, as for any owed message), valid and
    unblamed; abandoned there, it is an abandon with nobody blamed."""
    peers, entries, _, second = _parts()
    watcher = _replay(peers, entries[:second])
    assert watcher.blame is None and watcher.expected_seat() == SHOWER
    assert watcher.status is Status.RUNNING
    kept = opening_bytes(peers[0].config) + b"".join(entry_bytes(e) for e in entries[:second])
    judged_alike(kept, tmp_path, {"valid": True, "blamed": None})
    left = Transcript(peers[0].config, tuple(entries[:second]), Footer("abandoned", second))
    judged_alike(left.to_bytes(), tmp_path, {"valid": True, "blamed": None})
