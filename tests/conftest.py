"""Settings for the whole test suite."""

from __future__ import annotations

import os

import pytest

# p2pclue speaks the language of LC_ALL / LC_MESSAGES / LANG. The tests read English unless
# a test chooses a language itself (--lang, or an environment it builds), so a developer's
# own locale (say LANG=cs_CZ.UTF-8) must not reach the commands they run. C.UTF-8 keeps
# subprocesses in UTF-8.
for _name in ("LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"

# The debug switch of issue 21: every peer the tests make (in process or in a spawned
# player process) also verifies the proofs it has just built itself, so a bug in building
# one shows at its source. Players run without it; tests/engine/test_verify_own.py
# checks that both ways give the same transcripts.
os.environ.setdefault("P2PCLUE_VERIFY_OWN", "1")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--lang", default="en",
                     help="languages for the tests that take a `lang` parameter from the "
                          "command line: a code, a comma-separated list, or 'all'")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``lang_from_cli``: the languages ``--lang`` names (default English)."""
    if "lang_from_cli" in metafunc.fixturenames:
        from p2pclue.i18n import LANGUAGES

        asked = str(metafunc.config.getoption("--lang"))
        langs = sorted(LANGUAGES) if asked == "all" else asked.split(",")
        metafunc.parametrize("lang_from_cli", langs)
