"""The story when the table waits for the local player itself: "You" is not a name (review: the
Korean screen read "나 님의 응답이 끊겼습니다", the English one would have read "You has gone
silent.")."""

from __future__ import annotations

import pytest

from p2pclue.bots.protocol import make_config
from p2pclue.engine import events as ev
from p2pclue.i18n import install
from p2pclue.rules.variants import CLASSIC
from p2pclue.tui.story import Story


@pytest.mark.parametrize("lang", ["en", "it", "ko", "fr", "sq", "cs"])
def test_silence_of_this_seat_is_told_in_the_second_person(lang: str) -> None:
    config = make_config(CLASSIC, 3, 11)[0]
    try:
        install(lang)
        mine = list(Story(config, 0).lines(ev.PeerSilent(seat=0, deadline=0.0)))
        theirs = list(Story(config, 1).lines(ev.PeerSilent(seat=0, deadline=0.0)))
    finally:
        install("en")
    assert len(mine) == 1 and len(theirs) == 1 and mine != theirs
    assert config.players[0].name in theirs[0] and "님의 응답" not in mine[0]
    if lang == "en":
        assert mine == ["The table has heard nothing from you for a while."]
