"""Names for the tables that tests open on the LAN.

Every test that opens a table announced over mDNS on 127.0.0.1 names it with
``unique_table``: two runs of the suite on one machine (two clones, two CI jobs) see each
other's records, and a joiner looking for a fixed name would find two tables of that name
(or sit at the other run's).
"""

from __future__ import annotations

import secrets

MAX_TABLE = 40
"""The longest table name ``--table`` takes."""


def unique_table(stem: str) -> str:
    """``stem`` and a random token: unique to this run, and still readable in a failure."""
    name = f"{stem}-{secrets.token_hex(4)}"
    if len(name) > MAX_TABLE:
        raise ValueError(f"table stem too long for --table: {stem!r}")
    return name
