"""Issue 19.3: a stranger's record with the same table name, over real zeroconf on loopback.

The fake record (same name, so the same table id, but the stranger's own key) must not win
by arriving first: a browser offers both by their openers' keys and lets the person pick
(``SameName``), or takes the one whose key was asked for; a record whose handshake failed
is marked and never offered again by itself. Every zeroconf instance is on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
from asyncio.subprocess import DEVNULL, PIPE
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pclue.net import links
from p2pclue.net.discovery import (
    SAME_NAME_WAIT,
    Announcer,
    Browser,
    SameName,
    _wait_left,
    fingerprint,
)
from p2pclue.net.play import table_id
from tests.net.procs import HANG_GUARD, ROOT, net_env
from tests.net.test_discovery import LO, needs_multicast, run, sample_ad


async def until(cond: Callable[[], bool], limit: float = HANG_GUARD, what: str = "") -> None:
    end = asyncio.get_running_loop().time() + limit
    while not cond():
        assert asyncio.get_running_loop().time() < end, f"timed out {what}"
        await asyncio.sleep(0.1)


async def _answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.close()


@needs_multicast
def test_a_fake_record_with_the_same_name_never_wins_by_itself() -> None:
    async def main() -> None:
        name = f"Attic {secrets.token_hex(3)}"
        tid = table_id(name)
        real_srv = await asyncio.start_server(_answer, LO, 0)
        fake_srv = await asyncio.start_server(_answer, LO, 0)
        real_fp = fingerprint(Ed25519PrivateKey.generate().public_key().public_bytes_raw())
        fake_fp = fingerprint(Ed25519PrivateKey.generate().public_key().public_bytes_raw())
        real = sample_ad(name=name, table_id=tid, fp=real_fp,
                         port=real_srv.sockets[0].getsockname()[1])
        fake = sample_ad(name=name, table_id=tid, fp=fake_fp,
                         port=fake_srv.sockets[0].getsockname()[1])
        browser, real_ann, fake_ann = Browser(), Announcer(), Announcer()
        await browser.start([LO])
        try:
            await fake_ann.start(fake, [LO])  # the stranger is there first
            # a responder answers a name at most once a second (RFC 6762 section 6): the
            # opener's "is this name taken?" comes later than that in real life
            await asyncio.sleep(1.2)
            await real_ann.start(real, [LO])
            assert real_ann.service_name != fake_ann.service_name

            def ours() -> list[str]:
                return sorted(t.fingerprint for t in browser.tables() if t.table_id == tid)

            await until(lambda: ours() == sorted([real_fp, fake_fp]),
                        what=f"seen {ours()} of {sorted([real_fp, fake_fp])}")
            # asked by name alone: both are offered, with their keys, and none is taken
            with pytest.raises(SameName) as err:
                await browser.wait_for(name, timeout=HANG_GUARD)
            assert real_fp in str(err.value) and fake_fp in str(err.value)
            assert sorted(t.fingerprint for t in err.value.tables) == sorted([real_fp, fake_fp])
            # picked by the opener's key: that one, whichever came first
            picked = await browser.wait_for(name, timeout=HANG_GUARD, opener=real_fp)
            assert picked.fingerprint == real_fp and picked.port == real.port
            # the stranger's record failed its handshake: marked, never offered again
            stranger = next(t for t in browser.tables() if t.fingerprint == fake_fp)
            browser.mark_failed(stranger)
            assert [t.failed for t in browser.tables() if t.fingerprint == fake_fp] == [True]
            alone = await browser.wait_for(name, timeout=HANG_GUARD)
            assert alone.fingerprint == real_fp
        finally:
            for closing in (real_ann, fake_ann, browser):
                await closing.close()
            real_srv.close()
            fake_srv.close()

    run(main())


@needs_multicast
def test_a_person_picks_between_same_name_tables_and_the_stranger_gets_no_guess(
        tmp_path: Path) -> None:
    """Processes: a real opener (coded table) and a person's ``join --plain --table NAME
    --code``, with a stranger's record of that name announced first, whose listener would
    test every code that reaches it."""
    env = net_env(tmp_path / "home")
    name = f"Loft-{secrets.token_hex(3)}"
    code = "482913"

    async def main() -> None:
        stranger_key = Ed25519PrivateKey.generate()
        stranger_fp = fingerprint(stranger_key.public_key().public_bytes_raw())
        trap = await links.listen(LO, 0, identity=stranger_key, table_id=table_id(name),
                                  code="000000", on_link=lambda link: link.close())
        fake = Announcer()
        await fake.start(sample_ad(name=name, table_id=table_id(name), fp=stranger_fp,
                                   port=trap.port), [LO])
        opener = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "p2pclue", "join", "--create", "--code", code, "--players",
            "3", "--bot", "random", "--bots", "1", "--table", name, "--profile", "opener",
            "--quiet", env=env, cwd=ROOT, stdin=DEVNULL, stdout=DEVNULL, stderr=DEVNULL)
        # The person starts once both records are out: a joiner waits 1.5 s for a second
        # record of a name, and an opener slower than that to start (CI under load) would
        # leave the stranger's record alone for the person to try.
        watch = Browser()
        await watch.start([LO])
        try:
            async with asyncio.timeout(HANG_GUARD):  # the opener's record beside the stranger's
                while sum(t.table_id == table_id(name) for t in watch.tables()) < 2:
                    await asyncio.sleep(0.1)
        finally:
            await watch.close()
        person = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "p2pclue", "join", "--plain", "--name", "Pat", "--table",
            name, "--code", code, env=env, cwd=ROOT, stdin=PIPE, stdout=PIPE, stderr=PIPE)
        assert person.stdin is not None and person.stdout is not None
        out: list[str] = []

        async def until(text: str, seconds: float) -> None:
            assert person.stdout is not None
            async with asyncio.timeout(seconds):
                while not out or text not in out[-1]:
                    line = (await person.stdout.readline()).decode()
                    assert line, "".join(out[-30:])
                    out.append(line)

        try:
            await until("Type a table's number", HANG_GUARD)  # both are listed, none is taken
            shown = out[len(out) - out[::-1].index("Tables found:\n"):]  # the last listing
            listed = [line for line in shown if f". {name} " in line]
            assert len(listed) == 2, "".join(shown)
            assert any(stranger_fp in line for line in listed)
            assert any("share a name" in line for line in shown)
            real = next(line for line in listed if stranger_fp not in line)
            person.stdin.write(real.split(".")[0].strip(" >").encode() + b"\n")
            await person.stdin.drain()
            await until("Type the suspect's number", HANG_GUARD)  # the last seat: any suspect
            person.stdin.write(b"\n")
            await person.stdin.drain()
            await until("Table check:", HANG_GUARD)
            assert trap.failed_attempts == 0  # no code ever reached the stranger
            person.stdin.close()
            await asyncio.wait_for(person.wait(), HANG_GUARD)
        finally:
            for proc in (person, opener):
                if proc.returncode is None:
                    proc.kill()
                    await proc.wait()
            await fake.close()
            await trap.close()

    run(main())


def test_the_same_name_wait_ends_on_time_and_no_deadline_cuts_it_short() -> None:
    """``wait_for``'s clock: once a record of the name is live it looks again exactly when
    the same-name wait ends (it used to round up to the next whole second: 2.0 s, not 1.5),
    and a deadline that passes meanwhile never ends the wait early."""
    nothing_yet = _wait_left(now=10.0, deadline=12.5, first=None)
    assert nothing_yet == (2.5, 1.0)
    assert _wait_left(now=12.2, deadline=12.5, first=None) == pytest.approx((0.3, 0.3))
    left, step = _wait_left(now=11.0, deadline=70.0, first=10.0)  # seen a second ago
    assert step == pytest.approx(SAME_NAME_WAIT - 1.0) and left == pytest.approx(59.0)
    left, step = _wait_left(now=10.2, deadline=10.5, first=10.0)  # the deadline is near
    assert left == pytest.approx(SAME_NAME_WAIT - 0.2) and step == pytest.approx(1.0)
    left, step = _wait_left(now=10.2, deadline=9.0, first=10.0)  # and then passes
    assert left > 0 and step == pytest.approx(1.0)


@needs_multicast
def test_a_joiner_by_name_waits_the_whole_same_name_wait_after_the_first_record() -> None:
    """Real zeroconf: the defence keeps its full length (never shorter) with the new clock."""
    async def main() -> None:
        name = f"Porch {secrets.token_hex(3)}"
        srv = await asyncio.start_server(_answer, LO, 0)
        ad = sample_ad(name=name, table_id=table_id(name),
                       port=srv.sockets[0].getsockname()[1])
        browser, announcer = Browser(), Announcer()
        await browser.start([LO])
        seen: list[float] = []
        loop = asyncio.get_running_loop()

        async def first_sight() -> None:
            while not any(t.table_id == ad.table_id for t in browser.tables()):
                await asyncio.sleep(0.005)
            seen.append(loop.time())

        try:
            watcher = asyncio.create_task(first_sight())
            await announcer.start(ad, [LO])
            found = await browser.wait_for(name, timeout=HANG_GUARD)
            returned = loop.time()
            await watcher
            assert found.port == ad.port
            assert returned - seen[0] >= SAME_NAME_WAIT - 0.01, returned - seen[0]
        finally:
            await announcer.close()
            await browser.close()
            srv.close()

    run(main())
