"""The junk budget's arithmetic: burst, refill, cut, growing refusal, bounded memory."""

from __future__ import annotations

from p2pclue.net.junk import MAX_ACCOUNTS, JunkBudget

A, B = b"a" * 32, b"b" * 32


def test_a_burst_then_a_rate_then_the_cut() -> None:
    budget = JunkBudget(burst=10, rate=2, ban_first=1, ban_max=4)
    assert not any(budget.charge(A, 1, 0.0) for _ in range(10))
    assert budget.charge(A, 1, 0.0), "the 11th frame at once is over budget"
    assert not budget.charge(B, 10, 0.0), "each identity has its own bucket"
    assert budget.cut(A, 0.0) == 0.0, "a first cut: it may re-link at once"
    assert not budget.banned(A, 0.0)
    assert budget.charge(A, 1, 0.1), "its bucket stays empty after the cut"
    assert not budget.charge(A, 1, 1.0), "it refills at the rate (2 per second)"
    assert budget.cut(A, 2.0) == 3.0 and budget.banned(A, 2.5) and not budget.banned(A, 3.0)
    assert budget.cut(A, 3.0) == 5.0, "the refusal doubles"
    budget.cut(A, 5.0)
    assert budget.cut(A, 10.0) == 14.0, "up to ban_max"
    assert budget.cuts(A) == 5 and budget.cuts(B) == 0
    assert not budget.charge(A, 10, 1000.0), "a full bucket again after a long quiet"


def test_memory_is_bounded_and_keeps_offenders() -> None:
    budget = JunkBudget()
    budget.charge(A, 500, 0.0)
    budget.cut(A, 0.0)
    budget.cut(A, 0.0)
    for i in range(MAX_ACCOUNTS * 2):
        budget.charge(i.to_bytes(32, "big"), 1, 0.0)
    assert len(budget._accounts) <= MAX_ACCOUNTS
    assert budget.cuts(A) == 2 and budget.banned(A, 0.5), "a refused key is not forgotten"
