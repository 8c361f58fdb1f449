"""``p2pclue audit`` counts each suggester's complaints and says only whether a sealed
opening answered them, never which card (docs/protocol.md, "Audit").

The transcripts are real games: one where seat 0 throws away every private opening and so
complains about every show made to it (each answered by ``sealed``), and one halted by a
refuter whose sealed opening does not decode (its complaint is left unanswered). The audit
runs as its own process, in English and in French.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path

from p2pclue.engine.cheats import CheatingPeer
from p2pclue.i18n.cards import card_name
from p2pclue.rules.cards import CARDS
from tests.commands import as_process
from tests.engine.conftest import run, sent_types
from tests.engine.test_complaint_reveal import HOSTILE, play_complaining

NNBSP = "\u202f"


@cache
def _complaining_game() -> tuple[bytes, int, str]:
    """(the transcript of seat 1, how many complaints seat 0 made, its name)."""
    peers, _ = play_complaining(seed=1)
    witness = peers[1]
    made = [s for s, t in sent_types(witness.entries) if t == "complain"]
    assert len(made) >= 2 and set(made) == {HOSTILE}  # this seed: the plural is shown
    return witness.transcript().to_bytes(), len(made), witness.config.players[HOSTILE].name


def _audit(path: Path, *args: str, lang: str = "C.UTF-8") -> tuple[int, list[str]]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL",
                                                            "LC_MESSAGES")}
    env["LANG"] = lang
    done = as_process("audit", *args, str(path), env=env)
    assert not done.stderr, done.stderr
    return done.returncode, done.stdout.splitlines()


def test_the_json_verdict_counts_complaints_per_suggester(tmp_path: Path) -> None:
    raw, made, _ = _complaining_game()
    path = tmp_path / "complaints.p2pclue"
    path.write_bytes(raw)
    code, lines = _audit(path, "--json")
    verdict = json.loads(lines[-1])
    assert code == 0 and verdict["valid"] is True
    assert verdict["complaints"] == [{"suggester": HOSTILE, "complained": made, "sealed": made}]


def test_the_summary_says_a_sealed_opening_answered_and_names_no_card(tmp_path: Path) -> None:
    raw, made, name = _complaining_game()
    path = tmp_path / "complaints.p2pclue"
    path.write_bytes(raw)
    code, lines = _audit(path)
    assert code == 0
    said = [line for line in lines if "complained" in line]
    assert len(said) == 1, lines
    line = said[0]
    assert line.startswith(f"  {name}")
    assert line.endswith(f"complained about {made} shows; a sealed opening answered each")
    told = line.split(" complained ", 1)[1]  # before it: the player and its own suspect
    assert not [c.name for c in CARDS if card_name(c.index, "en") in told]
    # The same line through the French catalog, with its narrow no-break space.
    code, lines = _audit(path, lang="fr_FR.UTF-8")
    assert code == 0
    french = [line for line in lines if "a contesté" in line]
    assert len(french) == 1, lines
    assert french[0].endswith(
        f"a contesté {made} réfutations{NNBSP}; une ouverture scellée a répondu à chacune")


def test_an_unanswered_complaint_is_counted_as_such(tmp_path: Path) -> None:
    cheater = 1
    game = run(3, "classic", seed=7, patience=40, cheat="bad-sealed", cheater=cheater)
    bad = game.peers[cheater]
    assert isinstance(bad, CheatingPeer) and bad.cheated
    witness = game.peers[0]
    kinds = sent_types(witness.entries)
    suggester, last = kinds[-1]
    assert last == "complain"
    made = sum(1 for s, t in kinds if (s, t) == (suggester, "complain"))
    path = tmp_path / "halted.p2pclue"
    path.write_bytes(witness.transcript().to_bytes())
    code, lines = _audit(path, "--json")
    verdict = json.loads(lines[-1])
    assert code == 1 and verdict["blamed"] == cheater
    assert verdict["violation"]["check"] == "proof:sealed-opening"
    row = next(r for r in verdict["complaints"] if r["suggester"] == suggester)
    assert row == {"suggester": suggester, "complained": made, "sealed": made - 1}
    code, lines = _audit(path)
    assert code == 1
    name = witness.config.players[suggester].name
    said = [line for line in lines if line.startswith(f"  {name}") and "complained" in line]
    expected = ("no sealed opening answered it" if made == 1 else
                f"sealed openings answered {made - 1} of them")
    assert len(said) == 1 and said[0].endswith(expected), lines
