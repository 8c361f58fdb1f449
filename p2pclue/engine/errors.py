"""Engine errors, split the way h11 splits them.

``LocalProtocolError``: the caller misused the API (asked to move when it is not
this peer's turn, fed a decision that was not asked for). The peer's state is
unchanged and the game goes on.

``RemoteProtocolError``: a peer misbehaved. It carries the culprit's seat, the
rule or proof that failed and the offending frames, so that a ``Blame`` record
can be built that any third party can check. The receiving engine moves to
the terminal HALTED state; it never crashes.

``TranscriptError``: a file is not a readable transcript at all (bad magic,
truncated length prefix, undecodable header). That is neither a game event nor
a cheat: nothing in it can be attributed to a player.

No message of any of these ever contains secret scalars, hands or plaintext
shown cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from p2pclue.rules.errors import RuleError


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class LocalProtocolError(EngineError):
    """The local caller used the API wrongly; nothing changed.

    Its explanation reaches the person who tried ("Not allowed now: ..."), so it is kept
    translatable like a ``RuleError``: ``template`` (English, marked ``N_``), ``values``,
    and ``rule``, the id of the rule it enforces, if any (``p2pclue.i18n.refusals``).
    """

    def __init__(self, message: str, /, rule: str | None = None, **values: Any) -> None:
        self.rule = rule
        self.template = message
        self.values = values
        text = message.format(**values) if values else message
        super().__init__(f"{rule}: {text}" if rule else text)

    @classmethod
    def refusing(cls, error: RuleError) -> LocalProtocolError:
        """The local player's own action breaks a rule: the same words, said locally."""
        return cls(error.template, rule=error.rule, **error.values)


@dataclass(frozen=True)
class Words:
    """A phrase inside an error's message ("the length of entry 3"): an English template
    marked ``N_`` and its values, said in English by ``str`` and in the reader's language
    by ``p2pclue.i18n`` (the engine may not import the translations)."""

    template: str
    values: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return self.template.format(**dict(self.values))


def words(template: str, **values: Any) -> Words:
    return Words(template, tuple(sorted(values.items())))


class Note(str):
    """One note of an audit: its English text (the JSON verdict, logs, tests read it as a
    ``str``), which keeps its template (marked ``N_``, or ``counted`` for a count) and its
    typed values, so a front end says it in the reader's language: cards by name
    (``CardsNo``), lists of seats and nested notes as the language joins them."""

    __slots__ = ("n", "plural", "template", "values")
    template: str
    plural: str | None
    n: int | None
    values: dict[str, Any]

    def __new__(cls, template: str, /, plural: str | None = None, n: int | None = None,
                **values: Any) -> Note:
        text = (template if plural is None or n == 1 else plural).format(**values)
        made = super().__new__(cls, text)
        made.template, made.plural, made.n, made.values = template, plural, n, values
        return made


def counted(singular: str, plural: str, n: int, **values: Any) -> Note:
    """A note whose words follow a count (marked for the catalogs like ``ngettext``)."""
    return Note(singular, plural, n, **values)


class CardsNo(tuple[int, ...]):
    """Cards in a note: "[0, 2, 12]" in its English text (as it always was), their names
    where a person reads it."""

    def __str__(self) -> str:
        return str(list(self))

    def __format__(self, spec: str) -> str:
        return str(self)


class Seconds(float):
    """Seconds in a note: "121.5" in its English text, the reader's decimal sign where a
    person reads it ("121,5")."""

    def __str__(self) -> str:
        return f"{float(self):g}"

    def __format__(self, spec: str) -> str:
        return str(self)


class SeatsNo(CardsNo):
    """Seats in a note: "[0, 2]" in its English text, a list in the reader's words."""


class Notes(tuple[Note, ...]):
    """Notes said one after the other ("seat 0 ...; seat 2 ...")."""

    def __str__(self) -> str:
        return "; ".join(self)

    def __format__(self, spec: str) -> str:
        return str(self)


class TranscriptError(EngineError):
    """Bytes that are not a readable transcript (as opposed to a readable one that cheats).

    Its explanation reaches whoever audits the file, so it is kept translatable like a
    ``LocalProtocolError``: an English ``template`` marked ``N_`` and ``values`` (numbers,
    ``Words``); ``str()`` is the English sentence (the JSON verdict, logs).
    """

    def __init__(self, message: str, /, **values: Any) -> None:
        self.template = message
        self.values = values
        super().__init__(message.format(**values) if values else message)


class WireError(EngineError):
    """A frame or payload that cannot be decoded or whose fields have the wrong shape.

    ``field`` names the offending field (dotted path) when there is one.
    """

    def __init__(self, reason: str, field: str | None = None) -> None:
        self.reason = reason
        self.field = field
        super().__init__(f"{field}: {reason}" if field else reason)


class WeakKeyError(WireError):
    """An identity public key that is not a sound Ed25519 key: not the canonical encoding
    of a point of the prime-order subgroup other than the identity (a small-order key lets
    one fixed signature verify for every message, so its seat could deny its own frames and
    anyone could sign as it)."""


class ReusedSessionError(EngineError):
    """A game configuration whose session id this player has seen before: frames of the
    earlier game would fit it, so a peer refuses to play it (the lobby must agree on a
    fresh session)."""


@dataclass(frozen=True)
class Violation:
    """What went wrong, in terms a person and a program can both read.

    ``check`` is a short stable identifier: a rule id (``R21``), a proof name
    (``proof:shuffle``), or a protocol check (``signature``, ``chain``,
    ``sender``, ``equivocation``, ``randomness``...).
    """

    check: str
    reason: str


class Reject(Exception):
    """A stage's own check on a message failed (the peer turns it into a
    ``RemoteProtocolError`` against the sender)."""

    def __init__(self, check: str, reason: str) -> None:
        self.violation = Violation(check, reason)
        super().__init__(reason)


class RemoteProtocolError(EngineError):
    """A peer sent something invalid; ``culprit`` is its seat.

    ``culprit`` is None only for a frame whose signature does not verify and
    whose bearer is unknown (a tampered file): nobody can be blamed for it.
    """

    def __init__(
        self, culprit: int | None, violation: Violation, evidence: tuple[bytes, ...] = ()
    ) -> None:
        self.culprit = culprit
        self.violation = violation
        self.evidence = evidence
        who = "unattributable" if culprit is None else f"seat {culprit}"
        super().__init__(f"{who}: {violation.check}: {violation.reason}")


@dataclass(frozen=True)
class Blame:
    """The end of a halted game: who cheated, how, and the signed frames that show it.

    ``index`` is the transcript position at which the offending frame would have
    been chained (the number of accepted entries at the time).
    """

    culprit: int | None
    check: str
    reason: str
    index: int
    evidence: tuple[bytes, ...] = field(default=())

    def to_wire(self) -> dict[str, object]:
        return {
            "culprit": self.culprit,
            "check": self.check,
            "reason": self.reason,
            "index": self.index,
            "evidence": list(self.evidence),
        }

    @classmethod
    def from_error(cls, error: RemoteProtocolError, index: int) -> Blame:
        return cls(error.culprit, error.violation.check, error.violation.reason, index,
                   error.evidence)
