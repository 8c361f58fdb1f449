"""Two CPU lanes for the engine's work: the seat that speaks next checks first.

Every player verifies every frame, and on a machine with fewer cores than players
they all verify at once, so the one seat that must verify a frame before it can send
the next waits behind the others. A runner that is not due to speak soon
(``Peer.due_soon``) therefore runs the engine call on a helper thread with a lower OS
priority (its nice value raised by ``SLOW_NICE``; Linux sets nice per thread), while
the event loop thread waits for it: nothing else touches the engine meanwhile, exactly
as when the call runs inline. Only the order in which the OS hands out CPU changes:
the seat that speaks next gets a core first, the others use what is left, so no core
idles while anyone has work. Where thread priorities cannot be set, both lanes are
the same and nothing changes (docs/protocol.md, "Transport", timing is never a rule).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

SLOW_NICE = 5
"""How much lower the slow lane's priority is. CFS weight 335 against 1024: with five
players' slow lanes on two cores the urgent one still gets about 0.9 of a core, while
a slow lane keeps a third of a normal share against other programs' work (at +10 it got
a tenth, and "known by all" suffered on a loaded machine)."""

CHEAP_FRAME_BYTES = 512
"""A frame this short carries no costly proof (checked with 16 multiplications at most,
about a millisecond: an ``ack``, a ``suggest``, a ``reveal``, a ``pet`` step, an ``open``, and
a six-player "cannot refute", whose hand of three makes it about 507 bytes and 14
multiplications), so every runner checks it at once, in the urgent lane. On the slow thread it
waited for that thread's turn on the CPU, which on a busy machine took longer than the check,
and the table's "ack known by all" waited with it. Every frame with a shuffle, an unlayering
or a show proof is longer, and so is a "cannot refute" for a hand of four or more (541 bytes
and up, 16-20 multiplications)."""

T = TypeVar("T")


def lowered(amount: int) -> Callable[[], None]:
    """A thread initializer that raises the thread's nice value by ``amount`` (never
    lowers it: no privilege is needed); where priorities cannot be set, it does nothing."""

    def lower() -> None:
        with contextlib.suppress(AttributeError, OSError):
            tid = threading.get_native_id()
            now = os.getpriority(os.PRIO_PROCESS, tid)
            os.setpriority(os.PRIO_PROCESS, tid, min(19, now + amount))

    return lower


class Lanes:
    """Runs a call inline (urgent) or on the low-priority thread, waiting either way."""

    def __init__(self) -> None:
        self._slow: ThreadPoolExecutor | None = None
        self.slow_calls = 0

    def run(self, urgent: bool, call: Callable[[], T]) -> T:
        if urgent:
            return call()
        if self._slow is None:
            self._slow = ThreadPoolExecutor(max_workers=1, thread_name_prefix="p2pclue-slow",
                                            initializer=lowered(SLOW_NICE))
        self.slow_calls += 1
        return self._slow.submit(call).result()

    def close(self) -> None:
        if self._slow is not None:
            self._slow.shutdown(wait=True)
            self._slow = None
