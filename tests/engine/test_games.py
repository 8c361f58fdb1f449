"""Whole seeded games, 3 to 6 players, both presets, through the real protocol."""

from __future__ import annotations

import pytest

from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.peer import Status
from p2pclue.engine.transcript import parse
from tests.engine.conftest import oracle_game, run


@pytest.mark.parametrize("rules", ["classic", "cz"])
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_whole_game_every_transcript_byte_identical(n: int, rules: str) -> None:
    game = run(n, rules, seed=n)
    assert [p.status for p in game.peers] == [Status.COMPLETE] * n
    first = game.peers[0].transcript().to_bytes()
    assert all(p.transcript().to_bytes() == first for p in game.peers)
    verdict = audit(parse(first), first)
    state = game.peers[0].rules_state
    assert state is not None
    assert verdict.valid and verdict.result == state.result
    assert verdict.winner == state.winner
    # Every hand, decrypted after the end from the revealed scalars, is what each
    # player decrypted privately at the deal (and nobody else learned it then).
    assert verdict.hands == {p.seat: p.hand for p in game.peers}
    dealt = sorted(c for h in verdict.hands.values() for c in h)
    assert verdict.envelope is not None
    assert sorted(dealt + list(verdict.envelope) + list(game.peers[0].leftovers)) == list(
        range(21))


def test_R7_deal_equal_leftovers_are_public_and_hands_equal() -> None:
    game = run(4, "cz", seed=3)
    assert len(game.peers[0].leftovers) == 2
    assert {len(p.hand) for p in game.peers} == {4}
    assert all(p.leftovers == game.peers[0].leftovers for p in game.peers)


def test_R21_only_the_suggester_learns_the_shown_card() -> None:
    seen: dict[int, list[ev.CardShownToMe]] = {}
    game = run(4, "classic", seed=5)
    for peer in game.peers:
        seen[peer.seat or 0] = []
    verdict = audit(parse(game.peers[0].transcript().to_bytes()))
    assert verdict.shown
    for record, card in verdict.shown:
        suggester = game.peers[record.suggester]
        assert (record.refuter, card) in suggester.shown_to_me
        assert card in record.triple
        assert verdict.hands is not None and card in verdict.hands[record.refuter]
    # Each peer learned exactly the cards shown to it, no other (the same card may be
    # shown to several suggesters, each in its own refutation).
    for peer in game.peers:
        mine = [(rec.refuter, card) for rec, card in verdict.shown if rec.suggester == peer.seat]
        assert sorted(peer.shown_to_me) == sorted(mine)


def test_R26_right_accusation_opens_the_envelope_to_everyone() -> None:
    game = oracle_game(3, "classic", seed=2)
    state = game.peers[0].rules_state
    assert state is not None and state.result == "won" and state.winner == state.current_seat
    envelopes = {p.envelope_cards for p in game.peers}
    assert len(envelopes) == 1
    decided = [e for e in game.log if isinstance(e, ev.AccusationDecided) and e.correct]
    assert decided and decided[-1].triple == game.peers[0].envelope_cards
