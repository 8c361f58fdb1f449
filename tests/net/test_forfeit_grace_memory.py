"""A slow link to one honest seat must not turn a right accusation into a forfeit.

Four real session cores on the in-memory transport (``net.memory``: real keys, real
cryptography, real frames, the table's fake clock). The oracle game where seat 0 accuses
right is rebuilt at the point where the accuser owes its own last PET step (every seat
from its own secrets, as after a crash); the accuser signs its step at once. Two seats
sign "abandon" votes about that point at once (their clocks lie) and send them to the
honest seat H, whose link is slow: nothing else reaches H until the clock has passed H's
own deadline by ``delay`` seconds. Then everything on the wire is delivered.

Before the forfeit grace, H counted the held votes at its deadline: the accuser was
forfeited at H while the accuser's own copy said "won", and both files audited valid.
(``run_delayed(15.0)`` against main before the grace, 2026-12-04: H's verdict valid,
"abandoned", forfeit seat 0 by voters [1, 2], nobody blamed; the accuser's valid, "won" by
seat 0; the two files differ.)
Now votes about an accuser's own step count only after ``FORFEIT_GRACE`` silences
(docs/protocol.md, "Forfeit grace"): a step late by less than one more ``timeout`` wins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from p2pclue.bots.protocol import ProtocolGame
from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine import events as ev
from p2pclue.engine.audit import Verdict, audit
from p2pclue.engine.peer_secrets import PeerSecrets
from p2pclue.engine.transcript import parse
from p2pclue.engine.wire import pack, read_payload, split_frame
from p2pclue.net import api
from p2pclue.net.core import SessionCore, Settings
from p2pclue.net.lobby import Address, Start
from p2pclue.net.memory import MemoryTable
from p2pclue.net.meta import TAG_SYNC
from tests.engine.conftest import oracle_game
from tests.net.core_table import address

N = 4
TIMEOUT = 30.0
LIAR_CLOCK = 1e9


@cache
def _game() -> ProtocolGame:
    game = oracle_game(N, "classic", seed=2)
    state = game.peers[0].rules_state
    assert state is not None and state.result == "won"
    return game


def _owed_point() -> tuple[int, int]:
    """(entries when the accuser owes its own last step, the accuser)."""
    typed = [read_payload(split_frame(raw)[1])[0] for raw in _game().peers[0].entries]
    index = max(i for i, h in enumerate(typed) if h.type == "accuse")
    return index + N, typed[index].sender


@dataclass
class Outcome:
    honest: Verdict
    accuser: Verdict
    same_file: bool
    honest_events: list[ev.Event]
    accuser_seat: int
    colluders: tuple[int, int]


def run_delayed(delay: float) -> Outcome:
    """Everything to H arrives ``delay`` seconds after H's own deadline."""
    game = _game()
    entries, accuser = _owed_point()
    others = [s for s in range(N) if s != accuser]
    colluders, honest = (others[0], others[1]), others[2]
    keys = [p._identity for p in game.peers if p._identity is not None]
    assert len(keys) == N
    pub = [k.public_key().public_bytes_raw() for k in keys]
    start = Start(game.config, tuple(bytes(32) for _ in keys), tuple(bytes(64) for _ in keys),
                  tuple(Address(pub[i], "player", *address(i)) for i in range(N)))
    settings = Settings("seat", TIMEOUT, 3, (0.0, 0.0), game_files=True)
    table = MemoryTable()
    t0 = table.now
    cores: list[SessionCore] = []
    for seat in range(N):
        core = SessionCore(start, keys[seat], settings, t0,
                           src=SeededRandom(b"grace/%d" % seat), rng=random.Random(seat),
                           host_addr=None)
        secrets = PeerSecrets.from_bytes(game.peers[seat].export_secrets().to_bytes())
        core.restore(secrets, list(game.peers[seat].entries[:entries]), t0)
        cores.append(core)
        table.add(core, address(seat))
    table.mesh()
    for seat in colluders:  # they sign "silent" about the owed step at once
        peer = cores[seat].peer
        assert peer.expected_seat() == accuser and peer.on_timeout(LIAR_CLOCK)
        raw, _ = peer.vote("abandon", LIAR_CLOCK)
        table.inject(pub[seat], pub[honest], TAG_SYNC, pack({"t": "vote", "v": raw}))
    h = pub[honest]
    for _ in colluders:  # the votes (last on the wire) reach H first
        table.deliver(len(table.wire) - 1)
    assert cores[honest].peer.status.value == "running"

    def pending_elsewhere() -> int | None:
        return next((i for i, m in enumerate(table.wire) if m.dst != h), None)

    while (i := pending_elsewhere()) is not None:  # the rest of the table plays on
        table.deliver(i)
    table.advance_to(t0 + TIMEOUT)  # H's own deadline: it reports the accuser silent
    table.advance_to(t0 + TIMEOUT + delay)  # (past 2 * TIMEOUT: it reports it again)
    while (i := pending_elsewhere()) is not None:
        table.deliver(i)
    table.run(lambda member, choice: None, patience=10 * TIMEOUT)
    member = table.members[h]
    events = [e.event for e in member.events if isinstance(e, api.Engine)]

    def verdict(seat: int) -> tuple[Verdict, bytes]:
        data = cores[seat].peer.transcript().to_bytes()
        return audit(parse(data), data), data

    hv, hd = verdict(honest)
    av, ad = verdict(accuser)
    return Outcome(hv, av, hd == ad, events, accuser, colluders)


def test_a_step_late_by_less_than_the_grace_still_wins() -> None:
    out = run_delayed(TIMEOUT / 2)  # 15 s after H's deadline, within the grace
    assert not any(isinstance(e, ev.Abandoned) for e in out.honest_events)
    assert any(isinstance(e, ev.PeerSilent) for e in out.honest_events)  # it was late
    for v in (out.honest, out.accuser):
        assert v.valid and v.blamed is None and v.forfeit is None
        assert (v.result, v.winner) == ("won", out.accuser_seat)
    assert out.same_file


def test_a_step_later_than_the_grace_is_forfeited() -> None:
    """The grace is finite: past two timeouts H counts the votes (the voters' word)."""
    out = run_delayed(TIMEOUT + 1.0)
    assert ev.Abandoned(out.accuser_seat, tuple(sorted(out.colluders)), True, None, None) \
        in out.honest_events
    assert out.honest.valid and out.honest.blamed is None
    assert out.honest.forfeit == {"seat": out.accuser_seat, "voters": sorted(out.colluders)}
    assert (out.accuser.result, out.accuser.winner) == ("won", out.accuser_seat)
    assert not out.same_file
