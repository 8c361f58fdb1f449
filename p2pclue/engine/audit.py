"""Checking a transcript: the engine replaying it as an observer.

There is no second verifier: every entry goes through ``Peer.receive`` exactly as
it did in live play, so play and audit cannot disagree. On top of that the audit
checks what only a file can get wrong (each entry must chain at its own index:
nothing dropped, reordered, duplicated or spliced in) and weighs the footer's
claims (a blame record is confirmed only if its evidence, fed to the replayed
engine, makes the same seat fail the same check).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from p2pclue.engine import events as ev
from p2pclue.engine.errors import WireError
from p2pclue.engine.peer import (
    Peer,
    ShowRecord,
    Status,
    hands_from_secrets,
    shown_cards_from_secrets,
)
from p2pclue.engine.transcript import Transcript
from p2pclue.engine.wire import split_frame


@dataclass(frozen=True)
class Violation:
    """The first thing that failed, with who is to blame (None: nobody can be)."""

    index: int
    sender: int | None
    check: str
    reason: str
    culprit: int | None

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "sender": self.sender, "check": self.check,
                "reason": self.reason, "culprit": self.culprit}


@dataclass
class Verdict:
    valid: bool
    """No violation: every entry verified and the footer tells the truth."""
    result: str
    """"won", "nobody", "abandoned" (valid but unfinished), "halted" (a seat is to blame)
    or "invalid" (the file itself is broken: nobody can be blamed)."""
    winner: int | None
    blamed: int | None
    violation: Violation | None
    players: list[dict[str, Any]]
    turns: int
    entries: int
    transcript_sha256: str
    envelope: tuple[int, int, int] | None = None
    hands: dict[int, tuple[int, ...]] | None = None
    shown: list[tuple[ShowRecord, int]] | None = None
    events: list[ev.Event] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "result": self.result,
            "winner": self.winner,
            "blamed": self.blamed,
            "violation": self.violation.to_json() if self.violation else None,
            "players": self.players,
            "turns": self.turns,
            "entries": self.entries,
            "transcript_sha256": self.transcript_sha256,
            "envelope": list(self.envelope) if self.envelope else None,
            "hands": {str(k): list(v) for k, v in self.hands.items()} if self.hands else None,
            "notes": self.notes,
        }


def _sender_of(raw: bytes) -> int | None:
    try:
        return split_frame(raw)[0]
    except WireError:
        return None


def audit(transcript: Transcript, raw_bytes: bytes | None = None) -> Verdict:
    """Verify a parsed transcript from its first entry to its footer."""
    config = transcript.config
    observer = Peer(config, None, relay=False)
    events: list[ev.Event] = []
    violation: Violation | None = None
    for i, raw in enumerate(transcript.entries):
        events += observer.receive(raw, float(i))
        if observer.status is Status.HALTED:
            assert observer.blame is not None
            b = observer.blame
            violation = Violation(i, _sender_of(raw), b.check, b.reason, b.culprit)
            break
        if len(observer.entries) != i + 1:
            reason = (observer.dropped[-1][1] if observer.dropped else
                      "it does not follow the entry before it (dropped, reordered or duplicated)")
            violation = Violation(i, _sender_of(raw), "chain",
                                  f"entry {i} is not part of this game's chain: {reason}", None)
            break
    notes: list[str] = []
    footer = transcript.footer
    if violation is None and footer.entries != len(transcript.entries):
        violation = Violation(len(transcript.entries), None, "footer",
                              f"the footer counts {footer.entries} entries, the file has "
                              f"{len(transcript.entries)}", None)
    if violation is None:
        violation = _check_footer(observer, transcript, events, notes)
    state = observer.rules_state
    digest = hashlib.sha256(raw_bytes if raw_bytes is not None else transcript.to_bytes())
    verdict = Verdict(
        valid=violation is None,
        result=_result(observer, violation),
        winner=state.winner if state is not None and violation is None else None,
        blamed=violation.culprit if violation is not None else None,
        violation=violation,
        players=[{"seat": i, "name": p.name, "suspect": p.suspect}
                 for i, p in enumerate(config.players)],
        turns=state.turn_number if state is not None else 0,
        entries=len(transcript.entries),
        transcript_sha256=digest.hexdigest(),
        envelope=observer.envelope_cards,
        events=events,
        notes=notes,
    )
    if observer.status is Status.COMPLETE:
        verdict.hands = hands_from_secrets(observer)
        verdict.shown = shown_cards_from_secrets(observer)
    return verdict


def _result(observer: Peer, violation: Violation | None) -> str:
    """The verdict; a game decided by the accusation check keeps its result even if the
    end-of-game reveal was withheld (withholding it cannot erase a win)."""
    if violation is not None:
        return "invalid" if violation.culprit is None else "halted"
    state = observer.rules_state
    if state is not None and state.result is not None:
        return state.result
    return "abandoned"


def _check_footer(
    observer: Peer, transcript: Transcript, events: list[ev.Event], notes: list[str]
) -> Violation | None:
    footer = transcript.footer
    n = len(transcript.entries)
    if observer.status is Status.COMPLETE:
        if footer.status != "complete":
            return Violation(n, None, "footer", f"the game is complete, the footer says "
                             f"{footer.status!r}", None)
        return None
    if footer.status == "complete":
        return Violation(n, None, "footer",
                         "the footer claims a complete game but the transcript stops early "
                         f"(seat {observer.expected_seat()} owed entry {n})", None)
    if footer.status == "abandoned":
        state = observer.rules_state
        decided = state is not None and state.result is not None
        notes.append(f"{'the end-of-game reveal stopped' if decided else 'abandoned'} after "
                     f"{n} entries: seat {observer.expected_seat()} owed the next message")
        return None
    blame = footer.blame
    if blame is None or not blame.evidence:
        return Violation(n, None, "footer", "a halted game needs a blame record with evidence",
                         None)
    if blame.index != n:
        return Violation(n, None, "footer", f"the blame is placed at entry {blame.index}, "
                         f"but the transcript has {n} entries", None)
    for raw in blame.evidence:
        events += observer.receive(raw, float(n))
        if observer.status is Status.HALTED:
            break
    found = observer.blame
    if found is None:
        return Violation(n, blame.culprit, "false-blame",
                         "the blame is false: its evidence is not a rule broken by a signed "
                         "message", None)
    if found.culprit != blame.culprit:
        return Violation(n, found.culprit, "false-blame",
                         f"the evidence incriminates seat {found.culprit}, not the blamed seat "
                         f"{blame.culprit}", found.culprit)
    return Violation(n, _sender_of(blame.evidence[-1]), found.check, found.reason, found.culprit)
