"""A command's event loop, run so that no task outlives it.

``asyncio.run`` cancels the tasks still running when its coroutine ends, once. A task
that their cleanup starts meanwhile (the close of a link that waits for the other side's
acknowledgement, say) is neither cancelled nor finished: the loop closes under it. At an
internet table such a task waits on a call into the iroh library. The library's own
threads complete that call later, as the interpreter ends, and call back into Python;
Python before 3.14 ends a foreign thread that does so by unwinding it through the
library's frames, which aborts the whole process ("FATAL: exception not rethrown",
SIGABRT) after the person had already left.

``run`` therefore ends every command the same way, however its coroutine ended (a
result, an error, Ctrl-C): the tasks still running are cancelled and awaited, round
after round, until none is left; only then does the loop close. A cancelled iroh call
releases its native half at once, so nothing is left for the library to call back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

_T = TypeVar("_T")

log = logging.getLogger("p2pclue.net.runner")

SETTLE_ROUNDS = 20
"""Rounds of cancelling what is left: a cleanup may start a task or two, never a chain."""


def run(main: Coroutine[Any, Any, _T]) -> _T:
    """``asyncio.run(main)``, and no task of it left when the loop closes."""
    return asyncio.run(_to_the_end(main))


async def _to_the_end(main: Coroutine[Any, Any, _T]) -> _T:
    try:
        return await main
    finally:
        await settle()


async def settle() -> None:
    """Cancel and await every other task of this loop, again while cleanups start more.
    A Ctrl-C meanwhile (the loop cancels this task) is kept for after the last round."""
    me = asyncio.current_task()
    interrupted = False
    for _round in range(SETTLE_ROUNDS):
        left = [t for t in asyncio.all_tasks() if t is not me and not t.done()]
        if not left:
            break
        for task in left:
            task.cancel()
        for task in left:
            interrupted |= await _wait_out(task)
    if interrupted:
        raise asyncio.CancelledError


async def ended(task: asyncio.Future[Any]) -> None:
    """Wait until ``task`` (cancelled, or ending) has ended, even if this waiter is
    cancelled meanwhile; the cancellation is raised then. A cleanup cut short would
    leave native calls running (see the module's docstring); every one is bounded."""
    if await _wait_out(task):
        raise asyncio.CancelledError


async def _wait_out(task: asyncio.Future[Any]) -> bool:
    """Await ``task``'s end whatever it raises; whether this waiter was cancelled."""
    interrupted = False
    while not task.done():
        try:
            await asyncio.wait({task})
        except asyncio.CancelledError:
            interrupted = True
    if not task.cancelled() and (error := task.exception()) is not None:
        log.debug("a task ended with %s while the command ended", type(error).__name__,
                  exc_info=error)
    return interrupted
