"""An evening of games at one table: the next game's table names the game before it, a
guest playing again sits only at that table's next game, and the score counts each game's
winner (a display each member counts from its own games)."""

from __future__ import annotations

import dataclasses

import pytest

from p2pclue.bots.protocol import make_config
from p2pclue.engine.wire import pack, unpack_strict
from p2pclue.net.lobby import GuestLobby, HostLobby, LobbyError, TableInfo
from p2pclue.rules import game as rg
from p2pclue.rules.variants import preset
from p2pclue.tui.evening import Evening
from tests.net.test_lobby import key, nonce

LAST = bytes(range(32))


def _host(after: bytes | None) -> HostLobby:
    return HostLobby(key(0), TableInfo("Kitchen", preset("classic"), 3, after), "Host", 4000,
                     nonce(0))


def test_the_table_names_the_game_before_and_its_wire_says_so_only_then() -> None:
    first, next_one = _host(None).view().to_wire(), _host(LAST).view().to_wire()
    assert "after" not in first["table"], "a first game's view is as before (same bytes)"
    assert next_one["table"]["after"] == LAST
    back = unpack_strict(pack(next_one))
    assert TableInfo.from_wire(back["table"]).after == LAST


@pytest.mark.parametrize("bad", [b"short", 7, "x" * 32, None])
def test_a_malformed_previous_session_is_refused(bad: object) -> None:
    wire = _host(LAST).view().to_wire()["table"] | {"after": bad}
    with pytest.raises(LobbyError):
        TableInfo.from_wire(wire)


def test_a_guest_playing_again_sits_only_at_the_next_game_of_its_table() -> None:
    guest = GuestLobby(key(1), "Ben", 4001, nonce(1), after=LAST)
    for stranger in (_host(None), _host(bytes(32))):  # a first game, or another evening's
        view = stranger.view().to_wire() | {"t": "lobby"}
        with pytest.raises(LobbyError, match="not the next game"):
            guest.receive(view)
    assert guest.receive(_host(LAST).view().to_wire() | {"t": "lobby"}) == []
    assert guest.view is not None and guest.view.table.after == LAST


def test_the_score_counts_each_games_winner_and_keeps_everyone() -> None:
    config, _ = make_config(preset("classic"), 3, seed=3)
    state = rg.new_game(preset("classic"), [p.suspect for p in config.players],
                        hand_sizes=[6, 6, 6], weapon_rooms={6 + i: 12 + i for i in range(6)})
    evening = Evening()
    assert evening.line() == ""
    evening.record(config, dataclasses.replace(state, result="won", winner=1))
    evening.record(dataclasses.replace(config, session=bytes(32)),
                   dataclasses.replace(state, result="nobody"))
    evening.record(config, dataclasses.replace(state, result="won", winner=1))
    names = [p.name for p in config.players]
    assert evening.games == 3 and evening.last_session == config.session
    # each name and its wins joined by a no-break space (one row, never split)
    assert evening.line() == (f"Games won this evening (of 3 games): {names[1]}\u00a02, "
                              f"{names[0]}\u00a00, {names[2]}\u00a00")
