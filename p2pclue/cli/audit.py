"""``p2pclue audit``: check a finished (or halted) game from its transcript alone.

Exit status: 0 valid; 1 a violation (the first failing message and the culprit are
printed); 2 not a readable transcript. With ``--json`` the last line of standard
output is always one JSON verdict, whatever the exit status.

A file with no footer (its writer quit to resume later, or crashed, between two messages)
is audited as far as it goes: "valid so far", exit 0, result ``unfinished``; a file that
stops inside an entry (a torn tail) is not a transcript (exit 2, "truncated").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import stat
import sys

from p2pclue.cli.narrate import Narrator, event_json
from p2pclue.cli.terminal import Style, wants_colour
from p2pclue.engine import events as ev
from p2pclue.engine.audit import Verdict, audit, audit_unfinished
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import TranscriptError
from p2pclue.engine.transcript import (
    MAX_TRANSCRIPT_BYTES,
    has_end_marker,
    parse,
    parse_open,
)
from p2pclue.i18n import (
    N_,
    PlayerWord,
    _,
    check_words,
    ngettext,
    note_text,
    os_error_text,
    player_word,
    transcript_error_text,
)

EXIT_VALID, EXIT_VIOLATION, EXIT_UNREADABLE = 0, 1, 2


def run(args: argparse.Namespace) -> int:
    raw: bytes | None = None
    if not args.transcript:  # os.open("") would say "no such file", naming nothing
        return _unreadable(args, N_("the transcript path is empty: name a transcript file"),
                           {}, None)
    try:
        # Without blocking, then checked: a pipe would wait forever for a writer.
        fd = os.open(args.transcript, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return _unreadable(args, N_("{path} is not a regular file (a pipe, a device "
                                            "or a folder is no transcript)"),
                                   {"path": args.transcript}, None)
            os.set_blocking(fd, True)
            raw = handle.read(MAX_TRANSCRIPT_BYTES + 1)  # an endless file is not held
        if len(raw) > MAX_TRANSCRIPT_BYTES:
            raw = None  # not hashed: only its first bytes were read
            raise TranscriptError(N_("over {size} MiB: larger than any transcript"),
                                  size=MAX_TRANSCRIPT_BYTES // 2**20)
        config, verdict = _read(raw)
    except OSError as exc:
        return _unreadable(args, N_("cannot read {path}: {error}"),
                           {"path": args.transcript, "error": exc.strerror or exc}, raw,
                           error=os_error_text(exc))
    except TranscriptError as exc:
        return _unreadable(args, N_("{path} is not a readable transcript: {error}"),
                           {"path": args.transcript, "error": exc}, raw,
                           error=transcript_error_text(exc))
    if args.replay:
        _replay(verdict, config, as_json=args.json)
    if args.json:
        print(json.dumps(verdict.to_json(), sort_keys=True))
    else:
        _summary(verdict, config, Style(wants_colour(sys.stdout)))
    return EXIT_VALID if verdict.valid else EXIT_VIOLATION


def _read(raw: bytes) -> tuple[GameConfig, Verdict]:
    """Parse and audit a finished file, or one with no end marker as far as it goes."""
    try:
        transcript = parse(raw)
    except TranscriptError:
        if has_end_marker(raw):
            raise  # a damaged footer: the file says it ended, and cannot say how
        config, entries = parse_open(raw)  # a torn tail raises "truncated" here
        return config, audit_unfinished(config, entries, raw)
    return transcript.config, audit(transcript, raw)


def _unreadable(args: argparse.Namespace, template: str, fields: dict[str, object],
                raw: bytes | None, error: str | None = None) -> int:
    """Say why in the reader's language (``error``: the cause in those words); the JSON
    verdict keeps the English text."""
    said = {**fields, "error": error} if error is not None else fields
    print(_("p2pclue audit: {message}").format(message=_(template).format(**said)),
          file=sys.stderr)
    message = template.format(**fields)
    if args.json:
        print(json.dumps({
            "valid": False, "result": "unreadable", "error": message, "winner": None,
            "blamed": None, "violation": None, "players": [], "turns": 0, "entries": 0,
            "transcript_sha256": hashlib.sha256(raw).hexdigest() if raw is not None else None,
            "envelope": None, "hands": None, "notes": [], "withheld": None, "forfeit": None,
            "unfinished": None,  # every verdict key, empty (docs/protocol.md, "Audit")
            "complaints": [],
        }, sort_keys=True))
    return EXIT_UNREADABLE


def _replay(verdict: Verdict, config: GameConfig, *, as_json: bool) -> None:
    if as_json:
        for event in verdict.events:
            if not isinstance(event, ev.Accepted):
                print(json.dumps(event_json(event), sort_keys=True))
        return
    shown = [card for _, card in verdict.shown] if verdict.shown is not None else None
    narrator = Narrator(config, shown_cards=shown, hands=verdict.hands,
                        style=Style(wants_colour(sys.stdout)))
    for line in narrator.introduction():
        print(line)
    for event in verdict.events:
        for line in narrator.lines(event):
            print(line)
    for line in narrator.flush():
        print(line)


def _player(config: GameConfig, seat: int | None) -> PlayerWord:
    if seat is None or not 0 <= seat < config.n_players:
        return PlayerWord("?" if seat is None else _("seat {seat}").format(seat=seat),
                          honorific=False)
    p = config.players[seat]
    return player_word(p.name, seat=seat, suspect=p.suspect)


def _summary(v: Verdict, config: GameConfig, style: Style) -> None:
    names = ", ".join(f"{_player(config, p['seat'])}" for p in v.players)
    print(ngettext("transcript {sha}...: {count} message; players: {players}",
                   "transcript {sha}...: {count} messages; players: {players}",
                   v.entries).format(sha=v.transcript_sha256[:16], count=v.entries,
                                     players=names))
    if v.violation is not None:
        x = v.violation
        who = _("nobody can be blamed (the file itself is damaged or forged)") \
            if x.culprit is None else _("culprit: {player}").format(
                player=_player(config, x.culprit))
        # Translators: {check} and {reason} come from the protocol checks, in English.
        print(_("{violation} at message {index} (sent by {sender}): {what} ({check}: {reason})"
                ).format(violation=style.event(_("VIOLATION"), "halt"), index=x.index,
                         sender=_player(config, x.sender), what=check_words(x.check),
                         check=x.check, reason=x.reason))
        print(f"  {who}")
    for note in v.notes:
        # Translators: a note of the audit (what the transcript says of leavers and votes).
        print("  " + _("note: {note}").format(note=note_text(note)))
    for line in _complaint_lines(v, config):
        print("  " + line)
    if v.valid and v.unfinished:
        print(ngettext("{valid}: unfinished after {turns} turn, no footer (quit to resume "
                       "later, or a crash); every signature, proof and rule of its messages "
                       "checked",
                       "{valid}: unfinished after {turns} turns, no footer (quit to resume "
                       "later, or a crash); every signature, proof and rule of its messages "
                       "checked", v.turns).format(
            valid=style.event(_("VALID SO FAR"), "win"), turns=v.turns))
    elif v.valid:
        outcomes = {"won": _("{player} won").format(player=_player(config, v.winner)),
                    "nobody": _("nobody won"), "abandoned": _("abandoned before the end")}
        print(ngettext("{valid}: {outcome} after {turns} turn; every signature, proof and rule "
                       "checked",
                       "{valid}: {outcome} after {turns} turns; every signature, proof and rule "
                       "checked", v.turns).format(
            valid=style.event(_("VALID"), "win"), outcome=outcomes.get(v.result, v.result),
            turns=v.turns))


def _complaint_lines(v: Verdict, config: GameConfig) -> list[str]:
    """Each suggester's complaints, counted: whether a sealed opening answered them, never
    the card (the sealed opening names it to the suggester alone)."""
    lines: list[str] = []
    for row in v.complaints:
        player, count, sealed = _player(config, row["suggester"]), row["complained"], row["sealed"]
        if sealed == count:
            text = ngettext("{player} complained about {count} show; a sealed opening answered "
                            "it",
                            "{player} complained about {count} shows; a sealed opening answered "
                            "each", count)
        elif sealed == 0:
            text = ngettext("{player} complained about {count} show; no sealed opening answered "
                            "it",
                            "{player} complained about {count} shows; no sealed opening answered "
                            "them", count)
        else:
            text = ngettext("{player} complained about {count} show; sealed openings answered "
                            "{sealed} of them",
                            "{player} complained about {count} shows; sealed openings answered "
                            "{sealed} of them", count)
        lines.append(text.format(player=player, count=count, sealed=sealed))
    return lines
