"""The properties the model holds the table to, after every step and at the end.

Each check raises ``Broken`` (an ``AssertionError``: Hypothesis then shrinks the example)
with a sentence that says which property failed, for whom, and how.

After every step: honest transcripts never disagree (one is a prefix of the other; the
only fork allowed is two versions of one cheater's message, until they meet); nobody
honest is ever blamed, by a live peer or a footer; a halted honest seat's transcript is
confirmed by the audit with the cheater blamed; what a seat persisted is what it accepted;
an honest link that kept the stream contract is never charged junk.
At the end, after the heal: every honest seat ended, and how; the audit of every honest
transcript file agrees with its footer.
"""

from __future__ import annotations

import hashlib
from itertools import combinations

from p2pclue.bench.tablemodel.table import ModelTable, Snapshot
from p2pclue.engine.audit import Verdict, audit
from p2pclue.engine.errors import WireError
from p2pclue.engine.peer import Peer, Status
from p2pclue.engine.transcript import Footer, Transcript, parse
from p2pclue.engine.wire import split_frame
from p2pclue.net.core import SessionCore


class Broken(AssertionError):
    """A property of the protocol that the table just broke."""


def require(condition: bool, message: str) -> None:
    if not condition:
        raise Broken(message)


def _signer(raw: bytes) -> int | None:
    try:
        return split_frame(raw)[0]
    except WireError:
        return None


# ---- after every step ----------------------------------------------------------------------


def transcripts_agree(mt: ModelTable) -> None:
    """Of two honest transcripts, one is a prefix of the other. An equivocating cheater's
    two versions of one message are the only fork, and only at an entry it signed."""
    named = list(mt.transcripts())
    for (a, ea), (b, eb) in combinations(named, 2):
        n = min(len(ea), len(eb))
        if ea[:n] == eb[:n]:
            continue
        fork = next(i for i in range(n) if ea[i] != eb[i])
        require(mt.plan.cheat == "equivocate"
                and _signer(ea[fork]) == _signer(eb[fork]) == mt.plan.cheater,
                f"{a} and {b} disagree at entry {fork} (signed by seats {_signer(ea[fork])} "
                f"and {_signer(eb[fork])})")


def _blame_line(who: str, culprit: int | None, check: str, mt: ModelTable) -> str:
    cheat = f"seat {mt.plan.cheater} cheats ({mt.plan.cheat})" if mt.plan.cheat else \
        "nobody cheats"
    return f"{who} blames seat {culprit} ({check}); {cheat}"


def nobody_honest_blamed(mt: ModelTable) -> None:
    """A blame names the cheater, after it cheated; no footer on disk says otherwise."""
    for seat in mt.honest():
        member, core = mt.member(seat), mt.core(seat)
        if core is not None and (blame := core.peer.blame) is not None:
            require(mt.cheated and blame.culprit == mt.plan.cheater,
                    _blame_line(f"seat {seat}", blame.culprit, blame.check, mt))
        footer = member.disk.footer
        if footer is not None and footer.blame is not None:
            require(mt.cheated and footer.blame.culprit == mt.plan.cheater,
                    _blame_line(f"seat {seat}'s footer", footer.blame.culprit,
                                footer.blame.check, mt))
    blame = mt.stranger.peer.blame
    require(blame is None or (mt.cheated and blame.culprit == mt.plan.cheater),
            _blame_line("the spectator", None if blame is None else blame.culprit,
                        "" if blame is None else blame.check, mt))


def persisted_is_accepted(mt: ModelTable) -> None:
    """A live seat's disk holds exactly the entries its peer accepted (the driver writes
    every batch whole), or a prefix of them while a pass is held."""
    for seat in mt.honest():
        core, disk = mt.core(seat), mt.member(seat).disk
        if core is None:
            continue
        entries = core.peer.entries
        require(disk.entries == entries[:len(disk.entries)],
                f"seat {seat}'s disk holds entries its peer did not accept")
        require(len(disk.entries) == len(entries) or core.ended is not None,
                f"seat {seat} accepted {len(entries)} entries but persisted "
                f"{len(disk.entries)} between two inputs")


def honest_links_uncharged(mt: ModelTable) -> None:
    """Junk is never charged to an honest partner over a link that kept its contract (in
    order, each message once), but for one unit per vote it sent: the spec charges a vote
    about another point of the game, which an honest voter ahead or behind sends."""
    honest = {mt.key(s): s for s in mt.honest()}
    forked = mt.cheated and mt.plan.cheat == "equivocate"  # frames built on another version
    for seat in mt.honest():
        core = mt.core(seat)
        if core is None:
            continue
        for key, other in honest.items():
            charged = core.junk.charged(key)
            votes = mt.votes.get((key, core.me), 0)
            require(charged <= votes or frozenset((core.me, key)) in mt.broken or forked,
                    f"seat {seat} charged honest seat {other} {charged} junk units over a "
                    f"link that delivered in order, each message once ({votes} votes)")


# ---- resume ------------------------------------------------------------------------------


def resumed_as_before(seat: int, before: Snapshot, disk_entries: list[bytes],
                      power: bool, core: SessionCore) -> None:
    """A resumed seat holds what it persisted; crashed between two batches with its disk
    intact, it is its pre-crash self: the same entries, hand, chain head and secrets."""
    peer = core.peer
    require(peer.entries == disk_entries,
            f"resumed seat {seat} holds {len(peer.entries)} entries, its disk "
            f"{len(disk_entries)}")
    require(tuple(disk_entries) == before.entries[:len(disk_entries)],
            f"seat {seat}'s disk is not a prefix of what it had accepted before the crash")
    if before.between_batches and not power:
        require(tuple(peer.entries) == before.entries,
                f"resumed seat {seat} lost entries it had persisted")
        require((peer.hand, peer.head) == (before.hand, before.head),
                f"resumed seat {seat} has another hand or chain head than before its crash")
        require(peer.export_secrets() == before.secrets,
                f"resumed seat {seat} holds other secrets than before its crash")


# ---- the end -----------------------------------------------------------------------------


class Audits:
    """The audit of each distinct transcript file, done once (it replays every proof)."""

    def __init__(self) -> None:
        self._done: dict[bytes, Verdict] = {}
        self.count = 0

    def verdict(self, mt: ModelTable, entries: list[bytes], footer: Footer) -> Verdict:
        raw = Transcript(mt.config, tuple(entries), footer).to_bytes()
        digest = hashlib.sha256(raw).digest()
        if digest not in self._done:
            self.count += 1
            self._done[digest] = audit(parse(raw), raw)
        return self._done[digest]


def audited(mt: ModelTable, audits: Audits, seat: int, footer: Footer,
            entries: list[bytes]) -> Verdict:
    """The audit of an honest seat's file agrees with its footer: a complete game is valid
    and decided, a halted one confirms the blame on the cheater, an abandoned one is valid."""
    verdict = audits.verdict(mt, entries, footer)
    what = f"the audit of seat {seat}'s {footer.status} transcript ({len(entries)} entries)"
    if footer.status == "complete":
        require(verdict.valid and verdict.result in ("won", "nobody"),
                f"{what}: {verdict.result}, {verdict.violation}")
    elif footer.status == "halted":
        require(verdict.result == "halted" and verdict.blamed == mt.plan.cheater
                and mt.cheated, f"{what}: {verdict.result}, blamed {verdict.blamed}, "
                f"{verdict.violation}")
    else:
        require(verdict.valid, f"{what}: {verdict.result}, {verdict.violation}")
    return verdict


def halted_is_confirmed(mt: ModelTable, audits: Audits) -> None:
    """An honest seat that closed its transcript halted: the audit confirms the blame."""
    for seat in mt.honest():
        disk = mt.member(seat).disk
        if disk.footer is not None and disk.footer.status == "halted":
            audited(mt, audits, seat, disk.footer, disk.entries)


def _where(mt: ModelTable, seat: int) -> str:
    core = mt.core(seat)
    if core is None:
        return f"seat {seat} crashed"
    peer: Peer = core.peer
    return (f"seat {seat}: {peer.status.value}, {len(peer.entries)} entries, stage "
            f"{peer.stage.value}, owed by seat {peer.expected_seat()}")


def ended(mt: ModelTable, audits: Audits) -> dict[int, str]:
    """After the heal: every honest seat ended with a closed transcript the audit agrees
    with; complete transcripts are one; a cheat that reached an honest seat halted it."""
    out: dict[int, str] = {}
    for seat in mt.honest():
        core, disk = mt.core(seat), mt.member(seat).disk
        require(core is not None and core.ended is not None,
                "the healed table did not reach its end: "
                + "; ".join(_where(mt, s) for s in range(mt.plan.players)))
        assert core is not None and core.ended is not None
        require(core.ended.failure is None, f"seat {seat} failed: {core.ended.failure}")
        require(disk.footer is not None, f"seat {seat} ended without closing its transcript")
        assert disk.footer is not None
        audited(mt, audits, seat, disk.footer, disk.entries)
        out[seat] = disk.footer.status
    complete = {tuple(mt.member(s).disk.entries) for s, status in out.items()
                if status == "complete"}
    require(len(complete) <= 1, "two honest seats closed different complete transcripts")
    both = 2 if mt.plan.cheat == "equivocate" else 1  # one version is a valid message
    for seat, frames in mt.cheat_seen.items():
        require(len(frames) < both or out[seat] == "halted",
                f"seat {seat} was delivered the cheat ({mt.plan.cheat} by seat "
                f"{mt.plan.cheater}) while it played, and ended {out[seat]}")
    if not mt.cheated and not mt.ended_before_heal and not mt.votes_before_heal:
        require(set(out.values()) == {"complete"},
                "nobody cheated, no seat had ended or voted before the heal, yet the healed "
                f"table ended {out}")
    return out


def spectator_agrees(mt: ModelTable) -> None:
    """The spectator followed honestly: if it saw the game complete, every honest seat that
    closed a complete transcript closed that one (a seat that ended earlier, abandoned on
    its own count of votes, holds a prefix: ``transcripts_agree``)."""
    peer = mt.stranger.peer
    if peer.status is Status.COMPLETE:
        for seat in mt.honest():
            disk = mt.member(seat).disk
            if disk.footer is not None and disk.footer.status == "complete":
                require(peer.entries == disk.entries,
                        f"the spectator's complete game is not seat {seat}'s")
