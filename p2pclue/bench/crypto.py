"""Benchmark section "crypto": group multiplications and time per proof, and whole deals.

Multiplication counts come from ``MULT_COUNTER`` (exact, machine-independent); times
are the best of a few runs with ``time.perf_counter``. The deal figure is the whole
two-phase deal in one process with every proof decoded from its wire form and verified
by every other player separately (see ``p2pclue.crypto.deck``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

from p2pclue.bench import Emit
from p2pclue.crypto.cards import card_point
from p2pclue.crypto.context import ProofContext
from p2pclue.crypto.deck import run_deal
from p2pclue.crypto.group import MULT_COUNTER, Point, base_mul, mul
from p2pclue.crypto.proofs import (
    pet_start,
    pet_step,
    pet_weights,
    prove_commit_show,
    prove_key,
    prove_none,
    prove_show,
    shuffle,
    unlayer,
    verify_commit_show,
    verify_key,
    verify_none,
    verify_pet_step,
    verify_show,
    verify_shuffle,
    verify_unlayer,
)
from p2pclue.crypto.rand import SeededRandom, random_scalar

CTX = ProofContext(b"bench", "bench", 0)
DECK_SIZES = (6, 9, 18, 21)


def _measure(fn: Callable[[], Any], reps: int) -> tuple[int, float, Any]:
    """(multiplications of one run, best milliseconds, last result)."""
    best = float("inf")
    mults = 0
    result: Any = None
    for _ in range(reps):
        MULT_COUNTER.reset()
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
        mults = MULT_COUNTER.total
    return mults, best * 1000, result


def _deck(n: int) -> list[Point]:
    src = SeededRandom(b"bench-deck")
    return [mul(random_scalar(src), card_point(i % 21)) for i in range(n)]


def _verify_shuffle(deck: list[Point], y: Point, result: Any) -> None:
    verify_shuffle(CTX, deck, result[0], y, result[2])


def _verify_unlayer(deck: list[Point], y: Point, result: Any) -> None:
    verify_unlayer(CTX, deck, result[0], y, result[1])


def section(emit: Emit, quick: bool) -> dict[str, Any]:
    reps = 1 if quick else 3
    src = SeededRandom(b"bench")
    k = random_scalar(src)
    y = base_mul(k)
    figures: dict[str, Any] = {}
    emit("crypto: group multiplications (mults) and best time per proof")

    proofs: dict[str, Any] = {}

    def record(name: str, prove: Callable[[], Any], verify: Callable[[Any], Any]) -> None:
        pm, pms, res = _measure(prove, reps)
        vm, vms, _ = _measure(lambda: verify(res), reps)
        proofs[name] = {"prove_mults": pm, "prove_ms": round(pms, 2),
                        "verify_mults": vm, "verify_ms": round(vms, 2)}
        emit(f"  {name:<22} prove {pm:5d} mults {pms:8.2f} ms   "
             f"verify {vm:5d} mults {vms:8.2f} ms")

    record("key", lambda: prove_key(CTX, k, src), lambda p: verify_key(CTX, y, p))
    for n in DECK_SIZES:
        deck = _deck(n)
        record(f"shuffle[{n}]", partial(shuffle, CTX, deck, k, src),
               partial(_verify_shuffle, deck, y))
        record(f"unlayer[{n}]", partial(unlayer, CTX, deck, k, y, src),
               partial(_verify_unlayer, deck, y))
    hand = [mul(k, card_point(i)) for i in (0, 6, 12, 13, 14, 15)]
    suggester = base_mul(random_scalar(src))
    record("show[hand 6]", lambda: prove_show(CTX, (0, 7, 16), hand, k, y, 0, 0, suggester, src),
           lambda r: verify_show(CTX, (0, 7, 16), hand, y, suggester, r[0], r[1]))
    record("commit-show[hand 6]",
           lambda: prove_commit_show(CTX, (0, 7, 16), hand, k, y, 0, 0, suggester, src),
           lambda r: verify_commit_show(CTX, (0, 7, 16), hand, y, suggester, r[0], r[1]))
    record("none[hand 6]", lambda: prove_none(CTX, (1, 7, 16), hand, k, y, src),
           lambda p: verify_none(CTX, (1, 7, 16), hand, y, p))
    env = [mul(k, card_point(i)) for i in (1, 9, 18)]
    q0, p0 = pet_start(env, (1, 9, 18), pet_weights(CTX, (1, 9, 18), env))
    record("pet_step", lambda: pet_step(CTX, q0, p0, k, y, src),
           lambda r: verify_pet_step(CTX, q0, p0, r[0], r[1], y, r[2]))
    figures["crypto_proofs"] = proofs

    s21 = proofs["shuffle[21]"]
    figures["shuffle_mults_per_card"] = {"prove": round(s21["prove_mults"] / 21, 2),
                                         "verify": round(s21["verify_mults"] / 21, 2)}
    emit(f"  shuffle of 21: {figures['shuffle_mults_per_card']['prove']} mults/card to prove, "
         f"{figures['shuffle_mults_per_card']['verify']} to verify")

    deal: dict[str, float] = {}
    deal_cpu: dict[str, float] = {}
    deal_mults: dict[str, int] = {}
    emit("crypto: whole deal (keys, both phases, hands opened, every proof verified "
         "by every other player from its wire form)")
    for n in range(3, 7):
        sources = [SeededRandom(f"bench-deal-{n}-{j}".encode()) for j in range(n)]
        cpu0 = time.process_time()
        mults, ms, _ = _measure(partial(run_deal, n, b"bench", sources), 1 if quick else 2)
        cpu = (time.process_time() - cpu0) / (1 if quick else 2)
        deal[str(n)] = round(ms / 1000, 3)
        deal_cpu[str(n)] = round(cpu, 3)
        deal_mults[str(n)] = mults
        emit(f"  {n} players: {ms / 1000:6.2f} s wall (best), {cpu:6.2f} s CPU (mean), "
             f"{mults} mults")
    figures["deal_seconds"] = deal
    figures["deal_cpu_seconds"] = deal_cpu
    figures["deal_mults"] = deal_mults
    return figures
