"""Settings for the whole test suite.

Hypothesis runs under one of two profiles (``tests/profiles.py``):

- ``ci``, the default and what CI (``CI=true``) runs: derandomized, so every run tries the
  same examples; bounded counts; no deadline; no example database; a failure prints the
  ``@reproduce_failure`` blob.
- ``deep``: ``HYPOTHESIS_PROFILE=deep python -m pytest tests/engine`` (say) tries random
  examples, twenty times as many, also for the tests that set their own count through
  ``tests.profiles.examples``.

``HYPOTHESIS_PROFILE`` (or pytest's ``--hypothesis-profile``) chooses; nothing else does.
Hypothesis keeps its caches in a temporary folder removed at the end of the run, not in
``.hypothesis`` in the clone, unless ``HYPOTHESIS_STORAGE_DIRECTORY`` names a folder.

The production setting is the default: a peer does not re-verify the proofs it has just
built. ``P2PCLUE_VERIFY_OWN=1`` (the debug switch) is set only by the tests of that switch
(tests/engine/test_verify_own.py); exported in the shell, it applies to every test.
"""

from __future__ import annotations

import compileall
import os
import shutil
import tempfile
from functools import partial
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

from tests.profiles import chosen

PACKAGE = Path(__file__).resolve().parents[1] / "p2pclue"

# p2pclue speaks the language of LC_ALL / LC_MESSAGES / LANG. The tests read English unless
# a test chooses a language itself (--lang, or an environment it builds), so a developer's
# own locale (say LANG=cs_CZ.UTF-8) must not reach the commands they run. C.UTF-8 keeps
# subprocesses in UTF-8.
for _name in ("LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"


LONG_FIRST = ("tests/tui/test_evening.py", "tests/net/test_model_table.py",
              "tests/net/test_fault_campaign.py", "tests/net/test_resume.py",
              "tests/net/test_resume_person.py", "tests/test_bench_goals.py",
              "tests/bots/test_bench_bots.py", "tests/tui/test_join_e2e.py",
              "tests/net/test_session.py")
"""The modules whose tests take longest (tens of seconds to minutes of wall time each)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first: on two workers a long test left for the end is run alone
    while the other worker idles, which was most of a minute of CI's wall time. The order
    changes nothing else: no test depends on another having run."""
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return LONG_FIRST.index(path) if path in LONG_FIRST else len(LONG_FIRST)

    items.sort(key=rank)  # stable: the rest keep their order


def pytest_configure(config: pytest.Config) -> None:
    """The Hypothesis profile, loaded before any test module builds its settings; a home
    for Hypothesis's caches outside the clone; and the package's bytecode, compiled once.

    Many tests start ``python -m p2pclue`` processes. Where ``PYTHONDONTWRITEBYTECODE`` is
    set (this project's machines set it), each of them would compile every module it
    imports again; compiled once here, they read the cache instead."""
    compileall.compile_dir(PACKAGE, quiet=1)
    if not config.getoption("--hypothesis-profile", None):
        try:
            settings.load_profile(chosen())
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from None
    if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        home = tempfile.mkdtemp(prefix="p2pclue-hypothesis-")
        set_hypothesis_home_dir(home)
        config.add_cleanup(partial(shutil.rmtree, home, ignore_errors=True))

