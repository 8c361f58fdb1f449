"""The narrator's words: card grammar for every card, places instead of squares, and the
moments a newcomer finds odd (R22 suggestions without a roll, stays, R28, R29)."""

from __future__ import annotations

import re

from p2pclue.bots.protocol import make_config
from p2pclue.cli.narrate import Narrator, dice_text, event_json, place
from p2pclue.cli.terminal import Style
from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import Blame
from p2pclue.i18n import card_phrase, listing
from p2pclue.rules.cards import CARDS, Category
from p2pclue.rules.variants import CLASSIC, CZ, Rules

KITCHEN, BALLROOM, LOUNGE, HALL, STUDY = 12, 13, 18, 19, 20
ROPE, DAGGER = 10, 7


def config(rules: Rules = CLASSIC) -> GameConfig:
    cfg = make_config(rules, 3, 11)[0]
    return cfg


def tell(narrator: Narrator, *events: ev.Event) -> str:
    return "\n".join(line for e in events for line in narrator.lines(e))


def test_every_card_has_the_right_article() -> None:
    for c in CARDS:
        phrase = card_phrase(c.index)
        if c.category is Category.SUSPECT:
            assert phrase == c.name, phrase
        else:
            assert phrase == f"the {c.name}", phrase
    assert listing(["a"]) == "a" and listing(["a", "b"]) == "a and b"
    assert listing(["a", "b", "c"]) == "a, b and c"
    assert [dice_text((n,)) for n in (1, 8, 11, 12)] == ["a 1", "an 8", "an 11", "a 12"]


def test_places_are_rooms_doors_and_distances() -> None:
    assert place(KITCHEN) == "in the Kitchen"
    assert place((24, 7)) == "on the starting square"
    assert place((7, 4)) == "at the door of the Kitchen"
    far = place((17, 1))
    assert re.fullmatch(r"\d+ steps from the door of the [A-Z][a-z]+( Room)?", far), far
    assert not re.search(r"\d+, \d+", far)


def test_names_not_seats_and_the_r22_explanation() -> None:
    cfg = config()
    n = Narrator(cfg)
    a, b, c = (p.name for p in cfg.players)
    suspect_b = cfg.players[1].suspect
    text = tell(n, ev.PassageTaken(0, STUDY), ev.Suggested(0, suspect_b, ROPE, STUDY),
                ev.Refuted(2, 0, (suspect_b, ROPE, STUDY)), ev.TurnEnded(0),
                ev.Suggested(1, cfg.players[0].suspect, DAGGER, STUDY))
    assert f"{a} takes the secret passage into the Study." in text
    assert f"{a} suggests: {CARDS[suspect_b].name} with the Rope in the Study." in text
    assert f"{b} ({CARDS[suspect_b].name}) is brought into the Study." in text
    assert f"{c} shows {a} a card (proven)." in text
    assert (f"{b} was brought into the Study by {a}'s suggestion, so may suggest there "
            "without rolling.") in text
    # A already stands in the Study: named, but not brought (R22 does not apply).
    assert f"{a} ({CARDS[cfg.players[0].suspect].name}) is brought" not in text
    assert "seat" not in text


def test_everyone_passing_is_said() -> None:
    cfg = config()
    n = Narrator(cfg)
    s = cfg.players[1].suspect
    text = tell(n, ev.PassageTaken(0, STUDY), ev.Suggested(0, s, ROPE, STUDY),
                ev.Passed(1, 0, (s, ROPE, STUDY)), ev.Passed(2, 0, (s, ROPE, STUDY)))
    assert text.count("has none of them (proven)") == 2 and "Nobody can show a card!" in text


def test_a_stay_is_explained() -> None:
    cfg = config()
    n = Narrator(cfg)
    text = tell(n, ev.PassageTaken(0, STUDY), ev.TurnEnded(0), ev.PassageTaken(1, KITCHEN),
                ev.TurnEnded(1), ev.PassageTaken(2, LOUNGE), ev.TurnEnded(2),
                ev.DiceRolled(0, (4,)), ev.TurnEnded(0))
    assert f"{cfg.players[0].name} rolls a 4.\n" in text
    assert (f"{cfg.players[0].name} chooses to stay in the Study (a player may stay in a "
            "room).") in text
    blocked = Narrator(config(CZ))
    text = tell(blocked, ev.PassageTaken(0, STUDY), ev.TurnEnded(0), ev.DiceRolled(1, (2,)),
                ev.TurnEnded(1))
    assert (f"Every way is blocked by other players, so {cfg.players[1].name} stays on the "
            "starting square") in text


def test_moves_are_told_after_the_roll() -> None:
    cfg = config()
    n = Narrator(cfg)
    start = (24, 7)  # Miss Scarlett's square; the path is only for the narrator here
    text = tell(n, ev.DiceRolled(0, (3,)), ev.Moved(0, (start, (23, 7), (22, 7)), None),
                ev.TurnEnded(0), ev.DiceRolled(1, (2, 5)), ev.Moved(1, ((7, 4),), KITCHEN))
    name0, name1 = cfg.players[0].name, cfg.players[1].name
    assert f"{name0} rolls a 3.\n" in text
    assert re.search(rf"{name0} moves 3 squares, stopping \d+ steps from the ", text), text
    assert f"{name1} rolls 2 and 5 (7).\n   {name1} goes into the Kitchen." in text
    assert "Turn 2: " in text and not re.search(r"\(\d+, \d+\)", text)


def test_wrong_accusations_r28_and_the_last_player_standing() -> None:
    cfg = config()
    n = Narrator(cfg)
    name = cfg.players[1].name
    triple = (0, ROPE, HALL)
    text = tell(n, ev.PassageTaken(0, STUDY), ev.TurnEnded(0),
                ev.DiceRolled(1, (1,)), ev.Moved(1, ((7, 4),), None),
                ev.Accused(1, triple), ev.AccusationDecided(1, triple, False),
                ev.Accused(2, triple), ev.AccusationDecided(2, triple, False),
                ev.GameOver("won", 0, (1, DAGGER, KITCHEN)))
    assert f"{name} accuses: Miss Scarlett with the Rope in the Hall!" in text
    assert f"Wrong! {name} is out of the game, but still answers" in text
    assert f"{name}'s token is moved off the doorway into the Kitchen." in text
    assert "Turn 3: " in text, "the next player's accusation is a new turn"
    assert "is the last player still in the game, and wins!" in text
    assert "The envelope held Colonel Mustard with the Dagger in the Kitchen." in text


def test_halts_and_colours() -> None:
    cfg = config()
    plain = tell(Narrator(cfg), ev.Halted(Blame(1, "randomness", "a made-up value", 20, ())))
    assert plain == (f"GAME HALTED: {cfg.players[1].name} ({CARDS[cfg.players[1].suspect].name})"
                     " broke the protocol: a random value that does not verify (randomness: a"
                     " made-up value)")
    coloured = tell(Narrator(cfg, style=Style(True)), ev.PassageTaken(0, STUDY))
    assert "\x1b[" in coloured and coloured.count("\x1b[0m") >= 2


def test_event_json_keeps_the_coordinates() -> None:
    moved = event_json(ev.Moved(0, ((24, 7), (23, 7)), None))
    assert moved == {"event": "Moved", "seat": 0, "path": [[24, 7], [23, 7]], "room": None}
    halted = event_json(ev.Halted(Blame(1, "randomness", "x", 20, (b"evidence",))))
    assert halted["blame"] == {"culprit": 1, "check": "randomness", "reason": "x", "index": 20}


def test_an_abandon_by_vote_tells_a_forfeit_and_only_then() -> None:
    cfg = config()
    a, b, c = (p.name for p in cfg.players)
    plain = tell(Narrator(cfg), ev.Abandoned(2, (0, 1)))
    assert plain == (f"The table ended the game as abandoned while waiting for {c} "
                     f"(signed by {a} and {b}).")
    forfeit = tell(Narrator(cfg), ev.Abandoned(1, (0, 2), True, "won", 2))
    assert (f"{b} withheld the last step of checking their own accusation: it counts as "
            "wrong, and they are out.") in forfeit
    assert f"{c} ({CARDS[cfg.players[2].suspect].name}) is the last player still in the " \
        "game, and wins!" in forfeit
    nobody = tell(Narrator(cfg), ev.Abandoned(1, (0, 2), True, "nobody", None))
    assert "Everybody accused wrongly: nobody wins." in nobody
    assert event_json(ev.Abandoned(1, (0, 2), True, "won", 2)) == {
        "event": "Abandoned", "silent": 1, "voters": [0, 2], "forfeit": True, "result": "won",
        "winner": 2}
