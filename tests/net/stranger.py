"""A stranger on the LAN who guesses table codes: a process of its own, dialling a port.

``python -m tests.net.stranger HOST PORT TABLE_NAME GUESSES`` dials ``HOST:PORT`` once per
guess with a wrong code (a fresh identity key each time), waits out a ``busy`` refusal as
a patient attacker would, and prints one JSON line: how each dial ended.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.net import links
from p2pclue.net.play import table_id


async def guess(host: str, port: int, table: bytes, guesses: int, patience: float) -> list[str]:
    outcomes: list[str] = []
    end = time.monotonic() + patience
    code = 100000
    while outcomes.count("wrong-code") < guesses and time.monotonic() < end:
        code += 1
        try:
            link = await links.dial(host, port, identity=Ed25519PrivateKey.generate(),
                                    table_id=table, code=str(code), timeout=5.0)
        except links.Busy as exc:
            outcomes.append(exc.reason)
            await asyncio.sleep(0.25)
            continue
        except links.WrongCode:
            outcomes.append("wrong-code")
            continue
        except links.Refused as exc:
            outcomes.append(exc.reason)
            await asyncio.sleep(0.25)
            continue
        except links.LinkError:  # turned away (a refusal cut short by a reset, say)
            outcomes.append("turned-away")
            await asyncio.sleep(0.25)
            continue
        outcomes.append("linked")
        await link.close()
    return outcomes


def main() -> None:
    host, port, name, guesses = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    patience = float(sys.argv[5]) if len(sys.argv) > 5 else 20.0
    print(json.dumps(asyncio.run(guess(host, port, table_id(name), guesses, patience))))


if __name__ == "__main__":
    main()
