"""A stranger on the LAN who guesses table codes: a process of its own, dialling a port.

``python -m tests.net.stranger HOST PORT TABLE_NAME GUESSES [PATIENCE [SOURCES [EACH]]]``
dials ``HOST:PORT`` with wrong codes (a fresh identity key each time) until it spent
``GUESSES`` of them or ``PATIENCE`` seconds passed, and prints one JSON line: how each dial
ended. With ``SOURCES`` it dials from that many loopback addresses at once (127.0.0.20 and
up: every one of 127.0.0.0/8 is this machine), ``EACH`` dials in parallel from each, as a
stranger holding many addresses on the LAN would. It waits out a ``busy`` or ``full``
refusal as a patient attacker would; a ``code-dead`` or ``no-entry`` one ends a worker
(nothing is left to guess there).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.net import links
from p2pclue.net.play import table_id

FINAL = ("code-dead", "no-entry")
"""Refusals after which this address has nothing left to guess at."""


class _Tally:
    def __init__(self, guesses: int, patience: float) -> None:
        self.outcomes: list[str] = []
        self.wrong = 0
        self.guesses = guesses
        self.end = time.monotonic() + patience
        self.next_code = 100000

    def more(self) -> bool:
        return self.wrong < self.guesses and time.monotonic() < self.end

    def code(self) -> str:
        self.next_code += 1
        return str(self.next_code)


async def _worker(host: str, port: int, table: bytes, source: str | None, tally: _Tally) -> None:
    while tally.more():
        try:
            link = await links.dial(host, port, identity=Ed25519PrivateKey.generate(),
                                    table_id=table, code=tally.code(), timeout=5.0,
                                    local_host=source)
        except links.WrongCode:
            tally.wrong += 1
            tally.outcomes.append("wrong-code")
            continue
        except links.Refused as exc:  # Busy included
            tally.outcomes.append(exc.reason)
            if exc.reason in FINAL:
                return
        except links.LinkError:  # turned away (a refusal cut short by a reset, say)
            tally.outcomes.append("turned-away")
        else:
            tally.outcomes.append("linked")
            await link.close()
            continue
        await asyncio.sleep(0.25)


async def guess(host: str, port: int, table: bytes, guesses: int, patience: float,
                sources: int = 0, each: int = 1) -> list[str]:
    tally = _Tally(guesses, patience)
    addresses: list[str | None] = ([f"127.0.0.{20 + k}" for k in range(sources)] if sources
                                   else [None])
    await asyncio.gather(*(_worker(host, port, table, source, tally)
                           for source in addresses for _n in range(each)))
    return tally.outcomes


def main() -> None:
    host, port, name, guesses = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    patience = float(sys.argv[5]) if len(sys.argv) > 5 else 20.0
    sources = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    each = int(sys.argv[7]) if len(sys.argv) > 7 else 1
    print(json.dumps(asyncio.run(guess(host, port, table_id(name), guesses, patience,
                                       sources, each))))


if __name__ == "__main__":
    main()
