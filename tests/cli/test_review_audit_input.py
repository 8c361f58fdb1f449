"""Review: ``p2pclue audit`` on a file no transcript could be, from a real process.

A transcript is untrusted input that people pass around. Before the fix the audit read the
whole file into memory first, so an endless file (``/dev/zero``, a FIFO someone keeps
writing) or a huge one grew the process without bound; now it reads at most one byte past
the transcript size limit and says the file is unreadable (exit 2).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from p2pclue.engine.errors import TranscriptError
from p2pclue.engine.transcript import MAX_TRANSCRIPT_BYTES, parse, parse_unfinished
from tests.cli.helpers import cli_env, last_json

ADDRESS_SPACE = 2 * 1024**3
"""The process's memory cap: a reader that holds an endless file dies instead of the machine."""


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_file_is_refused_without_holding_it(tmp_path: Path) -> None:
    huge = tmp_path / "huge.p2pclue"
    with open(huge, "wb") as f:  # sparse: 3 GB on paper, nothing on disk
        f.truncate(3 * 2**30)
    for path, error in (("/dev/zero", "not a regular file"),  # a device: not even opened
                        (str(huge), "larger than any transcript")):
        proc = subprocess.run(
            [sys.executable, "-m", "p2pclue", "audit", "--json", path],
            capture_output=True, text=True, env=cli_env(), timeout=120, preexec_fn=_capped)
        assert proc.returncode == 2, proc.stderr[-2000:]
        assert "Traceback" not in proc.stderr
        verdict = last_json(proc.stdout)
        assert verdict["result"] == "unreadable" and error in verdict["error"]
        assert verdict["transcript_sha256"] is None


def test_the_parsers_refuse_more_than_the_limit() -> None:
    data = b"P2PCLUE\x00" + bytes(MAX_TRANSCRIPT_BYTES - 7)
    for reader in (parse, parse_unfinished):
        with pytest.raises(TranscriptError, match="larger than any transcript"):
            reader(data)
