"""Issue 19.1: abandon votes cannot cut a live accuser short at an honest peer.

Four players, real keys, real cryptography, real frames. Seat 0 accuses right; the check
runs 1, 2, 3, then 0, the accuser last. Every seat is rebuilt (from its own secrets, as
after a crash) at the point where the accuser owes its last step, and the accuser signs
it at once. Two colluding seats sign "abandon" against the accuser at that very moment
(their clocks say they waited: nothing stops a liar from saying so) and their votes reach
the honest seat before the accuser's step.

Before the fix the honest seat counted them at once: a quorum (2 of 3), the game
"abandoned" with the accuser's right accusation forfeited (R27), while the accuser's own
copy said "won"; both files audited valid. Now a peer holds every vote that arrives
before its own deadline for the silent seat: the step arriving before that deadline wins,
the held votes lapse. What a dishonest majority can still do (docs/protocol.md, "Silence
and abandon"): count on a step that does not reach the honest peer by its own deadline.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from p2pclue.bots.protocol import ProtocolGame
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine import events as ev
from p2pclue.engine.audit import Verdict, audit
from p2pclue.engine.errors import WireError
from p2pclue.engine.harness import Delivery, Network
from p2pclue.engine.peer import Peer, Stage, Status
from p2pclue.engine.peer_secrets import PeerSecrets
from p2pclue.engine.transcript import Footer, Transcript, parse
from p2pclue.engine.votes import MAX_MS, read_vote, sign_vote, window_ms
from p2pclue.engine.wire import read_payload, split_frame
from tests.engine.conftest import oracle_game, status

N = 4
TIMEOUT = 120.0
"""Every peer's own silence timeout (seconds): its deadline is this long after it
reached the point where the accuser owes its step (time 0 here)."""
LIAR_CLOCK = 1e6
"""What the colluders pass as ``now``: a clock that says their deadline is long past."""


@cache
def _game() -> ProtocolGame:
    game = oracle_game(N, "classic", seed=2)
    state = game.peers[0].rules_state
    assert state is not None and state.result == "won"
    return game


@cache
def _owed_point() -> tuple[int, int]:
    """(entries when the accuser owes its own last step, the accuser)."""
    typed = [read_payload(split_frame(raw)[1])[0] for raw in _game().peers[0].entries]
    index = max(i for i, h in enumerate(typed) if h.type == "accuse")
    accuser = typed[index].sender
    steps = [h.sender for h in typed[index + 1: index + 1 + N]]
    assert steps == [(accuser + 1 + k) % N for k in range(N)]  # the accuser steps last
    return index + N, accuser


def _table() -> tuple[list[Peer], int, list[bytes]]:
    """Every seat rebuilt at the owed point at time 0; what the accuser sent at once: its
    step, then its first end-of-game message."""
    game = _game()
    entries, accuser = _owed_point()
    peers: list[Peer] = []
    for seat in range(N):
        old = game.peers[seat]
        secrets = PeerSecrets.from_bytes(old.export_secrets().to_bytes())
        peer = Peer(game.config, seat, old._identity, SeededRandom(b"deadline/%d" % seat),
                    timeout=TIMEOUT)
        peer.restore(secrets, list(old.entries[:entries]), 0.0)
        peers.append(peer)
    sent = peers[accuser].frames_to_send()
    assert all(to is None for _, to in sent) and peers[accuser].entries[entries] == sent[0][0]
    mine = peers[accuser].rules_state
    assert mine is not None and (mine.result, mine.winner) == ("won", accuser)
    for seat, peer in enumerate(peers):
        if seat != accuser:
            assert peer.stage is Stage.PET and peer.accuser == accuser
            assert peer.expected_seat() == accuser and peer.frames_to_send() == []
    return peers, accuser, [raw for raw, _ in sent]


def _roles(accuser: int) -> tuple[tuple[int, int], int]:
    """Two colluders and the honest seat (neither is the accuser)."""
    others = [s for s in range(N) if s != accuser]
    return (others[0], others[1]), others[2]


def _collude(peers: list[Peer], colluders: tuple[int, int]) -> list[bytes]:
    """The colluders sign abandon votes the moment the accuser owes its step."""
    votes = []
    for seat in colluders:
        assert peers[seat].on_timeout(LIAR_CLOCK)  # its own clock, lying
        raw, _ = peers[seat].vote("abandon", LIAR_CLOCK)
        votes.append(raw)
    return votes


def _finish(peers: list[Peer], sender: int, frames: list[bytes]) -> None:
    """Deliver ``sender``'s ``frames`` to the others, then everything queued until nothing
    moves (the end-of-game rounds)."""
    queue = [Delivery(to, raw, sender) for raw in frames for to in range(N) if to != sender]
    net = Network(peers, queue=queue, now=10.0)
    while net.step():
        pass


def _audit(peer: Peer) -> Verdict:
    data = peer.transcript().to_bytes()
    return audit(parse(data), data)


def test_early_abandon_votes_lose_to_the_accusers_step() -> None:
    """The attack: two colluders' votes reach the honest seat before the accuser's step."""
    peers, accuser, sent = _table()
    step = sent[0]
    colluders, honest = _roles(accuser)
    h = peers[honest]
    seen: list[ev.Event] = []
    for raw in _collude(peers, colluders):
        seen += h.receive_vote(raw, 1.0)  # long before the honest seat's own deadline
    assert h.status is Status.RUNNING, "the honest seat counted votes before its deadline"
    assert not any(isinstance(e, ev.Abandoned) for e in seen)
    seen += h.receive(step, 2.0)  # the accuser's step, before the honest deadline
    state = h.rules_state
    assert state is not None and (state.result, state.winner) == ("won", accuser)
    assert not any(isinstance(e, ev.Abandoned) for e in seen)
    late = h.on_timeout(TIMEOUT + 5.0)  # its deadline passes: the held votes have lapsed
    assert late and not any(isinstance(e, (ev.VoteCounted, ev.Abandoned)) for e in late)
    assert h.status is Status.RUNNING
    assert h.abandon_votes == ()
    for seat in colluders:  # the colluders' own peers chain the step too
        peers[seat].receive(step, 2.0)
    _finish(peers, accuser, sent[1:])
    assert all(p.status is Status.COMPLETE for p in peers), [p.status for p in peers]
    assert h.transcript().to_bytes() == peers[accuser].transcript().to_bytes()
    verdict = _audit(h)
    assert verdict.valid and (verdict.result, verdict.winner) == ("won", accuser)
    assert verdict.forfeit is None and verdict.blamed is None


def test_held_votes_count_once_the_honest_deadline_passes_without_the_step() -> None:
    """What the colluders can still do: the step does not reach the honest seat by its own
    deadline (a truly silent accuser, or links they cut). Then the held votes count."""
    peers, accuser, sent = _table()
    colluders, honest = _roles(accuser)
    h = peers[honest]
    for raw in _collude(peers, colluders):
        assert h.receive_vote(raw, 1.0) == []
    assert h.on_timeout(TIMEOUT - 1.0) == [] and h.status is Status.RUNNING
    # its deadline: the silence is reported, but a forfeit waits for the grace
    assert h.on_timeout(TIMEOUT) == [ev.PeerSilent(accuser, TIMEOUT)]
    assert h.on_timeout(2 * TIMEOUT - 1.0) == [] and h.status is Status.RUNNING
    seen = h.on_timeout(2 * TIMEOUT)  # FORFEIT_GRACE = 2 silences
    assert seen[0] == ev.PeerSilent(accuser, 2 * TIMEOUT)
    assert ev.Abandoned(accuser, tuple(sorted(colluders)), True, None, None) in seen
    assert status(h) is Status.ABANDONED
    assert h.receive(sent[0], 2 * TIMEOUT + 1) == [] and status(h) is Status.ABANDONED  # late
    verdict = _audit(h)
    assert verdict.valid and verdict.blamed is None
    assert verdict.forfeit == {"seat": accuser, "voters": sorted(colluders)}
    window = next(n for n in verdict.notes if "signed after waiting" in n)
    assert f"seat {colluders[0]} signed after waiting" in window
    assert f"its own timeout {TIMEOUT:g} s" in window


def test_a_wait_vote_is_held_like_an_abandon_vote() -> None:
    peers, accuser, _ = _table()
    colluders, honest = _roles(accuser)
    h = peers[honest]
    peers[colluders[0]].on_timeout(LIAR_CLOCK)
    raw, _ = peers[colluders[0]].vote("wait", LIAR_CLOCK)
    assert h.receive_vote(raw, 1.0) == []
    assert h.on_timeout(TIMEOUT) == [ev.PeerSilent(accuser, TIMEOUT)]  # the forfeit grace
    counted = [e for e in h.on_timeout(2 * TIMEOUT) if isinstance(e, ev.VoteCounted)]
    assert [(e.seat, e.choice) for e in counted] == [(colluders[0], "wait")]


def test_a_vote_that_says_it_was_signed_before_the_voters_deadline_is_refused() -> None:
    """The voter's window is signed: ``waited`` below its own ``timeout`` is no vote."""
    peers, accuser, _ = _table()
    colluders, honest = _roles(accuser)
    keys = [p.public_key() for p in _game().config.players]
    real = _collude(peers, colluders)
    vote = read_vote(real[0], keys)
    assert vote.waited >= vote.timeout == int(TIMEOUT * 1000)
    early = sign_vote(peers[colluders[0]]._identity,  # type: ignore[arg-type]
                      replace(vote, waited=vote.timeout - 1, ballot=vote.ballot + 1))
    with pytest.raises(WireError):
        read_vote(early, keys)
    h = peers[honest]
    h.on_timeout(TIMEOUT)
    assert h.receive_vote(early, TIMEOUT) == [] and h.dropped_count == 1
    entries, _ = _owed_point()
    t = Transcript(_game().config, tuple(_game().peers[0].entries[:entries]),
                   Footer("abandoned", entries, votes=(early, real[1])))
    verdict = audit(parse(t.to_bytes()))
    assert not verdict.valid and verdict.violation is not None
    assert verdict.violation.check == "votes" and verdict.blamed is None


def test_a_vote_signs_the_voters_own_window() -> None:
    """Measured from when this peer reached the point (restored at 0 here), in whole ms."""
    peers, accuser, _ = _table()
    _, honest = _roles(accuser)
    h = peers[honest]
    h.on_timeout(TIMEOUT + 1.5)
    raw, _ = h.vote("wait", TIMEOUT + 1.5)
    vote = read_vote(raw, [p.public_key() for p in _game().config.players])
    assert (vote.timeout, vote.waited) == (120_000, 121_500)


@pytest.mark.parametrize(("seconds", "ms"), [(120.0, 120_000), (0.0015, 1), (-1.0, 0),
                                             (float("nan"), 0), (1e12, MAX_MS),
                                             (float("inf"), MAX_MS)])
def test_window_fields_are_whole_milliseconds_within_range(seconds: float, ms: int) -> None:
    assert window_ms(seconds) == ms
