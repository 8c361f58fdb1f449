"""The crypto benchmark section runs and reports the figures the lead wires in."""

from __future__ import annotations

from p2pclue.bench.crypto import section


def test_crypto_bench_section_reports_costs_and_deal_times() -> None:
    lines: list[str] = []
    figures = section(lines.append, True)
    assert set(figures["deal_seconds"]) == {"3", "4", "5", "6"}
    assert all(v > 0 for v in figures["deal_seconds"].values())
    per_card = figures["shuffle_mults_per_card"]
    assert 0 < per_card["verify"] <= 8
    assert 0 < per_card["prove"] <= 25
    assert figures["deal_mults"]["6"] > figures["deal_mults"]["3"]
    assert any("6 players" in line for line in lines)
    proofs = figures["crypto_proofs"]
    assert {"shuffle[21]", "unlayer[6]", "show[hand 6]", "commit-show[hand 6]", "none[hand 6]",
            "pet_step", "key"} <= set(proofs)
    for side in ("prove_mults", "verify_mults"):  # the deniable show costs no more (issue 22)
        assert proofs["commit-show[hand 6]"][side] <= proofs["show[hand 6]"][side]
