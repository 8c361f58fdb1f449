"""A person quits mid-game ("y: quit now") and audits the file left behind.

``p2pclue join --create --plain --bots 2``, every seat a real peer on loopback links. At its
first decision the person types ``q`` then ``y``: the game stays unfinished on disk, to be
resumed later. Its transcript file holds whole entries and no footer. ``p2pclue audit`` used
to reject it as "truncated inside entry N" although all N entries were whole; it must say
"valid so far" (exit 0, JSON ``unfinished``) and count them, while a copy with a torn last
entry is still reported as truncated (exit 2). The game is still offered for resume. (The
person is a real process; ``audit`` and ``join --resume list`` run in this one.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2pclue.net.store import read_unfinished
from tests.net.inproc import run_main
from tests.net.plain_person import PlainPerson


def test_the_file_of_a_quit_game_audits_as_valid_so_far(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    person = PlainPerson(home, tmp_path / "person.txt", "--create", "--no-code", "--bots",
                         "2", "--bot-think", "0", "--pass-delay", "0")
    try:
        person.play_until(r"(Your turn:|asks you to refute)")
        person.at_question()
        person.type("q", "y")  # quit now: the table waits; resume later
        assert person.finish() == 0, person.said()[-3000:]
    finally:
        person.stop()
    found = sorted((home / "profiles" / "default" / "games").glob("*/transcript.p2pclue"))
    assert len(found) == 1, found
    mine = found[0]
    _config, entries = read_unfinished(mine)
    assert len(entries) >= 18, len(entries)  # the deal alone is 18 messages at 3 seats

    def command(*argv: str) -> tuple[int, str, str]:
        ran = run_main(monkeypatch, capsys, home, "--lang", "en", *argv)
        return ran.code, ran.out, ran.err

    code, out, err = command("audit", str(mine))
    assert code == 0, out + err
    assert "VALID SO FAR" in out and "truncated" not in out + err
    assert f"its {len(entries)} entries verify" in out, out
    code, out, err = command("audit", str(mine), "--json")
    verdict = json.loads(out.strip().splitlines()[-1])
    assert verdict["valid"] is True and verdict["unfinished"] is True, verdict
    assert verdict["result"] == "unfinished" and verdict["entries"] == len(entries)

    torn = tmp_path / "torn.p2pclue"
    torn.write_bytes(mine.read_bytes()[:-5])  # the writer died inside its last append
    code, out, err = command("audit", str(torn))
    assert code == 2, out + err
    assert f"truncated: the file ends inside entry {len(entries) - 1}" in err, err

    code, out, err = command("join", "--resume", "list")
    assert code == 0 and mine.parent.name in out, "a quit game is resumed later"
