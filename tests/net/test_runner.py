"""``net.runner``: a command's loop closes with no task of it left running.

``asyncio.run`` cancels what is left once; a task that a cleanup starts meanwhile is
left pending when the loop closes, and at an internet table such a task can hold an iroh
call that aborts the process as the interpreter ends (``tests/net/test_iroh_quit.py``
shows the real thing).
"""

from __future__ import annotations

import asyncio

import pytest

from p2pclue.net import runner


def _closing_chain(done: list[str], started: list[asyncio.Future[None]],
                   level: int = 1, depth: int = 3) -> None:
    """A task whose cleanup (like a link's close) starts another task, whose cleanup starts
    another, ``depth`` deep: each must be ended before the loop closes. (``asyncio.run``
    alone ends the first only; one extra round of cancelling, the second.)"""

    async def holder() -> None:
        try:
            await asyncio.sleep(3600)
        finally:
            if level < depth:
                _closing_chain(done, started, level + 1, depth)
            done.append(f"level {level}")

    started.append(asyncio.ensure_future(holder()))


def test_a_task_a_cleanup_starts_is_ended_before_the_loop_closes() -> None:
    done: list[str] = []
    started: list[asyncio.Future[None]] = []

    async def command() -> int:
        _closing_chain(done, started)
        await asyncio.sleep(0)
        return 7

    assert runner.run(command()) == 7
    assert done == ["level 1", "level 2", "level 3"]
    assert all(task.done() for task in started)


def test_a_command_cancelled_like_ctrl_c_still_ends_every_task_and_says_cancelled() -> None:
    done: list[str] = []
    started: list[asyncio.Future[None]] = []

    async def command() -> None:
        _closing_chain(done, started)
        me = asyncio.current_task()
        assert me is not None
        asyncio.get_running_loop().call_later(0.01, me.cancel)  # what asyncio's Ctrl-C does
        await asyncio.sleep(3600)

    with pytest.raises(asyncio.CancelledError):
        runner.run(command())
    assert done == ["level 1", "level 2", "level 3"]


def test_ended_waits_for_a_cleanup_even_when_its_waiter_is_cancelled_again() -> None:
    steps: list[str] = []

    async def lobby() -> None:
        try:
            await asyncio.sleep(3600)
        finally:
            await asyncio.sleep(0.05)  # closing the links takes a moment
            steps.append("closed")

    async def command() -> None:
        task = asyncio.ensure_future(lobby())
        await asyncio.sleep(0)
        task.cancel()
        waiter = asyncio.ensure_future(runner.ended(task))
        await asyncio.sleep(0.01)
        waiter.cancel()  # cancelled again while the lobby still closes
        with pytest.raises(asyncio.CancelledError):
            await waiter
        steps.append("waiter ended")

    runner.run(command())
    assert steps == ["closed", "waiter ended"]
