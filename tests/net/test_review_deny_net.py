"""A private opening lost with a link (issue 22 review), on the in-memory transport.

Four session cores play with random bots, on the table's clock. Right before the first
``show`` leaves, the refuter's link to the suggester breaks (a Wi-Fi hiccup): the private
opening goes nowhere (it is never relayed nor part of catch-up), while the signed ``show``
reaches the suggester through the other players. Before the fix the suggester waited out
its ``OPENING_WAIT``, complained, and the refuter had to publish the card to the whole
table. Now the refuter's core sends the unanswered opening again when the link is back
(the usual re-dial): the suggester acknowledges, nobody complains, and the card stays
between the two.
"""

from __future__ import annotations

from p2pclue.engine import events as ev
from p2pclue.engine.peer import Choice
from p2pclue.engine.wire import decode_payload, split_frame
from p2pclue.net.memory import Member
from tests.net.core_table import make_table

TIMEOUT = 30.0
"""Silence timeout: well above the suggester's 10 s wait for an opening."""


def _types(entries: list[bytes]) -> list[str]:
    out = []
    for raw in entries:
        sender, payload, _ = split_frame(raw)
        out.append(decode_payload(sender, payload)[0].type)
    return out


def _answer_to_first_show(entries: list[bytes]) -> str | None:
    types = _types(entries)
    if "show" not in types or types.index("show") + 1 >= len(types):
        return None
    return types[types.index("show") + 1]


def test_an_opening_lost_with_a_link_is_sent_again_when_it_comes_back() -> None:
    ct = make_table(4, seed=2, timeout=TIMEOUT)
    table = ct.table
    cut: list[tuple[int, int]] = []

    def choose(member: Member, choice: Choice) -> ev.Intent | None:
        intent = ct.choose(member, choice)
        core = member.core
        assert core is not None
        state = core.state
        if isinstance(intent, ev.ShowCard) and not cut and state is not None \
                and state.pending_suggestion is not None and core.seat is not None:
            suggester = state.pending_suggestion.suggester
            table.unlink(member.key, ct.key(suggester))
            cut.append((core.seat, suggester))
        return intent

    relinked: list[list[str]] = []
    """What the suggester held when the cut link came back."""

    def answered() -> bool:
        if cut and not relinked and ct.key(cut[0][1]) in table.linked(ct.key(cut[0][0])):
            relinked.append(_types(ct.core(cut[0][1]).peer.entries))
        return _answer_to_first_show(ct.core(0).peer.entries) is not None

    table.run(choose, until=answered)
    assert cut, "no show was made"
    assert relinked and "show" in relinked[0], "the show reached the suggester by the others"
    answer = _answer_to_first_show(ct.core(0).peer.entries)
    assert answer == "ack", f"the suggester answered the first show with {answer!r}"
