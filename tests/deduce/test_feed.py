"""One knowledge feed for every seat: the facts a person's notepad and a bot's are built from.

``SeatFeed`` turns what a seat sees into notepad facts. The terminal UI hands it the
engine's events (``see``); the bots' driver hands the detective the same game as
observations, which it passes to the same feed step by step. Both must learn the same.
"""

from __future__ import annotations

import random
from collections import Counter

from p2pclue.bots.detective import DetectiveBot
from p2pclue.bots.protocol import play
from p2pclue.deduce import (
    EnvelopeOpened,
    HandLaidDown,
    Notepad,
    Passed,
    Refuted,
    ShownByMe,
    ShownToMe,
    WrongAccusation,
)
from p2pclue.deduce.feed import SeatFeed
from p2pclue.engine import events as ev
from p2pclue.rules.variants import CLASSIC

TRIPLE = (0, 10, 20)
HAND = (2, 8, 14, 3, 9, 15)


def test_a_leavers_hand_is_public_and_my_own_leave_teaches_me_nothing() -> None:
    feed = SeatFeed(0)
    assert feed.see(ev.PlayerLeft(1, HAND), turn=7) == [HandLaidDown(1, tuple(sorted(HAND)), 7)]
    assert feed.see(ev.PlayerLeft(0, (0, 6, 12, 1, 7, 13))) == []


def test_the_envelope_is_learnt_once_from_a_right_accusation_or_the_reveal() -> None:
    feed = SeatFeed(0)
    assert feed.see(ev.AccusationDecided(1, (1, 6, 12), False)) == [
        WrongAccusation(1, (1, 6, 12), 0)]
    assert feed.see(ev.AccusationDecided(2, TRIPLE, True)) == [EnvelopeOpened(TRIPLE)]
    assert feed.see(ev.GameOver("won", 2, TRIPLE)) == []
    assert SeatFeed(0).see(ev.GameOver("nobody", None, TRIPLE)) == [EnvelopeOpened(TRIPLE)]


def test_answers_are_dated_by_their_suggestion_and_shows_known_to_who_saw_them() -> None:
    feed = SeatFeed(0)
    assert feed.see(ev.Suggested(1, *TRIPLE)) == []
    assert feed.see(ev.Passed(2, 1, TRIPLE)) == [Passed(2, TRIPLE, 1, 1)]
    feed.i_show(10)
    assert feed.see(ev.Refuted(0, 1, TRIPLE)) == [ShownByMe(1, 10, 1, TRIPLE)]
    feed.see(ev.Suggested(0, *TRIPLE), turn=5)
    assert feed.see(ev.Refuted(2, 0, TRIPLE)) == [Refuted(2, 0, TRIPLE, 5)]
    assert feed.see(ev.CardShownToMe(2, 20)) == [ShownToMe(2, 20, 5, TRIPLE)]
    feed.see(ev.Suggested(2, 1, 7, 13))
    feed.i_show(12)  # a card that is not one of the three is never claimed as shown
    assert feed.see(ev.Refuted(0, 2, (1, 7, 13))) == []


def test_a_card_chosen_but_not_shown_is_forgotten_when_this_seat_passes() -> None:
    feed = SeatFeed(0)
    feed.see(ev.Suggested(1, *TRIPLE))
    feed.i_show(10)
    feed.see(ev.Passed(0, 1, TRIPLE))
    feed.see(ev.Suggested(2, *TRIPLE))
    assert feed.see(ev.Refuted(0, 2, TRIPLE)) == []


def test_a_notepad_knows_a_hand_laid_face_up_and_says_why() -> None:
    pad = Notepad(0, 3, (6, 6, 6), 0, seat_names=("Ada", "Bruno", "Chiara")).add(
        HandLaidDown(1, tuple(sorted(HAND)), 4))
    assert pad.holdings(1) == set(HAND)
    assert "Bruno left the table on turn 4 and laid their cards face up" in pad.explain(2, 1)


def test_bots_and_people_learn_the_same_facts_from_the_same_game() -> None:
    """The detective learns from the bots' observations; a person's notepad from the engine's
    events. The cards a seat itself shows are left out: the driver of each path tells the
    feed which (the bot's own decision, the person's key)."""
    bots: list[DetectiveBot] = []
    seen: dict[int, list[ev.Event]] = {0: [], 1: [], 2: []}

    def factory(seat: int, rng: random.Random) -> DetectiveBot:
        bots.append(DetectiveBot(seat, rng))
        return bots[-1]

    play(CLASSIC, 3, 7, factory, on_event=lambda seat, e: seen[seat].append(e))
    for bot in bots:
        person = SeatFeed(bot.seat)
        from_events = Counter(f for e in seen[bot.seat] for f in person.see(e)
                              if not isinstance(f, ShownByMe))
        assert bot.notepad is not None
        from_observations = Counter(f for f in bot.notepad.facts if not isinstance(f, ShownByMe))
        assert from_events == from_observations, bot.seat
        assert sum(from_events.values()) > 10
        assert any(isinstance(f, EnvelopeOpened) for f in from_events)
