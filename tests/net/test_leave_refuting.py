"""A person leaves gracefully while it is asked to refute, at a 4-seat classic table.

``p2pclue join --create --plain --bots 3``: the person's three bots live in its process,
each a real peer with its own keys and loopback links. The person answers as a careful
player until a bot that already had a suggestion answered asks it to refute, then types
``q`` and ``l``: its hand goes face up and the refutation moves on to the next seat.

The table once stalled here: a bot took the leaver's open hand for cards shown in answer
to its own last suggestion, its notepad refused a card that suggestion had not named, and
its driver died with the session; the next refuter never answered. Now the bots must play
the game to its end: the process exits 0, the three bots' transcripts are finished,
byte-identical and valid, and they hold the person's ``leave``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.cli.helpers import ROOT
from tests.net.plain_person import PlainPerson, env_for

BOTS_FINISH = 240.0
BOT_SUGGESTS = re.compile(r"^(?!You )\S.* suggests: ", re.M)


GAMES = 4  # the cards decide whether the person is ever asked: a quick game can end first
GAME_OVER = re.compile(r"^valid \(", re.M)


def _play_until_asked(tmp_path: Path, attempt: int) -> tuple[Path, PlainPerson] | None:
    """One game; the person leaves when asked to refute, or None: the game ended first."""
    home = tmp_path / f"home{attempt}"
    person = PlainPerson(home, tmp_path / f"person{attempt}.txt", "--create", "--no-code",
                         "--bots", "3", "--bot-think", "0", "--name", "Pat")
    left: list[bool] = []

    def ask(question: str, story: str) -> list[str] | None:
        # A bot's earlier suggestion was answered: that bot remembers its last triple.
        if "asks you to refute" in question and len(BOT_SUGGESTS.findall(story)) >= 2:
            left.append(True)
            return ["q", "l"]
        return None

    try:
        person.play_until(r"(?m)You leave the table; your cards, laid face up|^valid \(", 300, ask)
        if not left:
            assert GAME_OVER.search(person.said()), person.said()[-3000:]
            person.proc.wait(60)
            return None
        return home, person
    except BaseException:
        person.stop()
        raise


def test_a_person_leaves_during_a_refutation_and_the_bots_finish(tmp_path: Path) -> None:
    played = None
    for attempt in range(GAMES):
        played = _play_until_asked(tmp_path, attempt)
        if played is not None:
            break
    assert played is not None, f"in {GAMES} games the person was never asked to refute late"
    home, person = played
    try:
        try:
            person.proc.wait(BOTS_FINISH)
        except subprocess.TimeoutExpired:
            raise AssertionError("the table stalled after the leave:\n"
                                 + person.said()[-3000:]) from None
        said = person.said()
        assert person.proc.returncode == 0, said[-3000:]
        assert "Traceback" not in said, said[-3000:]
    finally:
        person.stop()
    files = [sorted((home / "profiles" / f"default.bot{k}" / "games").glob(
        "*/transcript.p2pclue")) for k in (1, 2, 3)]
    assert all(len(found) == 1 for found in files), files
    assert len({found[0].read_bytes() for found in files}) == 1, "one transcript, byte for byte"
    env = env_for(home)
    audit = subprocess.run([sys.executable, "-m", "p2pclue", "audit", str(files[0][0]),
                            "--replay", "--json"], env=env, capture_output=True, text=True,
                           timeout=120, cwd=ROOT)
    lines = [json.loads(line) for line in audit.stdout.splitlines() if line.startswith("{")]
    verdict = lines[-1]
    assert audit.returncode == 0 and verdict["valid"] is True, audit.stdout[-3000:]
    assert verdict["result"] in ("won", "nobody"), verdict
    me = next(p["seat"] for p in verdict["players"] if p["name"] == "Pat")
    assert [e["seat"] for e in lines if e.get("event") == "PlayerLeft"] == [me]
    listed = subprocess.run([sys.executable, "-m", "p2pclue", "join", "--resume", "list"],
                            env=env, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert listed.stdout.strip() == "", "a game the person left is not offered to resume"
