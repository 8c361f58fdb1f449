"""Seats and iroh transports for internet tables on loopback, shared by the iroh tests so a
seat is made one way everywhere (its own profile under the test's folder, bound to 127.0.0.1,
relays off)."""
from __future__ import annotations

from pathlib import Path

from p2pclue.net.iroh_link import IrohTransport
from p2pclue.net.play import Seat, table_id
from p2pclue.net.profile import load

LOOPBACK = ["127.0.0.1"]


def seat(home: Path, name: str) -> Seat:
    return Seat(load(name, {"P2PCLUE_HOME": str(home)}), name, interfaces=LOOPBACK)


def iroh_transport(s: Seat, table: str, code: str | None) -> IrohTransport:
    return IrohTransport(s.profile.identity, table_id(table), code, relays=())


def tap_refusals(t: IrohTransport) -> list[str]:
    """The reasons the opener's table refuses a guest, as its mesh counts them against the
    code's budget (still counted there); the list fills as refusals come."""
    counted = t.on_refused
    assert counted is not None, "the table's mesh counts refusals once it is open"
    refused: list[str] = []

    def seen(reason: str) -> None:
        refused.append(reason)
        counted(reason)

    t.on_refused = seen
    return refused
