"""A person leaves a networked game gracefully, every player its own OS process.

The person is ``p2pclue join --create --plain`` with typed lines on a pipe; two bots are
``p2pclue join --peer 127.0.0.1:PORT --bot detective`` processes with their own keys and
loopback links (detectives: their games are short and even; ``--plain`` stops telling the
story of a game past 400 lines of it, so a long one would hide its end from the person).
At its first decision the person types ``q`` and then ``l`` (leave gracefully): its signed
``leave`` opens its hand with proofs and the bots play the game to its end without it.
Every process must end with the same transcript bytes, which the audit finds valid, with
the leaver's hand public in it (the replayed ``PlayerLeft`` event) and equal to the hand
the person was dealt. (A forged or badly proven ``leave`` is blamed in
tests/engine/test_leave.py and, over the links, tests/net/test_forged_leave.py.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.transcript import parse
from p2pclue.i18n import card_name
from tests.net.plain_person import PlainPerson
from tests.net.procs import Procs
from tests.table_names import unique_table

ASKED = ("Your turn:", "asks you to refute")
LEFT = r"You leave the table; your cards, laid face up: (.*)\.\n"


def _cards(listed: str) -> list[str]:
    """The card names of a list the story tells ("Miss Scarlett, the Rope and the Hall")."""
    return [re.sub(r"^the ", "", c) for c in re.split(r", | and ", listed)]


def test_a_person_leaves_a_game_of_processes_and_the_bots_finish_it(
        tmp_path: Path, procs: Procs) -> None:
    mine = tmp_path / "person.p2pclue"
    table = unique_table("Leave")
    person = PlainPerson(tmp_path / "home", tmp_path / "person.txt", "--create", "--no-code",
                         "--players", "3", "--table", table, "--name", "Pat", "--profile",
                         "person", "--transcript", str(mine), "--pass-delay", "0")
    try:
        opened = re.search(r"--peer 127\.0\.0\.1:(\d+)",
                           person.play_until(r"--peer 127\.0\.0\.1:\d+"))
        assert opened is not None
        port = opened.group(1)
        bots = [procs.p2pclue(f"bot{k}", "join", "--peer", f"127.0.0.1:{port}", "--table",
                              table, "--bot", "detective", "--profile", f"bot{k}", "--json")
                for k in range(2)]
        asked_at: list[int] = []

        def leave(question: str, story: str) -> list[str] | None:
            """q then l at a decision; a refused leave (the table does not wait for us
            now) is answered as usual, and the leave asked again at the next decision."""
            if asked_at and "Not allowed now" in story[asked_at[-1]:]:
                asked_at.clear()
                return None
            if any(ask in question for ask in ASKED) and not asked_at:
                asked_at.append(len(story))
                return ["q", "l"]
            return None

        said = person.play_until(LEFT, on_ask=leave)
        dealt = re.search(r"You were dealt: (.*)\.\n", said)
        left = re.search(LEFT, said)
        assert dealt and left, said[-3000:]
        hand = _cards(dealt.group(1))
        assert sorted(_cards(left.group(1))) == sorted(hand)

        found = []
        for bot in bots:
            code, out, _err = bot.finish()
            assert code == 0, bot.said()
            found.append(json.loads(out.strip().splitlines()[-1]))
        assert person.finish() == 0, person.said()[-3000:]
        text = person.said()
    finally:
        person.stop()
    assert "Traceback" not in text, text[-3000:]
    assert "valid (" in text.split("You leave the table", 1)[1]  # the end, audited by the person

    files = [mine] + [Path(str(r["transcript"])) for r in found]
    assert len({str(f) for f in files}) == 3
    assert len({f.read_bytes() for f in files}) == 1, "one transcript, byte for byte"
    assert all(r["result"] in ("won", "nobody") for r in found)
    raw = mine.read_bytes()
    verdict = audit(parse(raw), raw)
    assert verdict.valid, verdict.violation
    pat = next(p["seat"] for p in verdict.players if p["name"] == "Pat")
    gone = [e for e in verdict.events if isinstance(e, ev.PlayerLeft)]
    assert [e.seat for e in gone] == [pat]
    assert sorted(card_name(c, "en") for c in gone[0].hand) == sorted(hand)
