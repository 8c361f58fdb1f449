"""A person quits mid-game ("y: quit now") and audits the file left behind.

``p2pclue join --create --plain --bots 2``, every seat a real peer on loopback links. At its
first decision the person types ``q`` then ``y``: the game stays unfinished on disk, to be
resumed later. Its transcript file holds whole entries and no footer. ``p2pclue audit`` used
to reject it as "truncated inside entry N" although all N entries were whole; it must say
"valid so far" (exit 0, JSON ``unfinished``) and count them, while a copy with a torn last
entry is still reported as truncated (exit 2). The game is still offered for resume.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from p2pclue.net.store import read_unfinished
from tests.cli.helpers import ROOT
from tests.net.plain_person import PlainPerson, env_for


def _audit(path: Path, env: dict[str, str], *more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "p2pclue", "audit", str(path), *more],
                          env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_the_file_of_a_quit_game_audits_as_valid_so_far(tmp_path: Path) -> None:
    home = tmp_path / "home"
    person = PlainPerson(home, tmp_path / "person.txt", "--create", "--no-code", "--bots",
                         "2", "--bot-think", "0")
    try:
        person.play_until(r"(Your turn:|asks you to refute)", 180)
        person.at_question(30)
        person.type("q", "y")  # quit now: the table waits; resume later
        person.proc.wait(60)
        said = person.said()
        assert person.proc.returncode == 0, said[-3000:]
    finally:
        person.stop()
    found = sorted((home / "profiles" / "default" / "games").glob("*/transcript.p2pclue"))
    assert len(found) == 1, found
    mine = found[0]
    _config, entries = read_unfinished(mine)
    assert len(entries) >= 18, len(entries)  # the deal alone is 18 messages at 3 seats
    env = env_for(home)

    told = _audit(mine, env)
    assert told.returncode == 0, told.stdout + told.stderr
    assert "VALID SO FAR" in told.stdout and "truncated" not in told.stdout + told.stderr
    assert f"its {len(entries)} entries verify" in told.stdout, told.stdout
    verdict = json.loads(_audit(mine, env, "--json").stdout.strip().splitlines()[-1])
    assert verdict["valid"] is True and verdict["unfinished"] is True, verdict
    assert verdict["result"] == "unfinished" and verdict["entries"] == len(entries)

    torn = tmp_path / "torn.p2pclue"
    torn.write_bytes(mine.read_bytes()[:-5])  # the writer died inside its last append
    cut = _audit(torn, env)
    assert cut.returncode == 2, cut.stdout + cut.stderr
    assert f"truncated: the file ends inside entry {len(entries) - 1}" in cut.stderr, cut.stderr
    assert "Traceback" not in cut.stderr

    listed = subprocess.run([sys.executable, "-m", "p2pclue", "join", "--resume", "list"],
                            env=env, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert mine.parent.name in listed.stdout, "a quit game is resumed later"
