"""The command line's internet-table options (``--internet``, ``--ticket``, ``--relay``,
``--no-relay``), checked before anything opens: one clear line for each mistake, and
one for a missing ``internet`` extra (how to install it)."""

from __future__ import annotations

import argparse
import os
from typing import Any

from p2pclue.i18n import _
from p2pclue.net.iroh_link import INSTALL_HINT, available
from p2pclue.net.reach import ReachError, Ticket, check_relay, parse_ticket, split_addr

PORT_VAR = "P2PCLUE_IROH_PORT"
"""The UDP port an internet seat listens on (a port its router forwards); default any."""
EXTERNAL_VAR = "P2PCLUE_IROH_EXTERNAL"
"""``IP:PORT[,IP:PORT...]``: where that forward reaches the seat from outside."""


def relays(args: argparse.Namespace) -> tuple[str, ...] | None:
    """None: n0's public relays; empty: direct links only; else the self-hosted relays."""
    if getattr(args, "no_relay", False):
        return ()
    urls = getattr(args, "relay", None) or []
    return tuple(urls) if urls else None


def options(args: argparse.Namespace) -> dict[str, Any]:
    """The internet fields of a ``Seat`` (``problem`` already checked them)."""
    port = os.environ.get(PORT_VAR, "")
    external = [a for a in os.environ.get(EXTERNAL_VAR, "").split(",") if a]
    return {"relays": relays(args), "port": int(port) if port else 0,
            "external": tuple(external)}


def _environ_problem() -> str | None:
    port = os.environ.get(PORT_VAR, "")
    if port and not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
        return _("{variable} must be a port number from 1 to 65535").format(
            variable=PORT_VAR)
    for addr in (a for a in os.environ.get(EXTERNAL_VAR, "").split(",") if a):
        try:
            split_addr(addr)
        except ReachError:
            return _("{variable}: {address} is not IP:PORT").format(
                variable=EXTERNAL_VAR, address=repr(addr))
    return None


def problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the internet options, as one line; None if nothing."""
    internet = getattr(args, "internet", False)
    ticket = getattr(args, "ticket", None)
    relay = getattr(args, "relay", None) or []
    no_relay = getattr(args, "no_relay", False)
    resume = getattr(args, "resume", None) is not None
    if internet and not getattr(args, "create", False):
        return _("--internet opens a table: add --create (others join with --ticket)")
    if ticket and (getattr(args, "create", False) or args.peer or args.table):
        return _("--ticket names the table and where it is: leave out --create, --peer "
                 "and --table")
    if internet or ticket or resume:
        wrong = _environ_problem()
        if wrong is not None:
            return wrong
    if relay and no_relay:
        return _("--relay and --no-relay exclude each other")
    if (relay or no_relay) and not (internet or ticket or resume):
        return _("--relay and --no-relay are for internet tables (--internet or --ticket)")
    for url in relay:
        try:
            check_relay(url)
        except ReachError:
            return _("--relay {url}: not a relay URL (http:// or https://, at most 200 "
                     "characters)").format(url=repr(url))
    if ticket:
        try:
            parse_ticket(ticket)
        except ReachError:
            return _("--ticket: this is not a whole p2pclue ticket (copy the whole line "
                     "from the opener's screen)")
    if (internet or ticket) and not available():  # last: a mistake is said with or without it
        return _("internet tables need the iroh package: {command}").format(
            command=INSTALL_HINT)
    return None


def ticket(args: argparse.Namespace) -> Ticket:
    """The parsed ``--ticket`` (``problem`` already said it is readable)."""
    return parse_ticket(args.ticket)
