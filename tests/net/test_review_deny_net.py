"""A private opening lost with a link, over real loopback links (issue 22 review).

Four ``NetSession`` players on 127.0.0.1 play with random bots. Right before the first
``show`` leaves, the refuter's link to the suggester is cut (a Wi-Fi hiccup): the private
opening goes nowhere (it is never relayed nor part of catch-up), while the signed ``show``
reaches the suggester through the other players. Before the fix the suggester waited out
its ``OPENING_WAIT``, complained, and the refuter had to publish the card to the whole
table. Now the refuter's runner sends the unanswered opening again when the link is back:
the suggester acknowledges, nobody complains, and the card stays between the two.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from p2pclue.bots.registry import BOTS
from p2pclue.engine import events as ev
from p2pclue.engine.wire import decode_payload, split_frame
from p2pclue.net.botplay import drive_bot
from p2pclue.net.play import Seat
from p2pclue.net.profile import load
from p2pclue.net.session import NetSession
from tests.net.procs import HANG_GUARD
from tests.net.test_abandon_vote import four_seated
from tests.net.three_seats import Hanging

TIMEOUT = 30.0
"""Silence timeout: well above the suggester's 10 s wait for an opening."""


def seat(home: Path, name: str) -> Seat:
    return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, interfaces=["127.0.0.1"],
                timeout=TIMEOUT)


class CutBeforeShow(Hanging):
    """A seat whose link to the suggester breaks right before its first ``show`` (the
    pass-through session of ``Hanging``, never hung)."""

    def __init__(self, session: NetSession, cut: list[tuple[int, int]]) -> None:
        super().__init__(session)
        self._cut = cut

    async def submit(self, intent: ev.Intent) -> None:
        state = self._session.state
        if isinstance(intent, ev.ShowCard) and not self._cut and state is not None \
                and state.pending_suggestion is not None and self.seat is not None:
            suggester = state.pending_suggestion.suggester
            self._session._mesh.cut(self.config.players[suggester].identity)
            self._cut.append((self.seat, suggester))
        await super().submit(intent)


def _answer_to_first_show(entries: list[bytes]) -> str | None:
    types = []
    for raw in entries:
        sender, payload, _ = split_frame(raw)
        types.append(decode_payload(sender, payload)[0].type)
    if "show" not in types or types.index("show") + 1 >= len(types):
        return None
    return types[types.index("show") + 1]


async def _play(home: Path) -> tuple[list[tuple[int, int]], str | None]:
    sessions = sorted(await four_seated(home, seat), key=lambda s: s.seat or 0)
    cut: list[tuple[int, int]] = []
    runs = [asyncio.ensure_future(s.run()) for s in sessions]
    bots = [asyncio.ensure_future(drive_bot(CutBeforeShow(s, cut), BOTS["random"],
                                            random.Random(i)))
            for i, s in enumerate(sessions)]
    answer: str | None = None
    try:
        async with asyncio.timeout(HANG_GUARD):  # until the first show is answered
            while answer is None and not all(s.ended for s in sessions):
                await asyncio.sleep(0.05)
                answer = _answer_to_first_show(sessions[0].peer.entries)
    finally:
        for task in bots:
            task.cancel()
        await asyncio.gather(*bots, return_exceptions=True)
        for s in sessions:
            await s.close()
        await asyncio.gather(*runs, return_exceptions=True)
    return cut, answer


def test_an_opening_lost_with_a_link_is_sent_again_when_it_comes_back(tmp_path: Path) -> None:
    cut, answer = asyncio.run(_play(tmp_path))
    assert cut, "no show was made"
    assert answer == "ack", f"the suggester answered the first show with {answer!r}"
