"""``p2pclue audit`` rejects every tampering with a transcript (issue 5)."""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pclue.engine.audit import audit
from p2pclue.engine.errors import TranscriptError
from p2pclue.engine.transcript import Footer, Transcript, parse
from tests.engine.conftest import finished_game
from tests.profiles import examples


@cache
def original() -> bytes:
    return finished_game(3, "classic", 1).peers[0].transcript().to_bytes()


@cache
def foreign_entries() -> tuple[bytes, ...]:
    return tuple(finished_game(3, "classic", 2).peers[0].entries)


def rejected(raw: bytes) -> bool:
    try:
        transcript = parse(raw)
    except TranscriptError:
        return True
    return not audit(transcript, raw).valid


def rebuild(entries: list[bytes], **changes: Any) -> bytes:
    t = parse(original())
    footer = Footer(t.footer.status, len(entries), t.footer.blame)
    return dataclasses.replace(t, entries=tuple(entries), footer=footer, **changes).to_bytes()


def test_the_untouched_transcript_is_valid() -> None:
    verdict = audit(parse(original()), original())
    assert verdict.valid and verdict.result in ("won", "nobody") and verdict.violation is None


@st.composite
def mutations(draw: st.DrawFn) -> bytes:
    raw = original()
    entries = list(parse(raw).entries)
    n = len(entries)
    kind = draw(st.sampled_from(
        ["flip", "truncate", "swap", "duplicate", "drop", "splice", "header", "footer"]))
    if kind == "flip":
        pos = draw(st.integers(0, len(raw) - 1))
        mask = draw(st.integers(1, 255))
        return raw[:pos] + bytes([raw[pos] ^ mask]) + raw[pos + 1:]
    if kind == "truncate":
        return raw[: draw(st.integers(0, len(raw) - 1))]
    i = draw(st.integers(0, n - 1))
    if kind == "swap":
        j = draw(st.integers(0, n - 1).filter(lambda j: j != i))
        entries[i], entries[j] = entries[j], entries[i]
    elif kind == "duplicate":
        entries.insert(draw(st.integers(0, n)), entries[i])
    elif kind == "drop":
        del entries[i]
    elif kind == "splice":
        other = foreign_entries()
        frame = other[draw(st.integers(0, len(other) - 1))]
        if draw(st.booleans()):
            entries[i] = frame
        else:
            entries.insert(i, frame)
    elif kind == "header":
        config = parse(raw).config
        players = list(config.players)
        players[0] = dataclasses.replace(players[0], name=players[0].name + "x")
        changed = draw(st.sampled_from([
            dataclasses.replace(config, players=tuple(players)),
            dataclasses.replace(config, rules=config.rules.override(two_dice=True)),
            dataclasses.replace(config, session=bytes(32)),
        ]))
        return rebuild(entries, config=changed)
    else:  # footer
        t = parse(raw)
        status = draw(st.sampled_from(["halted", "abandoned"]))
        return Transcript(t.config, t.entries, Footer(status, n, None)).to_bytes()
    return rebuild(entries)


@settings(max_examples=examples(60),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated=mutations())
def test_every_mutation_is_rejected(mutated: bytes) -> None:
    if mutated == original():
        return  # a swap of two identical entries, say: nothing was changed
    assert rejected(mutated)


def test_a_cut_at_an_entry_boundary_is_caught_by_the_footer() -> None:
    entries = list(parse(original()).entries)
    cut = rebuild(entries[:-5])
    verdict = audit(parse(cut), cut)
    assert not verdict.valid and verdict.violation is not None
    assert verdict.violation.check == "footer" and verdict.result == "invalid"


def test_an_honestly_abandoned_game_is_valid_as_far_as_it_goes() -> None:
    t = parse(original())
    kept = t.entries[:30]
    raw = Transcript(t.config, kept, Footer("abandoned", len(kept), None)).to_bytes()
    verdict = audit(parse(raw), raw)
    assert verdict.valid and verdict.result == "abandoned" and verdict.notes


def test_withholding_the_final_reveal_cannot_erase_a_result() -> None:
    """A loser who never sends its secrets (or a cut file) leaves the decided result."""
    t = parse(original())
    full = audit(t, original())
    kept = t.entries[:-2]  # the last two seats' secrets are missing
    raw = Transcript(t.config, kept, Footer("abandoned", len(kept), None)).to_bytes()
    verdict = audit(parse(raw), raw)
    assert verdict.valid and verdict.result == full.result and verdict.winner == full.winner
    assert verdict.hands is None and "reveal stopped" in verdict.notes[0]


def test_a_false_blame_is_exposed() -> None:
    from tests.engine.conftest import run

    game = run(3, "classic", seed=7, cheat="bad-shuffle", cheater=2, phase="deal")
    t = game.peers[0].transcript()
    assert t.footer.blame is not None and t.footer.blame.culprit == 2
    framed = dataclasses.replace(t.footer.blame, culprit=1)
    raw = Transcript(t.config, t.entries, dataclasses.replace(t.footer, blame=framed)).to_bytes()
    verdict = audit(parse(raw), raw)
    assert not verdict.valid and verdict.violation is not None
    assert verdict.violation.check == "false-blame" and verdict.blamed == 2
    # Evidence that breaks no rule (an honest entry) frames nobody.
    honest = dataclasses.replace(t.footer.blame, evidence=(t.entries[0],))
    raw = Transcript(t.config, t.entries, dataclasses.replace(t.footer, blame=honest)).to_bytes()
    verdict = audit(parse(raw), raw)
    assert verdict.violation is not None and verdict.violation.check == "false-blame"
    assert verdict.blamed is None
