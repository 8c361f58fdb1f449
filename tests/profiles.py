"""Hypothesis profiles for the suite, and the example budget of tests that set their own.

``ci`` (the default, and always where ``CI=true``): the same examples on every run
(derandomized), a bounded count, no deadline (a loaded machine must not fail a property) and
no example database, so nothing is written into the clone; a failure prints the blob that
reproduces it. ``deep`` (``HYPOTHESIS_PROFILE=deep``): random examples, many more of them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from hypothesis import HealthCheck, settings

CI, DEEP = "ci", "deep"
DEEP_FACTOR = 20
"""How many times its own CI budget a test with an explicit ``max_examples`` runs under deep."""

settings.register_profile(
    CI, derandomize=True, max_examples=100, deadline=None, database=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    DEEP, derandomize=False, max_examples=100 * DEEP_FACTOR, deadline=None, database=None,
    print_blob=True, suppress_health_check=[HealthCheck.too_slow])


def chosen(environ: Mapping[str, str] = os.environ) -> str:
    """``HYPOTHESIS_PROFILE`` when set (an explicit ask wins, also on CI), else ``ci``."""
    asked = environ.get("HYPOTHESIS_PROFILE", CI)
    if asked not in (CI, DEEP):
        raise ValueError(f"HYPOTHESIS_PROFILE={asked!r}: the profiles are {CI!r} and {DEEP!r}")
    return asked


def examples(ci_budget: int) -> int:
    """``max_examples`` for a test whose CI budget is ``ci_budget`` (a whole game per example
    needs fewer than a wire encoding): that many under ``ci``, ``DEEP_FACTOR`` times more
    under ``deep``."""
    deep = settings.get_current_profile_name() == DEEP
    return ci_budget * DEEP_FACTOR if deep else ci_budget
