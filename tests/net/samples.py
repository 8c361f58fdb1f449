"""A finished game for the tests that only read one: a stored sample (protocol/samples),
parsed once, instead of a game played for them."""

from __future__ import annotations

from functools import cache

from p2pclue.engine.transcript import Transcript, parse
from tests.net.procs import ROOT

CLASSIC_3P = ROOT / "protocol" / "samples" / "classic-3p.p2pclue"
"""Three players, classic rules, 80 entries, complete (protocol/samples/README.md)."""


@cache
def classic_3p() -> Transcript:
    """The sample's config, its entries and its footer."""
    return parse(CLASSIC_3P.read_bytes())
