"""A person out after a wrong accusation leaves the table, and is not offered it to resume.

``p2pclue join --create --bots 2`` on a real pseudo-terminal (pyte); the bots live in the
person's process, every seat a real peer on loopback links. At its first turn the person
accuses, naming a card of its own hand (so the accusation is wrong whatever the deal), and
is out. It then asks to go
(``q``). It used to be offered only "y: leave" (the game then stopped for everyone, and
``join`` offered the person that game to resume); now it leaves gracefully (``l``): its
leave goes out at its next refutation (an eliminated player is awaited only to refute), the
bots play on, and no game is offered for resume, then or after the process ends.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pclue.rules.cards import CARDS, ROOMS, SUSPECTS, WEAPONS
from tests.cli.helpers import run_main
from tests.tui.drive import PtyProgram, next_keys, press_and_read
from tests.tui.test_local_bots_stay import JOIN, _audit, _env, _transcripts


def _resumable(home: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("P2PCLUE_HOME", str(home))
    return run_main("join", "--resume", "list").stdout.strip()


def _my_cards(prog: PtyProgram) -> list[int]:
    """The cards ticked in the notepad's "Me" column (every card's row, in card order)."""
    lines = prog.screen.display
    header = next((i for i, ln in enumerate(lines) if "Notepad" in ln), None)
    if header is None or " Me" not in lines[header]:
        return []
    me = lines[header].index(" Me") + 1
    rows = lines[header + 1:header + 1 + len(CARDS)]
    return [c.index for c, row in zip(CARDS, rows, strict=False) if row[me:me + 1] == "✓"]


def _wrong_accusation(hand: list[int]) -> str:
    """The keys of an accusation that names a card of one's own hand, so wrong for certain.
    The list picks go suspect, weapon, room, each in card order; a number picks, Enter
    takes the pick (or the likeliest card, never one's own)."""
    keys, named = "a", False
    for pool in (SUSPECTS, WEAPONS, ROOMS):
        mine = [k for k, c in enumerate(pool, 1) if c.index in hand]
        if mine and not named:
            keys, named = keys + str(mine[0]), True
        keys += "\r"
    assert named, hand
    return keys + "y"


def test_a_person_out_after_a_wrong_accusation_leaves_for_good(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    env = _env(home)
    prog = PtyProgram(JOIN, env=env)
    try:
        prog.pump_until(lambda: "a:accuse" in prog.bar() and "r:roll" in prog.bar()
                        and len(_my_cards(prog)) == 6, what="our first turn, hand ticked",
                        seconds=240)
        prog.press(_wrong_accusation(_my_cards(prog)))  # at our first turn
        steps = 0
        while "(out)" not in prog.text():  # the status line: "you: <suspect> (out)"
            steps += 1
            assert steps < 1000, prog.text()
            assert "q:leave" not in prog.bar(), "a wrong accusation ended the game"
            press_and_read(prog, next_keys(prog.bar()),  # refute while the table checks
                           lambda: "(out)" in prog.text())
        asked = False
        while prog.proc.poll() is None:
            bar, key = prog.bar(), None
            if "l:" in bar and "leave" in bar:  # the quit question: leave, cards face up
                key = "l"
            elif "y:" in bar and "leave" in bar:  # the only way out offered (before the fix)
                key = "y"
            elif "q:leave" in bar:  # the end screen (our leave is in), or the game's end
                key = "q"
            elif not asked and "q:quit" in bar:
                asked, key = True, "q"
            press_and_read(prog, key, lambda: prog.proc.poll() is not None)
        assert prog.proc.wait(10) == 0, prog.text()
    finally:
        prog.close()
    assert _resumable(home, monkeypatch) == "", "a game this player left is not offered to resume"
    bots = [_transcripts(home, f"default.bot{k}") for k in (1, 2)]
    assert all(len(found) == 1 for found in bots), bots
    assert len({found[0].read_bytes() for found in bots}) == 1, "the bots end with one transcript"
    _audit(bots[0][0])
