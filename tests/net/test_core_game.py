"""Whole games of session cores on the in-memory transport, with a fake clock.

No socket, no thread, no sleep: the table's clock moves only when nothing else can happen,
so these games take the engine's CPU time and nothing more. A seeded game is the same game
every time, which is what lets the crash test below compare a resumed seat's frames with
the ones it would have sent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pclue.bots.samples import PATIENCE, SAMPLES
from p2pclue.engine import events as ev
from p2pclue.engine.peer import Status
from p2pclue.engine.transcript import Transcript
from p2pclue.engine.wire import split_frame
from p2pclue.net import api
from p2pclue.net.actions import Append, CloseTranscript, End, Send
from p2pclue.net.meta import TAG_FRAME
from tests.net.core_table import CoreTable, finished, make_table, own_frames_persisted_first


@pytest.fixture(scope="module")
def game() -> CoreTable:
    """One seeded game of three seats played to the end (detective bots: a short game)."""
    ct = make_table(3, seed=3, bot="detective")
    ct.run()
    return ct


def test_three_seats_play_to_the_end_with_one_transcript(game: CoreTable) -> None:
    assert finished(game)
    transcripts = {tuple(m.disk.entries) for m in game.members}
    assert len(transcripts) == 1, "every seat persisted the same entries"
    entries = transcripts.pop()
    for seat, member in enumerate(game.members):
        core = game.core(seat)
        assert core.peer.status is Status.COMPLETE and core.peer.blame is None
        assert list(entries) == core.peer.entries
        assert member.disk.footer is not None and member.disk.footer.status == "complete"
        assert member.disk.footer.entries == len(entries)
        assert member.ended == End("complete")
        assert core.junk_charged == 0 and core.junk_cuts == 0 and core.dropped_total == 0
        # the transcript is closed before "done" goes out, and the end comes last
        closing = [i for i, a in enumerate(member.log) if isinstance(a, CloseTranscript)]
        assert len(closing) == 1 and isinstance(member.log[-1], End)
        assert not any(isinstance(a, Append) for a in member.log[closing[0]:])


def test_every_own_frame_is_fsynced_before_any_link_sees_it(game: CoreTable) -> None:
    for seat, member in enumerate(game.members):
        assert own_frames_persisted_first(member, seat)
        own = [raw for raw in member.disk.entries if split_frame(raw)[0] == seat]
        sent = {a.body for a in member.log if isinstance(a, Send) and a.tag == TAG_FRAME}
        assert own and all(raw in sent for raw in own)
        assert member.disk.secrets is not None and member.disk.transcript_recorded


def test_the_front_end_hears_every_accepted_entry_and_each_choice_once(game: CoreTable) -> None:
    for seat, member in enumerate(game.members):
        accepted = [e.event.index for e in member.events
                    if isinstance(e, api.Engine) and isinstance(e.event, ev.Accepted)]
        assert accepted == list(range(len(member.disk.entries)))
        choices = [e for e in member.events if isinstance(e, api.YourChoice)]
        assert choices, f"seat {seat} was asked to choose"
        presence = [e for e in member.events if isinstance(e, api.Presence)]
        assert {(p.seat, p.present) for p in presence} == {
            (s, True) for s in range(3) if s != seat}


def test_the_same_seed_gives_the_same_game_byte_for_byte(game: CoreTable) -> None:
    """What the crash test relies on: the table, the bots and the secrets are seeded."""
    again = make_table(3, seed=3, bot="detective")
    again.run(until=lambda: len(again.core(0).peer.entries) >= 60)
    assert again.core(0).peer.entries == game.core(0).peer.entries[:len(
        again.core(0).peer.entries)]


@pytest.mark.parametrize("name", ["classic-3p.p2pclue", "cz-4p.p2pclue"])
def test_a_seeded_game_through_the_cores_is_the_sample_transcript_byte_for_byte(
        name: str) -> None:
    """The cores add nothing to the protocol: with ``simulate``'s keys, secrets and bots,
    cores on the in-memory transport write the engine harness's seeded game
    (protocol/samples), byte for byte, links, catch-up and relays included."""
    spec = SAMPLES[name]
    ct = make_table(spec.players, spec.seed, rules=spec.rules, like_simulate=True,
                    patience=PATIENCE)
    ct.run()
    sample = (Path(__file__).resolve().parents[2] / "protocol" / "samples" / name).read_bytes()
    for member in ct.members:
        assert member.disk.footer is not None
        written = Transcript(ct.start.config, tuple(member.disk.entries), member.disk.footer)
        assert written.to_bytes() == sample


def test_six_seats_play_to_the_end() -> None:
    """The largest table: fifteen links, one transcript, nobody charged."""
    ct = make_table(6, seed=4, bot="detective")
    ct.run()
    assert finished(ct)
    assert len({tuple(m.disk.entries) for m in ct.members}) == 1
    assert {m.disk.footer.status for m in ct.members if m.disk.footer} == {"complete"}
    assert all(ct.core(s).junk_charged == 0 for s in range(6))
