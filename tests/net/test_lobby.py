"""The lobby's agreement rules: every player signs exactly the game it joined, nobody
can start a game for others, an old game cannot be replayed, and no input breaks it."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pclue.engine.config import table_check
from p2pclue.net.lobby import (
    SUSPECT_IDS,
    GuestLobby,
    HostLobby,
    LobbyError,
    Out,
    Start,
    TableInfo,
    session_id,
    verify_start,
)
from p2pclue.rules.variants import preset


def key(i: int) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"lobby-test%d" % i).digest())


def nonce(i: int, salt: bytes = b"") -> bytes:
    return hashlib.sha256(b"nonce%d" % i + salt).digest()


class Table:
    """A host and guests wired together in memory (the links are tested elsewhere)."""

    def __init__(self, wanted: int, guests: int, *, spectators: int = 0,
                 salt: bytes = b"") -> None:
        self.host = HostLobby(key(0), TableInfo("Kitchen", preset("classic"), wanted),
                              "Host", 4000, nonce(0, salt))
        self.guests: dict[bytes, GuestLobby] = {}
        for i in range(1, guests + 1 + spectators):
            role = "player" if i <= guests else "spectator"
            g = GuestLobby(key(i), f"P{i}", 4000 + i, nonce(i, salt), role=role)
            self.guests[g.identity] = g
            self.deliver_host(g.identity, g.hello())

    def deliver_host(self, ident: bytes, msg: dict[str, Any]) -> None:
        self.route(self.host.receive(ident, "127.0.0.1", msg))

    def route(self, outs: list[Out]) -> None:
        for to, msg in outs:
            targets = list(self.guests) if to is None else [to]
            for t in targets:
                for reply in self.guests[t].receive(msg):
                    self.deliver_host(t, reply)


def test_a_full_table_starts_with_every_signature() -> None:
    t = Table(4, 3, spectators=1)
    start = t.host.started
    assert start is not None
    config = start.config
    assert config.n_players == 4
    assert [p.suspect for p in config.players] == sorted(
        (p.suspect for p in config.players), key=SUSPECT_IDS.index)
    for g in t.guests.values():
        assert g.started is not None and g.started.config == config
        assert g.started.check == table_check(config)
    assert config.session == session_id(list(start.nonces))
    assert len({p.suspect for p in config.players}) == 4


def test_not_full_starts_only_when_everyone_present_is_ready() -> None:
    t = Table(6, 2)
    assert t.host.started is None and t.host.proposal is None
    for ident, g in t.guests.items():
        t.deliver_host(ident, g.set_ready(True))
    assert t.host.proposal is None  # the host is not ready yet
    t.route(t.host.set_ready(True))
    assert t.host.started is not None and t.host.started.config.n_players == 3


def test_two_players_never_start() -> None:
    t = Table(3, 1)
    for ident, g in t.guests.items():
        t.deliver_host(ident, g.set_ready(True))
    t.route(t.host.set_ready(True))
    assert t.host.started is None


def test_a_guest_refuses_a_proposal_without_its_nonce() -> None:
    t = Table(4, 2)
    g = next(iter(t.guests.values()))
    # The last player fills the table: the host proposes; swap this guest's nonce.
    last = GuestLobby(key(9), "Late", 4009, nonce(9))
    t.guests[last.identity] = last
    outs = t.host.receive(last.identity, "127.0.0.1", last.hello())
    proposal = next(m for to, m in outs if m["t"] == "propose" and to == g.identity)
    for _to, m in outs:
        if m["t"] == "lobby":
            g.receive(m)
    forged = dict(proposal)
    forged["nonces"] = list(proposal["nonces"])
    seat = [p["identity"] for p in proposal["config"]["players"]].index(g.identity)
    forged["nonces"][seat] = b"\x01" * 32
    forged_config = dict(proposal["config"])
    forged_config["session"] = session_id(forged["nonces"])
    forged["config"] = forged_config
    with pytest.raises(LobbyError, match="fresh nonce"):
        g.receive(forged)
    # The honest proposal is signed.
    assert g.receive(proposal)[0]["t"] == "sign"


def test_a_start_missing_one_signature_is_refused() -> None:
    t = Table(3, 2)
    start = t.host.started
    assert start is not None
    wire = start.to_wire()
    sigs = list(wire["sigs"])
    sigs[1] = key(7).sign(b"something else")
    with pytest.raises(LobbyError, match="did not sign"):
        verify_start({**wire, "sigs": sigs}, lambda s: False)
    with pytest.raises(LobbyError, match="played before"):
        verify_start(wire, lambda s: s == start.config.session)
    assert isinstance(verify_start(wire, lambda s: False), Start)


def test_an_old_game_cannot_be_replayed_to_a_new_lobby() -> None:
    old = Table(3, 2, salt=b"old").host.started
    assert old is not None
    g = GuestLobby(key(1), "P1", 4001, nonce(1, b"new"))
    with pytest.raises(LobbyError):
        g.receive(old.to_wire())  # this guest never signed it
    seen = {old.config.session}
    with pytest.raises(LobbyError, match="played before"):
        verify_start(old.to_wire(), seen.__contains__)


def test_a_host_cannot_change_a_players_suspect_or_rules() -> None:
    t = Table(4, 2)
    g = next(iter(t.guests.values()))
    last = GuestLobby(key(9), "Late", 4009, nonce(9))
    t.guests[last.identity] = last
    outs = t.host.receive(last.identity, "127.0.0.1", last.hello())
    for _, m in outs:
        if m["t"] == "lobby":
            g.receive(m)
    proposal = next(m for to, m in outs if m["t"] == "propose" and to == g.identity)
    cfg = dict(proposal["config"])
    cfg["rules"] = preset("cz").to_wire()
    with pytest.raises(LobbyError, match="rules"):
        g.receive({**proposal, "config": cfg})


def test_suspects_stay_unique_and_taken_ones_are_refused() -> None:
    t = Table(5, 2)
    idents = list(t.guests)
    taken = t.host.view().members[0].suspect
    t.deliver_host(idents[0], {"t": "pick", "suspect": taken})
    assert t.host.guests[idents[0]].member.suspect != taken
    with pytest.raises(LobbyError):
        t.host.pick(t.host.guests[idents[1]].member.suspect or 0)


def test_bad_hellos_are_refused() -> None:
    t = Table(3, 1)
    ident = key(5).public_key().public_bytes_raw()
    for bad in ({"t": "hello"}, {"t": "hello", "role": "king", "name": "x", "suspect": None,
                                 "port": 1, "nonce": b"n" * 32},
                {"t": "hello", "role": "player", "name": "", "suspect": None, "port": 1,
                 "nonce": b"n" * 32},
                {"t": "pick", "suspect": 1}, "junk", {"t": 5}):
        with pytest.raises(LobbyError):
            t.host.receive(ident, "h", bad)
    assert len(t.host.view().members) == 2


# ---- Hypothesis: any sequence of inputs from any linked identity -----------------------

MESSAGES = st.one_of(
    st.fixed_dictionaries({"t": st.just("hello"), "role": st.sampled_from(["player", "spectator",
                                                                           "x"]),
                           "name": st.text(max_size=45), "suspect": st.none() | st.integers(-1, 25),
                           "port": st.integers(-1, 70000), "nonce": st.binary(min_size=31,
                                                                              max_size=33)}),
    st.fixed_dictionaries({"t": st.just("pick"), "suspect": st.integers(-2, 25) | st.none()}),
    st.fixed_dictionaries({"t": st.just("ready"), "ready": st.booleans() | st.integers()}),
    st.fixed_dictionaries({"t": st.just("sign"), "digest": st.binary(max_size=33),
                           "sig": st.binary(max_size=65)}),
    st.dictionaries(st.text(max_size=3), st.integers() | st.binary(max_size=4), max_size=3),
    st.integers() | st.none() | st.binary(max_size=8),
)
STEPS = st.lists(st.tuples(st.integers(1, 9), st.sampled_from(["msg", "leave", "ready"]),
                           MESSAGES), max_size=40)


@settings(max_examples=150, deadline=None)
@given(STEPS)
def test_host_invariants_hold_for_any_input(steps: list[tuple[int, str, Any]]) -> None:
    host = HostLobby(key(0), TableInfo("T", preset("classic"), 4), "Host", 4000, nonce(0))
    for who, action, msg in steps:
        ident = key(who).public_key().public_bytes_raw()
        try:
            if action == "leave":
                host.disconnected(ident)
            elif action == "ready":
                host.set_ready(bool(who % 2))
            else:
                host.receive(ident, "127.0.0.1", msg)
        except LobbyError:
            pass
        view = host.view()
        suspects = [m.suspect for m in view.players]
        assert len(suspects) == len(set(suspects)), "two players share a suspect"
        assert None not in suspects
        assert len(view.players) <= 4
        assert host.started is None, "nobody signed, so nothing may start"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 3), MESSAGES), max_size=25))
def test_guest_never_signs_anything_unfair(steps: list[tuple[int, Any]]) -> None:
    t = Table(4, 2)
    g = next(iter(t.guests.values()))
    for _, msg in steps:
        try:
            replies = g.receive(msg)
        except LobbyError:
            continue
        assert not any(r["t"] == "sign" for r in replies)
