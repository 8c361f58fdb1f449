"""Settings for the whole test suite."""

from __future__ import annotations

import os

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
