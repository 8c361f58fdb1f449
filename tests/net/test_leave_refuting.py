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

import re
from pathlib import Path

import pytest

from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from tests.net.inproc import run_main
from tests.net.plain_person import PlainPerson

BOT_SUGGESTS = re.compile(r"^(?!You )\S.* suggests: ", re.M)


GAMES = 4  # the cards decide whether the person is ever asked: a quick game can end first
GAME_OVER = re.compile(r"^valid \(", re.M)


def _play_until_asked(tmp_path: Path, attempt: int) -> tuple[Path, PlainPerson] | None:
    """One game; the person leaves when asked to refute, or None: the game ended first."""
    home = tmp_path / f"home{attempt}"
    person = PlainPerson(home, tmp_path / f"person{attempt}.txt", "--create", "--no-code",
                         "--bots", "3", "--bot-think", "0", "--name", "Pat", "--pass-delay", "0")
    left: list[bool] = []

    def ask(question: str, story: str) -> list[str] | None:
        # A bot's earlier suggestion was answered: that bot remembers its last triple.
        if "asks you to refute" in question and len(BOT_SUGGESTS.findall(story)) >= 2:
            left.append(True)
            return ["q", "l"]
        return None

    try:
        person.play_until(r"(?m)You leave the table; your cards, laid face up|^valid \(",
                          on_ask=ask)
        if not left:
            assert GAME_OVER.search(person.said()), person.said()[-3000:]
            assert person.finish() == 0, person.said()[-3000:]
            return None
        return home, person
    except BaseException:
        person.stop()
        raise


def test_a_person_leaves_during_a_refutation_and_the_bots_finish(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    played = None
    for attempt in range(GAMES):
        played = _play_until_asked(tmp_path, attempt)
        if played is not None:
            break
    assert played is not None, f"in {GAMES} games the person was never asked to refute late"
    home, person = played
    try:
        code = person.finish()  # a table that stalled after the leave hangs here
        said = person.said()
        assert code == 0, said[-3000:]
        assert "Traceback" not in said, said[-3000:]
    finally:
        person.stop()
    files = [sorted((home / "profiles" / f"default.bot{k}" / "games").glob(
        "*/transcript.p2pclue")) for k in (1, 2, 3)]
    assert all(len(found) == 1 for found in files), files
    assert len({found[0].read_bytes() for found in files}) == 1, "one transcript, byte for byte"
    raw = files[0][0].read_bytes()
    verdict = audit(parse(raw), raw)
    assert verdict.valid, verdict.violation
    assert verdict.result in ("won", "nobody"), verdict.result
    me = next(p["seat"] for p in verdict.players if p["name"] == "Pat")
    assert [e.seat for e in verdict.events if isinstance(e, ev.PlayerLeft)] == [me]
    listed = run_main(monkeypatch, capsys, home, "join", "--resume", "list")
    assert listed.code == 0 and listed.out.strip() == "", \
        "a game the person left is not offered to resume"
