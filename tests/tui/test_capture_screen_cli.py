"""``python -m tests.tui.capture_screen`` (what draws docs/screen-80x24.txt) answers its
command line as a tool should: ``--help`` prints the options and exits 0, a bad argument
is one line on stderr and exit status 2, and a capture writes the file it is told to."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.tui.drive import ROOT, pty_env


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tests.tui.capture_screen", *args],
                          capture_output=True, text=True, timeout=300, env=pty_env(),
                          cwd=ROOT)


def test_help_prints_the_options_and_exits_0() -> None:
    done = _run("--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: python -m tests.tui.capture_screen")
    for option in ("seed", "--min-turn", "--out"):
        assert option in done.stdout, done.stdout
    assert done.stderr == ""


@pytest.mark.parametrize(("args", "says"), [
    (("--help-me",), "unrecognized arguments: --help-me"),
    (("four",), "argument seed: invalid int value: 'four'"),
    (("4", "5"), "unrecognized arguments: 5"),
    (("--min-turn", "-1"), "--min-turn must be 0 or more"),
    (("--out",), "argument --out: expected one argument"),
    (("--out", "/nonexistent-t31/screen.txt"), "--out: no folder '/nonexistent-t31'"),
])
def test_a_bad_argument_is_one_line_and_exit_2(args: tuple[str, ...], says: str) -> None:
    done = _run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"python -m tests.tui.capture_screen: error: {says}\n"


def test_a_capture_writes_the_screen_where_it_is_told(tmp_path: Path) -> None:
    out = tmp_path / "screen.txt"
    done = _run("--out", str(out))
    assert done.returncode == 0, done.stderr
    lines = out.read_text("utf-8").splitlines()
    assert len(lines) == 24, lines
    assert any(line.startswith("Rooms in reach:") for line in lines), lines
    assert "Lounge" in done.stdout
