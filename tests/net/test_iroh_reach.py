"""Reach texts, tickets, and the lobby's checks of an internet table's addresses (pure)."""

from __future__ import annotations

import secrets

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given
from hypothesis import strategies as st

from p2pclue.net.lobby import Address, GuestLobby, HostLobby, LobbyError, TableInfo
from p2pclue.net.reach import Reach, ReachError, Ticket, parse_reach, parse_ticket
from p2pclue.rules.variants import preset

KEY = bytes(range(32))


def reach_of(key: bytes) -> str:
    return Reach(key, ("10.0.0.2:7100", "[2001:db8::1]:9"), ("https://relay.example/",)).text()


def test_a_reach_text_reads_back_as_written() -> None:
    text = reach_of(KEY)
    assert text.startswith("iroh:" + KEY.hex() + "@")
    assert parse_reach(text) == Reach(KEY, ("10.0.0.2:7100", "[2001:db8::1]:9"),
                                      ("https://relay.example/",))


@pytest.mark.parametrize("text", [
    "10.0.0.2:7100", "iroh:" + "ab" * 31 + "@10.0.0.2:1", "iroh:" + "AB" * 32 + "@10.0.0.2:1",
    "iroh:" + "ab" * 32 + "@", "iroh:" + "ab" * 32 + "@10.0.0.2:0",
    "iroh:" + "ab" * 32 + "@10.0.0.02:1", "iroh:" + "ab" * 32 + "@::1:5",
    "iroh:" + "ab" * 32 + "@host.example:5", "iroh:" + "ab" * 32 + "@ftp://r",
    "iroh:" + "ab" * 32 + "@" + "|".join(["10.0.0.1:1"] * 9),
])
def test_a_bad_reach_text_is_refused(text: str) -> None:
    with pytest.raises(ReachError):
        parse_reach(text)


@given(st.text(min_size=1, max_size=40).filter(lambda t: len(t.encode()) <= 120),
       st.lists(st.tuples(st.integers(0, 2**32 - 1), st.integers(1, 65535)), min_size=1,
                max_size=5))
def test_a_ticket_reads_back_whatever_the_name(name: str, addrs: list[tuple[int, int]]) -> None:
    import ipaddress
    items = tuple(f"{ipaddress.IPv4Address(a)}:{p}" for a, p in addrs)
    ticket = Ticket(name, Reach(KEY, items, ("https://r.example/",)))
    text = ticket.text()
    assert parse_ticket(text) == ticket
    assert parse_ticket(" ".join([text[:10].upper(), text[10:]])) == ticket


@pytest.mark.parametrize("cut", [1, 5, 20])
def test_a_cut_or_changed_ticket_is_refused(cut: int) -> None:
    text = Ticket("Attic", Reach(KEY, ("10.0.0.2:7100",))).text()
    with pytest.raises(ReachError):
        parse_ticket(text[:-cut])
    with pytest.raises(ReachError):
        parse_ticket("clue2" + text[5:])


def _host() -> tuple[HostLobby, Ed25519PrivateKey]:
    host = HostLobby(Ed25519PrivateKey.generate(), TableInfo("Attic", preset("classic"), 3),
                     "Host", 7100, secrets.token_bytes(32))
    return host, Ed25519PrivateKey.generate()


def test_a_hello_whose_via_names_another_key_is_refused() -> None:
    host, guest_key = _host()
    ident = guest_key.public_key().public_bytes_raw()
    liar = GuestLobby(guest_key, "Guest", 7101, secrets.token_bytes(32), via=reach_of(KEY))
    with pytest.raises(LobbyError, match="another key"):
        host.receive(ident, "10.0.0.9", liar.hello())
    assert ident not in host.guests


def test_a_hello_over_iroh_without_via_is_refused_and_with_it_is_kept() -> None:
    host, guest_key = _host()
    ident = guest_key.public_key().public_bytes_raw()
    plain = GuestLobby(guest_key, "Guest", 7101, secrets.token_bytes(32))
    with pytest.raises(LobbyError, match="via"):
        host.receive(ident, ident.hex(), plain.hello())  # a relayed link: no IP address
    honest = GuestLobby(guest_key, "Guest", 7101, secrets.token_bytes(32), via=reach_of(ident))
    host.receive(ident, ident.hex(), honest.hello())
    assert host.guests[ident].host == reach_of(ident)


def test_a_start_entry_must_name_its_own_key_in_its_reach() -> None:
    ident = Ed25519PrivateKey.generate().public_key().public_bytes_raw()
    entry = Address(ident, "player", reach_of(ident), 7101).to_wire()
    assert Address.from_wire(entry).host == reach_of(ident)
    with pytest.raises(LobbyError):
        Address.from_wire(dict(entry, host=reach_of(KEY)))
    with pytest.raises(LobbyError):
        Address.from_wire(dict(entry, host="iroh:garbage"))
