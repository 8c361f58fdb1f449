"""Programs the fault model found, replayed rule by rule with every property checked after
each rule and at the end. Both showed the same behaviour of the votes: under a partition
one seat counts an abandon quorum about a silent seat and ends the game abandoned, while
the others receive the awaited entry first (their votes lapse) and play on without it.
The spec allows this (each peer's counting is its own); the model's end properties had
wrongly assumed that a table ends complete when nobody honest had ended, and that the
spectator's complete game extends every seat's transcript."""

from __future__ import annotations

from typing import Any

from p2pclue.bench.tablemodel.machine import Junk, TableModel, machine
from p2pclue.bench.tablemodel.table import Plan, Tally

INVARIANTS = ("transcripts_agree", "nobody_honest_blamed", "persisted_is_accepted",
              "honest_links_uncharged")


def replay(plan: Plan, program: list[tuple[str, dict[str, Any]]]) -> TableModel:
    model = machine(Tally())()
    model.open_table(plan=plan)
    for name, arguments in program:
        getattr(model, name)(**arguments)
        for invariant in INVARIANTS:
            getattr(model, invariant)()
    model.teardown()
    return model


def test_a_seat_that_ended_abandoned_alone_leaves_the_others_abandoned_later() -> None:
    """Seat 1 (planned to cheat, never did) is cut off, counts seat 0's and its own abandon
    votes about seat 2 and ends; seats 0 and 2 got seat 2's entry and play on, seat 0
    leaves, and seat 2, the only seat still at the table, is then the quorum that abandons
    the game about the seat that ended."""
    plan = Plan(3, seed=5677, patience=7, cheat="bad-decrypt", cheater=1, phase="open",
                dealt=True)
    model = replay(plan, [
        ("delay", {"past": 29}), ("delay", {"past": 0}), ("duplicate", {"pick": 11146}),
        ("cut", {"pick": 8}), ("cut", {"pick": 0}), ("delay", {"past": 48}),
        ("leave", {"pick": 4}), ("delay", {"past": 25}), ("play", {"steps": 106}),
        ("delay", {"past": 69}), ("cut", {"pick": 0}),
        ("crash", {"after": 0, "pick": 4, "power": False}), ("leave", {"pick": 0}),
        ("resume", {"pick": 0})])
    t = model.t
    assert not t.cheated and set(t.ended_before_heal) == {1}
    for seat in (0, 1, 2):
        footer = t.member(seat).disk.footer
        assert footer is not None and footer.status == "abandoned" and footer.blame is None
    assert len(t.member(1).disk.entries) < len(t.member(2).disk.entries)


def test_a_leaver_that_ended_abandoned_does_not_hold_back_the_spectators_complete_game(
) -> None:
    """Seat 0 left, then ended abandoned on its own count; the four others and the spectator
    played on to one complete game that seat 0's transcript is a prefix of."""
    plan = Plan(5, seed=1791, patience=4, paced=0, dealt=True)
    model = replay(plan, [
        ("leave", {"pick": 3}), ("drop", {"link_stays": False, "pick": 1326}),
        ("stranger_junk", {"pick": 1, "what": Junk(0, b"", 726, 153)}),
        ("delay", {"past": 70}), ("play", {"steps": 179}),
        ("crash", {"after": 19, "pick": 4, "power": False}), ("leave", {"pick": 4}),
        ("drop", {"link_stays": True, "pick": 15533}), ("leave", {"pick": 0}),
        ("play", {"steps": 303}), ("play", {"steps": 199}), ("resume", {"pick": 3}),
        ("leave", {"pick": 5}),
        ("stranger_junk", {"pick": 2, "what": Junk(0, b"", 1387, 387)}),
        ("play", {"steps": 178}),
        ("stranger_junk", {"pick": 5, "what": Junk(0, b"", 1239, 163)}),
        ("cut", {"pick": 1})])
    t = model.t
    footers = [t.member(seat).disk.footer for seat in range(5)]
    assert [f.status if f else None for f in footers] == ["abandoned"] + ["complete"] * 4
    spectator = t.stranger.peer.entries
    assert t.member(1).disk.entries == spectator
    assert spectator[:len(t.member(0).disk.entries)] == t.member(0).disk.entries
