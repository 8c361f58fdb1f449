"""Checking a transcript: the engine replaying it as an observer.

There is no second verifier: every entry goes through ``Peer.receive`` exactly as
it did in live play, so play and audit cannot disagree. On top of that the audit
checks what only a file can get wrong (each entry must chain at its own index:
nothing dropped, reordered, duplicated or spliced in) and weighs the footer's
claims (a blame record is confirmed only if its evidence, fed to the replayed
engine, makes the same seat fail the same check at the same index; anything
else is a false blame; the record's prose reason is not compared).

A transcript that stops inside an accusation check names the seat that withheld
its step and whether it is the accuser, whose accusation then counts as wrong. The
result applies that forfeit only when a quorum of signed abandon votes in the footer
names the accuser as the silent seat at that very point, exactly as the live peers
apply it when those votes reach them: a transcript merely cut short there looks the
same and is signed by nobody (see docs/protocol.md, "Informed abort").
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Any

from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import CardsNo, Note, Notes, SeatsNo, Seconds, WireError, counted
from p2pclue.engine.peer import (
    Peer,
    ShowRecord,
    Status,
    hands_from_secrets,
    shown_cards_from_secrets,
)
from p2pclue.engine.reveal_checks import reveal_contradiction
from p2pclue.engine.silence import FORFEIT_GRACE
from p2pclue.engine.transcript import Footer, Transcript, entry_bytes, opening_bytes
from p2pclue.engine.votes import read_vote
from p2pclue.engine.wire import split_frame
from p2pclue.rules.errors import N_
from p2pclue.rules.state import GameState


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
    """"won", "nobody", "abandoned" (valid but unfinished), "unfinished" (a file with no
    footer, valid so far), "halted" (a seat is to blame) or "invalid" (the file itself is
    broken: nobody can be blamed)."""
    winner: int | None
    """Who won: of a valid game, or of a halted one whose chained entries had already decided
    it before the blamed message (a blame costs the culprit, never the winner)."""
    blamed: int | None
    violation: Violation | None
    players: list[dict[str, Any]]
    turns: int
    entries: int
    transcript_sha256: str
    envelope: tuple[int, int, int] | None = None
    hands: dict[int, tuple[int, ...]] | None = None
    shown: list[tuple[ShowRecord, int | None]] | None = None
    """Every show in order, with its card (None: never opened, a leaver's)."""
    events: list[ev.Event] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    withheld: dict[str, Any] | None = None
    """A transcript that stops inside an accusation check: ``seat`` withheld its step of
    ``accuser``'s check; ``counts_as_wrong`` when the accuser withheld its own."""
    forfeit: dict[str, Any] | None = None
    """The forfeit applied to ``result``/``winner``: ``seat``, the accuser whose withheld
    own step counts as a wrong accusation, and ``voters``, the seats whose signed abandon
    votes prove it was silent there."""
    unfinished: bool = False
    """The file has no end marker and footer (its writer stopped between two messages):
    its entries were verified, nothing was claimed about the end."""
    complaints: list[dict[str, int]] = field(default_factory=list)
    """Per suggester that complained: ``suggester``, ``complained`` (its accepted
    ``complain`` entries) and ``sealed`` (how many of them an accepted ``sealed`` answered).
    Counts only: a sealed opening names its card to the suggester alone."""

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
            "withheld": self.withheld,
            "forfeit": self.forfeit,
            "unfinished": self.unfinished,
            "complaints": self.complaints,
        }


def _sender_of(raw: bytes) -> int | None:
    try:
        return split_frame(raw)[0]
    except WireError:
        return None


def audit_unfinished(config: GameConfig, entries: list[bytes],
                     raw_bytes: bytes | None = None) -> Verdict:
    """Verify the entries of a file with no footer (``transcript.parse_open``): each as in
    ``audit``; the end is not weighed, since nobody claimed one (docs/protocol.md,
    "Transcript file")."""
    placeholder = Transcript(config, tuple(entries), Footer("abandoned", len(entries)))
    if raw_bytes is None:  # hash the file as it is: no footer
        raw_bytes = opening_bytes(config) + b"".join(entry_bytes(e) for e in entries)
    return audit(placeholder, raw_bytes, finished=False)


def audit(transcript: Transcript, raw_bytes: bytes | None = None, *,
          finished: bool = True) -> Verdict:
    """Verify a parsed transcript from its first entry to its footer (``finished``) or, for
    ``audit_unfinished``, to its last entry."""
    config = transcript.config
    observer = Peer(config, None, relay=False)
    events: list[ev.Event] = []
    violation: Violation | None = None
    for i, raw in enumerate(transcript.entries):
        drops = observer.dropped_count
        events += observer.receive(raw, float(i))
        b = observer.blame
        if b is not None:  # set exactly when the game halts
            violation = Violation(i, _sender_of(raw), b.check, b.reason, b.culprit)
            break
        if len(observer.entries) != i + 1:
            reason = (observer.dropped[-1][1] if observer.dropped_count > drops else
                      "it does not follow the entry before it (dropped, reordered or duplicated)")
            violation = Violation(i, _sender_of(raw), "chain",
                                  f"entry {i} is not part of this game's chain: {reason}", None)
            break
    notes: list[str] = []
    decided = observer.rules_state  # what the chained entries alone decided (states are values)
    footer = transcript.footer
    if violation is None and finished and footer.entries != len(transcript.entries):
        violation = Violation(len(transcript.entries), None, "footer",
                              f"the footer counts {footer.entries} entries, the file has "
                              f"{len(transcript.entries)}", None)
    owed = (observer.expected_seat(), observer.accuser)  # before votes close the game
    if violation is None and observer.status is Status.COMPLETE:
        violation = _reveal_violation(observer, events, len(transcript.entries))
    if violation is None and finished:
        violation = _check_footer(observer, transcript, events, notes)
    elif violation is None:
        notes.append(_unfinished_note(observer, len(transcript.entries)))
    # The forfeit of an accuser that withheld its own step is applied to the result only
    # when the footer's abandon votes (checked above, then counted by the observer exactly
    # as a live peer counts them) name it as the silent seat at this point. A transcript
    # merely cut before that step (anyone holding the file can cut it; a lost packet does it
    # too) looks the same and is signed by nobody: applying it would let a truncation
    # eliminate an honest right accuser and even crown another seat (R29).
    forfeit = next(({"seat": e.silent, "voters": list(e.voters)} for e in events
                    if isinstance(e, ev.Abandoned) and e.forfeit), None) \
        if violation is None else None
    withheld = _withheld_pet(owed, forfeit, notes) if violation is None else None
    state = observer.rules_state
    winner = state.winner if state is not None and violation is None else None
    if violation is not None and violation.culprit is not None and decided is not None \
            and decided.result is not None:
        # A message blamed after the game was decided (a bad reveal, a late second version)
        # costs its sender, not the winner: the result stands, as when the reveal is withheld.
        winner = decided.winner
        notes.append(Note(N_("the game was decided before the blamed message ({result}, "
                             "seat {winner} won): the blame does not undo it"),
                          result=decided.result, winner=decided.winner)
                     if decided.winner is not None else
                     Note(N_("the game was decided before the blamed message ({result}): the "
                             "blame does not undo it"), result=decided.result))
    digest = hashlib.sha256(raw_bytes if raw_bytes is not None else transcript.to_bytes())
    verdict = Verdict(
        valid=violation is None,
        result=_result(state, violation, finished),
        winner=winner,
        blamed=violation.culprit if violation is not None else None,
        violation=violation,
        players=[{"seat": i, "name": p.name, "suspect": p.suspect}
                 for i, p in enumerate(config.players)],
        turns=observer.rules_state.turn_number if observer.rules_state is not None else 0,
        entries=len(transcript.entries),
        transcript_sha256=digest.hexdigest(),
        envelope=observer.envelope_cards,
        events=events,
        notes=notes,
        withheld=withheld,
        forfeit=forfeit,
        unfinished=not finished,
        complaints=complaint_counts(events, len(transcript.entries)),
    )
    if observer.status is Status.COMPLETE and (violation is None or violation.check != "reveal"):
        hands = verdict.hands = hands_from_secrets(observer.record)
        verdict.shown = shown_cards_from_secrets(observer.record)
        for rec, card in verdict.shown:  # proof 4c makes this hold: a defensive check only
            if card is not None and card not in hands.get(rec.refuter, ()):
                notes.append(Note(N_("the card opened for the show at entry {index} is not in "
                                     "seat {seat}'s hand"), index=rec.index, seat=rec.refuter))
    for seat, hand in sorted(observer.left_hands.items()):
        notes.append(_left_note(observer, seat, CardsNo(hand)))
    return verdict


def complaint_counts(events: list[ev.Event], n: int) -> list[dict[str, int]]:
    """Complaints per suggester among the file's first ``n`` entries as the replay accepted
    them (a blame's evidence is not an entry). A ``sealed`` answers the complaint just before
    it: after ``complain`` the refuter's ``sealed`` is the only message allowed."""
    counts: dict[int, list[int]] = {}
    waiting: int | None = None  # the suggester of the complaint not answered yet
    for e in events:
        if not isinstance(e, ev.Accepted) or e.index >= n:
            continue
        if e.type == "complain":
            counts.setdefault(e.sender, [0, 0])[0] += 1
            waiting = e.sender
        elif e.type == "sealed" and waiting is not None:
            counts[waiting][1] += 1
            waiting = None
    return [{"suggester": seat, "complained": made, "sealed": sealed}
            for seat, (made, sealed) in sorted(counts.items())]


def _reveal_violation(observer: Peer, events: list[ev.Event], n: int) -> Violation | None:
    """The revealed game against its proofs, after the last entry and before the footer
    (docs/protocol.md, "The end-of-game reveal"): no seat is named."""
    verdicts = [(e.triple, e.correct) for e in events if isinstance(e, ev.AccusationDecided)]
    found = reveal_contradiction(observer.record, verdicts)
    return None if found is None else Violation(n, None, "reveal", found, None)


def _left_note(observer: Peer, leaver: int, hand: CardsNo) -> Note:
    """A seat that left, with its hand, and what the transcript says of the shows to it: none
    is opened in it, but once the reveal published a refuter's k, its rho (``show_rho``) and
    so its card follow: such a card is not secret after the end (docs/protocol.md, "Leaving
    the table")."""
    to_it = [rec for rec in observer.shows if rec.suggester == leaver]
    if not to_it:
        return Note(N_("seat {seat} left the table with its hand face up {cards}"),
                    seat=leaver, cards=hand)
    known = sum(1 for rec in to_it if rec.refuter in observer.revealed_k)
    if not known:
        return counted("seat {seat} left the table with its hand face up {cards}; the "
                          "{count} card shown to it is not opened in the transcript",
                       "seat {seat} left the table with its hand face up {cards}; the "
                          "{count} cards shown to it are not opened in the transcript",
                       len(to_it), seat=leaver, cards=hand, count=len(to_it))
    return counted("seat {seat} left the table with its hand face up {cards}; the {count} "
                      "card shown to it is not opened in the transcript, but {known} follows "
                      "from its refuter's revealed key",
                   "seat {seat} left the table with its hand face up {cards}; the {count} "
                      "cards shown to it are not opened in the transcript, but {known} of "
                      "them follow from their refuters' revealed keys",
                   len(to_it), seat=leaver, cards=hand, count=len(to_it), known=known)


def _result(state: GameState | None, violation: Violation | None, finished: bool) -> str:
    """The verdict; a game decided by the accusation check keeps its result even if the
    end-of-game reveal was withheld (withholding it cannot erase a win)."""
    if violation is not None:
        return "invalid" if violation.culprit is None else "halted"
    if state is not None and state.result is not None:
        return state.result
    return "abandoned" if finished else "unfinished"


def _unfinished_note(observer: Peer, n: int) -> Note:
    """What a file with no footer says: how far it got, and who owed the next message."""
    if observer.status is Status.COMPLETE:
        return counted("unfinished: the file has no footer (its writer stopped between two "
                          "messages: a quit to resume later, or a crash); its {count} entry "
                          "verifies; the game is complete, only the footer is missing",
                       "unfinished: the file has no footer (its writer stopped between two "
                          "messages: a quit to resume later, or a crash); its {count} entries "
                          "verify; the game is complete, only the footer is missing",
                       n, count=n)
    return counted("unfinished: the file has no footer (its writer stopped between two "
                      "messages: a quit to resume later, or a crash); its {count} entry "
                      "verifies; seat {seat} owed the next message",
                   "unfinished: the file has no footer (its writer stopped between two "
                      "messages: a quit to resume later, or a crash); its {count} entries "
                      "verify; seat {seat} owed the next message",
                   n, count=n, seat=observer.expected_seat())


def _check_footer(
    observer: Peer, transcript: Transcript, events: list[ev.Event], notes: list[str]
) -> Violation | None:
    footer = transcript.footer
    n = len(transcript.entries)
    if footer.status == "halted":
        # Also after a complete game: a late second version of an accepted message.
        return _check_blame(observer, transcript, events)
    if observer.status is Status.COMPLETE:
        if footer.status != "complete":
            return Violation(n, None, "footer", f"the game is complete, the footer says "
                             f"{footer.status!r}", None)
        return None
    if footer.status == "complete":
        return Violation(n, None, "footer",
                         "the footer claims a complete game but the transcript stops early "
                         f"(seat {observer.expected_seat()} owed entry {n})", None)
    state = observer.rules_state
    decided = state is not None and state.result is not None
    if footer.votes:
        return _check_votes(observer, transcript, events, notes)
    notes.append(counted("the end-of-game reveal stopped after {count} entry: seat {seat} "
                            "owed the next message",
                         "the end-of-game reveal stopped after {count} entries: seat "
                            "{seat} owed the next message",
                         n, count=n, seat=observer.expected_seat()) if decided else
                 counted("abandoned after {count} entry: seat {seat} owed the next message",
                         "abandoned after {count} entries: seat {seat} owed the next "
                            "message", n, count=n, seat=observer.expected_seat()))
    return None


def _check_votes(observer: Peer, transcript: Transcript, events: list[ev.Event],
                 notes: list[str]) -> Violation | None:
    """An abandon by vote: every vote signed by a distinct seat still at the table (in seat
    order), about this very point (entries, head, the seat that owed the next message), for
    abandon, and at least the quorum of them (docs/protocol.md, "Silence and abandon")."""
    n = len(transcript.entries)
    silent = observer.expected_seat()

    def bad(reason: str) -> Violation:
        return Violation(n, None, "votes", reason, None)

    if silent is None:
        return bad("votes to abandon, but nobody owed a message")
    keys = [p.public_key() for p in transcript.config.players]
    voters: list[int] = []
    windows: list[tuple[int, int, int]] = []
    for i, raw in enumerate(transcript.footer.votes):
        try:
            vote = read_vote(raw, keys)
        except WireError as exc:
            return bad(f"vote {i} is not a valid signed vote: {exc}")
        if (vote.game, vote.entries, vote.head) != (transcript.config.digest(), n,
                                                    observer.head):
            return bad(f"vote {i} (seat {vote.voter}) is about another point of the game")
        if vote.silent != silent or vote.choice != "abandon":
            return bad(f"vote {i} (seat {vote.voter}) is not a vote to abandon while seat "
                       f"{silent} owed the next message")
        if vote.voter in observer.left_hands or (voters and vote.voter <= voters[-1]):
            return bad(f"vote {i}: seat {vote.voter} may not vote here (left, repeated or "
                       "out of order)")
        voters.append(vote.voter)
        windows.append((vote.voter, vote.waited, vote.timeout))
    needed = observer.abandon_quorum()
    if len(voters) < needed:
        return bad(f"{len(voters)} abandon votes; the quorum is {needed}")
    notes.append(counted("abandoned by the vote of seats {voters} (quorum {needed}) after "
                            "{count} entry, while seat {silent} owed the next message",
                         "abandoned by the vote of seats {voters} (quorum {needed}) after "
                            "{count} entries, while seat {silent} owed the next message",
                         n, voters=SeatsNo(voters), needed=needed, count=n, silent=silent))
    notes.append(_windows(windows))
    # Counted as a live peer counts them (the forfeit), by one whose own deadline for the
    # silent seat has passed: the file's writer counted them only then (it held any that
    # came earlier), and the file records no clock of its own.
    for _ in range(FORFEIT_GRACE):  # past the forfeit grace too
        observer.on_timeout(math.inf)
    for raw in transcript.footer.votes:
        events += observer.receive_vote(raw, float(n))
    return None


def _windows(windows: list[tuple[int, int, int]]) -> Note:
    """Each voter's signed observation window: the voter's word, not a proof."""
    return Note(N_("by their own signed word, {windows}"), windows=Notes(
        Note(N_("seat {seat} signed after waiting {waited} s (its own timeout {timeout} s)"),
             seat=seat, waited=Seconds(waited / 1000), timeout=Seconds(timeout / 1000))
        for seat, waited, timeout in windows))


def _check_blame(observer: Peer, transcript: Transcript, events: list[ev.Event]
                 ) -> Violation | None:
    """Confirm a blame record only if its evidence makes the replayed engine reach the very
    same blame: culprit, check, index and evidence (the reason is not compared). Anything
    else is a false blame."""
    blame = transcript.footer.blame
    n = len(transcript.entries)
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
    if found.check != blame.check:
        return Violation(n, found.culprit, "false-blame",
                         f"the evidence shows {found.check}: {found.reason}; the footer claims "
                         f"{blame.check}", found.culprit)
    # The reason is prose for people (it quotes library errors and Python values no other
    # implementation could reproduce word for word): not compared. The verdict reports the
    # replay's own reason, never the footer's (docs/protocol.md, "Confirming a blame").
    if (found.index, found.evidence) != (blame.index, blame.evidence):
        return Violation(n, found.culprit, "false-blame",
                         f"the footer's record (entry {blame.index}, {len(blame.evidence)} "
                         f"evidence frames) is not the record of that blame (entry {found.index}, "
                         f"{len(found.evidence)})", found.culprit)
    return Violation(n, _sender_of(blame.evidence[-1]), found.check, found.reason, found.culprit)


def _withheld_pet(owed: tuple[int | None, int | None], forfeit: dict[str, Any] | None,
                  notes: list[str]) -> dict[str, Any] | None:
    """Who stopped an accusation check, if the transcript ends inside one (``owed``: the
    seat that owed the next entry and the accuser, read before any vote closed the game)."""
    seat, accuser = owed
    if accuser is None or seat is None:
        return None
    own = seat == accuser
    if forfeit is not None:
        notes.append(Note(N_("seat {seat} withheld its own step of its accusation check: it "
                             "counts as a wrong accusation (R27), a forfeit decided by the "
                             "signed abandon votes of seats {voters}"),
                          seat=seat, voters=SeatsNo(forfeit["voters"])))
        notes.append(Note(N_("this forfeit rests on the word of seats {voters} that seat {seat} "
                             "was silent: the file records no clock, so it cannot show whether "
                             "that step existed and was late or never came"),
                          seat=seat, voters=SeatsNo(forfeit["voters"])))
    else:
        notes.append(
            Note(N_("seat {seat} withheld its own step of its accusation check: the accusation "
                    "counts as wrong if it really withheld it (without a quorum of signed "
                    "abandon votes naming it, one file cannot tell that from a transcript cut "
                    "short, so the audit's result stays that of an abandoned game)"),
                 seat=seat) if own else
            Note(N_("seat {seat} withheld its step of seat {accuser}'s accusation check"),
                 seat=seat, accuser=accuser))
    return {"seat": seat, "accuser": accuser, "counts_as_wrong": own}
