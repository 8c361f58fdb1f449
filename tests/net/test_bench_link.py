"""The "link" bench section runs in quick mode over real loopback links and reports figures."""

from __future__ import annotations

from p2pclue.bench.link import section
from p2pclue.net.discovery import multicast_available
from p2pclue.net.junk import JUNK_BURST


def test_quick_link_section_reports_pairing_and_frame_times() -> None:
    lines: list[str] = []
    figures = section(lines.append, quick=True)
    for key in ("link_pair_code_ms", "link_pair_nocode_ms"):
        assert 0 < figures[key]["median"] <= figures[key]["p95"]
    assert figures["link_frame_300b_ms"] > 0 and figures["link_frame_256kib_ms"] > 0
    assert ("link_discovery_ms" in figures) == multicast_available("127.0.0.1")
    assert any("pairing with a code" in line for line in lines)
    assert figures["junk_rejected_per_s"] > 0 and figures["junk_cuts"] == 1
    assert JUNK_BURST <= figures["junk_until_cut"] < 2 * JUNK_BURST
