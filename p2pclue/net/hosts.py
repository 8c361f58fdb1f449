"""Which host strings may be dialled at all (pure: no sockets, no resolver).

``socket.getaddrinfo`` encodes every host with the IDNA codec first, which raises
``UnicodeError`` (a ``ValueError``) for an empty label (``a..b``), a label over 63
characters or a lone surrogate, and ``ValueError`` for a NUL. Such a host is refused
where it is read (``--peer``, a lobby ``start``) and where it is dialled, never passed on.
"""

from __future__ import annotations

import ipaddress

LOOPBACK = "127.0.0.1"
"""This machine, as a dial sees it: where a member that came from here is reached by
its host (docs/protocol.md, the `start` message's `peers`)."""
MAX_HOST_CHARS = 253
"""The longest DNS name; an address in a lobby message is at most 64 characters."""


def dialable(host: str) -> bool:
    """Whether the resolver can take ``host`` (a name it may still fail to find)."""
    if not host or len(host) > MAX_HOST_CHARS or "\x00" in host:
        return False
    try:
        host.encode("idna")
    except UnicodeError:
        return False
    return True


def ip_literal(host: str) -> bool:
    """An IPv4 or IPv6 address written as digits (what a socket reports for its peer)."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return dialable(host)  # an IPv6 scope (``fe80::1%name``) is text the resolver reads


def loopback(host: str) -> bool:
    """An IP literal of this machine's loopback (127.0.0.0/8, ::1): meaningful only here."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
